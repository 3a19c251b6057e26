"""The Gardeners capabilities as plain functions: what the gRPC servicer and the CLI call.

Inputs are plain data (ids, dicts); every input error raises solver.errors.InputError naming the
field, before any model is built. Catalog and card files are optional paths (reference data by default).
"""
from __future__ import annotations

import dataclasses

from solver.core.solve import SolveControl
from solver.errors import InputError, InputErrors, under
from solver.games.gardeners import engine, moves
from solver.games.gardeners.cards import DECKS, Card, load_cards
from solver.games.gardeners.checker import CheckReport, check
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.modes import get_mode
from solver.games.gardeners.tiles import Tile, load_catalog

# The library's own cap on the cards of one request. Solo "do[es] not discard any cards placed in front of you, even
# when you have more than three" and sets no limit, so a long Solo game may pass 12 (the cap until 7 Dec 2026, which
# also overruled a server started with a larger --max-cards); the server's --max-cards (default 12) is the
# operational limit and lies within this one. Beyond MAX_ENUMERATED_CARDS, explain finds one conflict, not all.
MAX_CARDS = 40
MAX_COUNT_CAP = 1000


def list_tiles(catalog: str | None = None) -> list[Tile]:
    return list(load_catalog(catalog).tiles)


def list_cards(deck: str | None = None, cards: str | None = None) -> list[Card]:
    if deck and deck not in DECKS:
        raise InputError("deck", f"unknown deck; one of {list(DECKS)}", deck)
    d = load_cards(cards)
    return d.of(deck) if deck else list(d.cards)


def _cards(card_ids, cards: str | None, allow_empty: bool = True) -> list[Card]:
    if isinstance(card_ids, (list, tuple)) and len(card_ids) > MAX_CARDS:
        raise InputError("card_ids", f"at most {MAX_CARDS} cards", len(card_ids))
    chosen = load_cards(cards).resolve(list(card_ids) if isinstance(card_ids, tuple) else card_ids)
    if not chosen and not allow_empty:
        raise InputError("card_ids", "name at least one card")
    return chosen


def check_garden(garden: dict, card_ids, mode: str | None = None, catalog: str | None = None,
                 cards: str | None = None) -> CheckReport:
    m = get_mode(mode)
    chosen = _cards(card_ids, cards)
    return check(parse_garden(garden, load_catalog(catalog), m), chosen)


def solve(card_ids, mode: str | None = None, control: SolveControl | None = None, catalog: str | None = None,
          cards: str | None = None) -> engine.Solved:
    m = get_mode(mode)
    return engine.solve(_cards(card_ids, cards), m, load_catalog(catalog), control)


def check_solvable(card_ids, mode: str | None = None, control: SolveControl | None = None,
                   catalog: str | None = None, cards: str | None = None) -> engine.Explanation:
    m = get_mode(mode)
    return engine.explain(_cards(card_ids, cards), m, load_catalog(catalog), control)


def count_solutions(card_ids, mode: str | None = None, cap: int = 10, control: SolveControl | None = None,
                    catalog: str | None = None, cards: str | None = None) -> engine.Count:
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_COUNT_CAP:
        raise InputError("cap", f"must be an integer from 1 to {MAX_COUNT_CAP}", cap)
    m = get_mode(mode)
    return engine.count_solutions(_cards(card_ids, cards), m, load_catalog(catalog), cap, control)


def closest_solution(garden: dict, card_ids, mode: str | None = None, control: SolveControl | None = None,
                     catalog: str | None = None, cards: str | None = None) -> engine.Closest:
    m = get_mode(mode)
    cat = load_catalog(catalog)
    current = parse_garden(garden, cat, m)
    return engine.closest_solution(current, _cards(card_ids, cards), m, cat, control)


def legal_moves(state: dict, catalog: str | None = None) -> list[moves.Move]:
    return moves.legal_moves(moves.parse_state(state, load_catalog(catalog)))


def validate_move(state: dict, move: dict, catalog: str | None = None) -> moves.MoveVerdict:
    """Legal or not with the reason; a malformed move (a missing cell, rotation 9, a player the state
    does not have) is an InputError naming the move's field instead."""
    cat = load_catalog(catalog)
    st, mv = moves.parse_state(state, cat), moves.parse_move(move)
    moves.check_move_fields(st, mv, cat)
    return moves.validate_move(st, mv)


# ---- hints (solver.games.gardeners.hints / deduction) ----------------------------------------

def _hint_args(garden: dict, card_ids, mode: str | None, catalog: str | None, cards: str | None):
    from solver.games.gardeners.garden import parse_garden as _parse
    m = get_mode(mode)
    cat = load_catalog(catalog)
    return _parse(garden, cat, m), _cards(card_ids, cards, allow_empty=False), m, cat


def floating_args(garden: dict, card_ids, mode: str | None, catalog: str | None, cards: str | None,
                  floating: bool):
    """_hint_args for a garden that may float: with `floating` its tiles may lie anywhere on the table
    (hints.frame), slid into the frame; returns the args and the offset to slide the answer back by."""
    from solver.games.gardeners.hints import frame
    offset = (0, 0)
    if floating and get_mode(mode).name == "solo":
        raise InputError("floating", "a Solo garden stays in its frame (tiles are moved freely within it); "
                                     "floating is for the modes played by the Normal rules", floating)
    if not floating:
        return _hint_args(garden, card_ids, mode, catalog, cards), offset
    garden, offset = frame.into_frame(garden, get_mode(mode).size)
    parsed, chosen, m, cat = _hint_args(garden, card_ids, mode, catalog, cards)
    return (dataclasses.replace(parsed, room=frame.room(offset, m.size)), chosen, m, cat), offset


def check_progress(garden: dict, card_ids, mode: str | None = None, control: SolveControl | None = None,
                   catalog: str | None = None, cards: str | None = None, floating: bool = False):
    from solver.games.gardeners import hints
    from solver.games.gardeners.hints import frame
    args, offset = floating_args(garden, card_ids, mode, catalog, cards, floating)
    return frame.progress_back(hints.check_progress(*args, control, floating=floating), offset)


def repair(garden: dict, card_ids, mode: str | None = None, removal_rules: bool = False,
           control: SolveControl | None = None, catalog: str | None = None, cards: str | None = None,
           floating: bool = False):
    from solver.games.gardeners import hints
    from solver.games.gardeners.hints import frame
    args, offset = floating_args(garden, card_ids, mode, catalog, cards, floating)
    return frame.repair_back(hints.repair(*args, control, removal_rules=removal_rules, floating=floating), offset)


def move_rules(mode: str | None, rules: str | None) -> str:
    """The move rules a hint follows: the mode's own when not given (Solo mode: "solo", the others "normal"). The
    Normal rules in Solo mode are refused: a Solo game has no players to hand a removed tile to (GetHint in Solo
    mode without `rules` answered "REMOVE ... to player 1", the client walkthrough of 7 Dec)."""
    solo = get_mode(mode).name == "solo"
    if rules is None:
        return "solo" if solo else "normal"
    if solo and rules == "normal":
        raise InputError("rules", "a Solo-mode garden is played by the Solo rules (leave rules unset, or solo)",
                         rules)
    return rules


def hint(garden: dict, card_ids, mode: str | None = None, rules: str | None = None, removal_rules: bool = True,
         control: SolveControl | None = None, catalog: str | None = None, cards: str | None = None,
         floating: bool = False, target: dict | None = None):
    """The next move with the card it serves; `Hint.at_level(1..3)` gives the progressive views. `rules`: "normal"
    or "solo", None for the mode's own (`move_rules`). With `floating` the garden may lie anywhere on the table and
    the move is in its coordinates. `target` (Solo rules): a previous hint's target garden, whose route is kept
    unless a shorter one is found."""
    from solver.games.gardeners import hints
    from solver.games.gardeners.garden import parse_garden as _parse
    from solver.games.gardeners.hints import frame
    rules = move_rules(mode, rules)
    if floating and rules == "solo":
        raise InputError("floating", "Solo rules keep the garden in its frame; floating is for the Normal rules",
                         floating)
    args, offset = floating_args(garden, card_ids, mode, catalog, cards, floating)
    known = None
    if target is not None:
        try:
            known = _parse(target, args[3], args[2])
        except InputError as exc:
            raise under("target", exc) from None
    return frame.hint_back(hints.next_move(*args, control, rules=rules, removal_rules=removal_rules,
                                           floating=floating, target=known), offset)


def forced_placements(garden: dict, card_ids, mode: str | None = None, control: SolveControl | None = None,
                      catalog: str | None = None, cards: str | None = None):
    from solver.games.gardeners import hints
    return hints.forced_placements(*_hint_args(garden, card_ids, mode, catalog, cards), control)


def deduce_card(kind: str, trials: list[dict], mode: str | None = None, garden: dict | None = None,
                deck: str | None = None, catalog: str | None = None, cards: str | None = None,
                control: SolveControl | None = None, exclude: list | None = None, expert: bool = False):
    """trials: [{"garden": {...}, "verdict": "thrilled"|"angry"}]; the deck defaults to the mode's, with `expert`
    the Expert cards added ("You can open the packet of Expert cards and add them to the Standard cards"; a deck
    may also be decks joined by "+", e.g. "standard+expert"). `exclude`: cards the table has already seen face up
    (each card exists once), never a candidate. The scan for the best next change stops when `control`'s time runs
    out (`split_complete` False)."""
    from solver.games.gardeners import deduction
    m = get_mode(mode)
    cat = load_catalog(catalog)
    if expert and "standard" not in (deck or m.deck).split("+"):
        raise InputError("expert", "the Expert cards join the Standard deck (the beginner, normal and solo modes), "
                                   f"not {deck or m.deck}", True)
    decks = (deck or m.deck).split("+") + (["expert"] if expert else [])
    for d in decks:
        if d not in DECKS:
            raise InputError("deck", f"unknown deck; one of {list(DECKS)}, or several joined by +", deck)
    deck_cards = load_cards(cards)
    seen = {c.id for c in deck_cards.resolve(list(exclude or []), "exclude_card_ids")}
    if not isinstance(trials, list):
        raise InputError("trials", "must be a list of {garden, verdict}", type(trials).__name__)
    parsed = []
    for i, t in enumerate(trials):
        if not isinstance(t, dict):
            raise InputError(f"trials[{i}]", "must be an object {garden, verdict}", t)
        try:
            g = parse_garden(t.get("garden"), cat, m)
        except InputError as exc:  # the same errors under trials[i].garden (setting exc.field left the message,
            # built when raised, naming placements[0].tile)
            def moved(e: InputError, i=i) -> InputError:
                return InputError(f"trials[{i}].garden" + ("" if e.field == "garden" else f".{e.field}"),
                                  e.description, e.value)
            raise (InputErrors([moved(e) for e in exc.errors]) if isinstance(exc, InputErrors)
                   else moved(exc)) from None
        parsed.append(deduction.Trial(g, t.get("verdict")))
    base = parse_garden(garden, cat, m) if garden else None
    pool = [c for d in dict.fromkeys(decks) for c in deck_cards.of(d) if c.id not in seen]
    return deduction.deduce(kind, parsed, pool, base, control)
