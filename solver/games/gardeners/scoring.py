"""End-of-game scoring of Gardeners (cards scored and discarded) and the rulebook's result tables."""
from __future__ import annotations

from solver.errors import InputError

# (lowest score, result, comment), from the rulebook's End of the Game tables.
NORMAL_RESULTS = [
    (0, "Ouch!", "Did you forget to do the training exercises and Beginner mode before taking on Normal mode?"),
    (3, "It's a start", "Good! You understand how this works."),
    (5, "You're progressing well", "You have your feet on the right path."),
    (8, "Bravo!", "What a great success!"),
    (10, "Impressive!", "True champions!"),
    (12, "You have become experts!", "It's time to play with the Expert cards. You can open the packet of Expert cards "
     "and add them to the Standard cards."),
]
SOLO_RESULTS = [
    (0, "Ouch!", "Did you forget to do the training exercises before taking on Normal mode?"),
    (4, "It's a start", "Good! You understand how this works."),
    (7, "You're progressing well", "You have your feet on the right path."),
    (11, "Bravo!", "What a great success!"),
    (13, "Impressive!", "A true champion!"),
    (15, "You have become an expert!", "It's time to play with the Expert cards. You can open the packet of Expert cards "
     "and add them to the Standard cards."),
]


def final_score(scored: int, discarded: int) -> int:
    """1 point per scored card; each discarded card except the first loses 1 point."""
    for name, v in (("scored", scored), ("discarded", discarded)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(name, "must be a non-negative integer", v)
    return scored - max(0, discarded - 1)


def solo_score(scorings: list[int], discarded: int) -> int:
    """Solo: cards can be scored at most twice (the second scoring ends the game)."""
    if not isinstance(scorings, list) or len(scorings) > 2:
        raise InputError("scorings", "Solo mode scores at most twice", scorings)
    return final_score(sum(scorings), discarded)


def result(points: int, solo: bool = False) -> tuple[str, str]:
    table = SOLO_RESULTS if solo else NORMAL_RESULTS
    title = table[0]
    for row in table:
        if points >= row[0]:
            title = row
    return title[1], title[2]
