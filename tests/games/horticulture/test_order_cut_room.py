"""optimiser.ORDER_CUT_SHARE: on count-first games the relaxation's re-solve after an order cut (its optimum could
not be planted day by day) gets at most that share of the budget, the rest of the relaxation's share otherwise;
shorter games, and the share unset, keep the rest of the relaxation's share. Only a time limit: the re-solve's bound
is used only when proven, so every bound stays valid (see _order_cut_room)."""
from __future__ import annotations

import pytest

from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.optimiser import _order_cut_room


def test_the_order_cut_re_solve_is_capped_on_count_first_games_only(monkeypatch):
    monkeypatch.setattr(optimiser_module, "ORDER_CUT_SHARE", 0.1)
    # count-first (40 x 0.85 - 20.24 = 13.76 left): capped at 4
    assert _order_cut_room(40.0, 0.85, 20.24, True) == pytest.approx(4.0)
    # less left than the cap: what is left
    assert _order_cut_room(40.0, 0.85, 31.0, True) == pytest.approx(3.0)
    # shorter games keep the rest of the relaxation's share
    assert _order_cut_room(40.0, 0.85, 20.24, False) == pytest.approx(13.76)
    monkeypatch.setattr(optimiser_module, "ORDER_CUT_SHARE", None)
    assert _order_cut_room(40.0, 0.85, 20.24, True) == pytest.approx(13.76)
