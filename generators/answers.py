"""The reply to a player's answer to an optimum puzzle (Gartenbau, Versailles, Horticulture days)."""
from __future__ import annotations


def optimum_verdict(optimum: int, score: int, legal: bool = True, violations: list = (),
                    missing: str | None = None) -> dict:
    """An illegal answer scores 0 with its violations; an unfinished one (`missing` says what is
    not played yet) is not correct whatever it scores; a finished one is correct when it scores
    the stored optimum."""
    if not legal:
        return {"correct": False, "legal": False, "score": 0, "optimum": optimum, "violations": list(violations)}
    if missing is not None:
        return {"correct": False, "legal": True, "complete": False, "score": score, "optimum": optimum,
                "violations": [missing]}
    return {"correct": score == optimum, "legal": True, "score": score, "optimum": optimum, "violations": []}
