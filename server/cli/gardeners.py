"""`gardens check|solve|explain|count|closest|tiles|cards|moves`: Gardeners from the command line, in-process."""
from __future__ import annotations

import argparse
import json
import sys

from solver.core.solve import SolveControl
from solver.games.gardeners import api
from solver.games.gardeners.modes import MODES

from .files import read_garden, read_json


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()] if text else []


def _common(p: argparse.ArgumentParser, cards_required: bool = True) -> None:
    p.add_argument("--cards", required=cards_required, default="", help="comma-separated card ids, e.g. A1,B2")
    p.add_argument("--mode", default="normal", choices=sorted(MODES), help="game mode (garden size, tile sets)")
    p.add_argument("--catalog", help="tile catalog JSON (default: the reference catalog)")
    p.add_argument("--card-file", help="card decks JSON (default: the reference decks)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--server", help="ADDRESS of a running gardens server: ask it instead of solving in-process")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for the server (with --server)")


def _remote(args, method: str, request: dict) -> int | None:
    """With --server, send the request to a running gardens server instead of solving in-process."""
    if not getattr(args, "server", None):
        return None
    import grpc

    from server import remote
    request = {**request, "mode": "GAME_MODE_" + args.mode.upper().replace("-", "_")}
    try:
        answer = remote.call(args.server, f"GardenersService.{method}", request, timeout=args.timeout)
    except grpc.RpcError as err:
        print(remote.error_text(err), file=sys.stderr)
        return 2
    print(json.dumps(answer, indent=1))
    verdict = answer.get("verdict", "")
    return 1 if verdict.endswith("UNSOLVABLE") or answer.get("valid") is False else 0


def _control(args) -> SolveControl:
    return SolveControl(time_limit_s=args.time_limit)


def _out(args, data: dict, text: str) -> None:
    print(json.dumps(data, indent=1) if args.json else text)


def cmd_check(args) -> int:
    garden = read_garden(args.garden)  # once: `-` reads stdin
    remote = _remote(args, "CheckGarden", {"garden": garden, "card_ids": _ids(args.cards)})
    if remote is not None:
        return remote
    report = api.check_garden(garden, _ids(args.cards), args.mode, args.catalog, args.card_file)
    data = {"complete": report.complete, "valid": report.valid, "verdicts": [
        {"card": v.card_id, "status": v.status, "cells": [list(c) for c in v.cells], "reason": v.reason}
        for v in report.verdicts]}
    lines = [f"{v.card_id:4s} {v.status:9s} {v.reason} {list(v.cells) if v.cells else ''}".rstrip()
             for v in report.verdicts]
    lines.append("His Majesty is thrilled!" if report.valid else
                 ("His Majesty is angry!" if report.complete else "The garden is not complete yet."))
    _out(args, data, "\n".join(lines))
    return 0 if report.valid else 1


def cmd_solve(args) -> int:
    remote = _remote(args, "Solve", {"card_ids": _ids(args.cards)})
    if remote is not None:
        return remote
    r = api.solve(_ids(args.cards), args.mode, _control(args), args.catalog, args.card_file)
    data = {"verdict": r.verdict, "garden": r.garden.to_dict() if r.garden else None, "seconds": round(r.seconds, 4),
            "reason": r.reason}
    text = f"{r.verdict} ({r.seconds * 1000:.0f} ms)" + (f": {r.reason}" if r.reason else "")
    if r.garden:
        text += "\n" + r.garden.render(detail=True)
    _out(args, data, text)
    return {"solvable": 0, "unsolvable": 1}.get(r.verdict, 3)


def cmd_explain(args) -> int:
    remote = _remote(args, "CheckSolvable", {"card_ids": _ids(args.cards)})
    if remote is not None:
        return remote
    r = api.check_solvable(_ids(args.cards), args.mode, _control(args), args.catalog, args.card_file)
    data = {"verdict": r.verdict, "garden": r.garden.to_dict() if r.garden else None, "conflicts": r.conflicts,
            "discards": r.discards, "complete": r.complete, "seconds": round(r.seconds, 4)}
    text = f"{r.verdict} ({r.seconds * 1000:.0f} ms)"
    if r.garden:
        text += "\n" + r.garden.render(detail=True)
    if r.conflicts:
        text += "\nminimal conflicting sets: " + "; ".join("+".join(c) for c in r.conflicts)
        text += "\ndiscard one of: " + "; ".join("+".join(d) for d in r.discards)
        text += "" if r.complete else "\n(the lists may be incomplete: limit reached)"
    _out(args, data, text)
    return {"solvable": 0, "unsolvable": 1}.get(r.verdict, 3)


def cmd_count(args) -> int:
    remote = _remote(args, "CountSolutions", {"card_ids": _ids(args.cards), "cap": args.cap})
    if remote is not None:
        return remote
    r = api.count_solutions(_ids(args.cards), args.mode, args.cap, _control(args), args.catalog, args.card_file)
    _out(args, {"count": r.count, "complete": r.complete},
         f"{r.count}{'' if r.complete else '+'} distinct solutions" + (" (all)" if r.complete else f" (cap {args.cap} or limit)"))
    return 0


def cmd_closest(args) -> int:
    garden = read_garden(args.garden)  # once: `-` reads stdin
    remote = _remote(args, "ClosestSolution", {"garden": garden, "card_ids": _ids(args.cards)})
    if remote is not None:
        return remote
    r = api.closest_solution(garden, _ids(args.cards), args.mode, _control(args), args.catalog,
                             args.card_file)
    data = {"verdict": r.verdict, "kept": r.kept, "changed": r.changed, "bound": r.bound,
            "garden": r.garden.to_dict() if r.garden else None}
    text = f"{r.verdict}: keeps {r.kept} tiles, changes {r.changed} (bound {r.bound})"
    if r.garden:
        text += "\n" + r.garden.render(detail=True)
    _out(args, data, text)
    return 0 if r.garden else 1


def cmd_tiles(args) -> int:
    tiles = api.list_tiles(args.catalog)
    _out(args, {"tiles": [t.to_dict() for t in tiles]},
         "\n".join(f"{t.id} {t.background:5s} " + ", ".join(
             (f"{e.colour} {e.kind}" if e.colour else e.kind) + (f" facing {e.facing}" if e.facing else "")
             for e in t.elements) + (f" path {''.join(sorted(t.path))}" if t.path else "") for t in tiles))
    return 0


def cmd_cards(args) -> int:
    cards = api.list_cards(args.deck, args.card_file)
    _out(args, {"cards": [{"id": c.id, "deck": c.deck, "kind": c.kind, "text": c.text,
                           "params": json.loads(c.params)} for c in cards]},
         "\n".join(f"{c.id:4s} {c.kind:13s} {c.text}" for c in cards))
    return 0


# The fields each kind of move uses, in the order `--move` documents them (Solo moves have no player).
_MOVE_FIELDS = {"add": ("player", "tile", "cell", "rotation"), "remove": ("player", "tile", "cell", "to_player"),
                "rotate": ("tile", "cell", "rotation"), "swap": ("cell", "other")}


def move_text(move, solo: bool = False) -> str:
    """A move as one line of JSON with the fields its kind uses: what `gardens moves --move` reads."""
    doc = {"kind": move.kind}
    for name in _MOVE_FIELDS.get(move.kind, ()):
        value = getattr(move, name)
        if value is None or (solo and name == "player"):
            continue
        doc[name] = list(value) if isinstance(value, tuple) else value
    return json.dumps(doc)


def cmd_moves(args) -> int:
    state = read_json(args.state)
    if args.move:
        v = api.validate_move(state, json.loads(args.move), args.catalog)
        _out(args, {"legal": v.legal, "reason": v.reason}, "legal" if v.legal else f"illegal: {v.reason}")
        return 0 if v.legal else 1
    ms = api.legal_moves(state, args.catalog)
    solo = state.get("mode") == "solo"
    text = "\n".join([f"{len(ms)} legal move{'' if len(ms) == 1 else 's'}", *(move_text(m, solo) for m in ms)])
    _out(args, {"moves": [m.__dict__ for m in ms]}, text)
    return 0


def register(sub) -> None:
    p = sub.add_parser("check", help="check a garden (JSON file) against cards")
    p.add_argument("garden", help='garden JSON: {"size": 6, "placements": [{"tile","row","col","rotation"}]}; - for stdin')
    _common(p, cards_required=False)
    p.set_defaults(func=cmd_check)
    for name, func, helptext in (("solve", cmd_solve, "find a garden meeting every card, or prove none exists"),
                                 ("explain", cmd_explain, "solvable? if not, the minimal conflicts and discards"),
                                 ("count", cmd_count, "count distinct solutions up to a cap")):
        p = sub.add_parser(name, help=helptext)
        _common(p)
        p.add_argument("--time-limit", type=float, default=10.0, help="seconds per solver run")
        if name == "count":
            p.add_argument("--cap", type=int, default=10)
        p.set_defaults(func=func)
    p = sub.add_parser("closest", help="the valid garden that keeps most tiles of a given one in place")
    p.add_argument("garden")
    _common(p)
    p.add_argument("--time-limit", type=float, default=10.0)
    p.set_defaults(func=cmd_closest)
    p = sub.add_parser("tiles", help="list the tile catalog")
    p.add_argument("--catalog")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_tiles)
    p = sub.add_parser("cards", help="list the constraint cards")
    p.add_argument("--deck", help="training-a, training-b, training-c, standard or expert")
    p.add_argument("--card-file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("moves", help="legal moves of a Normal/Solo state, or validate one move",
                       description="Without --move: the number of legal moves, then one move per line as the "
                                   "JSON that --move reads. With --move: legal, or illegal and why.")
    p.add_argument("state", help="state JSON file")
    p.add_argument("--move", help='a move as JSON, e.g. {"kind": "add", "player": 0, "tile": "A01", "cell": [0, 1]}')
    p.add_argument("--catalog")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_moves)
