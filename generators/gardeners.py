"""Gardeners daily puzzles: the decree (a proven-solvable card set, graded) and the impossible decree.

Both draw Standard cards with the `random.Random` they are given and prove every claim with the
engine's CP-SAT model (one worker, fixed seed, deterministic limits), so the same seed gives the
same puzzle on every machine. See docs/puzzles.md for the grade formula.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ortools.sat.python import cp_model

from generators.data import REFERENCE, GameData
from generators.effort import puzzle_control
from solver.errors import InputError
from solver.games.gardeners import engine
from solver.games.gardeners.cards import Card, load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog

MODE = MODES["solo"]  # 6x6, all 36 tiles, the Standard deck
DECK = "standard"

DECREE_CARDS = {"easy": (3,), "medium": (4, 5), "hard": (6, 7)}
# Grade bands (half-open); a candidate outside its band is drawn again (see generate_decree).
DECREE_BANDS = {"easy": (0.0, 5.0), "medium": (5.0, 7.5), "hard": (7.5, math.inf)}
# Impossible decrees: each level's card count and the shape of conflict it asks for (see generate_impossible).
# "pair": exactly one minimal conflict, of two cards (at medium hidden among three bystanders); "tangle": two or
# more minimal conflicts, or one of three or more cards, so that finding the fewest cards to discard takes
# reasoning (two conflicts sharing a card are mended by that one card; discarding one card of each costs a point).
IMPOSSIBLE_LEVELS = {"easy": (3, "pair"), "medium": (5, "pair"), "hard": (6, "tangle")}
IMPOSSIBLE_CARDS = {level: cards for level, (cards, _) in IMPOSSIBLE_LEVELS.items()}
# Candidates drawn per impossible decree (times Settings.attempts): a tangle is rare among random sets (22 of
# 1,500 random 6-card sets, 7 Dec 2026), a single pair common (143 of 1,500 5-card sets).
IMPOSSIBLE_DRAWS = {"pair": 10, "tangle": 50}


@dataclass(frozen=True)
class Settings:
    """Everything that shapes a puzzle besides the seed; part of what GENERATOR_VERSION stands for."""

    solve_limit: float = 1.0    # deterministic seconds for the witness search (beyond: not a daily)
    probe_limit: float = 0.2    # deterministic seconds for each forced-cell probe
    probes: int = 6             # forced-cell probes at most (probing stops at the first undecided one)
    attempts: int = 30          # candidates drawn before settling for the nearest grade
    screen_limit: float = 0.3   # deterministic seconds to screen an impossible-decree candidate
    explain_limit: float = 1.0  # deterministic seconds per subset when explaining an impossible decree


SETTINGS = Settings()


class GenerationError(RuntimeError):
    """No candidate could be proven within the attempts (never happens with the reference data)."""


@dataclass(frozen=True)
class Grade:
    cards: int
    effort: float          # deterministic seconds CP-SAT spent finding the witness
    forced: int            # cells proven to hold the same tile class and orientation in every valid garden
    unresolved: int        # cells neither proven forced nor shown free within the probes
    solutions: int         # different valid gardens found by the probes: at least this many exist
    score: float

    def to_dict(self) -> dict:
        return {"cards": self.cards, "effort": round(self.effort, 6), "forced": self.forced,
                "unresolved": self.unresolved, "solutions_at_least": self.solutions,
                "score": round(self.score, 3)}


def grade_score(cards: int, effort: float, forced: int, cells: int = 36) -> float:
    """grade = cards + log10(1 + 1000 * effort) + 6 * forced / cells.

    More cards to keep in mind, more search the solver needed to find any garden (deterministic
    seconds, so the same on every machine) and more cells with a single possible tile all make a
    decree harder. Only proven quantities enter: forced cells are proven by infeasibility, and the
    gardens found by the probes are a lower bound only, so they are reported but not scored.
    """
    return cards + math.log10(1 + 1000 * effort) + 6 * forced / cells


def _standard(data: GameData = REFERENCE) -> list[Card]:
    return load_cards(data.cards).of(DECK)


def grade(cards: list[Card], settings: Settings = SETTINGS, data: GameData = REFERENCE):
    """(verdict, witness garden, Grade). The witness and the probes are solved on the engine's model.

    Forced cells: after the witness W, each still-undecided cell c is probed with the assumption
    "c does not show W[c]"; a garden found that way shows every cell where it differs from W is free
    (and counts as one more solution), a proof of infeasibility shows c is forced. Gardens are
    counted up to the rotation the model's symmetry breaking fixes (the engine's convention).
    """
    catalog = load_catalog(data.tiles)
    gm = GardenModel(cards, MODE, catalog.tiles_of(MODE.tile_sets))
    if any(impossible(gm, c) for c in cards):
        return engine.UNSOLVABLE, None, None
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    control = puzzle_control(settings.solve_limit)
    status, solver = control.solve(gm.model, _solver(control))
    if status == cp_model.INFEASIBLE:
        return engine.UNSOLVABLE, None, None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return engine.UNKNOWN, None, None
    effort = solver.deterministic_time
    witness = gm.chosen(solver)
    garden = gm.to_garden(witness)
    if not check(garden, cards).valid:
        raise engine.EngineError("witness fails the pure checker")
    undecided = set(gm.cells)
    forced, solutions, probes = 0, 1, 0
    probe_control = puzzle_control(settings.probe_limit)
    # Starting from the witness, a garden differing in one cell is usually a short repair away.
    for (cell, sig), var in gm.y.items():
        gm.model.add_hint(var, 1 if witness[cell] == sig else 0)
    for cell in gm.cells:
        if cell not in undecided:
            continue
        if probes >= settings.probes:
            break
        probes += 1
        gm.model.clear_assumptions()
        gm.model.add_assumptions([gm.y[(cell, witness[cell])].Not()])
        status, solver = probe_control.solve(gm.model, _solver(probe_control))
        if status == cp_model.INFEASIBLE:
            forced += 1
            undecided.discard(cell)
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            other = gm.chosen(solver)
            if not check(gm.to_garden(other), cards).valid:
                raise engine.EngineError("probe garden fails the pure checker")
            solutions += 1
            undecided -= {c for c in gm.cells if other[c] != witness[c]}
        else:
            # measured: once one probe runs out of its limit, the others on the same model do too;
            # stop paying for probes that decide nothing
            break
    gm.model.clear_assumptions()
    unresolved = len(undecided)
    score = grade_score(len(cards), effort, forced, len(gm.cells))
    return engine.SOLVABLE, garden, Grade(len(cards), effort, forced, unresolved, solutions, score)


def _solver(control):
    solver = control.new_solver()
    # Same search parameters as the engine's solves (probing off measured faster on these models).
    solver.parameters.cp_model_probing_level = 0
    return solver


def _draw(rng: random.Random, k: int, data: GameData = REFERENCE) -> list[Card]:
    return sorted(rng.sample(_standard(data), k), key=lambda c: c.id)


def generate_decree(difficulty: str, rng: random.Random, settings: Settings = SETTINGS,
                    data: GameData = REFERENCE) -> dict:
    """A proven-solvable set of Standard cards whose grade falls in the difficulty's band; after
    `settings.attempts` candidates, the candidate nearest the band (first one on ties)."""
    if difficulty not in DECREE_CARDS:
        raise InputError("difficulty", f"one of {list(DECREE_CARDS)}", difficulty)
    lo, hi = DECREE_BANDS[difficulty]
    best = None
    for attempt in range(settings.attempts):
        cards = _draw(rng, rng.choice(DECREE_CARDS[difficulty]), data)
        verdict, garden, g = grade(cards, settings, data)
        if verdict != engine.SOLVABLE:
            continue
        distance = max(lo - g.score, g.score - hi, 0.0)
        if best is None or distance < best[0]:
            best = (distance, cards, garden, g, attempt)
        if distance == 0.0:
            break
    if best is None:
        raise GenerationError(f"no solvable {difficulty} decree in {settings.attempts} attempts")
    _, cards, garden, g, attempt = best
    public = {"mode": MODE.name, "size": MODE.size, "deck": DECK, "card_ids": [c.id for c in cards],
              "grade": g.to_dict(), "attempts": attempt + 1}
    answer = {"kind": "garden", "solution": garden.to_dict()}
    return {"public": public, "answer": answer}


MAX_WITNESSES = 5000
_witness_cache: dict[tuple[str, str], list[frozenset[str]]] = {}


def _witnesses_for(deck_digest: str, catalog_digest: str) -> list[frozenset[str]]:
    return _witness_cache.setdefault((deck_digest, catalog_digest), [])


def conflict_shape(conflicts: list[list[str]]) -> str:
    """"pair" for a single minimal conflict of two cards, "tangle" for anything else (IMPOSSIBLE_LEVELS)."""
    return "pair" if len(conflicts) == 1 and len(conflicts[0]) == 2 else "tangle"


def generate_impossible(difficulty: str, rng: random.Random, settings: Settings = SETTINGS,
                        data: GameData = REFERENCE) -> dict:
    """A set of Standard cards proven unsolvable, with every minimal discard set (complete), whose conflicts have
    the level's shape (IMPOSSIBLE_LEVELS). Unsolvable candidates of another shape are passed over; after
    IMPOSSIBLE_DRAWS[shape] x settings.attempts draws the first proven candidate is kept (its shape is in the
    answer either way)."""
    if difficulty not in IMPOSSIBLE_LEVELS:
        raise InputError("difficulty", f"one of {list(IMPOSSIBLE_LEVELS)}", difficulty)
    k, shape = IMPOSSIBLE_LEVELS[difficulty]
    draws = settings.attempts * IMPOSSIBLE_DRAWS[shape]
    catalog = load_catalog(data.tiles)
    standard = _standard(data)
    # Cards a garden already found satisfies need no search: most random sets are solvable, and
    # one witness (checked against the whole deck) rules out many later candidates at once. The
    # witnesses are kept for the process's later puzzles: a skipped candidate is one the search
    # would have rejected too (solvable is a fact), so the puzzle does not depend on what is kept.
    witnesses = _witnesses_for(load_cards(data.cards).digest, catalog.digest)
    first = None
    for attempt in range(draws):
        cards = _draw(rng, k, data)
        ids = frozenset(c.id for c in cards)
        if any(ids <= w for w in witnesses):
            continue
        result = engine.solve(cards, MODE, catalog, puzzle_control(settings.screen_limit))
        if result.verdict == engine.SOLVABLE and len(witnesses) < MAX_WITNESSES:
            report = check(result.garden, standard)
            witnesses.append(frozenset(v.card_id for v in report.verdicts if v.status == "satisfied"))
        if result.verdict != engine.UNSOLVABLE:
            continue
        ex = engine.explain(cards, MODE, catalog, puzzle_control(settings.explain_limit))
        if ex.verdict != engine.UNSOLVABLE or not ex.complete:
            continue
        public = {"mode": MODE.name, "size": MODE.size, "deck": DECK, "card_ids": [c.id for c in cards],
                  "attempts": attempt + 1}
        answer = {"kind": "discard", "discards": ex.discards, "conflicts": ex.conflicts,
                  "shape": conflict_shape(ex.conflicts)}
        if answer["shape"] == shape:
            return {"public": public, "answer": answer}
        first = first or {"public": public, "answer": answer}
    if first is not None:
        return first
    raise GenerationError(f"no proven impossible {difficulty} decree in {draws} attempts")


# ---- answers ------------------------------------------------------------------------------

def check_decree(public: dict, answer: dict, garden_doc, data: GameData = REFERENCE) -> dict:
    """The player's garden against the decree's cards (the pure checker); any valid garden is right,
    not only the stored one."""
    cards = load_cards(data.cards).resolve(public["card_ids"])
    garden = parse_garden(garden_doc, load_catalog(data.tiles), MODES[public["mode"]])
    report = check(garden, cards)
    return {"correct": report.valid, "complete": report.complete,
            "verdicts": [{"card_id": v.card_id, "kind": v.kind, "status": v.status, "reason": v.reason,
                          "cells": [list(c) for c in v.cells]} for v in report.verdicts]}


def check_discard(public: dict, answer: dict, discard_ids, data: GameData = REFERENCE) -> dict:
    """Right when the named cards are one of the minimal discard sets with the fewest cards. Another minimal set
    (no card of it can be kept, but a smaller set would do: two where one is enough, the puzzle walkthrough of
    7 Dec) is below the optimum, since the rulebook takes a point for each discarded card after the first (`score`
    and `optimum` are those points); a superset of one also makes the rest solvable but discards more than needed
    (not minimal; `violations` names the cards that could be kept); any other leaves a conflict, named in
    `violations`. A WRONG discard's `score` is its cards' points all the same: it is not comparable with `optimum`,
    as the discard does not work (read `outcome`)."""
    if isinstance(discard_ids, str) or not isinstance(discard_ids, (list, tuple)):
        raise InputError("discard_card_ids", "must be a list of card ids", discard_ids)
    in_play = set(public["card_ids"])
    seen: set = set()
    for i, cid in enumerate(discard_ids):
        if cid not in in_play:
            raise InputError(f"discard_card_ids[{i}]", "not a card of this puzzle", cid)
        if cid in seen:
            raise InputError(f"discard_card_ids[{i}]", "card given twice", cid)
        seen.add(cid)
    named = frozenset(discard_ids)
    minimal = [frozenset(d) for d in answer["discards"]]
    fewest = min(len(d) for d in minimal)
    # the rulebook's Solo scoring: -1 point for each discarded card except the first
    out = {"score": -max(0, len(named) - 1), "optimum": -max(0, fewest - 1), "violations": []}
    if named in minimal and len(named) == fewest:
        outcome = "correct"
    elif named in minimal:
        outcome = "below_optimum"
        out["violations"] = [f"discarding {fewest} card{'s' if fewest > 1 else ''} also makes the rest solvable: "
                             "each discarded card after the first costs a point"]
    elif any(d < named for d in minimal):
        outcome = "not_minimal"
        inside = min((d for d in minimal if d < named), key=lambda d: (len(d), sorted(d)))
        spare = sorted(named - inside)
        out["violations"] = [f"discarding {_listed(sorted(inside))} alone also makes the rest solvable: "
                             f"{_listed(spare)} could be kept"]
    else:
        outcome = "wrong"
        kept = [sorted(c) for c in answer["conflicts"] if not set(c) & named]
        out["violations"] = [f"{_listed(c)} still conflict: no garden meets them together" for c in kept]
    return {"correct": outcome == "correct", "outcome": outcome, **out}


def _listed(ids: list[str]) -> str:
    """"S08", "S08 and S14", "S08, S14 and S38"."""
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"
