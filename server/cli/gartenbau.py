"""`gardens gartenbau ...`: validate, score, solve and hint Gartenbau gardens read from JSON files."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from solver.errors import InputError
from solver.games.gartenbau import api

from .files import dumps


def _read(path: str, what: str):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(what, f"{path} is not valid JSON: {exc}") from None


def _print(doc) -> None:
    print(dumps(doc))


def _validate(args: argparse.Namespace) -> int:
    result = api.validate(_read(args.garden, "garden"), args.catalog)
    _print(result)
    return 0 if result["legal"] else 1


def _score(args: argparse.Namespace) -> int:
    _print(api.score(_read(args.garden, "garden"), args.catalog))
    return 0


def _solve(args: argparse.Namespace) -> int:
    result = api.solve_optimal(_read(args.holding, "holding"), args.time_limit, args.board, args.seed, args.catalog)
    if args.picture and "picture" in result:
        print(result.pop("picture"))
    _print(result)
    return 0 if result["status"] in ("optimal", "feasible") else 1


def _hint(args: argparse.Namespace) -> int:
    known = _read(args.known, "known") if args.known else {}
    result = api.hint(_read(args.garden, "garden"), args.tile, known, args.time_limit, args.margin, args.seed,
                      args.catalog, top=args.top)
    _print(result)
    return 0


def register(subparsers) -> None:
    game = subparsers.add_parser("gartenbau", help="Gartenbau: legality, prestige, the optimal garden, hints")
    sub = game.add_subparsers(dest="gartenbau_command", metavar="COMMAND")
    sub.required = True

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--catalog", help="directory with the catalog JSON files (default: the reference data)")

    p = sub.add_parser("validate", help="check a garden JSON against the placement rules (exit 1 if illegal)")
    p.add_argument("garden")
    common(p)
    p.set_defaults(func=_validate)

    p = sub.add_parser("score", help="end-of-season prestige of a legal garden")
    p.add_argument("garden")
    common(p)
    p.set_defaults(func=_score)

    p = sub.add_parser("solve", help="the garden of maximum prestige for a holding JSON")
    p.add_argument("holding")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds (default 10)")
    p.add_argument("--board", type=int, default=None, help="side of the square board searched")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--picture", action="store_true", help="print a text picture of the garden first")
    common(p)
    p.set_defaults(func=_solve)

    p = sub.add_parser("hint", help="rank the placements of a newly acquired tile")
    p.add_argument("garden")
    p.add_argument("--tile", required=True, help="id of the new seedling, plant or flower tile")
    p.add_argument("--known", help="JSON file: {seedlings, plants, flowers} still to come")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds shared by all placements")
    p.add_argument("--margin", type=int, default=2)
    p.add_argument("--top", type=int, default=10,
                   help="the best N placements (default 10; the search stops once N meet the holding's ceiling)")
    p.add_argument("--seed", type=int, default=0)
    common(p)
    p.set_defaults(func=_hint)
