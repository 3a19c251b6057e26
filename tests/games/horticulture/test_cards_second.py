"""optimiser.CARDS_SECOND: when the split cut step is proven and its card choice differs from the count step's,
the cards search runs on both: the count step's cards get (1 - CARDS_SECOND) of the cards share, the cut step's
cards what is left of it. Only time limits and which pinned restrictions are searched: every garden found is a
feasible relaxed garden and only proven card choices are excluded later, so bounds stay valid."""
from __future__ import annotations

import pytest

from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.optimiser import _first_cards_limit, _second_cards


def test_the_second_card_choice_only_when_the_cut_step_is_proven_and_differs(monkeypatch):
    monkeypatch.setattr(optimiser_module, "CARDS_SECOND", 0.9)
    assert _second_cards(True, [1, 3, 5], [1, 4, 5])
    assert not _second_cards(True, [1, 3, 5], [1, 3, 5])  # the same cards: searched once
    assert not _second_cards(False, [1, 3, 5], [1, 4, 5])  # the cut step not proven (or not run)
    assert not _second_cards(True, None, [1, 4, 5])
    # the count step's cards get 0.1 of the share (12 units at work 30), the cut step's the rest
    assert _first_cards_limit(12.0, True) == pytest.approx(1.2)
    assert _first_cards_limit(12.0, False) == pytest.approx(12.0)
    monkeypatch.setattr(optimiser_module, "CARDS_SECOND", None)
    assert not _second_cards(True, [1, 3, 5], [1, 4, 5])
