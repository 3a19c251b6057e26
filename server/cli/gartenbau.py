"""`gardens gartenbau ...`: validate, score, solve and hint Gartenbau gardens read from JSON files."""
from __future__ import annotations

import argparse

from solver.errors import InputError
from solver.games.gartenbau import api

from .files import dumps, integer, read_json, seconds


# GartenbauService's cap on --board (server/services/gartenbau.py MAX_BOARD: a model of board^2 spaces), kept here
# so the command line needs no gRPC code; the engine's own default is used when --board is left out.
MAX_BOARD = 24


def _read(path: str, what: str):
    """The JSON in `path` (stdin for -). For a garden, `gartenbau solve`'s answer is taken too (its `garden`), so
    that solve's output chains into validate, score and hint (it was refused: "garden.starter: must be an object")."""
    doc = read_json(path, what)
    if what == "garden" and isinstance(doc, dict) and "status" in doc and isinstance(doc.get("garden"), dict):
        return doc["garden"]
    return doc


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
    # README "Exit codes": 0 a garden, 1 none exists (proven), 3 none found within the limit (was 1)
    return 0 if result["status"] in ("optimal", "feasible") else 1 if result["status"] == "infeasible" else 3


def _hint(args: argparse.Namespace) -> int:
    known = _read(args.known, "known") if args.known else {}
    follow = read_json(args.follow, "--follow") if args.follow else None
    if isinstance(follow, dict) and isinstance(follow.get("garden"), dict):  # (a previous hint's option)
        follow = follow["garden"]
    result = api.hint(_read(args.garden, "garden"), args.tile, known, args.time_limit, args.margin, args.seed,
                      args.catalog, top=args.top, follow=follow)
    _print(result)
    return 0 if result["options"] else 1  # no legal placement: "no", as the other hints (README "Exit codes")


def register(subparsers) -> None:
    game = subparsers.add_parser("gartenbau", help="Gartenbau: legality, prestige, the optimal garden, hints")
    sub = game.add_subparsers(dest="gartenbau_command", metavar="COMMAND")
    sub.required = True

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--catalog", help="directory with the catalog JSON files (default: the reference data)")

    garden_help = ("garden JSON file, or a `gartenbau solve` answer; - for stdin (docs/gartenbau.md; "
                   "examples/gartenbau-garden.json)")
    p = sub.add_parser("validate", help="check a garden JSON against the placement rules (exit 1 if illegal)")
    p.add_argument("garden", help=garden_help)
    common(p)
    p.set_defaults(func=_validate)

    p = sub.add_parser("score", help="end-of-season prestige of a legal garden")
    p.add_argument("garden", help=garden_help)
    common(p)
    p.set_defaults(func=_score)

    p = sub.add_parser("solve", help="the garden of maximum prestige for a holding JSON")
    p.add_argument("holding", help="holding JSON file {seedlings, plants, flowers} (examples/gartenbau-holding.json)")
    p.add_argument("--time-limit", type=seconds, default=10.0, help="seconds (default 10)")
    p.add_argument("--board", type=integer(2, MAX_BOARD), default=None,
                   help=f"side of the square board searched, 2 to {MAX_BOARD} (default: the engine's for the "
                        "holding's size; as GartenbauService's unset board)")
    p.add_argument("--seed", type=int, default=0, help="CP-SAT random seed (default 0: deterministic)")
    p.add_argument("--picture", action="store_true", help="print a text picture of the garden first")
    common(p)
    p.set_defaults(func=_solve)

    p = sub.add_parser("hint", help="rank the placements of a newly acquired tile")
    p.add_argument("garden", help=garden_help + ": the garden so far")
    p.add_argument("--tile", required=True, help="id of the new seedling, plant or flower tile")
    p.add_argument("--known", help="JSON file: {seedlings, plants, flowers} still to come")
    p.add_argument("--time-limit", type=seconds, default=10.0, help="seconds shared by all placements (default 10)")
    p.add_argument("--margin", type=integer(0, 6), default=2,
                   help="spaces added on every side of the current garden for the board each placement is "
                        "solved on, 0 to 6 (default 2)")
    p.add_argument("--top", type=integer(1, 1000), default=10,
                   help="the best N placements, 1 to 1000 (default 10; the search stops once N meet the holding's ceiling)")
    p.add_argument("--seed", type=int, default=0, help="CP-SAT random seed (default 0: deterministic)")
    p.add_argument("--follow", metavar="FILE",
                   help="the garden of the previous hint's option you took (or the option itself): its placement of "
                        "the tile is ranked too, reaching at least that garden's prestige")
    common(p)
    p.set_defaults(func=_hint)
