"""`gardens check|solve|explain|count|closest|tiles|cards|moves`: Gardeners from the command line, in-process."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import api
from solver.games.gardeners.engine import MAX_ENUMERATED_CARDS
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog

from .files import dumps, integer, read_garden, read_json, seconds


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()] if text else []


def _common(p: argparse.ArgumentParser, cards_required: bool = True) -> None:
    p.add_argument("--cards", required=cards_required, default="", help="comma-separated card ids, e.g. A1,B2")
    p.add_argument("--mode", default="normal", choices=sorted(MODES),
                   help="game mode: the garden's size and its tiles (default normal: 6x6, all 36 tiles)")
    p.add_argument("--catalog", help="tile catalog JSON (default: the reference catalog; not with --server)")
    p.add_argument("--card-file", help="card decks JSON (default: the reference decks; not with --server)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--server", help="ADDRESS of a running gardens server: ask it instead of solving in-process")
    p.add_argument("--timeout", type=seconds, default=30.0,
                   help="with --server: seconds to wait for the server, the call's deadline (default 30)")
    # (as `gardens call`: a server with a token or TLS could not be reached from these commands)
    p.add_argument("--tls-ca", default=None, help="with --server: CA certificate file: use TLS and trust this CA")
    p.add_argument("--token", default=None, help="with --server: bearer token (env GARDENS_TOKEN)")
    p.set_defaults(field_options={"card_ids": "--cards"})  # (main names an in-process error's field as its option)


# What the server keeps of a call's deadline for checking and sending the answer (`serve --deadline-margin-s`,
# default 0.5, docs/service.md "Deadlines"): --time-limit T over --server is sent as the deadline T + this, so
# the server's search ends after ~T s, as the in-process one does.
SERVER_MARGIN_S = 0.5
TIME_LIMIT_DEFAULT_S = 10.0


def _time_limit(p: argparse.ArgumentParser) -> None:
    p.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                   help=f"seconds per solver run (default {TIME_LIMIT_DEFAULT_S:g}); with --server the call's "
                        f"deadline is this + {SERVER_MARGIN_S:g} s (the server's default margin), capped by "
                        f"--timeout, and bounds the whole call")


def _remote(args, method: str, request: dict, text, code) -> int | None:
    """With --server, send the request to a running gardens server instead of solving in-process (None without).

    Printed as the in-process command prints it (`text(answer, ms, args)`, ms being the call's round trip; with
    --json the RPC's answer as `gardens call` prints it); returns the in-process command's exit code for that
    answer (`code(answer)`), or 2 when the call failed."""
    if not getattr(args, "server", None):
        return None
    import grpc

    from server import remote
    for option in ("catalog", "card_file"):  # the server has its own data files (serve --tiles-file/--cards-file)
        if getattr(args, option, None):
            raise InputError(f"--{option.replace('_', '-')}", "cannot be sent with --server: the server uses its own "
                             "data files (serve --tiles-file, --cards-file); leave it out or solve in-process")
    request = {**request, "mode": "GAME_MODE_" + args.mode.upper().replace("-", "_")}
    timeout = args.timeout
    limited = getattr(args, "time_limit", None) is not None and args.time_limit + SERVER_MARGIN_S < timeout
    if limited:  # the server's search limit is min(cap, deadline - margin)
        timeout = args.time_limit + SERVER_MARGIN_S
    started = time.perf_counter()
    try:
        answer = remote.call(args.server, f"GardenersService.{method}", request, timeout=timeout,
                             tls_ca=args.tls_ca, token=args.token or os.environ.get("GARDENS_TOKEN"))
    except grpc.RpcError as err:
        if limited and err.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            # the deadline came from --time-limit: nothing proven by then, as in-process "unknown" (exit 3); the
            # model's building and the answer's check count here too, not in-process (a short limit under load)
            print(f"unknown: no answer within --time-limit {args.time_limit:g} s + the server's "
                  f"{SERVER_MARGIN_S:g} s margin (DEADLINE_EXCEEDED)", file=sys.stderr)
            return 3
        print(remote.error_text(err), file=sys.stderr)
        return 2
    ms = (time.perf_counter() - started) * 1000
    print(dumps(answer) if args.json else text(answer, ms, args))
    return code(answer)


def _exit_code(verdict: str) -> int:
    """solve's and explain's exit code: 0 solvable, 1 unsolvable, 3 unknown within the limit."""
    return {"solvable": 0, "unsolvable": 1}.get(verdict, 3)


def _verdict_code(answer: dict) -> int:
    """_exit_code of a server's answer."""
    return _exit_code(_name(answer["verdict"], "SOLVABILITY_"))


def _name(value: str, prefix: str) -> str:
    """An enum value's name as the in-process commands print it: SOLVABILITY_SOLVABLE -> solvable."""
    return value[len(prefix):].lower() if value.startswith(prefix) else value.lower()


def _rendered(doc: dict | None, args) -> str:
    """A garden of an answer, drawn as the in-process commands draw it (no text when it has none)."""
    if not doc or not doc.get("placements"):
        return ""
    try:
        garden = parse_garden(doc, load_catalog(args.catalog))
    except ValueError:  # a server with another tiles file than this command's --catalog: its garden as sent
        return "\n" + json.dumps(doc)
    return "\n" + garden.render(detail=True)


def _control(args) -> SolveControl:
    return SolveControl(time_limit_s=TIME_LIMIT_DEFAULT_S if args.time_limit is None else args.time_limit)


def _out(args, data: dict, text: str) -> None:
    print(dumps(data) if args.json else text)


def _check_text(verdicts: list[tuple[str, str, str, list]], complete: bool, valid: bool) -> str:
    """(card, status, reason, cells) per card, then His Majesty's mood."""
    lines = [f"{card:4s} {status:9s} {reason} {cells if cells else ''}".rstrip()
             for card, status, reason, cells in verdicts]
    lines.append("His Majesty is thrilled!" if valid else
                 ("His Majesty is angry!" if complete else "The garden is not complete yet."))
    return "\n".join(lines)


def _remote_check_text(answer: dict, ms: float, args) -> str:
    return _check_text([(v["card_id"], _name(v["status"], "CARD_STATUS_"), v["reason"],
                         [(c["row"], c["col"]) for c in v["cells"]]) for v in answer["verdicts"]],
                       answer["complete"], answer["valid"])


def cmd_check(args) -> int:
    garden = read_garden(args.garden)  # once: `-` reads stdin
    remote = _remote(args, "CheckGarden", {"garden": garden, "card_ids": _ids(args.cards)}, _remote_check_text,
                     lambda answer: 0 if answer["valid"] else 1)
    if remote is not None:
        return remote
    report = api.check_garden(garden, _ids(args.cards), args.mode, args.catalog, args.card_file)
    data = {"complete": report.complete, "valid": report.valid, "verdicts": [
        {"card": v.card_id, "status": v.status, "cells": [list(c) for c in v.cells], "reason": v.reason}
        for v in report.verdicts]}
    _out(args, data, _check_text([(v.card_id, v.status, v.reason, list(v.cells)) for v in report.verdicts],
                                 report.complete, report.valid))
    return 0 if report.valid else 1


def _verdict_text(verdict: str, ms: float, reason: str = "") -> str:
    return f"{verdict} ({ms:.0f} ms)" + (f": {reason}" if reason else "")


def _remote_solve_text(answer: dict, ms: float, args) -> str:
    return _verdict_text(_name(answer["verdict"], "SOLVABILITY_"), ms, answer["reason"]) + \
        _rendered(answer.get("garden"), args)


def cmd_solve(args) -> int:
    remote = _remote(args, "Solve", {"card_ids": _ids(args.cards)}, _remote_solve_text, _verdict_code)
    if remote is not None:
        return remote
    r = api.solve(_ids(args.cards), args.mode, _control(args), args.catalog, args.card_file)
    data = {"verdict": r.verdict, "garden": r.garden.to_dict() if r.garden else None, "seconds": round(r.seconds, 4),
            "reason": r.reason}
    text = _verdict_text(r.verdict, r.seconds * 1000, r.reason)
    if r.garden:
        text += "\n" + r.garden.render(detail=True)
    _out(args, data, text)
    return _exit_code(r.verdict)


def _conflicts_text(conflicts: list[list[str]], discards: list[list[str]], complete: bool,
                    discards_complete: bool, cards: int) -> str:
    if not conflicts:
        return ""
    # (why a list may be incomplete: above MAX_ENUMERATED_CARDS cards the engine looks for one conflict only, by
    # design; otherwise the time ran out. A 9-card explain said "limit reached" with no limit reached.)
    why = (f"with more than {MAX_ENUMERATED_CARDS} cards only one conflict is searched"
           if cards > MAX_ENUMERATED_CARDS else "limit reached")
    note = "" if complete and discards_complete else \
        f"\n(the conflicting sets may be incomplete: {why})" if discards_complete else \
        "\n(the discards may be incomplete: not every one was proven)" if complete else \
        f"\n(the lists may be incomplete: {why})"
    return ("\nminimal conflicting sets: " + "; ".join("+".join(c) for c in conflicts)
            + "\ndiscard one of: " + ("; ".join("+".join(d) for d in discards) or "(none proven)") + note)


def _remote_explain_text(answer: dict, ms: float, args) -> str:
    return (_verdict_text(_name(answer["verdict"], "SOLVABILITY_"), ms) + _rendered(answer.get("witness"), args)
            + _conflicts_text([c["card_ids"] for c in answer["conflicts"]],
                              [d["card_ids"] for d in answer["discard_sets"]],
                              answer["conflicts_complete"], answer["discard_sets_complete"], len(_ids(args.cards))))


def cmd_explain(args) -> int:
    remote = _remote(args, "CheckSolvable", {"card_ids": _ids(args.cards)}, _remote_explain_text, _verdict_code)
    if remote is not None:
        return remote
    r = api.check_solvable(_ids(args.cards), args.mode, _control(args), args.catalog, args.card_file)
    data = {"verdict": r.verdict, "garden": r.garden.to_dict() if r.garden else None, "conflicts": r.conflicts,
            "discards": r.discards, "complete": r.complete, "discards_complete": r.discards_complete,
            "seconds": round(r.seconds, 4)}
    text = _verdict_text(r.verdict, r.seconds * 1000)
    if r.garden:
        text += "\n" + r.garden.render(detail=True)
    text += _conflicts_text(r.conflicts, r.discards, r.complete, r.discards_complete, len(_ids(args.cards)))
    _out(args, data, text)
    return _exit_code(r.verdict)


def _count_text(count: int, complete: bool, cap: int) -> str:
    return f"{count}{'' if complete else '+'} distinct solutions" + (" (all)" if complete else f" (cap {cap} or limit)")


def cmd_count(args) -> int:
    remote = _remote(args, "CountSolutions", {"card_ids": _ids(args.cards), "cap": args.cap},
                     lambda answer, ms, args: _count_text(answer["count"], answer["exact"], args.cap),
                     lambda answer: _count_code(answer["count"], answer["exact"]))
    if remote is not None:
        return remote
    r = api.count_solutions(_ids(args.cards), args.mode, args.cap, _control(args), args.catalog, args.card_file)
    _out(args, {"count": r.count, "complete": r.complete}, _count_text(r.count, r.complete, args.cap))
    return _count_code(r.count, r.complete)


def _count_code(count: int, complete: bool) -> int:
    """0 some solution, 1 none (proven), 3 none found within the limit (it was always 0)."""
    return 0 if count else (1 if complete else 3)


def _closest_text(verdict: str, kept: int, changed: int, bound: int) -> str:
    return f"{verdict}: keeps {kept} tiles, changes {changed} (bound {bound})"


def _remote_closest_text(answer: dict, ms: float, args) -> str:
    found = answer["verdict"] == "SOLVABILITY_SOLVABLE"
    verdict = ("optimal" if answer["optimal"] else "feasible") if found else _name(answer["verdict"], "SOLVABILITY_")
    return _closest_text(verdict, answer["kept"], answer["changed"], answer["kept_bound"]) + \
        _rendered(answer.get("garden"), args)


def cmd_closest(args) -> int:
    garden = read_garden(args.garden)  # once: `-` reads stdin
    remote = _remote(args, "ClosestSolution", {"garden": garden, "card_ids": _ids(args.cards)}, _remote_closest_text,
                     _verdict_code)
    if remote is not None:
        return remote
    r = api.closest_solution(garden, _ids(args.cards), args.mode, _control(args), args.catalog,
                             args.card_file)
    data = {"verdict": r.verdict, "kept": r.kept, "changed": r.changed, "bound": r.bound,
            "garden": r.garden.to_dict() if r.garden else None}
    text = _closest_text(r.verdict, r.kept, r.changed, r.bound)
    if r.garden:
        text += "\n" + r.garden.render(detail=True)
    _out(args, data, text)
    # 0 a garden, 1 none exists (proven), 3 none found within the limit (was 1 for both)
    return 0 if r.garden else _exit_code("unsolvable" if r.verdict == "unsolvable" else "unknown")


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


def _move_arg(text: str) -> dict:
    """The --move JSON, its value types checked here: the engine's parse_move converts player and rotation with
    int() (null or a list was a TypeError, 1e400 an OverflowError, "a" a message without the field, 0.7 and true
    were read as 0 and 1). Ranges (a rotation 0-3, a player the state has) are the engine's check_move_fields."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError("--move", f"not valid JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise InputError("--move", "must be a JSON object {\"kind\", ...}", doc)
    for name, what in (("player", "a player index >= 0"), ("to_player", "a player index >= 0"),
                       ("rotation", "quarter turns clockwise, 0 to 3")):
        if name in doc and (name != "to_player" or doc[name] is not None):
            v = doc[name]
            if isinstance(v, bool) or not isinstance(v, int):
                raise InputError(f"move.{name}", f"must be an integer ({what})", v)
    for name in ("kind", "tile"):
        if name in doc and not isinstance(doc[name], str):
            raise InputError(f"move.{name}", "must be a string", doc[name])
    return doc


def _state_shape(state) -> None:
    """The lists of a --state document are lists (a string "A02" as a stack was read letter by letter:
    "stack[0]: unknown tile id (got 'A')"; {"tile": ...} as the garden was read as its keys)."""
    if not isinstance(state, dict):
        return  # the engine's "state: must be an object"
    lists = [("state.garden", state.get("garden"), "placements {tile, row, col, rotation}"),
             ("state.supplies", state.get("supplies"), "supplies {stack, loose}, one per player"),
             ("state.pool", state.get("pool"), "tile ids")]
    supplies = state.get("supplies")
    for i, supply in enumerate(supplies if isinstance(supplies, list) else ()):
        if isinstance(supply, dict):
            lists += [(f"state.supplies[{i}].{k}", supply.get(k), "tile ids, top first" if k == "stack" else "tile ids")
                      for k in ("stack", "loose")]
    for where, value, what in lists:
        if value is not None and not isinstance(value, list):
            raise InputError(where, f"must be a list of {what}", value)


def cmd_moves(args) -> int:
    state = read_json(args.state, "state")
    _state_shape(state)
    if args.move:
        v = api.validate_move(state, _move_arg(args.move), args.catalog)
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
        _time_limit(p)
        if name == "count":
            p.add_argument("--cap", type=integer(1, api.MAX_COUNT_CAP), default=10,
                           help="count up to this many solutions, 1 to 1000 (default 10; a server's "
                                "--max-count-cap may be lower)")
        p.set_defaults(func=func)
    p = sub.add_parser("closest", help="the valid garden that keeps most tiles of a given one in place")
    p.add_argument("garden", help='garden JSON {"size": 6, "placements": [...]} (or a solve/closest --json answer); '
                                  '- for stdin')
    _common(p)
    _time_limit(p)
    p.set_defaults(func=cmd_closest)
    p = sub.add_parser("tiles", help="list the tile catalog")
    p.add_argument("--catalog", help="tile catalog JSON (default: the reference catalog)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=cmd_tiles)
    p = sub.add_parser("cards", help="list the constraint cards")
    p.add_argument("--deck", help="training-a, training-b, training-c, standard or expert (default: every deck)")
    p.add_argument("--card-file", help="card decks JSON (default: the reference decks)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("moves", help="legal moves of a Normal/Solo state, or validate one move",
                       description="Without --move: the number of legal moves, then one move per line as the "
                                   "JSON that --move reads. With --move: legal, or illegal and why.")
    p.add_argument("state", help="state JSON file (examples/state.json; - for stdin)")
    p.add_argument("--move", help='a move as JSON, e.g. {"kind": "add", "player": 0, "tile": "A01", "cell": [0, 1]}')
    p.add_argument("--catalog", help="tile catalog JSON (default: the reference catalog)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=cmd_moves)
