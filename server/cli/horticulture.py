"""`gardens horticulture ...`: Horticulture from the command line (JSON files in, JSON or text out)."""
from __future__ import annotations

import argparse

from solver.games.horticulture import api
from solver.games.horticulture.data import default_catalog, load_catalog

from .files import dumps, integer, read_json, seconds

LETTERS = {"topiary": "T", "turnip": "U", "carrot": "C", "sweet_potato": "S", "flower": "F", "berry": "B"}


def _catalog(args):
    return load_catalog(args.data) if args.data else default_catalog()


def letters(plants) -> dict[str, str]:
    """A letter per plant: the reference plants' own, then each other plant's first free letter of its name
    (G is the gnome), so that a replaced plants.json draws without question marks."""
    out = {p: LETTERS[p] for p in plants if p in LETTERS}
    taken = set(out.values()) | {"G"}
    for p in plants:
        if p not in out:
            free = [ch for ch in p.upper() + "ABCDEFHIJKLMNOPQRSTUVWXYZ0123456789" if ch.isalnum() and ch not in taken]
            out[p] = free[0] if free else "?"
            taken.add(out[p])
    return {p: out[p] for p in plants}


def render(side: str, path: dict, gnome: list | None, garden: dict[tuple, str], window: list[str], catalog) -> str:
    """ASCII sheet: squares hold plant letters (G = gnome), the path is drawn on the grid lines (#).

    With plants other than the reference six, a last line names each letter."""
    sheet = catalog.sheet(side)
    names = letters(catalog.plants)
    x = sheet.start_positions.get(path["start"], 0)
    corners = [(x, 0)]
    for m in path["moves"].upper():
        dx, dy = {"D": (0, 1), "L": (-1, 0), "R": (1, 0)}.get(m, (0, 0))
        corners.append((corners[-1][0] + dx, corners[-1][1] + dy))
    w, h = 2 * sheet.columns + 1, 2 * sheet.rows + 1
    grid = [[" "] * w for _ in range(h)]
    for r in range(h):
        for c in range(w):
            if r % 2 == 0 and c % 2 == 0:
                grid[r][c] = "+"
    for (x1, y1), (x2, y2) in zip(corners, corners[1:]):
        grid[y1 + y2][x1 + x2] = "#"
        grid[2 * y1][2 * x1] = grid[2 * y2][2 * x2] = "#"
    for (c, r), plant in garden.items():
        grid[2 * r + 1][2 * c + 1] = names.get(plant, "?")
    if gnome:
        grid[2 * gnome[1] + 1][2 * gnome[0] + 1] = "G"
    numbers = [" "] * w
    for n, line in sheet.start_positions.items():
        numbers[2 * line] = str(n)[-1]
    lines = ["".join(numbers)] + ["".join(row) for row in grid]
    lines.append("window box: " + (" ".join(names.get(p, "?") for p in window) or "-"))
    if any(p not in LETTERS for p in catalog.plants):
        lines.append("letters: " + ", ".join(f"{ch} {p}" for p, ch in names.items()))
    return "\n".join(lines)


def _game_sheet(setup: dict, days: list[dict]) -> tuple[dict, list]:
    garden, window = {}, []
    for day in days:
        for p in day["plants"]:
            if p["at"] == "window":
                window.append(p["plant"])
            else:
                garden[tuple(p["at"])] = p["plant"]
    return garden, window


def _print(args, data: dict, text: str | None = None) -> None:
    print(dumps(data) if args.json or text is None else text)


def cmd_path(args) -> int:
    out = api.validate_path(read_json(args.file), _catalog(args))
    lines = ["legal" if out["legal"] else "not legal"]
    lines += [f"  {v['where']}: {v['reason']}" for v in out["violations"]]
    if out["next_directions"]:
        lines.append("  next: " + ", ".join(out["next_directions"]))
    _print(args, out, "\n".join(lines))
    return 0 if out["legal"] else 1


def cmd_validate(args) -> int:
    req = read_json(args.file)
    out = api.validate(req, _catalog(args))
    lines = ["legal" if out["legal"] else "not legal"] + [f"  {v['where']}: {v['reason']}" for v in out["violations"]]
    if "score" in out:
        lines.append(f"score {out['score']['total']} ({out['score']['title']})")
    _print(args, out, "\n".join(lines))
    return 0 if out["legal"] else 1


def _score_text(s: dict) -> str:
    groups = ", ".join(f"{p} {g['points']}" for p, g in s["groups"].items())
    return (f"groups {s['groups_total']} ({groups})\ngnome {s['gnome']}  window box {s['window_box']}\n"
            f"plan: border {s['plan']['border']}, path {s['plan']['path']}, companions {s['plan']['companions']}\n"
            f"total {s['total']}: {s['title']}")


def cmd_score(args) -> int:
    out = api.score(read_json(args.file), _catalog(args))
    _print(args, out, _score_text(out))
    return 0


def _solution_text(req: dict, out: dict, catalog) -> str:
    head = f"{out['status']}: score {out['score']}, bound {out['bound']} ({out['wall_time_s']} s)"
    if not out["days"]:
        return head
    garden, window = _game_sheet(req, out["days"])
    gnome = out.get("gnome", req.get("gnome"))
    lines = [head]
    if "plan" in out and req.get("plan") is None:
        p = out["plan"]
        lines.append(f"plan: border {p['border']}, path {p['path']}, companions {p['companions'][0]} -> {p['companions'][1]}"
                     f"; gnome {gnome}")
    for d, day in enumerate(out["days"]):
        plants = "; ".join(f"{p['plant']} at {p['at']}" for p in day["plants"])
        lines.append(f"day {d + 1:2d}: card {day['chosen']:2d}: {plants}")
    lines.append(render(req["side"], req["path"], gnome, garden, window, catalog))
    lines.append(_score_text(out["score_sheet"]))
    return "\n".join(lines)


def _limits(args, req: dict) -> dict:
    if args.time_limit is not None:
        req["time_limit_s"] = args.time_limit
    if args.seed is not None:
        req["random_seed"] = args.seed
    if args.work is not None:
        req["deterministic_time"] = args.work
    return req


SETUP = ("side", "path", "gnome", "plan", "nursery")


def _record(req: dict, out: dict) -> dict:
    """The answer as a game record: the request's setup (the answer's plan and gnome win: best-plan chooses them)
    first, then the answer. `validate` and `score` read it as it is, so `solve --json` chains into them."""
    record = {k: req[k] for k in SETUP if req.get(k) is not None}
    record.update(out)
    return record


def _solved(args, answer) -> int:
    cat = _catalog(args)
    req = _limits(args, read_json(args.file))
    out = answer(req, cat)
    _print(args, _record(req, out), _solution_text(req, out, cat))
    return 0 if out["status"] in ("optimal", "feasible") else 3


def cmd_solve(args) -> int:
    return _solved(args, api.solve_optimal)


def cmd_best_plan(args) -> int:
    return _solved(args, api.best_plan)


def cmd_hint(args) -> int:
    req = _limits(args, read_json(args.file))
    out = api.hint(req, _catalog(args))
    key = out["ranked_by"]
    lines = [f"ranked by {key.replace('_', ' ')}"]
    for o in out["options"]:
        plants = "; ".join(f"{p['plant']} at {p['at']}" for p in o.get("plants", []))
        lines.append(f"card {o['card']:2d}: {o.get(key)} ({o['status']}, bound {o['bound']}): {plants}")
    _print(args, out, "\n".join(lines))
    return 0


def register(subparsers) -> None:
    top = subparsers.add_parser("horticulture", help="Horticulture: path, validation, scoring, best solo game, hints")
    sub = top.add_subparsers(dest="horticulture_command", metavar="COMMAND")
    sub.required = True

    def command(name: str, func, help_text: str, solver: float | None = None) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text)
        p.add_argument("file", help="request JSON file ('-' for stdin); see docs/horticulture.md")
        p.add_argument("--data", help="directory of catalog JSON files (default: the reference data)")
        p.add_argument("--json", action="store_true", help="print the JSON answer instead of text")
        if solver is not None:  # the request's own default time limit
            p.add_argument("--time-limit", type=seconds, default=None,
                           help=f"seconds for CP-SAT (overrides the file's time_limit_s; default {solver:g})")
            p.add_argument("--seed", type=integer(0, 2 ** 31 - 1), default=None,
                           help="CP-SAT random seed (overrides the file's random_seed; default 0)")
            p.add_argument("--work", type=seconds, default=None,
                           help="deterministic work limit (CP-SAT deterministic time; overrides the file's "
                                "deterministic_time): same answer on any machine (default none: wall clock)")
        p.set_defaults(func=func)
        return p

    command("path", cmd_path, "check a path {side, path: {start, moves}}; lists the next legal directions")
    command("validate", cmd_validate, "check a game record day by day and score it")
    command("score", cmd_score, "score a sheet snapshot or a game record")
    command("solve", cmd_solve, "best solo game for a setup and nursery order (CP-SAT)", solver=10.0)
    command("best-plan", cmd_best_plan, "best plan and gnome square for a path and nursery order", solver=20.0)
    command("hint", cmd_hint, "rank today's two cards for a sheet in progress", solver=10.0)
