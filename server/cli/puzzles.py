"""`gardens puzzles generate|show|list|verify` and `gardens atlas build|show`: daily puzzles and the atlas, in-process."""
from __future__ import annotations

import os
import sys

from generators import batch, daily
from generators.identity import parse_date, parse_id
from generators.store import Store, StoreError, default_path

from .files import dumps


def _db(args) -> str:
    return str(args.db or default_path())


def _list(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def _workers(args) -> int:
    return args.workers or max(1, len(os.sched_getaffinity(0)))


def cmd_generate(args) -> int:
    games, variants, difficulties = _list(args.games), _list(args.variants), _list(args.difficulties)
    start, end = parse_date(args.date_from, "from"), parse_date(args.date_to, "to")
    if args.ray:
        from generators.cluster import generate_range_ray
        summary = generate_range_ray(args.ray, _db(args), start, end, games, variants, difficulties)
    else:
        summary = batch.generate_range(_db(args), start, end, games, _workers(args), variants=variants,
                                       difficulties=difficulties)
    times = sorted(summary.per_puzzle.values())
    p50 = times[len(times) // 2] if times else 0.0
    print(f"generated {summary.generated}, already stored {summary.skipped}, in {summary.seconds:.1f} s"
          + (f" (per puzzle p50 {p50:.2f} s, max {times[-1]:.2f} s)" if times else ""))
    return 0


def cmd_show(args) -> int:
    puzzle = Store(_db(args)).get(parse_id(args.id, "id"))
    if puzzle is None:
        print(f"{args.id}: not stored", file=sys.stderr)
        return 1
    doc = {"id": str(puzzle.id), "generator_version": puzzle.generator_version,
           "catalog_digest": puzzle.catalog_digest, "content_hash": puzzle.content_hash, "puzzle": puzzle.public}
    if args.answer:
        doc["answer"] = puzzle.answer
    print(dumps(doc))
    return 0


def cmd_list(args) -> int:
    for p in Store(_db(args)).list(game=args.game or "", date_from=args.date_from or "",
                                   date_to=args.date_to or "", limit=args.limit):
        print(f"{p.id}  {p.content_hash[:16]}  {_summary(p.public)}")
    return 0


def _summary(public: dict) -> str:
    """A puzzle's content in a few words for `list`: the cards, tiles, holding or nursery the player gets."""
    if public.get("card_ids"):
        return " ".join(public["card_ids"])
    if public.get("tiles"):
        return f"{len(public['tiles'])} tiles: " + " ".join(map(str, public["tiles"]))
    holding = public.get("holding")
    if isinstance(holding, dict):
        return ", ".join(f"{len(holding.get(k) or [])} {k}" for k in ("seedlings", "plants", "flowers"))
    setup = public.get("setup")
    if isinstance(setup, dict) and setup.get("nursery"):
        return f"side {setup.get('side')}, {len(setup['nursery'])} cards"
    return ""


def cmd_verify(args) -> int:
    """Exit 1 when any stored puzzle fails its hash or its answer check."""
    store = Store(_db(args))
    problems = store.integrity_problems()  # bad pages: the rows cannot all be read (a StoreError: exit 2)
    if problems:
        raise StoreError(f"{store.path}: damaged (SQLite's quick_check: {'; '.join(problems)}); "
                         "restore it from a backup")
    damaged, rows = store.read_all()  # one read: the damaged ids, and the puzzles whose hashes match
    bad = len(damaged)
    for pid in damaged:
        print(f"{pid}: damaged: does not read back as written (content, JSON or its hash)")
    for puzzle in rows:
        for problem in daily.problems(puzzle):
            bad += 1
            print(f"{puzzle.id}: {problem}")
    print(f"verified {len(rows) + len(damaged)} puzzles: {bad} problem(s)")
    return 1 if bad else 0


def cmd_atlas_build(args) -> int:
    from generators import atlas
    sizes = tuple(int(s) for s in args.sizes.split(","))
    ids = atlas.standard_ids()[:args.first] if args.first else None
    if args.ray:
        from generators.cluster import build_atlas_ray
        summary = build_atlas_ray(args.ray, _db(args), sizes, ids)
    else:
        summary = batch.build_atlas(_db(args), sizes, _workers(args), ids)
    counts = Store(_db(args)).atlas_counts()
    rate = summary.solved / summary.seconds if summary.seconds else 0.0
    print(f"atlas: {summary.solved} combinations in {summary.seconds:.1f} s ({rate:.1f}/s), "
          f"{summary.skipped} already stored, {summary.witnesses} witness gardens stored"
          + (f", {summary.dropped} rows of other tile/card data dropped" if summary.dropped else ""))
    for (size, verdict), n in sorted(counts.items()):
        print(f"  size {size} {verdict}: {n}")
    return 0


def cmd_atlas_show(args) -> int:
    entry = Store(_db(args)).atlas_get([c.strip() for c in args.cards.split(",")])
    if entry is None:
        print("not in the atlas", file=sys.stderr)
        return 1
    print(dumps({"cards": list(entry.cards), "verdict": entry.verdict, "conflicts": entry.conflicts,
                 "discards": entry.discards, "complete": entry.complete}))
    return 0


def _common(p) -> None:
    p.add_argument("--db", help=f"SQLite file (env GARDENS_PUZZLES_DB, default {default_path()})")


def register(subparsers) -> None:
    p = subparsers.add_parser("puzzles", help="daily puzzles: generate a date range, show, list, verify")
    sub = p.add_subparsers(dest="puzzles_command", metavar="ACTION")
    sub.required = True
    g = sub.add_parser("generate", help="generate and store every daily puzzle of a date range")
    g.add_argument("--from", dest="date_from", required=True, help="first date, YYYY-MM-DD")
    g.add_argument("--to", dest="date_to", required=True, help="last date, YYYY-MM-DD (inclusive)")
    g.add_argument("--games", help=f"comma-separated games (default all: {sorted({k for k, _ in daily.KINDS})})")
    g.add_argument("--variants", help="comma-separated variants, e.g. decree,impossible (default all)")
    g.add_argument("--difficulties", help="comma-separated difficulties, e.g. easy,hard (default all)")
    g.add_argument("--workers", type=int, default=0, help="local processes (default: the cores)")
    g.add_argument("--ray", help="Ray cluster address (needs the optional 'cluster' extra)")
    _common(g)
    g.set_defaults(func=cmd_generate)
    s = sub.add_parser("show", help="one stored puzzle as JSON")
    s.add_argument("id", help="game/variant/difficulty/YYYY-MM-DD")
    s.add_argument("--answer", action="store_true", help="include the stored answer (server-side data)")
    _common(s)
    s.set_defaults(func=cmd_show)
    v = sub.add_parser("verify", help="re-check every stored puzzle: hash and answer (pure checkers)")
    _common(v)
    v.set_defaults(func=cmd_verify)
    ls = sub.add_parser("list", help="stored puzzles, by date")
    ls.add_argument("--game", help="only this game: gardeners, gartenbau, versailles or horticulture")
    ls.add_argument("--from", dest="date_from", help="first date, YYYY-MM-DD")
    ls.add_argument("--to", dest="date_to", help="last date, YYYY-MM-DD (inclusive)")
    ls.add_argument("--limit", type=int, default=100, help="at most this many puzzles (default 100)")
    _common(ls)
    ls.set_defaults(func=cmd_list)

    a = subparsers.add_parser("atlas", help="solvability atlas of Standard card pairs and triples")
    asub = a.add_subparsers(dest="atlas_command", metavar="ACTION")
    asub.required = True
    b = asub.add_parser("build", help="build (or resume) the atlas in the puzzle database")
    b.add_argument("--sizes", default="2,3", help="combination sizes (smaller ones are built first)")
    b.add_argument("--first", type=int, default=0, help="only the first N Standard cards (quick runs)")
    b.add_argument("--workers", type=int, default=0, help="local processes (default: the cores)")
    b.add_argument("--ray", help="Ray cluster address (needs the optional 'cluster' extra)")
    _common(b)
    b.set_defaults(func=cmd_atlas_build)
    sh = asub.add_parser("show", help="the atlas entry of a combination")
    sh.add_argument("cards", help="comma-separated card ids")
    _common(sh)
    sh.set_defaults(func=cmd_atlas_show)
