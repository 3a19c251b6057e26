"""The engines: rules, checkers and CP-SAT models per game (solver/games), and what they share (solver/core)."""
from solver.core import lazy_pandas

lazy_pandas.install()  # CP-SAT without pandas until it is used: ~2.4 s off every process start
