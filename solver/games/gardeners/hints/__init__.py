"""Gardeners hints from a player's current garden: check so far, repair, next move (levels 1-3), forced placements.

Every claim ("can no longer be completed", "minimal", "forced", "shortest") is made only when CP-SAT
proved it; otherwise the answer says unknown (or gives the best found with `proven=False`). Gardens
here are laid in the mode's n x n frame (cells 0..n-1), as in CheckGarden; with `floating` a
Normal-mode garden may still slide within it. See docs/hints.md.

One module per part, each built on the ones before it: `progress` (check so far), `repair`, `next_move`,
`forced`. This package re-exports their public names, so `hints.next_move(...)` etc. work as before.
"""
from solver.games.gardeners.hints.forced import DIVERSE_DETERMINISTIC_TIME, Forced, ForcedCell, forced_placements
from solver.games.gardeners.hints.next_move import NORMAL_RULES, SOLO_RULES, Hint, next_move, state_for
from solver.games.gardeners.hints.progress import (BLOCKED, BROKEN, POSSIBLE, SATISFIED_NOW, UNKNOWN, CardProgress,
                                                   Progress, check_progress, complete_floating, offsets, shifted)
from solver.games.gardeners.hints.repair import (MAX_ORDER_SEARCH, MAX_REPAIR_ROUNDS, OrderSearchLimit, Repair,
                                                 enclosure_cuts, removal_order, repair)

__all__ = ["BLOCKED", "BROKEN", "POSSIBLE", "SATISFIED_NOW", "UNKNOWN", "NORMAL_RULES", "SOLO_RULES",
           "MAX_ORDER_SEARCH", "MAX_REPAIR_ROUNDS", "DIVERSE_DETERMINISTIC_TIME",
           "CardProgress", "Progress", "Repair", "OrderSearchLimit", "Hint", "ForcedCell", "Forced",
           "check_progress", "complete_floating", "offsets", "shifted", "removal_order", "enclosure_cuts",
           "repair", "next_move", "state_for", "forced_placements"]
