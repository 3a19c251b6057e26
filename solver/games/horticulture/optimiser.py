"""Horticulture optimiser: greedy start, relaxed and exact CP-SAT searches, bounds, pure-rule checks."""
from __future__ import annotations

import logging
import random
import time

from ortools.sat.python import cp_model

from solver.core.solve import SolveControl

from . import anneal, lagrange
from .bounds import counting_bound  # noqa: F401  (re-exported: the bound every answer reports)
from .classcount import ClassCountModel
from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan
from .model import STATUS, DaySpec, HorticultureModel, ModelMismatch, Solution, mirror_cell, mirror_half
from .rules import replay
from .schedule import fit_plan_and_gnome, plant_towards, play_greedy
from .scoring import score_sheet
from .state import WINDOW, Day, Planting, Setup

log = logging.getLogger(__name__)
# Measured on seeded nurseries (docs/horticulture.md): patch re-optimisation helps long games but
# steals proof time from short ones, so it only runs from this many days on.
NEIGHBOURHOOD_MIN_DAYS = 7
# When the relaxation's optimum cannot be planted day by day, cut that garden off and solve the
# relaxation again, at most this many times, before the day-by-day search.
ORDER_CUTS = 2
# On count-first games (COUNT_FIRST_MIN_DAYS), each re-solve after such a cut gets at most this share of the budget
# (None: all of the relaxation's share that is left); the rest goes to the day-by-day search (_order_cut_room).
# Measured (session 30 Nov 14:50, docs/horticulture.md; 32 cards, one worker, deterministic units): only seed 3
# reaches this loop at work 20-40 (its relaxation is proven at 85 and no 85 garden can be planted); with 0.1 its
# game is 78 -> 81 at work 30 and 80 -> 81 at work 40 (the re-solve found unplantable 74-82 gardens; the day-by-day
# search gets 2.3 / 9.8 units more), 73 at work 20 either way; the other seeds never reach it (same answers).
# On CP-SAT random seeds 1 (seeds 0-9, work 20-40) and 2 (seed 3, work 30/40) no run reaches the loop (session of
# 30 Nov 17:45): neither a gain nor a loss there.
ORDER_CUT_SHARE: float | None = 0.1
# (Removed in the session of 30 Nov 20:30: PREFIX_REASON, the day-prefix cuts' core cut off an unplantable relaxed
# optimum in that loop instead of the whole garden; measured in the session of 19:00 and never a gain: the one run
# reaching the loop, 32-card seed 3 at random seed 0, stays 81/85. docs/horticulture.md.)
# (Removed on 1 Dec 2026, after sessions of 30 Nov 20:30 to 1 Dec 10:05 that built, measured and kept them off: the
# lazy connectivity cuts of the count bound (CONNECT_SHARE, CONNECT_CUT, CONNECT_BROKEN), the hybrid relaxation as the
# relaxation's dual step (HYBRID_DUAL and its placements, no-goods and verified planting cores, HYBRID_CORES,
# ORDER_CORES). Each proved a few seeds the default does not and lost a game point elsewhere, or changed no answer;
# none was on by default. The code is in git at 27ab5d1, the measurements in docs/journal/horticulture-issue7.md.)
# Extra CP-SAT parameters for every search step (measured variants; the bench can set them).
# Probing off: on 16-card games it gave tighter relaxed bounds in 4 of 4 seeds at the same work (one
# proof at 1.7 instead of none at 4 deterministic units); presolve probing cost more than it saved.
SEARCH_PARAMETERS: dict = {"cp_model_probing_level": 0}
# Share of the relaxed search's time given to its first (hinted) run. A bound is only ever proven
# within one run (each new run starts its bound from scratch), so the proof attempt gets most of it.
RELAXED_FIRST_SHARE = 0.9
# Share of the whole budget for the relaxed (final garden) search: when it is proven and its garden
# can be planted day by day, the game is proven optimal without the slower day-by-day search.
RELAXED_SHARE = 0.75
# From this many days on, the count relaxation runs first (bound, cards; see _count_first): on
# 32-card games its cards led to gardens within a few points of the optimum.
COUNT_FIRST_MIN_DAYS = 12
COUNT_SHARE = 0.15  # of the whole budget, for the count relaxation
CARDS_SHARE = 0.6  # of the whole budget, for the final garden on the count relaxation's cards
COUNT_RELAXED_SHARE = 0.85  # the relaxed steps' share (count, its cards, the whole relaxation) then
COUNT_GREEDY_HINT = True  # measured: without it the 32-card scores were lower (sum 391 vs 407 over 5 seeds)
# The annealing search (anneal.py), on games with at least ANNEAL_MIN_DAYS days still to play, improves the
# greedy game before the CP-SAT steps (which then start from its game): ANNEAL_SHARE of the budget (at most
# ANNEAL_MAX), in runs of ANNEAL_RUN_EVALS evaluations; a unit of deterministic time is ANNEAL_EVALS_PER_UNIT
# evaluations (compiled ~1.8M a second since 6 Dec, so ~0.55 s of CPU, ~1.4M before; CP-SAT's unit is ~0.85 s; pure
# Python ~60k a second), so a
# deterministic request gives the same game with or without the compiled copy. With a wall limit the clock ends
# it (ANNEAL_EVALS_PER_SECOND is only a cap). Measured (docs/journal/horticulture-issue7.md, 3 Dec): on 16-card
# games (8 days) it cost proofs (6 -> 4 of 10 at 6 units), so shorter games go without it.
ANNEAL_SHARE = 0.5
ANNEAL_MAX: float | None = 3.0  # at most this many units (or seconds) of the budget
ANNEAL_MIN_DAYS = 12
# Shorter games, from SHORT_ANNEAL_MIN_DAYS days still to play (None: never), get a smaller share, SHORT_ANNEAL_SHARE
SHORT_ANNEAL_MIN_DAYS: int | None = 6
SHORT_ANNEAL_SHARE = 0.15
ANNEAL_SETUP = True  # when the gnome square or the plan is a decision (best plan), the annealing may change it too
ANNEAL_RUN_EVALS = 250_000
ANNEAL_EVALS_PER_UNIT = 1_000_000
ANNEAL_EVALS_PER_SECOND = 3_000_000
# with a wall limit, an annealing also does at most the evaluations its cap (ANNEAL_MAX, ANNEAL_CARDS_MAX) is worth in
# units, as with a deterministic limit: it then plays the same game as there when the clock lets it finish, and its
# leftover time goes to the steps after it. Measured at 5 s (32 cards, one worker): seeds 0-19 1731 / 1775 and
# 1731 / 1773 with 4 proofs in two runs (seeds 1, 14, 15, 18, as at 6 units), 1727 / 1777 with 3 without the cap;
# fresh seeds 20-39 1796 / 1852 with 1 (1798 / 1858 with 1 without).
WALL_EVAL_CAP = True
PLANT_CHECKS = 8  # at most this many of its gardens are checked for a day-by-day planting
# A second count relaxation with the cuts BOUND_CUTS (model._group_counts), for its bound only, gets this
# share of the whole budget, taken from CARDS_SHARE, when that share is at least COUNT_CUT_MIN (in the
# budget's unit). Measured on 32-card seeds (docs/horticulture.md): proven in 1.9-4 units, 1-6 below the
# count relaxation; at work 20 the bound sum fell 474 -> 462 (scores 426 -> 424); at work 10 with 30 %
# (3 units) 478 -> 471 but scores 418 -> 416 and gap p50 11 -> 12, so small budgets skip it.
COUNT_CUT_SHARE = 0.2
# The count step over classes of squares (classcount.ClassCountModel: the count relaxation with the regions + reach
# cuts, its squares grouped by the facts it looks at) when the gnome and the plan are given; it replaces both the
# count step and the cut step (session of 3 Dec 10:57).
CLASS_COUNT = True
CLASS_CUTS = frozenset({"regions", "reach"})  # the cuts it has (with other BOUND_CUTS the square-level steps run)
# When the class count step is not proven in its share, it runs again with this CP-SAT search_branching (None: no
# retry), hinted with its best solution, with the same share. Measured (32 cards, the class model alone, one
# worker, session of 3 Dec 14:38): LP_SEARCH from the start proves seed 7 (92, which the default does not prove in
# 20 units: 92/97) but is slower on 14 of 20 seeds (seed 4 open at 10 units); after 0.9 units of the default,
# seed 7 (98 open) and seed 6 (99 open) are proven from the hint in 0.08 and 0.04 units.
CLASS_RETRY: int | None = cp_model.LP_SEARCH
# The Lagrangian bound and its region cuts (lagrange.py), after the class count step and the annealing on its cards:
# plant kinds priced, each region of the sheet planted exactly at those prices by dynamic programming (regions.py),
# the best bound found taken, and the pieces found added to the class count model as cuts; that model solved again
# (COUNT_SHARE, at most LAGRANGE_RESOLVE_MAX, unhinted) proves a bound below both. Its card choice is not used: with
# the cut model's cards the steps after it found worse games (12 units, seeds 0-19: 1729 / 1768 with 4 proofs against
# 1737 / 1794 with 6 without the step). LAGRANGE_SHARE of the budget, at most LAGRANGE_EVALS price vectors (20: on
# seeds 0-19 the cut model's bounds sum to 1772, 1771 with 30, 1770 with 60); the work (transitions of the region
# graphs, built x lagrange.BUILD_COST and passed) is charged at LAGRANGE_WORK_PER_UNIT a unit with a deterministic
# limit (about 0.85 s of CPU compiled, like CP-SAT's unit). It may use the time the steps after _count_first would
# get (its `outer`): at 5 s of wall clock they never changed an answer, and there the step gives (seeds 0-19, one
# worker) 1729 / 1777 with 3 proofs against 1731 / 1795 with 2; placed before the annealing on the cards, it took
# that annealing's time (1718 / 1780, 0 proofs). The cuts also go to the Benders masters (no_game_reaches).
LAGRANGE = True
LAGRANGE_SHARE = 0.25
LAGRANGE_EVALS = 20
LAGRANGE_WORK_PER_UNIT = 300_000_000
LAGRANGE_RESOLVE_MAX = 2.0  # units (or seconds) at most for the class count model again with the region cuts
# CP-SAT `search_branching` of that cut model's solve (None: CP-SAT's default; the rounds after it keep the default,
# from the hint of the last optimum). LP_SEARCH, as for the Benders master over the same class model with cuts
# (MASTER_BRANCHING), since 7 Dec. Measured (32 cards, one worker; docs/journal/horticulture-issue7.md, session of
# 7 Dec): the cut model alone, seeds 0 / 3 / 9 / 10 / 16 proven in 0.22 / 0.96 / 0.46 / 0.19 / 0.39 s instead of
# 1.21 / 1.59 / 0.15 / 1.05 / 0.68 (seed 13 open after 8 s either way). In the optimiser: 5 s seeds 0-19
# 1734 / 1774 -> 1734 / 1770, seeds 20-59 3517 / 3637 -> 3516 / 3631 (a game one point lower), 12 units seeds 0-19
# 1736 / 1766 -> 1736 / 1764, the same proofs (5, 2 and 9). On the rounds too: 5 s seeds 0-19 1734 / 1774 (1772
# with 0.3 of the budget for them), no proof more.
LAGRANGE_RESOLVE_BRANCHING: int | None = cp_model.LP_SEARCH
LAGRANGE_ROUNDS = 8  # cutting-plane rounds at most after that (_cut_rounds)
LAGRANGE_ROUNDS_SHARE = 0.2  # of the budget, for those rounds (separations and solves)
LAGRANGE_SEPARATE_EVALS = 25  # prices tried per region and round
# the rounds stop when their bound comes down to within BENDERS_GAP of the legal game (the Benders check from the
# legal game runs next, with the time they would have spent). Measured at 12 units: seed 6 then proven (92 in 9.15
# units; the rounds had gone on for 2.2 units at 92 and the check got no room), seeds 0-19 1736 / 1766 with 9 proofs
# against 1735 / 1766 with 8, fresh seeds 20-39 the same answers.
LAGRANGE_HAND_OVER = True
LAGRANGE_MIN = 0.5  # the step runs with at least this room (units or seconds; building a 32-card game's graphs: ~0.25)
# The annealing search once more, after the count step, on the count step's card choice only (each open day's card
# pinned): this share of the budget (at most ANNEAL_CARDS_MAX), taken from the steps after it (0: off). Its game is a
# legal game; when it reaches the count bound it is the answer, proven; when it beats the (annealed) greedy game it
# replaces it. Measured (session of 3 Dec 14:38): 32 cards at 5 s wall, seeds 0-19, 1703 -> 1715, seed 15 proven; at
# 6 units 1704 -> 1712 (fresh seeds 1783 -> 1792); at 40 units 1743 / 1789 with 8 proofs -> 1743 / 1791 with 7
# (uncapped, 10 units of annealing: 1740 / 1791 with 6).
ANNEAL_CARDS = 0.25
ANNEAL_CARDS_MAX = 1.5  # at most this many units (or seconds)
# When ANNEAL_CARDS of the budget holds two runs of ANNEAL_CARDS_MAX (from 12 units), a second run on the count
# step's cards starts from the first annealing's game re-carded (`_recard`: each differing day's new card planted on
# the same squares): the two starts serve different seeds (at 6 units, taken as the only start when it scored
# higher, it proved 32-card seed 12 in 3.3 units and lost seeds 1 and 14). Measured (session of 6 Dec): 12 units,
# seeds 0-19 1738 / 1793 with 5 proofs -> 1737 / 1794 with 6 (seed 12 in 4.8 units); fresh seeds 20-39 1807 / 1887
# with 3 -> 1810 / 1888 with 3; smaller budgets run as before.
RECARD_SECOND = True
# The Benders master of no_game_reaches (and so of the bound descent) over the same classes, when the gnome and
# the plan are given and its cuts are CLASS_CUTS: the same relaxation, so the same proofs, without the symmetry.
CLASS_MASTER = True
# (Removed in the session of 30 Nov 17:45: CARDS_SECOND, the cards search run on the proven split cut step's cards
# too. Tuned on seed 2 at random seed 0 (work 40 84 -> 86), it lost on CP-SAT random seed 1: seeds 0-9 scores/bounds
# work 20 863/925 with it vs 869/925 without, work 30 860/918 vs 867/919 (seed 3 73 -> 82 and 76 -> 83 without it;
# docs/horticulture.md).)
# 4.0 until 3 Dec; 1.0 (the cut step and the Benders step from budgets of 5 units) since the count relaxation
# dropped its ordering constraint (model.COUNT_ORDERED): at 6 units, 32-card seeds 0-19 score / bound 1705 / 1857
# -> 1703 / 1837, fresh seeds 20-39 1780 / 1935, 2 proven -> 1783 / 1910, 3 proven (session of 3 Dec 11:40).
COUNT_CUT_MIN = 1.0
# When the search on the count relaxation's cards finds a garden within this many points of the count
# bound, it stops there and `no_game_reaches(garden + 1)` gets what is left of COUNT_RELAXED_SHARE (when at
# least COUNT_CUT_MIN): if no game reaches it, that garden's value is a proven bound (0: off). Measured:
# 32-card seed 1 proven optimal (96) in 25.2 units at work 30 (the whole relaxation took 71.9); work 20
# answers on seeds 0-4 unchanged.
BENDERS_GAP = 1
# A "garden" answer of that Benders check (a final garden reaching the target on other cards, above the cards
# search's best) gets a day-by-day planting check at once when it reaches the count bound: plantable, it is the
# answer, proven; otherwise it is dropped (session of 3 Dec 14:38; 40 units, seeds 0-19: seed 12 proven, nothing
# lost). As the first candidate garden instead (the start of step 1, as BENDERS_PLANT was until it was removed in
# November: 77/85 against 78/85 on seed 3 at work 30) it cost seeds 10, 11 and 14 points and two proofs.
BENDERS_GARDEN = True
# The same check from the best legal game (the annealed greedy game, or the annealing's on the count step's cards):
# when it is within BENDERS_GAP of the count bound before the cards search, the only open question is whether a
# game reaches one point more, so `no_game_reaches(game + 1)` runs at once (its first pinned check on the count
# step's cards), with the cards search's share too: "none" proves the game optimal, a "garden" at the bound is
# planted as above (BENDERS_GARDEN), "open" leaves the steps below what is left. The cards search could at best
# find a garden one point higher, which the check finds as well. (Before, only the cards search's garden started
# the check, and at 5 s the cards search used the budget; docs/journal/horticulture-issue7.md, 6 Dec.)
LEGAL_BENDERS = True
# When the share holds one run of ANNEAL_CARDS_MAX only (RECARD_SECOND's two need budgets from 12), the second run
# from the re-carded annealed game still runs, after the Lagrangian steps: its ceiling is then their bound, and it
# may use the time of the steps after them (as the Lagrangian step may; at 5 s and 6 units the cards search, the
# relaxation and the day-by-day search after them never changed an answer). Measured (session of 6 Dec 16:00,
# 32-card seeds 0-59, one worker): 5 s wall 5245 / 5404-5408 with 6 proofs (two runs) -> 5249-5252 / 5403-5405 with
# 6-7 (seed 12 proven in 3.7 s; 3 runs); 6 units 5244 / 5399, 6 -> the same sums (seed 30 one point less, 54 one
# more), ending 0.5-2 s sooner on the wall clock. As a second chain before the Lagrangian steps (ANNEAL_CARDS 0.6)
# the bounds were 14 points worse at 6 units.
LATE_CHAIN = True
# From budgets where the cut-bound step runs (COUNT_CUT_MIN), the count step itself uses the cuts
# (COUNT_CUT_CARDS), hinted with the greedy game (COUNT_CUT_HINT), with COUNT_SHARE; only when it is not proven
# does the unhinted cut-bound step follow (COUNT_CUT_SPLIT). Its card choice is the Benders check's first
# (no first master search). Measured (32 cards, seeds 0-4, work 20; docs/horticulture.md): seed 1 proven
# optimal (96; the hinted cut count proves 97 in 1.04 units instead of 3 unproven + 3.91, and Benders gets
# 11.2 units instead of 5.35); scores 424 -> 424, bounds 462 -> 461. Without the split (one cut step with
# both shares) seed 2's bound was 98 instead of 93; unhinted, scores fell 424 -> 421 (its cards were worse).
COUNT_CUT_CARDS = True
COUNT_CUT_HINT = True
COUNT_CUT_SPLIT = True
# The Benders check may use up to this share of the budget with the count-first steps before it. 0.95 also
# proved seed 1 at work 20, but on seed 3 (open check) it cost the day-by-day search: 70 instead of 73.
BENDERS_SHARE = 0.85
# When the cards search is proven optimal at `top` within BENDERS_GAP + 1 of the count bound, the Benders
# check asks "does any game reach the count bound?" with those cards cut off at once (no pinned check).
# With CP-SAT's default master search it stayed open on 32-card seed 1 with random seed 1 (work 20: 7.4 units
# left, 96/97; work 30: 14.38 units, and the relaxation that proves 96 without it lost the time: 96/97).
# On with MASTER_BRANCHING = LP_SEARCH (the master's proof is 5-10x cheaper): seed 1 with random seed 1 is
# proven at work 20 (the check answers "none" after 3.40 units) and at work 30 (23.63 units used); random
# seeds 0 and 2 and the other seeds 0-9 at random seed 0 never took this branch at work 20/30 (gaps 1 or >= 5).
BENDERS_PROVEN = True
BOUND_CUTS = frozenset({"regions", "reach"})
# Bound descent (_descend): when the cards search ends more than BENDERS_GAP below the count bound B (so the
# Benders check above does not run), ask no_game_reaches(B), then B - 1, ... while it answers "none", with up to
# this share of the whole budget (taken from what the whole relaxation would get; 0: off). A "garden" answer's
# garden (above the cards search's best) becomes the first candidate garden. Measured (32 cards, seeds 0-9, one
# worker, deterministic units; docs/horticulture.md, session of 30 Nov 09:15): work 30 scores 869 -> 869, bounds
# 933 -> 926 (seed 0 96 -> 95, seed 6 100 -> 94: the master is infeasible at once, 0.2-1 unit a step, when the
# count step's cut relaxation was not proven); work 20 scores 861 -> 861, bounds 936 -> 929 (seed 6); work 40
# scores 872 -> 870 (seed 2 84 -> 82: the whole relaxation had less time), bounds 931 -> 923 (all with
# DESCENT_MIN 4). DESCENT_MIN 1 also runs it on seeds 4 and 7 (1-4 units left): bounds at work 20 / 30 / 40
# 929 -> 923, 926 -> 917, 923 -> 913, same scores.
DESCENT_SHARE = 0.3
# The descent runs when at least DESCENT_MIN is left (the Benders check above needs COUNT_CUT_MIN). (Removed in the
# session of 30 Nov 11:50: DESCENT_MODE "up" (ascent, no_game_reaches(best garden + 1), a primal step) and "both"
# (down with DESCENT_DOWN_PART of the share, then up), measured in the session of 09:15 and not kept: at work 30
# on seeds 0-4 the ascent gained seed 2 a garden of 84 (1.79 units; final 84/93, was 83/93) and no bound;
# docs/horticulture.md.)
DESCENT_MIN = 1.0
# Cheaper descent (session 30 Nov 11:50; _descend's `cap`): with DESCENT_CAP set (a share of the whole budget), each
# step asks the Benders master alone (no_game_reaches(checks=0), at most DESCENT_CAP x the budget: "none" when the
# count relaxation with cuts, minus the proven card cuts, has nothing >= B; 0.16-2.3 units a step on 32 cards) and
# the descent stops where the master finds cards; the first step is skipped when the cut step's optimum already
# reaches B. None: every step a full no_game_reaches with all of the descent's room (the descent until 11:50). Measured (32
# cards, seeds 0-9, docs/horticulture.md): cap 0.075 without the checked round, work 40 scores/bounds 870/913 ->
# 872/915 (seed 2 82 -> 84 back; seeds 0 and 6 lose the 7.4-unit steps 96 -> 95 and 94 -> 93); with a checked round
# capped at 0.1 seed 2 stays 82 (its master alone ran 8 units open before the `first` skip existed). Large budgets:
# seed 5 at work 80 is proven optimal (94, 63.71 units) with the cap; uncapped the descent spent its 24-unit share
# ("98?" open) and the whole relaxation could not prove it (94/98).
DESCENT_CAP: float | None = 0.075
# (Removed in the session of 30 Nov 14:50, measured and not kept (docs/horticulture.md): the descent's one capped
# round with pinned checks where the master first finds cards, in every form tried: always (DESCENT_CHECKED), only
# where the whole relaxation keeps 0.2 x the budget after it (DESCENT_CHECKED_KEEP, DESCENT_CHECKED_CAP), that with
# an absolute cap of 6 or 8 units, and that with its first pinned check capped at 2 units (a probe). Each gains
# 32-card seed 0 one bound point at work 40 (96 -> 95, its first check answers in 1.87 units) and each loses seed 5's
# proof at work 80 (94 proven in 63.71 units -> 94/98): its whole relaxation's first run needs about 38 units and
# gets 0.9 x 42.3 = 38.1 without the round; even a 2-unit open probe leaves it 36.3. And DESCENT_ASCENT (one capped
# no_game_reaches(best garden + 1) after the descent: work 30 seed 2 83 -> 84, work 40 seed 2 84 -> 83).)
# CP-SAT `search_branching` of the Benders master searches in no_game_reaches (None: CP-SAT's default,
# AUTOMATIC_SEARCH). LP_SEARCH branches on the LP's reduced costs. Measured (docs/horticulture.md, "A master
# whose proof does not hang on one random seed"): 32-card seed 1, the master after the first no-good at 97,
# CP-SAT random seeds 0-5: default 6.82 / 14.90 / 20.80 / 26.47 / 11.48 / 8.43 units, LP_SEARCH
# 1.40 / 1.42 / 2.49 / 1.47 / 2.21 / 3.23 units. Branching on the card-choice literals first (FIXED_SEARCH) and
# CP-SAT's one-worker restart portfolio did not prove it in 30 / 20 units on random seed 0.
MASTER_BRANCHING: int | None = cp_model.LP_SEARCH
# The same for the count-first steps' count relaxation with the cuts (the count step when COUNT_CUT_CARDS
# applies, and the cut-bound step): None keeps CP-SAT's default. Off: LP_SEARCH proves seed 1's cut count (97)
# in 0.73-1.94 units on random seeds 0-2 (default 3.91 on seed 0) and so proves seed 1 at work 20 with random
# seed 1, but its card choices differ: work 20, random seed 0, seed 0 88/96 (was 91/96), seed 2 86/99 (83/93).
COUNT_BRANCHING: int | None = None
# The Benders no-good (see no_game_reaches): "card", "mix", "dominance" or "both" (card + dominance).
# Measured on 32-card seed 1, "no game reaches 97", CP-SAT random seeds 0/1/2: "both" proved it in
# 10.40/18.67/27.80 units, "card" in 11.99/20.72/over 30; "mix" and "dominance" alone did not prove it
# in 15 units on random seed 0 (docs/horticulture.md).
BENDERS_CUT = "both"
# Honouring the budget (docs/horticulture.md, "Budget"): no step is given more than what is left of the
# budget, and a step that would get less than MIN_STEP (in the budget's unit) is skipped. On the wall
# clock, model building counts too: a step that builds a day-by-day model first needs TIMED_BUILD times
# what building the untimed model took (measured ~2x on 16-32 cards), and that much again is kept back
# for the closing check of the answer (flow-model score, replay, pure scorer). With a deterministic
# limit only CP-SAT's deterministic time counts, so no wall-clock reading changes an answer.
MIN_STEP = 0.01
MIN_STEP_WALL = 0.05
TIMED_BUILD = 2.5
# Short wall-clock budgets (docs/horticulture.md, "Short budgets"). A call's fixed steps (the greedy games, the
# untimed model's build, CP-SAT completing and re-scoring a game) used to run whatever the clock said: 32-card best
# plans with 0.3 / 0.5 / 1 s ended after 0.77-1.06 / 0.95-1.21 / 1.05-1.33 s (seeds 0-2). On the wall clock each is
# now weighed against what is left first; none of this applies with a deterministic limit (its answers do not change).
# The untimed model is built only when what is left after the annealing holds its build (estimated as
# BUILD_PER_GREEDY x the first greedy game's time, BUILD_PER_GREEDY_FREE when the gnome or the plan is a decision:
# measured 1.1-1.4 and 2.2-2.5 on 32 cards) and MODEL_MIN_S more for its steps; otherwise no CP-SAT model is built,
# the annealing gets all the time left but CLOSE_RESERVE_S, and the (annealed) greedy game, replayed and scored by
# the pure rules, is the answer with the counting bound.
BUILD_PER_GREEDY = 1.5
BUILD_PER_GREEDY_FREE = 3.0
MODEL_MIN_S = 0.25
CLOSE_RESERVE_S = 0.02  # the closing check (replay, pure scorer: a few ms on 32 cards) and the answer
# With the plan or the gnome being chosen, the greedy player plays again with those fitted to its first game only
# when this many times the first game's time is left (else the first game keeps the fitted setup when it is legal
# and scores more with it)
SECOND_GREEDY_ROOM = 3.0
# A greedy game's days that start after this share of what is left of the budget are played by the quick rule
# (schedule.play_greedy's `until`): the greedy game is the floor of every answer, and on a loaded machine its ~80 ms
# on 32 cards became 0.2-0.6 s (measured at load 3 on two cores)
GREEDY_SHARE = 0.5


class _Values:
    """A full solution kept as plain values, readable like a CpSolver (value, objective_value)."""

    def __init__(self, values: list[int], objective: float):
        self.values, self.objective_value, self.wall_time = values, objective, 0.0
        self.best_objective_bound = float("inf")
        self.benders = False  # a garden of the Benders check's "garden" answer (_count_first, BENDERS_GARDEN)

    def value(self, var: cp_model.IntVar) -> int:
        return self.values[var.index] if var.index >= 0 else 1 - self.values[-var.index - 1]


def _start(model: HorticultureModel, pins: list[tuple[cp_model.IntVar, int]], control: SolveControl,
           seconds: float) -> tuple[_Values | None, float]:
    """Complete a known game into a full solution of `model` (all helper variables), or None."""
    sub = model.m.clone()
    sub.clear_hints()
    for var, value in pins:
        sub.add(var == value)
    st, solver = control.solve(sub, _solver(control, seconds))
    if st != cp_model.OPTIMAL:
        return None, _cost(control, solver)
    return _Values(list(solver.response_proto.solution), solver.objective_value), _cost(control, solver)


def _solver(control: SolveControl, seconds: float, linearization: int = 1,
            branching: int | None = None, check: bool = False) -> cp_model.CpSolver:
    """A solver for one step; `seconds` is in deterministic units when the control asks for them;
    `branching`: CP-SAT's search_branching (None: its default); `check`: settles a found game (see
    SolveControl.new_solver)."""
    solver = control.new_solver(time_limit_s=seconds, check=check)
    if control.deterministic_limit is not None:
        # SolveControl gives each search the whole deterministic limit: give this step its share.
        # As in SolveControl, no wall-clock limit then: a wall-clock cut would make the answer depend
        # on machine load (cancel() still stops the search).
        solver.parameters.max_deterministic_time = max(0.001, seconds)
    solver.parameters.linearization_level = linearization
    for name, value in SEARCH_PARAMETERS.items():
        setattr(solver.parameters, name, value)
    if branching is not None:
        solver.parameters.search_branching = branching
    return solver


class _Meter:
    """What a run of steps has used, in the budget's unit.

    With a deterministic limit: the deterministic time of its CP-SAT searches (model building and
    Python are not counted, so the answer cannot depend on machine speed). On the wall clock: the time
    since the meter started (model building, presolve and Python included), or the searches' own time
    if that is more."""

    def __init__(self, control: SolveControl):
        self.control, self.deterministic = control, control.deterministic_limit is not None
        self.t0, self.searches = time.perf_counter(), 0.0

    def add(self, solver) -> float:
        """Charge one search; returns what is used so far."""
        return self.charge(_cost(self.control, solver))

    def charge(self, amount: float) -> float:
        self.searches += amount
        return self.used

    @property
    def used(self) -> float:
        return self.searches if self.deterministic else max(self.searches, time.perf_counter() - self.t0)


def _budget(control: SolveControl) -> float:
    return control.deterministic_limit if control.deterministic_limit is not None else control.time_limit_s


def _cost(control: SolveControl, solver) -> float:
    """What a step used, in the unit of the budget (deterministic time makes results reproducible)."""
    if isinstance(solver, _Values):
        return 0.0
    return solver.deterministic_time if control.deterministic_limit is not None else solver.wall_time


def solve(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell | None,
          plan: Plan | None, control: SolveControl | None = None, share: float = 1.0) -> Solution:
    """Best final score, keeping every claim honest.

    Every CP-SAT search runs through `control.solve` (a cancelled control stops the work with
    `Cancelled`); `share` of the control's budget is used (hints split it between options). With
    `control.deterministic_limit` the budget is deterministic time and no wall-clock reading
    influences the answer (time_limit_s is then not used, as in SolveControl).

    0. A greedy player's game is the starting point (and the answer if nothing beats it).
    1. The final garden alone is optimised with plants merely orderable outward from the path (no
       day-by-day card matching): a relaxation, so its bound bounds the real game. If it is proven
       optimal and a day-by-day planting of that very garden exists, the game is optimal.
    2. Otherwise the exact day-by-day model is searched (hinted with the relaxed garden); the
       bound reported is the smallest of both bounds and a counting bound, and "optimal" needs
       score == bound.
    The returned game is replayed by the pure rules and scored by the pure scorer; the CP-SAT
    objective must equal that score (ModelMismatch otherwise).
    """
    control = control or SolveControl(time_limit_s=10.0)
    budget = _budget(control) * share
    clock = time.perf_counter()
    deterministic = control.deterministic_limit is not None
    meter = _Meter(control)

    rng = random.Random(control.random_seed)
    counted = counting_bound(catalog, side, drawing, days, gnome, plan)
    sheet = catalog.sheet(side)
    geometry = Garden(sheet, drawing)
    cells, types = geometry.cells, list(catalog.plants)
    left_half = mirror_half(geometry, gnome, days)  # (the untimed model's MIRROR_BREAKING)
    # on the wall clock: building the untimed model's time, the unit for model building (see TIMED_BUILD)
    build = 0.0
    minimum = MIN_STEP if deterministic else MIN_STEP_WALL
    free_setup = gnome is None or plan is None

    def grant(want: float, builds: float = 0.0) -> float:
        """Search time for a step that wants `want` and first builds `builds` x the untimed model: capped
        by what is left (the closing check's share kept back), 0 when below the minimum (skip the step)."""
        room = min(want, budget - build - meter.used - builds * build)
        return room if room >= minimum else 0.0

    def score_of(game: list[Day], g: Cell, p: Plan) -> int:
        """A game's points: CP-SAT's second (flow) encoding, held against the pure scorer that checks the answer; on
        the wall clock with less than two untimed model builds left, the pure scorer alone (a model build would
        overrun the budget; the answer is checked by the pure rules either way)."""
        if deterministic or budget - meter.used >= 2 * build + CLOSE_RESERVE_S:
            return _exact_score(catalog, side, drawing, game, g, p, control)
        return _pure_score(catalog, side, drawing, game, g, p)

    played = {d: spec for d, spec in enumerate(days) if spec.fixed is not None}
    g0 = gnome if gnome is not None else cells[len(cells) // 2]
    if plan is None:  # a first guess: plan on the plants the nursery offers most of
        offered = sorted(types, key=lambda k: -sum(
            max(sum(x in (k, catalog.wild) for x in catalog.card(c).plants) for c in spec.options)
            for spec in days if spec.fixed is None))
        p0 = Plan(offered[0], offered[0], (offered[1], offered[0]))
    else:
        p0 = plan
    start, game0 = None, None
    short = False  # on the wall clock: no room for the untimed model, the (annealed) greedy game is the answer
    try:  # a greedy game to start from: good on its own, and a slow search still has an answer
        options = [spec.options for spec in days]
        t = time.perf_counter()
        game0 = play_greedy(catalog, Setup(side, drawing, g0, p0), options, played,
                            until=None if deterministic else t + (budget - meter.used) * GREEDY_SHARE)
        greedy_s = time.perf_counter() - t
        log.debug("greedy game in %.3f s", greedy_s)
        if free_setup:
            # plan/gnome are decisions: fit them to the greedy garden, then play again with them
            fitted = fit_plan_and_gnome(catalog, Setup(side, drawing, g0, p0), game0, plan is None, gnome is None)
            if deterministic or budget - meter.used >= SECOND_GREEDY_ROOM * greedy_s:
                g0, p0 = fitted
                game0 = play_greedy(catalog, Setup(side, drawing, g0, p0), options, played, until=None
                                    if deterministic else time.perf_counter() + (budget - meter.used) * GREEDY_SHARE)
            else:
                g0, p0 = _refit(catalog, side, drawing, game0, (g0, p0), fitted)
                log.debug("no room for a second greedy game: the first one with %s", "the fitted setup"
                          if (g0, p0) == fitted else "its own setup")
        if left_half and 2 * g0[0] > sheet.columns - 1:
            game0, g0 = _mirror(game0, sheet.columns), mirror_cell(g0, sheet.columns)
        to_play = len(days) - len(played)  # days still to play (a hint's are fewer)
        share = ANNEAL_SHARE if to_play >= ANNEAL_MIN_DAYS else (
            SHORT_ANNEAL_SHARE if SHORT_ANNEAL_MIN_DAYS is not None and to_play >= SHORT_ANNEAL_MIN_DAYS else 0.0)
        room = 0.0
        if share > 0:
            room = budget * share if ANNEAL_MAX is None else min(budget * share, ANNEAL_MAX)
        if not deterministic:
            estimate = greedy_s * (BUILD_PER_GREEDY_FREE if free_setup else BUILD_PER_GREEDY)
            short = budget - meter.used - room < estimate + MODEL_MIN_S + CLOSE_RESERVE_S
            if short:
                room = budget - meter.used - CLOSE_RESERVE_S if share > 0 else 0.0
                log.debug("short budget: no CP-SAT model (build ~%.3f s), annealing %.3f s", estimate, max(0, room))
        if share > 0 and (deterministic or room >= minimum):  # (a deterministic one anneals as it always did)
            # a gnome being chosen may go to any square (the left half when the model breaks the mirror symmetry)
            squares = None if gnome is not None or not ANNEAL_SETUP else [
                c for c in cells if not left_half or 2 * c[0] <= sheet.columns - 1]
            game0, g0, p0 = _anneal_step(catalog, side, drawing, days, game0, g0, p0, control, room, meter, counted,
                                         squares, plan is None and ANNEAL_SETUP, most=ANNEAL_MAX)
    except ValueError:
        short = False
    if short and game0 is not None:
        points = _pure_score(catalog, side, drawing, game0, g0, p0)
        return _checked(catalog, side, drawing, "optimal" if points >= counted else "feasible", points, counted,
                        game0, g0, p0, time.perf_counter() - clock)
    t = time.perf_counter()
    relaxed = HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False)
    if not deterministic:
        build = time.perf_counter() - t
    log.debug("untimed model built in %.3f s after %.2f", time.perf_counter() - t, meter.used)
    if relaxed.mirror_half != left_half:
        raise AssertionError("the untimed model's mirror breaking differs from the greedy start's")
    if game0 is not None:
        try:
            # (a pinned completion: solved at the root in practice, so even a small grant reaches it)
            seconds = grant(max(0.2, budget * 0.1))
            if seconds > 0:
                start, cost = _start(relaxed, relaxed.assignment(game0, g0, p0), control, seconds)
                meter.charge(cost)
        except ValueError:
            pass
    if start is not None:
        greedy0 = (game0, g0, p0, int(round(start.objective_value)))
    elif game0 is not None:  # no room to complete it in CP-SAT: the second encoding (or the pure scorer) scores it
        greedy0 = (game0, g0, p0, score_of(game0, g0, p0))
    else:
        greedy0 = None
    if greedy0 is not None and counted is not None and greedy0[3] >= counted:
        # the (annealed) greedy game meets the counting bound: no game scores more, nothing to search
        return _checked(catalog, side, drawing, "optimal", greedy0[3], counted, *greedy0[:3],
                        time.perf_counter() - clock)
    known, candidates = None, []
    if len(days) >= COUNT_FIRST_MIN_DAYS:
        # Long games: the connectivity-free relaxation gives a bound and a choice of cards; the
        # final-garden relaxation restricted to those cards then finds gardens close to the optimum.
        annealed = []
        counted, candidates, spent = _count_first(
            relaxed, catalog, side, drawing, days, gnome, plan, control, budget, counted,
            greedy0[:3] if greedy0 else None,
            limit=min(budget * max(COUNT_RELAXED_SHARE, BENDERS_SHARE), budget - build) - meter.used,
            annealed=annealed, legal=greedy0[3] if greedy0 else -1, outer=budget - build - meter.used)
        meter.charge(spent)
        known = counted
        raised = bool(annealed) and (greedy0 is None or annealed[0][3] > greedy0[3])
        if raised:  # the annealing on the count's cards beat the greedy game: it is the game to beat now
            greedy0 = annealed[0]
        if greedy0 is not None and greedy0[3] > counted:  # a legal game above a proven bound: a model bug
            raise ModelMismatch(f"a legal game scores {greedy0[3]}, proven bound {counted}")
        if greedy0 is not None and greedy0[3] == counted:  # it meets the count step's proven bound
            return _checked(catalog, side, drawing, "optimal", greedy0[3], counted, *greedy0[:3],
                            time.perf_counter() - clock)
        if raised:
            seconds = grant(max(0.2, budget * 0.1))
            if seconds > 0:
                done, cost = _start(relaxed, relaxed.assignment(*greedy0[:3]), control, seconds)
                meter.charge(cost)
                start = done if done is not None else start
        floor = start.objective_value if start is not None else -1
        candidates = [c for c in candidates if c.objective_value > floor]
        if candidates and candidates[0].benders and candidates[0].objective_value >= counted:
            # the Benders check's garden reaches the proven bound: when it can be planted day by day it is optimal
            cand = candidates.pop(0)
            seconds = grant(budget * 0.02, TIMED_BUILD)
            if seconds > 0:
                bg, bbox = relaxed.extract_garden(cand)
                bchosen, (bgn, bpl) = relaxed.chosen_cards(cand), _gnome_plan(relaxed, cand)
                order, st2, s2, cost = _planting(catalog, side, drawing, days, bg, bbox, bchosen, bgn, bpl, control,
                                                 seconds)
                meter.charge(cost)
                log.debug("planting order for the Benders garden (%s): %s after %.2f", cand.objective_value,
                          STATUS.get(st2), meter.used)
                if st2 == cp_model.OPTIMAL:
                    game, g, p = order.extract(s2)
                    if int(round(s2.objective_value)) != counted:  # a legal game above a proven bound: a model bug
                        raise ModelMismatch(f"Benders garden planted at {s2.objective_value}, proven bound {counted}")
                    return _checked(catalog, side, drawing, "optimal", int(round(s2.objective_value)), counted,
                                    game, g, p, time.perf_counter() - clock)
        candidates = [c for c in candidates if not c.benders]  # (otherwise as before: not a start, not a candidate)
        if candidates:
            start = candidates[0]
    relaxed_share = COUNT_RELAXED_SHARE if known is not None else RELAXED_SHARE
    st1, s1, spent, bound = _search(relaxed, control, grant(budget * relaxed_share - meter.used), rng, start=start,
                                    first_share=RELAXED_FIRST_SHARE, known_bound=known)
    meter.charge(spent)
    bound = counted if bound is None else min(bound, counted)
    log.debug("relaxed: %s value %s bound %s after %.2f", STATUS.get(st1),
              s1.objective_value if s1 is not None else None, bound, meter.used)
    if st1 == cp_model.INFEASIBLE:
        return Solution("infeasible", None, None, [], gnome, plan, None, time.perf_counter() - clock)
    if greedy0 is not None and greedy0[3] >= bound:  # the greedy game already meets a proven bound
        return _checked(catalog, side, drawing, "optimal", greedy0[3], bound, *greedy0[:3],
                        time.perf_counter() - clock)
    if st1 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        garden, box = relaxed.extract_garden(s1)
        chosen = relaxed.chosen_cards(s1)
        g, p = _gnome_plan(relaxed, s1)
    else:  # nothing found yet: aim the greedy planting at an empty garden
        garden, box, chosen = {}, [], [spec.options[0] for spec in days]
        g = gnome if gnome is not None else relaxed.cells[0]
        p = plan or Plan(*([relaxed.types[0]] * 2), (relaxed.types[0],) * 2)
    cuts = 0
    while st1 == cp_model.OPTIMAL:
        seconds = grant(budget * 0.2, TIMED_BUILD)
        if seconds <= 0:
            break
        order, st2, s2, cost = _planting(catalog, side, drawing, days, garden, box, chosen, g, p, control, seconds)
        meter.charge(cost)
        log.debug("planting order for the relaxed optimum: %s after %.2f", STATUS.get(st2), meter.used)
        if st2 == cp_model.OPTIMAL:
            game, g, p = order.extract(s2)
            objective = int(round(s2.objective_value))
            if objective != int(round(s1.objective_value)):
                raise ModelMismatch(f"relaxed optimum {s1.objective_value} != its garden's score {objective}")
            return _checked(catalog, side, drawing, "optimal", objective, bound, game, g, p, time.perf_counter() - clock)
        seconds = grant(_order_cut_room(budget, relaxed_share, meter.used, known is not None))
        if st2 != cp_model.INFEASIBLE or cuts >= ORDER_CUTS or seconds <= 0:
            break
        # Proven: no day-by-day planting gives this final garden (cards, wilds, window box). Cut
        # it off the relaxation and solve again: the new optimum still bounds every real game.
        cuts += 1
        relaxed.exclude_final(s1)
        relaxed.m.clear_hints()
        if start is not None:
            _hint_all(relaxed.m, start.values)  # the greedy game is plantable: never the garden cut off
        st1, s1 = control.solve(relaxed.m, _solver(control, seconds, linearization=2), _StopAt(bound))
        relaxed.m.clear_hints()
        meter.add(s1)
        if st1 == cp_model.FEASIBLE and s1.objective_value >= bound:
            st1 = cp_model.OPTIMAL  # stopped on reaching the proven bound: optimal for the cut relaxation
        log.debug("relaxed after cut %d: %s value %s after %.2f", cuts, STATUS.get(st1),
                  s1.objective_value if st1 in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None, meter.used)
        if st1 == cp_model.OPTIMAL:
            bound = min(bound, int(round(s1.objective_value)))
            garden, box = relaxed.extract_garden(s1)
            chosen = relaxed.chosen_cards(s1)
            g, p = _gnome_plan(relaxed, s1)
    # The relaxed garden cannot be planted day by day as it is (or was not proven best): plant
    # towards it greedily (always legal), then let the exact day-by-day model improve that game.
    game = None
    seconds = grant(budget * 0.1, TIMED_BUILD)
    if st1 == cp_model.FEASIBLE and garden and seconds > 0:
        # the best relaxed garden, though not proven best, may well be plantable as it is
        order, st2, s2, cost = _planting(catalog, side, drawing, days, garden, box, chosen, g, p, control, seconds)
        meter.charge(cost)
        log.debug("planting order for the best relaxed garden: %s after %.2f", STATUS.get(st2), meter.used)
        if st2 == cp_model.OPTIMAL:
            game, g, p = order.extract(s2)
    tried = 0
    for cand in candidates if game is None and st1 != cp_model.OPTIMAL else []:
        # a garden found on the count relaxation's cards (best first) may be plantable when the
        # later one is not; each check is short (an unplantable garden usually fails in presolve)
        seconds = grant(budget * 0.02, TIMED_BUILD)
        if tried >= PLANT_CHECKS or meter.used >= budget * (relaxed_share + 0.1) or seconds <= 0:
            break
        bg, bbox = relaxed.extract_garden(cand)
        bchosen, (bgn, bpl) = relaxed.chosen_cards(cand), _gnome_plan(relaxed, cand)
        if (bg, bchosen) == (garden, chosen):
            continue
        tried += 1
        order, st2, s2, cost = _planting(catalog, side, drawing, days, bg, bbox, bchosen, bgn, bpl, control, seconds)
        meter.charge(cost)
        log.debug("planting order for a garden on the count cards (%s): %s after %.2f", cand.objective_value,
                  STATUS.get(st2), meter.used)
        if st2 == cp_model.OPTIMAL:
            game, g, p = order.extract(s2)
            garden, box, chosen = bg, bbox, bchosen
            break
    if game is None:
        try:
            game = plant_towards(catalog, Setup(side, drawing, g, p), chosen, garden, box, played)
        except ValueError:
            game = None
    st3, s3, b3, start = cp_model.UNKNOWN, None, None, None
    if grant(budget, TIMED_BUILD) > 0:  # else no room left for the day-by-day search: the games above stand
        full = HorticultureModel(catalog, side, drawing, days, gnome, plan)
        seconds = grant(max(0.2, budget * 0.1))
        if game is not None and seconds > 0:
            start, cost = _start(full, full.assignment(game, g, p), control, seconds)
            meter.charge(cost)
        # (Posting objective <= bound here looks free but slowed the search by 10x in measurements.)
        st3, s3, spent, b3 = _search(full, control, grant(budget), rng, known_bound=bound, start=start)
        meter.charge(spent)
        log.debug("day by day: %s value %s bound %s after %.2f", STATUS.get(st3),
                  s3.objective_value if s3 is not None else None, b3, meter.used)
    if st3 == cp_model.INFEASIBLE:
        return Solution("infeasible", None, None, [], gnome, plan, None, time.perf_counter() - clock)
    if st3 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = min(b for b in (bound, b3) if b is not None) if (bound, b3) != (None, None) else None
        found, fg, fp = full.extract(s3)
        found_score = score_of(found, fg, fp)
    else:
        found, found_score = None, -1
    if game is not None:
        # the pinned completion in _start was solved to optimality: its objective is exact
        greedy_score = int(round(start.objective_value)) if start is not None else score_of(game, g, p)
        log.debug("greedy planting scores %s, search %s", greedy_score, found_score)
        if greedy_score > found_score:
            found, fg, fp, found_score = game, g, p, greedy_score
    if greedy0 is not None and greedy0[3] > found_score:
        found, fg, fp, found_score = greedy0
        log.debug("the first greedy game stays best: %s", found_score)
    if found is None:
        return Solution("unknown", None, bound, [], gnome, plan, None, time.perf_counter() - clock)
    status = "optimal" if bound is not None and found_score >= bound else "feasible"
    return _checked(catalog, side, drawing, status, found_score, bound, found, fg, fp, time.perf_counter() - clock)


def _anneal_step(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], game: list[Day],
                 gnome: Cell, plan: Plan, control: SolveControl, room: float, meter: _Meter,
                 ceiling: int | None, gnome_squares: list[Cell] | None = None,
                 free_plan: bool = False, most: float | None = None) -> tuple[list[Day], Cell, Plan]:
    """`anneal.anneal_game` from `game` (legal, with `gnome` and `plan`) within `room` of the budget: an
    evaluation count charged to the meter (ANNEAL_EVALS_PER_UNIT) with a deterministic limit, the clock as well
    otherwise. The gnome may move to `gnome_squares` and the plan change when `free_plan` (both are decisions of
    the best-plan question). Its (game, gnome, plan) replaces the given one only when the pure rules accept it
    and the pure scorer gives it more points (the arrays' score must equal the pure score: ModelMismatch
    otherwise). `most`: at most this many units' evaluations on the wall clock too (WALL_EVAL_CAP)."""
    deterministic = control.deterministic_limit is not None
    evals = int(room * (ANNEAL_EVALS_PER_UNIT if deterministic else ANNEAL_EVALS_PER_SECOND))
    if not deterministic and WALL_EVAL_CAP and most is not None:
        evals = min(evals, int(most * ANNEAL_EVALS_PER_UNIT))
    if evals < 1:
        return game, gnome, plan
    board = anneal.Board(catalog, side, drawing, gnome, plan, days, gnome_squares, free_plan)
    state = anneal.from_game(board, days, game)
    if state is None or not anneal.legal(board, state):
        return game, gnome, plan
    until = None if deterministic else time.perf_counter() + room
    stop = lambda: control.cancelled or (until is not None and time.perf_counter() > until)  # noqa: E731
    best, found, used = anneal.anneal_game(board, state, random.Random(f"anneal {control.random_seed}"), evals,
                                           max(1, evals // ANNEAL_RUN_EVALS), ceiling, stop)
    if deterministic:
        meter.charge(used / ANNEAL_EVALS_PER_UNIT)
    out, g, p = anneal.to_game(board, days, best), best.gnome_cell(board), best.plan_of(board)
    sheet, violations = replay(catalog, Setup(side, drawing, g, p), out)
    if violations:
        raise ModelMismatch(f"annealed game breaks a rule: {violations[0].where}: {violations[0].reason}")
    exact = score_sheet(catalog, sheet).total
    if exact != found:
        raise ModelMismatch(f"annealing: array score {found} != pure score {exact}")
    before = score_sheet(catalog, replay(catalog, Setup(side, drawing, gnome, plan), game)[0]).total
    log.debug("annealing: %s -> %s in %s evaluations", before, exact, used)
    return (out, g, p) if exact > before else (game, gnome, plan)


def _order_cut_room(budget: float, relaxed_share: float, used: float, count_first: bool) -> float:
    """What the relaxation's re-solve after an order cut may use: the rest of its share (budget x relaxed_share
    - used), on count-first games at most ORDER_CUT_SHARE x the budget (when set). Only a time limit: the re-solve's
    bound counts only when it is proven, so the answer's bound is as valid with any limit."""
    room = budget * relaxed_share - used
    return room if ORDER_CUT_SHARE is None or not count_first else min(budget * ORDER_CUT_SHARE, room)


def _planting(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], garden: dict, box: list,
              chosen: list[int], gnome: Cell, plan: Plan, control: SolveControl, seconds: float):
    """Search a day-by-day planting of one final garden (garden, window box, cards, gnome and plan
    pinned). Returns (model, status, solver, cost); OPTIMAL means a legal game reaching it exists."""
    order = HorticultureModel(catalog, side, drawing, days, gnome, plan)
    order.fix_final(garden, box, chosen, gnome, plan)
    status, solver = control.solve(order.m, _solver(control, seconds))
    return order, status, solver, _cost(control, solver)


def _count_first(relaxed: HorticultureModel, catalog: Catalog, side: str, drawing: PathDrawing,
                 days: list[DaySpec], gnome: Cell | None, plan: Plan | None, control: SolveControl,
                 budget: float, counted: int, hint: tuple | None = None,
                 limit: float | None = None, annealed: list | None = None,
                 legal: int = -1, outer: float | None = None) -> tuple[int, list[_Values], float]:
    """The count relaxation (groups counted, not connected) for a bound and a set of cards, then the
    final-garden relaxation with those cards pinned for a good garden.

    Returns (bound, the pinned search's improving solutions as full solutions of `relaxed`, best
    first, cost). The bound is the count model's proven bound, or the Lagrangian step's (each bounds every game), never
    below a legal game. The pinned search is a restriction: its gardens are feasible solutions of
    `relaxed` (not always plantable day by day), its bound proves nothing.
    Steps get shares of `budget`; together they never use more than `limit` (default: budget x
    COUNT_RELAXED_SHARE); a step that would get less than MIN_STEP is skipped.
    `annealed`: a list that gets (game, gnome, plan, score) of the annealing on the count step's cards
    (ANNEAL_CARDS; a legal game, rechecked by the pure rules and scorer), when it ran.
    `legal`: the score of the best legal game known (the hint's; -1: none). With LEGAL_BENDERS, a legal game within
    BENDERS_GAP of the count bound goes to the Benders check before the cards search (see LEGAL_BENDERS).
    `outer`: what is left of the whole budget (default `limit`); the Lagrangian step may use up to it, so that on a
    short budget, whose `limit` the count step and the annealing use up, it takes the time of the steps after this
    one (measured: at 5 s they never changed an answer, LAGRANGE's comment).
    """
    meter = _Meter(control)
    limit = budget * COUNT_RELAXED_SHARE if limit is None else limit
    minimum = MIN_STEP if meter.deterministic else MIN_STEP_WALL

    def grant(want: float, upto: float | None = None) -> float:
        """`want`, capped by what is left of `upto` (default: `limit`) on this call's meter; 0 below the minimum."""
        room = min(want, (limit if upto is None else upto) - meter.used)
        return room if room >= minimum else 0.0

    if grant(budget * COUNT_SHARE) <= 0:
        return counted, [], meter.used
    by_class = CLASS_COUNT and gnome is not None and plan is not None and BOUND_CUTS == CLASS_CUTS
    # by_class: the count step is the relaxation with the cuts over classes of squares (the same bound as the
    # square-level one, proven faster): it gives the cards and the bound, and no separate cut step runs
    cut_share = 0.0 if by_class else COUNT_CUT_SHARE if budget * COUNT_CUT_SHARE >= COUNT_CUT_MIN else 0.0
    cut_cards = None  # the cut step's card choice (reaches its bound in the count relaxation with cuts)
    cut_value = -1  # the count objective of the cut step's solution (cut_cards)
    as_count = by_class or (cut_share > 0 and COUNT_CUT_CARDS)
    # as_count: the count step with the cuts (hinted with COUNT_CUT_HINT) gives the cards and the bound;
    # with COUNT_CUT_SPLIT it keeps the count step's share, and the unhinted cut step follows when it is
    # not proven. Otherwise the plain count step, starting from the greedy game with COUNT_GREEDY_HINT.
    region_cuts = None  # the Lagrangian step's, for the Benders masters too
    if by_class:
        count = ClassCountModel(catalog, side, drawing, days, gnome, plan)
    else:
        count = HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False, groups="count",
                                  count_cuts=BOUND_CUTS if as_count else None)
    if hint is not None and (COUNT_CUT_HINT if as_count else COUNT_GREEDY_HINT):
        for var, value in count.assignment(*hint):
            count.m.add_hint(var, value)
    share = COUNT_SHARE + (cut_share if as_count and not COUNT_CUT_SPLIT else 0.0)
    st, sc = control.solve(count.m, _solver(control, grant(budget * share) or minimum, linearization=2,
                                            branching=COUNT_BRANCHING if as_count else None))
    spent = meter.add(sc)
    log.debug("count relaxation%s: %s bound %s after %.2f", " (cuts)" if as_count else "",
              STATUS.get(st), int(sc.best_objective_bound + 1e-6) if st in (cp_model.OPTIMAL, cp_model.FEASIBLE)
              else None, spent)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # nothing found (or infeasible: step 1 says so)
        return counted, [], meter.used
    counted = min(counted, int(sc.best_objective_bound + 1e-6))
    if by_class and st == cp_model.FEASIBLE and CLASS_RETRY is not None and grant(budget * share) > 0:
        # not proven: the same model again with CLASS_RETRY branching, from its best solution; both bounds are
        # proven bounds of the same relaxation, and the second run's solution is at least as good (hinted)
        count.m.clear_hints()
        _hint_all(count.m, list(sc.response_proto.solution))
        st_r, sc_r = control.solve(count.m, _solver(control, grant(budget * share), linearization=2,
                                                    branching=CLASS_RETRY))
        spent = meter.add(sc_r)
        log.debug("count relaxation (retry): %s bound %s after %.2f", STATUS.get(st_r),
                  int(sc_r.best_objective_bound + 1e-6) if st_r in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None,
                  spent)
        if st_r in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            counted = min(counted, int(sc_r.best_objective_bound + 1e-6))
            if sc_r.objective_value >= sc.objective_value:
                st, sc = st_r, sc_r
    cards = count.chosen_cards(sc)
    if as_count:
        cut_cards, cut_value = cards, sc.objective_value
    played = {d: spec for d, spec in enumerate(days) if spec.fixed is not None}
    anneal_room = grant(min(budget * ANNEAL_CARDS, ANNEAL_CARDS_MAX)) if annealed is not None and ANNEAL_CARDS > 0 \
        and by_class and len(days) - len(played) >= ANNEAL_MIN_DAYS else 0.0
    late = None  # the second chain's start, when it runs after the Lagrangian steps (LATE_CHAIN)

    def chain(start: list[Day], upto: float | None = None) -> bool:
        """One annealing chain on the count step's cards from `start`, within `upto` of this call's meter (default:
        `limit`); True when it reached the bound `counted`."""
        nonlocal legal
        room = grant(anneal_room, upto)
        if room <= 0 or replay(catalog, setup, start)[1]:
            return False
        game, _, _ = _anneal_step(catalog, side, drawing, on_cards, start, gnome, plan, control, room, meter,
                                  counted, most=ANNEAL_CARDS_MAX)
        score = score_sheet(catalog, replay(catalog, setup, game)[0]).total
        log.debug("annealing on the count's cards: %s after %.2f", score, meter.used)
        if not annealed or score > annealed[0][3]:
            annealed[:] = [(game, gnome, plan, score)]
        legal = max(legal, score)
        return score >= counted  # a legal game at the proven bound: solve returns it, nothing else to search

    if anneal_room > 0:
        setup = Setup(side, drawing, gnome, plan)
        on_cards = [spec if spec.fixed is not None else DaySpec((cid,)) for spec, cid in zip(days, cards)]
        starts = []
        try:
            starts.append(play_greedy(catalog, setup, [spec.options for spec in on_cards], played))
        except ValueError:
            pass
        if RECARD_SECOND and hint is not None and budget * ANNEAL_CARDS >= 2 * ANNEAL_CARDS_MAX:
            starts.append(_recard(catalog, hint[0], cards))  # (a second chain, when the share holds two)
        elif LATE_CHAIN and hint is not None:
            late = _recard(catalog, hint[0], cards)
        for start in starts:
            if chain(start):
                return counted, [], meter.used
    outer = limit if outer is None else max(limit, outer)
    room = min(budget * LAGRANGE_SHARE, outer - meter.used) if by_class and LAGRANGE and counted > legal else 0.0
    if room >= LAGRANGE_MIN:
        # the Lagrangian bound, and the class count model again with its region cuts, for the bound only: the count
        # step's cards stay the steps' cards (measured: the cut model's cards gave worse games, LAGRANGE's comment);
        # after the annealing on those cards, so that a short budget's primal keeps its time
        found, priced = _lagrangian(catalog, side, drawing, days, gnome, plan, meter, room)
        if found.bound is not None:
            counted = min(counted, found.bound)
            region_cuts = list(found.cuts)
            resolve = min(budget * COUNT_SHARE, LAGRANGE_RESOLVE_MAX, outer - meter.used)
            if count.cuttable and counted > legal and resolve >= minimum:
                cut_model = count.m.clone()  # (the same variables; the count model itself stays as it was solved)
                cut_model.clear_hints()
                count.add_region_cuts(found.cuts, lagrange.SCALE, cut_model)
                st_l, sc_l = control.solve(cut_model, _solver(control, resolve, linearization=2,
                                                             branching=LAGRANGE_RESOLVE_BRANCHING))
                spent = meter.add(sc_l)
                if st_l in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    counted = min(counted, int(sc_l.best_objective_bound + 1e-6))
                log.debug("count relaxation with region cuts: %s bound %s after %.2f", STATUS.get(st_l), counted,
                          spent)
                rounds = min(budget * LAGRANGE_ROUNDS_SHARE, outer - meter.used)
                if st_l == cp_model.OPTIMAL and counted > legal and rounds >= LAGRANGE_MIN:
                    counted = _cut_rounds(count, cut_model, sc_l, priced, found.prices, control, meter, rounds,
                                          counted, legal, region_cuts)
            if counted <= legal:  # the best legal game meets the new bound: solve returns it, proven
                return counted, [], meter.used
    if late is not None and chain(late, outer):  # (its ceiling is now the Lagrangian steps' bound)
        return counted, [], meter.used
    room = min(budget * BENDERS_SHARE, limit) - meter.used
    if LEGAL_BENDERS and BENDERS_GAP > 0 and 0 < counted - legal <= BENDERS_GAP and room >= COUNT_CUT_MIN:
        # the count step's card choice reaches its bound in the master when that bound is its proven optimum
        gardens = []
        answer, cost, rounds = no_game_reaches(catalog, side, drawing, days, gnome, plan, legal + 1, control, room,
                                               first=cut_cards if cut_value >= legal + 1 else None, found=gardens,
                                               region_cuts=region_cuts)
        meter.charge(cost)
        log.debug("no game reaches %d (a legal game scores %d)? %s after %.2f (%d rounds)", legal + 1, legal, answer,
                  cost, rounds)
        if answer == "none":  # proven: the legal game is optimal (solve returns it)
            return legal, [], meter.used
        if answer == "garden" and BENDERS_GARDEN:  # (solve plants it when it reaches the bound)
            return counted, _benders_gardens(gardens, len(relaxed.m.proto.variables)), meter.used
    cut = st_cut = s_cut = None  # the unhinted cut step, when it runs
    if (not as_count or (COUNT_CUT_SPLIT and st != cp_model.OPTIMAL)) and cut_share > 0 \
            and grant(budget * cut_share) > 0:
        # the same relaxation with cuts: a tighter bound (slower to prove), so its cards are not used;
        # not hinted (measured: on seed 0 of 32 cards the hinted run did not prove 96 in 3 units, the
        # unhinted one did in 2.85)
        cut = HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False, groups="count",
                                count_cuts=BOUND_CUTS)
        st_cut, s_cut = control.solve(cut.m, _solver(control, grant(budget * cut_share) or minimum,
                                                     linearization=2, branching=COUNT_BRANCHING))
        spent = meter.add(s_cut)
        if st_cut in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            counted = min(counted, int(s_cut.best_objective_bound + 1e-6))
            cut_cards, cut_value = cut.chosen_cards(s_cut), s_cut.objective_value
        log.debug("count relaxation with cuts: %s bound %s after %.2f", STATUS.get(st_cut), counted, spent)
    collect = _Collect(counted - BENDERS_GAP)
    seconds = grant(budget * max(0.05, CARDS_SHARE - cut_share))
    if seconds <= 0:
        return counted, [], meter.used
    sub = relaxed.m.clone()
    sub.clear_hints()
    for lit in relaxed.card_literals(cards):  # the clone has the same variables
        sub.add(lit == 1)
    st2, s2 = control.solve(sub, _solver(control, seconds, linearization=2), collect)
    spent = meter.add(s2)
    log.debug("count relaxation %s bound %s; its cards: %s %s after %.2f", STATUS.get(st), counted, STATUS.get(st2),
              s2.objective_value if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None, spent)
    room = min(budget * BENDERS_SHARE, limit) - spent
    if (BENDERS_GAP > 0 or DESCENT_SHARE > 0) and collect.found and \
            room >= (min(COUNT_CUT_MIN, DESCENT_MIN) if DESCENT_SHARE > 0 else COUNT_CUT_MIN):
        top = int(round(collect.found[-1].objective_value))
        # BENDERS_PROVEN: the cards search proved its cards' best garden is `top`, so they cannot reach
        # `counted` > top: ask whether any game reaches `counted`, with those cards cut off at once
        proven = BENDERS_PROVEN and st2 == cp_model.OPTIMAL and 0 < counted - top <= BENDERS_GAP + 1
        if BENDERS_GAP > 0 and room >= COUNT_CUT_MIN and (0 < counted - top <= BENDERS_GAP or proven):
            target = counted if proven else top + 1
            # the cut step's card choice reaches counted >= target in the master: its first candidate
            first = cut_cards if as_count and not (proven and cut_cards == cards) else None
            gardens = []
            answer, cost, rounds = no_game_reaches(catalog, side, drawing, days, gnome, plan, target, control, room,
                                                   first=first, excluded=[cards] if proven else [], found=gardens,
                                                   region_cuts=region_cuts)
            spent = meter.charge(cost)
            log.debug("no game reaches %d? %s after %.2f (%d rounds)", target, answer, cost, rounds)
            if answer == "none":
                counted = target - 1
            elif BENDERS_GARDEN:  # its garden (>= target): planted at once when it reaches the bound (solve)
                collect.found.extend(_benders_gardens(gardens, len(collect.found[-1].values)))
        elif DESCENT_SHARE > 0 and counted > top:
            counted, spent, extra = _descend(catalog, side, drawing, days, gnome, plan, control, counted, top,
                                             min(budget * DESCENT_SHARE, room),
                                             first=cut_cards if as_count and not (
                                                 st2 == cp_model.OPTIMAL and cut_cards == cards) else None,
                                             excluded=[cards] if st2 == cp_model.OPTIMAL else [],
                                             cap=None if DESCENT_CAP is None else budget * DESCENT_CAP,
                                             reaches=cut_value >= counted)
            spent = meter.charge(spent)
            # relaxed gardens above the cards search's best (best last): tried first
            collect.found.extend(g for g in extra if len(g.values) == len(collect.found[-1].values))
    return counted, collect.found[::-1], meter.used


def _lagrangian(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell, plan: Plan,
                meter: _Meter, room: float) -> lagrange.Lagrangian:
    """The Lagrangian bound within `room` (charged to `meter`): with a deterministic limit the price vectors tried
    follow from the room and the region graphs' size alone; on the wall clock the clock stops it too, and it is
    skipped when the region graphs are not compiled (pure Python builds them in seconds, which no clock can stop)."""
    if not meter.deterministic and not lagrange.compiled():
        return lagrange.Lagrangian(None), None
    start, clock = meter.used, time.perf_counter()
    bound = lagrange.LagrangeBound(catalog, side, drawing, days, gnome, plan,
                                   most=int(room * LAGRANGE_WORK_PER_UNIT) // lagrange.BUILD_COST)
    # (too wide, or not built within the room: no bound, and the work done is charged)
    found = lagrange.Lagrangian(None, work=bound.built * lagrange.BUILD_COST)
    evaluations = LAGRANGE_EVALS
    if meter.deterministic:
        passes = (room * LAGRANGE_WORK_PER_UNIT - bound.built * lagrange.BUILD_COST) // max(1, bound.built)
        evaluations = int(min(evaluations, passes))
    if bound.supported and evaluations >= 1:
        found = bound.solve(evaluations, deadline=None if meter.deterministic else lambda: meter.used - start >= room)
    meter.charge(found.work / LAGRANGE_WORK_PER_UNIT if meter.deterministic else time.perf_counter() - clock)
    log.debug("lagrangian bound %s (%d prices) after %.2f", found.bound, found.evaluations, meter.used)
    return found, bound


def _separate(priced: lagrange.LagrangeBound, region: int, plants: list[int], prices: list[int], passes: int,
              deadline=None) -> lagrange.Separation:
    """One region's separation in `_cut_rounds`, at most `passes` prices (its work in `.work`, charged there)."""
    return priced.separate(region, plants, passes, prices, deadline)


def _cut_rounds(count: ClassCountModel, cut_model: cp_model.CpModel, solved: cp_model.CpSolver,
                priced: lagrange.LagrangeBound, prices: list[int], control: SolveControl, meter: _Meter, room: float,
                counted: int, legal: int, cuts: list) -> int:
    """Cutting-plane rounds on `cut_model` (the class count model with region cuts, `solved` to its optimum)
    within `room`: each round finds, per region, the tightest region cut at the optimum's plants
    (`LagrangeBound.separate`, from the Lagrangian's best `prices`), adds those the optimum breaks, and solves
    again. Every cut is valid for every game, so each proven optimum is a bound. Returns the lowest bound
    (`counted` at most); stops once no cut is broken, at LAGRANGE_ROUNDS rounds, at a legal game's score
    (`legal`), when a solve is not proven, or (LAGRANGE_HAND_OVER) when the bound has just come down to within
    BENDERS_GAP of `legal`. The cuts added go to `cuts` too, (lam, value per region, None on
    the others), for the Benders masters."""
    start = meter.used
    minimum = MIN_STEP if meter.deterministic else MIN_STEP_WALL
    for done in range(LAGRANGE_ROUNDS):
        added, short = 0, False
        for r, (plants, points) in enumerate(count.region_solution(solved)):
            left, clock = room - (meter.used - start), time.perf_counter()
            # the passes the room pays for (a winding path's wide region has ~12 M transitions, 0.04 units a pass)
            passes = min(LAGRANGE_SEPARATE_EVALS,
                         int(left * LAGRANGE_WORK_PER_UNIT) // max(1, priced.graphs[r].transitions))
            if passes < 1 or left < minimum:
                short = True
                break
            cut = _separate(priced, r, plants, prices, passes,
                            None if meter.deterministic else lambda: time.perf_counter() - clock >= left)
            meter.charge(cut.work / LAGRANGE_WORK_PER_UNIT if meter.deterministic else time.perf_counter() - clock)
            if cut.value < lagrange.SCALE * points:  # the optimum breaks it
                count.add_region_cut(r, cut.prices, cut.region_value, lagrange.SCALE, cut_model)
                cuts.append((cut.prices, [cut.region_value if q == r else None for q in range(len(priced.graphs))]))
                added += 1
        left = room - (meter.used - start)
        if short or not added or left < minimum:
            break
        cut_model.clear_hints()
        _hint_all(cut_model, list(solved.response_proto.solution))
        st, solved = control.solve(cut_model, _solver(control, left, linearization=2))
        meter.add(solved)
        before = counted
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            counted = min(counted, int(solved.best_objective_bound + 1e-6))
        log.debug("region cut round %d (%d cuts): %s bound %s after %.2f", done + 1, added, STATUS.get(st), counted,
                  meter.used - start)
        if st != cp_model.OPTIMAL or counted <= legal:
            break
        if LAGRANGE_HAND_OVER and LEGAL_BENDERS and counted < before and counted - legal <= BENDERS_GAP:
            break  # the bound came down to within the Benders check's gap of the legal game: the check runs next
    return counted


def _benders_gardens(gardens: list[_Values], width: int) -> list[_Values]:
    """The gardens of a "garden" answer of no_game_reaches that are full solutions of the final-garden relaxation
    (`width` values), flagged as the Benders check's (solve plants one at the bound at once: BENDERS_GARDEN)."""
    out = [g for g in gardens if len(g.values) == width]
    for g in out:
        g.benders = True
    return out


def _recard(catalog: Catalog, game: list[Day], cards: list[int]) -> list[Day]:
    """`game` with each day's card switched to `cards[d]`: the new card's plants on the day's two squares (the
    order keeping most kinds; a wild keeps the kind that stood there). Its legality is the replay's to say."""
    out = []
    for day, cid in zip(game, cards):
        if day.chosen == cid:
            out.append(day)
            continue
        new = catalog.card(cid).plants
        options = []
        for perm in (tuple(new), tuple(reversed(new))):
            plantings = tuple(Planting(old.plant if kind == catalog.wild else kind, old.at)
                              for kind, old in zip(perm, day.plants))
            options.append((sum(a.plant == b.plant for a, b in zip(plantings, day.plants)), plantings))
        out.append(Day(cid, max(options, key=lambda o: o[0])[1], day.cards))
    return out


def _descend(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell | None,
             plan: Plan | None, control: SolveControl, bound: int, top: int, room: float,
             first: list[int] | None = None, excluded: list[list[int]] = (),
             cap: float | None = None, reaches: bool = False) -> tuple[int, float, list[_Values]]:
    """Bound descent: while the proven `bound` is above `top` (the best garden known), ask
    `no_game_reaches(bound)`; "none" proves bound - 1 a bound (repeat), "garden" or "open" stops.

    Returns (bound, cost, gardens): the bound is never below the best legal game, because each step lowers it
    only on a proven "none" (no game reaches `bound`, see no_game_reaches), so every game scores <= bound - 1.
    It stops at `top` + 1 answered "none" (then `top` is the bound). `gardens`: the final garden found by a
    "garden" answer (a full solution of the untimed final-garden model built with the same arguments,
    scoring >= the target; not always plantable day by day), else empty. `first` / `excluded` as in
    no_game_reaches (`first` is checked in the first round only; `excluded` card choices must have no final
    garden reaching `top` + 1, e.g. cards whose pinned search was proven optimal at `top`).
    A "garden" answer also raises `top` (a relaxed garden at `bound`).
    `cap` (None: off): each step asks the Benders master alone (`no_game_reaches(checks=0)`, at most
    `cap`; "none" when the master is infeasible, which is the same proof with no no-good added); the descent
    stops where the master finds a card choice (or runs out of its cap). `reaches`: `first`
    is a master solution at `bound` (the cut step's optimum): the first step's master search is skipped (its answer
    would be a card choice, at a cost: 8 units "open" on 32-card seed 2) and `first` is that card choice. Skipping
    a question never lowers a bound: same validity, every lowering is a proven "none".
    """
    meter, gardens = _Meter(control), []
    minimum = MIN_STEP if meter.deterministic else MIN_STEP_WALL

    def ask(target: int, limit: float, check_first=None, checks: int | None = None) -> str:
        answer, cost, rounds = no_game_reaches(catalog, side, drawing, days, gnome, plan, target, control, limit,
                                               first=check_first, excluded=excluded, found=gardens, checks=checks)
        meter.charge(cost)
        log.debug("descent%s: no game reaches %d? %s after %.2f (%d rounds)",
                  " (master alone)" if checks == 0 else "", target, answer, cost, rounds)
        return answer

    while bound > top and room - meter.used >= minimum:
        if cap is not None:
            # `reaches`: the master's answer at the first step is known (it would find `first`): stop there
            answer = "open" if reaches and first is not None else ask(bound, min(cap, room - meter.used), checks=0)
            reaches = False
        else:
            answer = ask(bound, room - meter.used, check_first=first)
        if answer == "garden":
            top = max(top, int(round(gardens[-1].objective_value)))
        if answer != "none":
            break
        bound -= 1
        first = None  # it reached the old target in the count relaxation, maybe not in the pinned check now
    return bound, meter.used, gardens


class _StopAt(cp_model.CpSolverSolutionCallback):
    """Stops a search once it reaches a score already proven to be the best possible."""

    def __init__(self, target: float | None):
        super().__init__()
        self.target = target

    def on_solution_callback(self) -> None:
        if self.target is not None and self.objective_value >= self.target:
            self.stop_search()


class _Collect(_StopAt):
    """Keeps every improving solution (full values), best last, and stops at a proven bound."""

    def __init__(self, target: float | None):
        super().__init__(target)
        self.found: list[_Values] = []

    def on_solution_callback(self) -> None:
        self.found.append(_Values(list(self.response_proto.solution), self.objective_value))
        super().on_solution_callback()


def _search(model: HorticultureModel, control: SolveControl, seconds: float, rng: random.Random,
            known_bound: int | None = None, start: _Values | None = None,
            first_share: float = 0.3) -> tuple[int, object, float, int | None]:
    """A first search, then neighbourhood moves, then a hinted run on the whole model.

    One CP-SAT worker finds good gardens slowly (no built-in LNS), so part of the time goes to
    re-optimising one patch of squares at a time with the plants of all other squares pinned.
    Only runs on the whole model give bounds. Returns (status, solver holding the best values,
    seconds spent, bound or None). Never uses more than `seconds` (a step that would get less than
    MIN_STEP is skipped); with `seconds` below MIN_STEP nothing runs: (FEASIBLE, start) or
    (UNKNOWN, None) with `known_bound`.
    """
    meter = _Meter(control)
    minimum = MIN_STEP if meter.deterministic else MIN_STEP_WALL
    if seconds < minimum:
        return (cp_model.FEASIBLE, start, 0.0, known_bound) if start is not None else \
            (cp_model.UNKNOWN, None, 0.0, known_bound)
    m = model.m
    stop = _StopAt(known_bound)
    m.clear_hints()
    if start is not None:
        _hint_all(m, start.values)  # complete and feasible: the search starts from it at once
    st, first = control.solve(m, _solver(control, seconds * first_share, linearization=2), stop)
    spent = meter.add(first)
    if st == cp_model.UNKNOWN and start is None and seconds - spent > 0.1:
        # the stronger LP sometimes finds no first garden in time; the default one always did
        st, first = control.solve(m, _solver(control, (seconds - spent) * 0.5, linearization=1), stop)
        spent = meter.add(first)
    m.clear_hints()
    if st in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
        bound = int(first.best_objective_bound + 1e-6) if st == cp_model.OPTIMAL else None
        return st, first, spent, bound
    bound = int(first.best_objective_bound + 1e-6) if st == cp_model.FEASIBLE else known_bound
    if known_bound is not None and bound is not None:
        bound = min(bound, known_bound)
    if st == cp_model.FEASIBLE and (start is None or first.objective_value >= start.objective_value):
        best = _Values(list(first.response_proto.solution), first.objective_value)
    elif start is not None:
        best = start
    else:
        return st, first, spent, bound
    best_value = best.objective_value
    values = best.values
    if bound is None:
        bound = 10 ** 9  # nothing proven yet: only the search below can stop early
    lns = len(model.days) >= NEIGHBOURHOOD_MIN_DAYS
    lns_until = max(0.8, min(0.9, first_share + 0.15))
    while lns and meter.used < seconds * lns_until and best_value < bound:
        spent = meter.used
        sub = m.clone()
        sub.clear_hints()
        for i in _neighbourhood(model, rng, free=rng.choice((6, 9, 12))):
            for t in model.types:
                sub.add(model.y[i][t] == best.value(model.y[i][t]))
        _hint_all(sub, values)
        # (at least 0.05 for a move, never past the whole step's `seconds`)
        st2, s2 = control.solve(sub, _solver(control, min(0.5, max(0.05, seconds * lns_until - spent),
                                                          seconds - spent), linearization=2), stop)
        spent = meter.add(s2)
        if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE) and s2.objective_value > best_value:
            best = _Values(list(s2.response_proto.solution), s2.objective_value)
            best_value, values = best.objective_value, best.values
    if best_value >= bound:
        return cp_model.OPTIMAL, best, spent, bound
    spent = meter.used
    if seconds - spent < minimum:
        return cp_model.FEASIBLE, best, spent, (bound if bound < 10 ** 9 else None)
    m.clear_hints()
    _hint_all(m, values)
    st3, s3 = control.solve(m, _solver(control, seconds - spent, linearization=2), stop)
    spent = meter.add(s3)
    m.clear_hints()
    if st3 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = min(bound, int(s3.best_objective_bound + 1e-6))
        if s3.objective_value >= best_value:
            return st3, s3, spent, bound
    return cp_model.FEASIBLE, best, spent, (bound if bound < 10 ** 9 else None)


def _hint_all(model: cp_model.CpModel, values: list[int]) -> None:
    hint = model.model_proto.solution_hint
    for index, value in enumerate(values):
        hint.vars.append(index)
        hint.values.append(value)


def _neighbourhood(model: HorticultureModel, rng: random.Random, free: int) -> list[int]:
    """Squares to pin: all but a compact patch of about `free` squares around a random centre."""
    cols, rows = model.sheet.columns, model.sheet.rows
    c0, r0 = rng.randrange(cols), rng.randrange(rows)
    near = sorted(range(model.n), key=lambda i: (abs(model.cells[i][0] - c0) + abs(model.cells[i][1] - r0),
                                                 rng.random()))
    return near[free:]


def _mirror(game: list[Day], columns: int) -> list[Day]:
    """The same game drawn left/right mirrored (legal and equal in score on a symmetric sheet)."""
    return [Day(d.chosen, tuple(Planting(p.plant, p.at if p.at == WINDOW else mirror_cell(p.at, columns))
                                for p in d.plants), d.cards) for d in game]


def _gnome_plan(model: HorticultureModel, solver: cp_model.CpSolver) -> tuple[Cell, Plan]:
    def pick(v: dict[str, cp_model.IntVar]) -> str:
        return next(t for t, b in v.items() if solver.value(b))
    gnome = model.cells[next(i for i, b in enumerate(model.gv) if solver.value(b))]
    return gnome, Plan(pick(model.plan_border), pick(model.plan_path),
                       (pick(model.plan_first), pick(model.plan_second)))


def _exact_score(catalog: Catalog, side: str, drawing: PathDrawing, game: list[Day], gnome: Cell, plan: Plan,
                 control: SolveControl, timed: bool = False, groups: str = "flow") -> int:
    """The encoding may under-claim points on a non-optimal game: score the same game exactly in CP-SAT.

    The untimed model is used by default: with every plant's square fixed it scores the same game
    (a legal game's own order satisfies its ordering constraint) and is much smaller. The flow
    group encoding is used by default: on a fixed garden it solves faster than the witnesses, and
    it is an independent second encoding of the same rules (both are held against the pure scorer).
    """
    fixed = [DaySpec((day.chosen,), day.plants) for day in game]
    model = HorticultureModel(catalog, side, drawing, fixed, gnome, plan, timed=timed, groups=groups)
    # A fixed game leaves only the helper variables free: solved at the root in practice. The
    # allowance is deterministic time when the control asks for it, so the outcome is reproducible.
    status, solver = control.solve(model.m, _solver(control, max(1.0, _budget(control)), check=True))
    if status != cp_model.OPTIMAL:
        raise ModelMismatch(f"scoring a fixed game did not reach optimality ({STATUS.get(status)})")
    return int(round(solver.objective_value))


def _pure_score(catalog: Catalog, side: str, drawing: PathDrawing, game: list[Day], gnome: Cell, plan: Plan) -> int:
    """A legal game's points by the pure rules and scorer (a short wall-clock budget's score; ModelMismatch when the
    game breaks a rule, as in _checked)."""
    sheet, violations = replay(catalog, Setup(side, drawing, gnome, plan), game)
    if violations:
        raise ModelMismatch(f"game breaks a rule: {violations[0].where}: {violations[0].reason}")
    return score_sheet(catalog, sheet).total


def _refit(catalog: Catalog, side: str, drawing: PathDrawing, game: list[Day], played: tuple[Cell, Plan],
           fitted: tuple[Cell, Plan]) -> tuple[Cell, Plan]:
    """The gnome and plan for `game` (legal with `played`) instead of a second greedy game: `fitted` when the game is
    still legal with it (a plant may have leaned on the old gnome square) and scores more, else `played`."""
    setup = Setup(side, drawing, *fitted)
    sheet, violations = replay(catalog, setup, game)
    if violations or score_sheet(catalog, sheet).total <= _pure_score(catalog, side, drawing, game, *played):
        return played
    return fitted


def _checked(catalog: Catalog, side: str, drawing: PathDrawing, status: str, objective: int, bound: int | None,
             game: list[Day], gnome: Cell, plan: Plan, wall: float) -> Solution:
    sheet, violations = replay(catalog, Setup(side, drawing, gnome, plan), game)
    if violations:
        raise ModelMismatch(f"CP-SAT game breaks a rule: {violations[0].where}: {violations[0].reason}")
    pure = score_sheet(catalog, sheet)
    if pure.total != objective:
        raise ModelMismatch(f"CP-SAT objective {objective} != pure score {pure.total}")
    if status == "optimal":
        bound = objective
    elif bound is not None and bound < objective:
        raise ModelMismatch(f"proven bound {bound} is below the score {objective} of a legal game")
    # bound stays None when no search proved one: never report the score itself as a bound
    return Solution(status, objective, bound, game, gnome, plan, pure, wall)


def no_game_reaches(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell | None,
                    plan: Plan | None, target: int, control: SolveControl, budget: float,
                    cuts: frozenset[str] = BOUND_CUTS, cut: str | None = None,
                    first: list[int] | None = None,
                    excluded: list[list[int]] = (), found: list | None = None,
                    checks: int | None = None, region_cuts: list | None = None) -> tuple[str, float, int]:
    """Is there a game scoring `target` or more? A logic-based Benders loop over the card choices.

    Master: the count relaxation with `cuts` and objective >= target. Each card choice it finds is checked
    by the final-garden relaxation (exact witness groups) with those cards pinned and objective >= target;
    when that is infeasible, the card choice is cut off the master (a no-good) and the master is solved
    again. Returns ("none", cost, rounds) when the master became infeasible: proven, no game reaches
    `target`. Proof: a game scoring >= target has a card choice C; its final garden is a solution of the
    final-garden relaxation pinned to C and of the count relaxation (both relaxations of every game,
    held against the oracle in the tests), each with objective >= target; a no-good only removes a C
    whose pinned relaxation has no such solution, so C survives every cut and the master stays feasible.
    ("garden", cost, rounds): a final garden reaching `target` was found on some cards (it may not be
    plantable day by day; nothing is proven). ("open", cost, rounds): the budget ran out.
    `budget` is in the control's unit (deterministic time when the control has a deterministic limit).
    `cut` (default BENDERS_CUT): "card" cuts off the one card choice; "mix" every card choice bringing
    the same plants per kind; "dominance" every card choice whose plants are that mix with some wilds
    fixed (see `_mix_cut` for why both are valid); "both": the card no-good and the dominance cut.
    `first`: a card choice checked first, without a master search (e.g. the optimum of the count
    relaxation with `cuts`, which reaches `target` when that relaxation's bound does). The proof above
    does not depend on which card choices are checked: a no-good needs only its pinned check's infeasibility.
    `excluded`: card choices already known to have no final garden reaching `target` (their pinned
    final-garden relaxation, built with the same arguments, proven optimal below it): cut off the master
    at once, like a checked card choice, with no pinned check (the proof above needs only that fact).
    `found`: a list that gets the garden of a "garden" answer (a full solution of
    HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False): only constraints were added).
    `checks`: at most this many pinned checks (None: no limit; `first` counts as one); when the master finds a
    card choice with none left, the answer is "open". With checks=0 only the master runs: "none" then means the
    count relaxation with `cuts` and the `excluded` cuts has no solution >= target (the same proof, with no
    no-good from a check).
    """
    cut = cut or BENDERS_CUT
    if cut not in ("card", "mix", "dominance", "both"):
        raise ValueError(f"cut: expected card, mix, dominance or both, got {cut!r}")
    if CLASS_MASTER and gnome is not None and plan is not None and frozenset(cuts) == CLASS_CUTS:
        master = ClassCountModel(catalog, side, drawing, days, gnome, plan)
        if region_cuts:  # the Lagrangian step's region cuts (valid for every game: lagrange.py)
            master.add_region_cuts(region_cuts, lagrange.SCALE)
    else:
        master = HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False, groups="count",
                                   count_cuts=cuts)
    master.m.add(master.objective >= target)
    meter, rounds = _Meter(control), 0
    for cards in excluded:
        _no_good(master, catalog, days, cards, cut)
    spent = meter.used
    while spent < budget:
        if first is not None and rounds == 0 and (checks is None or checks > 0):
            cards = list(first)
        else:
            # (the objective stays: its LP bound prunes; any solution already reaches target, so stop at it)
            st, sm = control.solve(master.m, _solver(control, budget - spent, linearization=2,
                                                     branching=MASTER_BRANCHING), _StopAt(target))
            spent = meter.add(sm)
            if st == cp_model.INFEASIBLE:
                return "none", spent, rounds
            if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return "open", spent, rounds
            cards = master.chosen_cards(sm)
            if checks is not None and rounds >= checks:
                return "open", spent, rounds
        rounds += 1
        sub = HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False)
        for lit in sub.card_literals(cards):
            sub.m.add(lit == 1)
        sub.m.add(sub.objective >= target)
        spent = meter.used
        st2, s2 = control.solve(sub.m, _solver(control, max(0.001, budget - spent), linearization=2), _StopAt(target))
        spent = meter.add(s2)
        log.debug("benders round %d: cards %s -> %s after %.2f", rounds, cards, STATUS.get(st2), spent)
        if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if found is not None:  # the garden, as a full solution of the pinned-free untimed model
                found.append(_Values(list(s2.response_proto.solution), s2.objective_value))
            return "garden", spent, rounds
        if st2 != cp_model.INFEASIBLE:
            return "open", spent, rounds
        _no_good(master, catalog, days, cards, cut)
    return "open", spent, rounds


def _no_good(master: HorticultureModel, catalog: Catalog, days: list[DaySpec], cards: list[int], cut: str) -> None:
    """Cut a card choice whose pinned final-garden relaxation cannot reach the target off the Benders master."""
    if cut in ("card", "both"):
        master.m.add_bool_or([lit.Not() for d, lit in enumerate(master.card_literals(cards))
                              if len(days[d].options) > 1])
    if cut != "card":
        _mix_cut(master, catalog, days, cards, exact=cut == "mix")


def _mix(catalog: Catalog, days: list[DaySpec], cards: list[int]) -> dict[str, int]:
    """The plants a card choice brings on the open days, per kind (wilds under the catalog's wild id)."""
    out: dict[str, int] = {}
    for d, cid in enumerate(cards):
        if days[d].fixed is None:
            for plant in catalog.card(cid).plants:
                out[plant] = out.get(plant, 0) + 1
    return out


def _mix_cut(master: HorticultureModel, catalog: Catalog, days: list[DaySpec], cards: list[int],
             exact: bool) -> None:
    """Cut off every card choice whose mix is that of `cards` (exact) or at least as fixed as it (dominance).

    Validity (the final-garden relaxation, untimed, pinned to a card choice C): C enters that model only
    through each open day's plant kinds (`_plants`: a non-wild plant's kind is fixed, a wild's is free) and
    the rule that every plant brought home is drawn in the garden or the window box (`_cell_types`,
    `_window_box`); no constraint names a plant's day or slot otherwise (no day-by-day placement when
    untimed; the ordering constraint orders squares, not days), and the plants are interchangeable in
    the window-box constraints. So its feasible set of gardens and boxes depends on C only through the
    mix (N_t non-wild plants of kind t, W wilds): equal mixes give the same optimum ("mix" no-good).
    Dominance: every open day brings exactly 2 plants, so sum N_t + W is the same for every C. A mix N'
    with N'_t >= N_t for every kind is N with some wilds fixed to kinds (W' = W - sum (N'_t - N_t) >= 0):
    any garden feasible for N' is feasible for N (give those wilds those kinds). So when N has no garden
    reaching the target, no N' >= N has one: cut "some kind t has N'_t <= N_t - 1" (an empty clause when
    N has no non-wild plant: then no card choice at all reaches the target, and the master is infeasible).
    """
    m, wild = master.m, catalog.wild
    mix = _mix(catalog, days, cards)

    def count(kind: str):
        return sum(b * sum(x == kind for x in catalog.card(cid).plants)
                   for d, spec in enumerate(days) if spec.fixed is None
                   for b, cid in zip(master.choice[d], spec.options))

    kinds = [t for t in master.types if mix.get(t, 0) > 0]
    if exact:
        kinds = master.types + [wild]
    away = []
    for t in kinds:
        n = mix.get(t, 0)
        lower = m.new_bool_var(f"mixcut_{t}_lt{n}")
        m.add(count(t) <= n - 1).only_enforce_if(lower)
        away.append(lower)
        if exact:
            higher = m.new_bool_var(f"mixcut_{t}_gt{n}")
            m.add(count(t) >= n + 1).only_enforce_if(higher)
            away.append(higher)
    m.add_bool_or(away)
