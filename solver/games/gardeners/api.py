"""The Gardeners capabilities as plain functions: what the gRPC servicer and the CLI call.

Inputs are plain data (ids, dicts); every input error raises solver.errors.InputError naming the
field, before any model is built. Catalog and card files are optional paths (reference data by default).
"""
from __future__ import annotations

from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, moves
from solver.games.gardeners.cards import DECKS, Card, load_cards
from solver.games.gardeners.checker import CheckReport, check
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.modes import get_mode
from solver.games.gardeners.tiles import Tile, load_catalog

MAX_CARDS = 12       # more cards than any game puts in play at once (Solo keeps adding, rarely past 10)
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
    return moves.validate_move(moves.parse_state(state, load_catalog(catalog)), moves.parse_move(move))
