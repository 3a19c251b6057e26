"""Daily puzzles: identity -> seed -> puzzle, computed grades, proven answers, and the SQLite store."""
