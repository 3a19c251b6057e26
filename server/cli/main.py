"""Entry point of the `gardens` command: discovers sub-commands from the modules of server.cli."""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
import sqlite3
import sys

import server.cli as _pkg
from generators.store import StoreError
from solver.errors import InputError, InputErrors

from .files import reset_stdin


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gardens",
        description="Constraint solver and puzzles for garden tile-laying games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    # Each module of server.cli (other than this one) exposes register(subparsers);
    # a game's commands land by adding its module, without touching this file.
    for info in sorted(pkgutil.iter_modules(_pkg.__path__), key=lambda m: m.name):
        if info.name in ("main",) or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"server.cli.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def _as_options(exc: ValueError, options: dict[str, str]) -> str:
    """`exc`'s message with each request field that came from a comma-separated option named as that option
    (`options`: field -> option, a command's `field_options`): "--exclude, item 2: card given twice (got 'S08')",
    not "exclude_card_ids[1]", a name the command line never shows."""
    if not options or not isinstance(exc, InputError):
        return str(exc)
    out = []
    for e in exc.errors if isinstance(exc, InputErrors) else [exc]:
        m = re.fullmatch(r"(\w+)(?:\[(\d+)\])?(.*)", e.field, re.S)
        if m is None or m.group(1) not in options:
            out.append(str(e))
            continue
        field = options[m.group(1)] + ("" if m.group(2) is None else f", item {int(m.group(2)) + 1}") + m.group(3)
        out.append(str(InputError(field, e.description, e.value)))
    return "; ".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    reset_stdin()
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM during a long puzzle or atlas command: a message, not a traceback
        print("gardens: interrupted (what was stored before is kept: one transaction per puzzle or batch)",
              file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`gardens ... | head`): not an error of ours; stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError, StoreError) as exc:  # domain errors carry a precise message
        # StoreError: a puzzle store that is not one, or a damaged row (was a traceback)
        print(f"gardens: error: {_as_options(exc, getattr(args, 'field_options', None))}", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:  # a full disk, an I/O error, a lock, bad pages ("database disk image
        # is malformed"): nothing half-written (each was a traceback, exit 1)
        print(f"gardens: error: the puzzle store cannot be used: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
