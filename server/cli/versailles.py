"""`gardens versailles ...`: Die Gärten von Versailles from the command line (JSON files in, JSON or text out)."""
from __future__ import annotations

import argparse

from solver.games.versailles import api
from solver.games.versailles.data import default_catalog, load_catalog
from solver.games.versailles.rules import parse_placement, placed_fields

from solver.errors import InputError

from .files import dumps, integer, read_json, seconds


def _catalog(data: str | None):
    """The catalog of --data (a directory), or the reference one."""
    return load_catalog(data) if data else default_catalog()


def _largest(k: int) -> str:
    """The areas a scoring counts, in words: "largest area" (1), "3 largest"."""
    return "largest area" if k == 1 else f"{k} largest"


def render(placements: list, data: str | None) -> str:
    """The garden as letters, one per field (. = empty), top-left at the smallest x and y."""
    catalog = _catalog(data)
    fields = {}
    for i, raw in enumerate(placements):
        p = parse_placement(raw, f"placements[{i}]")
        fields.update(placed_fields(catalog.tile(p.tile), p))
    if not fields:
        return "(empty garden)"
    xs, ys = [c[0] for c in fields], [c[1] for c in fields]
    return "\n".join("".join(fields.get((x, y), ".") for x in range(min(xs), max(xs) + 1))
                     for y in range(min(ys), max(ys) + 1))


def _print(args, data: dict, text: str | None = None) -> None:
    print(dumps(data) if args.json or text is None else text)


def cmd_validate(args) -> int:
    out = api.validate(read_json(args.file), args.data)
    lines = ["legal" if out["valid"] else "not legal"] + [f"  {v['field']}: {v['reason']}" for v in out["violations"]]
    _print(args, out, "\n".join(lines))
    return 0 if out["valid"] else 1


def cmd_score(args) -> int:
    garden = read_json(args.file)
    out = api.score(garden, args.data)
    placements = garden.get("placements") if isinstance(garden, dict) else garden
    setup = _catalog(args.data).setup  # the labels say the numbers of the data in use (setup.json)
    text = "\n".join([render(placements, args.data),
                      "areas: " + " ".join(f"{t}={s}" for t, s in out["areas"].items()),
                      f"intermediate ({_largest(setup.intermediate_areas)}): {out['intermediate_area_points']}",
                      f"final ({_largest(setup.final_areas)}): {out['final_area_points']}",
                      f"solo points (intermediate after tile {setup.rounds_per_stage} + final): {out['solo_points']}"])
    _print(args, out, text)
    return 0


def cmd_score_game(args) -> int:
    out = api.score_game(read_json(args.file), args.data)
    lines = []
    for name, r in out["players"].items():
        inter = r["intermediate"]["total"] if r["intermediate"] else "-"
        final = r["final"]["total"] if r["final"] else "-"
        lines.append(f"{name}: intermediate {inter}, final {final}, total {r['total']}")
    lines.append("large tokens: " + ", ".join(f"{t}={h or '-'}" for t, h in out["large_token_holders"].items()))
    if out["small_token_winners"]:
        lines.append("small tokens: " + ", ".join(f"{t}={h or '-'}" for t, h in out["small_token_winners"].items()))
    lines.append("winner(s): " + ", ".join(out["winners"]))
    _print(args, out, "\n".join(lines))
    return 0


def cmd_solve(args) -> int:
    req = read_json(args.file)
    tiles = req.get("tiles") if isinstance(req, dict) else req
    out = api.solve_optimal(tiles, args.time_limit, args.seed, args.board, args.data)
    if out["status"] == "optimal":
        head = f"optimal: {out['points']} points"
    elif out["status"] == "feasible":
        head = f"feasible: {out['points']} points, best bound {out['bound']}"
    elif out["status"] == "infeasible":  # a proof on this board, not a timeout
        head = f"infeasible: no garden of these tiles fits a {out['board']}x{out['board']} board (proven)"
    else:
        head = f"{out['status']}: no garden found within the limit"
    text = head + f" (board {out['board']}x{out['board']}, {out['seconds']} s)"
    if out["placements"]:
        text += "\n" + render(out["placements"], args.data)
    _print(args, out, text)
    # README "Exit codes": 0 a garden, 1 none exists (proven), 3 none found within the limit (was always 0)
    return 0 if out["status"] in ("optimal", "feasible") else 1 if out["status"] == "infeasible" else 3


def _upcoming(text: str | None) -> list[int] | None:
    """--upcoming "11,12": tile ids, each an integer ("x,y" was "invalid literal for int()", "11,,12" too)."""
    if text is None:
        return None
    ids = []
    for i, part in enumerate(text.split(",")):
        try:
            ids.append(int(part))
        except ValueError:
            raise InputError(f"--upcoming[{i}]", "comma-separated tile ids, each an integer "
                             f"({'empty' if not part.strip() else 'not one'})", part) from None
    return ids


def cmd_hint(args) -> int:
    req = read_json(args.file)
    garden = req.get("garden", req) if isinstance(req, dict) else req
    upcoming = _upcoming(args.upcoming)
    follow = read_json(args.follow, "--follow") if args.follow else None
    if isinstance(follow, dict):  # (a previous hint option: its continuation)
        follow = follow.get("continuation", follow)
    out = api.hint(garden, args.tile, upcoming, args.time_limit, args.seed, args.top, args.data, follow=follow)
    lines = []
    for i, p in enumerate(out["placements"], start=1):
        extra = f", reachable {p['reachable']} ({p['status']})" if "reachable" in p else ""
        lines.append(f"{i:>2}. x={p['x']} y={p['y']} rotation={p['rotation']}: {p['points']} points{extra}")
    _print(args, out, "\n".join(lines) or "no legal placement")
    return 0 if out["placements"] else 1


def register(subparsers) -> None:
    parser = subparsers.add_parser("versailles", help="Die Gärten von Versailles: rules, scoring, optimal garden")
    sub = parser.add_subparsers(dest="versailles_command", metavar="COMMAND")
    sub.required = True

    def common(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--data", metavar="DIR",
                       help="directory with replacement data files: tiles.json, number_cards.json, "
                            "majority_tokens.json, setup.json (docs/data-files.md; default: the reference data)")
        p.add_argument("--json", action="store_true", help="print the full JSON answer")
        return p

    p = common(sub.add_parser("validate", help="check a garden's placements: GARDEN.json = {\"placements\": [...]}"))
    p.add_argument("file", help="garden JSON file {\"placements\": [...]} ('-' for stdin)")
    p.set_defaults(func=cmd_validate)
    p = common(sub.add_parser("score", help="areas and points of one garden"))
    p.add_argument("file", help="garden JSON file {\"placements\": [...]} ('-' for stdin)")
    p.set_defaults(func=cmd_score)
    p = common(sub.add_parser("score-game", help="replay and score a whole game with majority tokens"))
    p.add_argument("file", help="game JSON file (docs/versailles.md; examples/versailles-game.json; '-' for stdin)")
    p.set_defaults(func=cmd_score_game)
    p = common(sub.add_parser("solve", help="optimal solo garden for tiles in order: {\"tiles\": [ids]}"))
    p.add_argument("file", help="tiles JSON file {\"tiles\": [ids]} in the order received ('-' for stdin)")
    p.add_argument("--time-limit", type=seconds, default=10.0, help="seconds (default 10)")
    p.add_argument("--seed", type=int, default=0, help="CP-SAT random seed (default 0: deterministic)")
    p.add_argument("--board", type=integer(2, 24),
                   help="fields per side of the square the garden must fit in, 2 to 24 (default 2*ceil(sqrt(n)) + 2 "
                        "for n tiles: 6 for 2-4 tiles, 8 for 5-9, 10 for 10-16)")
    p.set_defaults(func=cmd_solve)
    p = common(sub.add_parser("hint", help="rank placements of the next tile for a garden"))
    p.add_argument("file", help="{\"placements\": [...]} of the garden so far ('-' for stdin)")
    p.add_argument("--tile", type=int, required=True, help="id of the next tile")
    p.add_argument("--upcoming", help="comma-separated ids of the tiles known to follow, in order (default none)")
    p.add_argument("--top", type=integer(1, 200), default=10,
                   help="the best N placements, 1 to 200 (with --upcoming: re-ranked by the optimum; default 10)")
    p.add_argument("--time-limit", type=seconds, default=5.0, help="seconds (default 5)")
    p.add_argument("--seed", type=int, default=0, help="CP-SAT random seed (default 0: deterministic)")
    p.add_argument("--follow", metavar="FILE",
                   help="the continuation of the previous hint's option you took (a JSON list of placements, or the "
                        "option itself): its placement is ranked too, reaching at least what that hint promised")
    p.set_defaults(func=cmd_hint)
