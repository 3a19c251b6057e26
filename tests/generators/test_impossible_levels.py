"""Impossible decrees draw the conflict shape of their level (gardeners.IMPOSSIBLE_LEVELS): a single conflicting pair
at easy and medium, a tangle (two or more minimal conflicts, or one of three or more cards) at hard. Until 7 Dec
2026 every level was one obvious pair, hard only adding bystanders (the puzzle walkthrough of session 37)."""
from __future__ import annotations

import random

import pytest

from generators import gardeners
from solver.games.gardeners import engine
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.tiles import load_catalog

# With random.Random(33), 6-card draws: the 3rd is proven unsolvable by one pair, the 8th by a tangle (measured).
SEED = 33


def test_the_shapes():
    assert gardeners.conflict_shape([["S04", "S08"]]) == "pair"
    assert gardeners.conflict_shape([["S04", "S08"], ["S08", "S50"]]) == "tangle"
    assert gardeners.conflict_shape([["S08", "S14", "S38"]]) == "tangle"


def test_hard_passes_over_a_single_pair_and_keeps_the_tangle(monkeypatch):
    tangle = gardeners.generate_impossible("hard", random.Random(SEED))
    assert tangle["answer"]["shape"] == "tangle" and tangle["public"]["attempts"] == 8
    assert len(tangle["public"]["card_ids"]) == 6
    conflicts = tangle["answer"]["conflicts"]
    assert len(conflicts) >= 2 or len(conflicts[0]) >= 3
    # the shape is the engine's, not the generator's word: explain the cards again
    cards = load_cards().resolve(tangle["public"]["card_ids"])
    ex = engine.explain(cards, gardeners.MODE, load_catalog())
    assert ex.complete and sorted(map(sorted, ex.conflicts)) == sorted(map(sorted, conflicts))
    # the same draws at a level asking for a pair stop at the third, which hard passed over
    monkeypatch.setitem(gardeners.IMPOSSIBLE_LEVELS, "hard", (6, "pair"))
    pair = gardeners.generate_impossible("hard", random.Random(SEED))
    assert pair["answer"]["shape"] == "pair" and pair["public"]["attempts"] == 3


def test_without_a_tangle_in_its_draws_hard_keeps_the_first_proven_set(monkeypatch):
    monkeypatch.setitem(gardeners.IMPOSSIBLE_DRAWS, "tangle", 1)
    few = gardeners.Settings(attempts=5)  # 5 draws: the tangle is the 8th
    kept = gardeners.generate_impossible("hard", random.Random(SEED), few)
    assert kept["answer"]["shape"] == "pair" and kept["public"]["attempts"] == 3
    monkeypatch.setitem(gardeners.IMPOSSIBLE_DRAWS, "tangle", 0)
    with pytest.raises(gardeners.GenerationError):
        gardeners.generate_impossible("hard", random.Random(SEED), few)
