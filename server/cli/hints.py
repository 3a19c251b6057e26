"""`gardens progress|hint|repair|forced|deduce`: Gardeners hints from the command line, in-process (with --catalog and
--card-file, on a replacement tile catalog and card file)."""
from __future__ import annotations

import argparse

from solver.core.solve import SolveControl
from solver.games.gardeners import api
from solver.games.gardeners.modes import MODES

from solver.errors import InputError

from .files import dumps, integer, read_garden, read_json, seconds


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _print(args, data: dict, text: str) -> None:
    print(dumps(data) if args.json else text)


def _common(p: argparse.ArgumentParser, garden: bool = True, solver: bool = True) -> None:
    if garden:
        p.add_argument("garden", help='garden JSON {"size": 6, "placements": [...]}; - for stdin')
        p.add_argument("--cards", required=True, help="comma-separated card ids in play, e.g. S08,S16")
    p.add_argument("--mode", default="normal", choices=sorted(MODES),
                   help="game mode: the garden's size and its tiles (default normal)")
    if solver:  # (deduce runs no CP-SAT search)
        p.add_argument("--time-limit", type=seconds, default=10.0, help="seconds per solver run (default 10)")
    # named as the other Gardeners commands name them (server/cli/gardeners.py); docs/data-files.md
    p.add_argument("--catalog", help="tile catalog JSON (default: the reference catalog)")
    p.add_argument("--card-file", help="card decks JSON (default: the reference decks)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(field_options={"card_ids": "--cards", "exclude_card_ids": "--exclude"})  # (as main names errors)


def _data(args) -> dict:
    """The data options as the api functions' keyword arguments (None: the reference data)."""
    return {"catalog": args.catalog, "cards": args.card_file}


def cmd_progress(args) -> int:
    r = api.check_progress(read_garden(args.garden), _ids(args.cards), args.mode, SolveControl(args.time_limit),
                           floating=args.floating, **_data(args))
    data = {"completable": r.completable, "shift": list(r.shift) if r.shift else None, "cards": [
        {"card": c.card_id, "status": c.status, "cells": [list(x) for x in c.cells], "reason": c.reason}
        for c in r.cards]}
    # an open card's reason is what is at risk, not a violation ("S45 possible fuchsia trees not in the interior"
    # read as broken)
    lines = [f"{c.card_id:4s} {c.status:9s} {'at risk: ' if c.reason and c.status in ('possible', 'unknown') else ''}"
             f"{c.reason} {list(c.cells) if c.cells else ''}".rstrip() for c in r.cards]
    lines.append("The garden is complete and meets every card." if r.valid else  # (it said "can still be completed")
                 {"solvable": "The garden can still be completed.",
                  "unsolvable": "The garden can no longer be completed (proven)."}.get(r.completable, "Unknown."))
    _print(args, data, "\n".join(lines))
    return _code(r.completable)


def _code(verdict: str) -> int:
    """The exit code of a verdict (README "Exit codes"): 0 an answer, 1 none exists (proven), 3 unknown within the
    limit (progress, hint, repair and forced always exited 0)."""
    return {"unsolvable": 1, "unknown": 3}.get(verdict, 0)


def _target(path: str):
    """--target: a garden, or the previous `hint --json` answer (its `target`)."""
    doc = read_json(path, "--target")
    return doc["target"] if isinstance(doc, dict) and isinstance(doc.get("target"), dict) else doc


def cmd_hint(args) -> int:
    if args.player is not None and not args.supplies:
        raise InputError("--player", "needs --supplies: the player is one of the supplies' owners")
    if args.target and args.supplies:
        raise InputError("--target", "is for Solo rules; --supplies are Normal rules")
    if args.supplies:
        from solver.games.gardeners import supplies
        garden = read_garden(args.garden)
        h = supplies.hint(garden, _ids(args.cards), args.mode, read_json(args.supplies, "--supplies"), args.player or 0,
                          rules=args.rules, removal_rules=args.removal_rules, control=SolveControl(args.time_limit),
                          floating=args.floating, **_data(args))
    else:
        h = api.hint(read_garden(args.garden), _ids(args.cards), args.mode, rules=args.rules,
                     removal_rules=args.removal_rules, control=SolveControl(args.time_limit), floating=args.floating,
                     target=_target(args.target) if args.target else None, **_data(args))
    view = h.at_level(args.level)
    if view.get("target") is not None:
        view["target"] = view["target"].to_dict()
    if view.get("move") is not None:
        m = view["move"]
        view["move"] = {"kind": m.kind, "tile": m.tile, "cell": list(m.cell), "rotation": m.rotation}
        if m.other is not None:
            view["move"]["other"] = list(m.other)
        if m.kind in ("add", "remove") and args.supplies:
            view["move"]["player"] = m.player
        if m.to_player is not None:
            view["move"]["to_player"] = m.to_player
    _print(args, view, view["text"])
    return _code(h.status)


def cmd_repair(args) -> int:
    r = api.repair(read_garden(args.garden), _ids(args.cards), args.mode, removal_rules=args.removal_rules,
                   control=SolveControl(args.time_limit), floating=args.floating, **_data(args))
    data = {"verdict": r.verdict, "remove": [list(c) for c in r.remove], "removals_bound": r.bound,
            "witness": r.witness.to_dict() if r.witness else None}
    _print(args, data, f"{r.verdict}: remove {len(r.remove)} tile(s) {r.remove}")
    return _code(r.verdict)


def cmd_forced(args) -> int:
    r = api.forced_placements(read_garden(args.garden), _ids(args.cards), args.mode, SolveControl(args.time_limit),
                              **_data(args))
    data = {"verdict": r.verdict, "forced": [{"cell": list(f.cell), "tiles": list(f.tiles),
                                              "rotations": {k: list(v) for k, v in f.rotations.items()}}
                                             for f in r.cells], "undecided": [list(c) for c in r.undecided]}
    lines = [f"{f.cell}: {'/'.join(f.tiles)}" for f in r.cells] or ["no forced cell"]
    _print(args, data, "\n".join([r.verdict] + lines))
    return _code(r.verdict)


def cmd_deduce(args) -> int:
    trials = read_json(args.trials)
    r = api.deduce_card(args.kind, trials, args.mode, exclude=_ids(args.exclude) if args.exclude else None,
                        expert=args.expert, **_data(args))
    data = {"candidates": [c.id for c in r.candidates]}
    text = f"candidates: {', '.join(c.id for c in r.candidates) or 'none'}"
    if r.split:
        s = r.split
        data["split"] = {"kind": s.kind, "cells": [list(c) for c in s.cells], "rotation": s.rotation,
                         "thrilled": s.thrilled, "angry": s.angry}
        text += f"\ntry: {s.kind} {s.cells} -> thrilled {s.thrilled}, angry {s.angry}"
    _print(args, data, text)
    return 0


def _removal_flags(p: argparse.ArgumentParser, default: bool) -> None:
    """--removal-rules / --free-removal, both on `hint` and `repair` (whose defaults differ: a hint
    plays by the Normal-mode rules, a repair by default answers the fewest removals in any order)."""
    g = p.add_mutually_exclusive_group()
    on, off = ("(the default)", "") if default else ("", "(the default)")
    g.add_argument("--removal-rules", dest="removal_rules", action="store_true",
                   help=f"Normal-mode removal rules: a tile leaves only from the garden's edge and never "
                        f"splits it {on}".rstrip())
    g.add_argument("--free-removal", dest="removal_rules", action="store_false",
                   help=f"any tile may be removed, in any order {off}".rstrip())
    p.set_defaults(removal_rules=default)


def register(sub) -> None:
    p = sub.add_parser("progress", help="per card: satisfied, broken, blocked (proven) or still possible")
    _common(p)
    p.add_argument("--floating", action="store_true", help="Normal mode: the garden may still slide within the frame")
    p.set_defaults(func=cmd_progress)
    p = sub.add_parser("hint", help="the next move with the card it serves, at level 1, 2 or 3")
    _common(p)
    p.add_argument("--level", type=int, default=3, choices=(1, 2, 3),
                   help="1: the card to look at; 2: and the cells; 3: and the move itself (default 3)")
    p.add_argument("--rules", default=None, choices=("normal", "solo"),
                   help="the moves: normal (add next to the garden, remove) or solo (place, remove, swap, rotate "
                        "freely); default: the mode's own (solo with --mode solo, else normal), as in HintService")
    _removal_flags(p, default=True)
    p.add_argument("--supplies", help='Normal rules: JSON [{"stack": [top, ...], "loose": [...]}, ...] per player '
                                      '(every tile not in the garden once); - for stdin')
    p.add_argument("--player", type=integer(0), default=None,
                   help="with --supplies: the index of the player asking, >= 0 (default 0)")
    p.add_argument("--floating", action="store_true", help="Normal mode: the garden may still slide within the frame")
    p.add_argument("--target", help="Solo rules: the `target` garden of the previous hint's --json answer (a file; - "
                                    "for stdin): its route is kept unless a shorter one is found")
    p.set_defaults(func=cmd_hint)
    p = sub.add_parser("repair", help="the fewest tiles to remove so the garden can be completed again")
    _common(p)
    _removal_flags(p, default=False)
    p.add_argument("--floating", action="store_true", help="Normal mode: the garden may still slide within the frame")
    p.set_defaults(func=cmd_repair)
    p = sub.add_parser("forced", help="cells whose content is the same in every valid completion")
    _common(p)
    p.set_defaults(func=cmd_forced)
    p = sub.add_parser("deduce", help="card fronts of a kind consistent with the verdicts, and the best next test")
    p.add_argument("kind", help="the kind on the card's back, e.g. distance")
    p.add_argument("trials", help='JSON list [{"garden": {...}, "verdict": "thrilled"|"angry"}]; - for stdin')
    p.add_argument("--exclude", help="cards already seen face up, comma-separated (each card exists once)")
    p.add_argument("--expert", action="store_true", help="the Expert cards are in play too (added to the Standard deck)")
    _common(p, garden=False, solver=False)
    p.set_defaults(func=cmd_deduce)
