"""`gardens puzzles generate|show|list|verify` and `gardens atlas build|show`: daily puzzles and the atlas, in-process."""
from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

from generators import batch, daily
from generators.data import GameData
from generators.identity import parse_date, parse_id
from generators.store import Store, StoreError, default_path

from solver.errors import InputError

from .files import dumps, integer

ATLAS_MAX_SIZE = 3  # the atlas: single cards, pairs and triples of the Standard deck


def _db(args) -> str:
    return str(args.db or default_path())


def _existing(args) -> Store:
    """The store of a read-only command (show, list, verify, atlas show): it must exist already; nothing is created
    (`puzzles list --db /nonexistent/dir/x.sqlite` made the directory and an empty store, exit 0)."""
    path = Path(_db(args))
    if not path.is_file():
        where = "--db" if args.db else ("GARDENS_PUZZLES_DB" if os.environ.get("GARDENS_PUZZLES_DB") else "the store")
        raise StoreError(f"{where}: no puzzle store at {path} ({'not a file' if path.exists() else 'no such file'}); "
                         "`gardens puzzles generate` or `gardens atlas build` creates one")
    return Store(path, create=False, read_only=True)


def _intact(store: Store) -> Store:
    """`store` when every page of it is well-formed, else StoreError (exit 2), as the server refuses it at start-up."""
    problems = store.integrity_problems()  # bad pages: the rows cannot all be read
    if problems:
        raise StoreError(f"{store.path}: damaged (SQLite's quick_check: {'; '.join(problems)}); "
                         "restore it from a backup")
    return store


def _writable(args) -> None:
    """Before a command writes to an existing store: it must be intact (`generate` wrote three puzzles into a store
    with bad pages and exited 0, a store the server then refused to open)."""
    if Path(_db(args)).is_file():
        _intact(Store(_db(args), create=False))


@contextlib.contextmanager
def _sigterm_interrupts():
    """SIGTERM (a cron timeout, a supervisor) stops a long command as Ctrl-C does: the workers are stopped and
    what is stored stays (one transaction per puzzle). It killed the command alone, leaving its workers blocked."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _list(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def _workers(args) -> int:
    return args.workers or max(1, len(os.sched_getaffinity(0)))


def _kinds_chosen(games, variants, difficulties) -> None:
    """Each of --games/--variants/--difficulties names known ones, and together they select at least one kind of
    puzzle (`--games gardeners --variants holding` printed "generated 0" and exit 0)."""
    kinds = list(daily.KINDS.values())
    for option, chosen, known in (("--games", games, {k.game for k in kinds}),
                                  ("--variants", variants, {k.variant for k in kinds}),
                                  ("--difficulties", difficulties, {d for k in kinds for d in k.difficulties})):
        unknown = sorted(set(chosen or ()) - known)
        if unknown:
            raise InputError(option, f"unknown {', '.join(unknown)}; one of {', '.join(sorted(known))}")
    selected = [k for k in kinds if (not games or k.game in games) and (not variants or k.variant in variants)
                and (not difficulties or set(difficulties) & set(k.difficulties))]
    if not selected:
        offered = "; ".join(f"{k.game}/{k.variant}: {','.join(k.difficulties)}" for k in kinds)
        raise InputError("--variants" if variants else "--difficulties",
                         f"no puzzle of the games chosen has it (game/variant: difficulties are {offered})")


def cmd_generate(args) -> int:
    games, variants, difficulties = _list(args.games), _list(args.variants), _list(args.difficulties)
    start, end = parse_date(args.date_from, "--from"), parse_date(args.date_to, "--to")
    if end < start:
        raise InputError("--to", f"is before --from ({args.date_from})", args.date_to)
    _kinds_chosen(games, variants, difficulties)
    _writable(args)
    if args.ray:
        from generators.cluster import generate_range_ray
        summary = generate_range_ray(args.ray, _db(args), start, end, games, variants, difficulties,
                                     data=_game_data(args))
    else:
        with _sigterm_interrupts():
            summary = batch.generate_range(_db(args), start, end, games, _workers(args), variants=variants,
                                           difficulties=difficulties, data=_game_data(args))
    times = sorted(summary.per_puzzle.values())
    p50 = times[len(times) // 2] if times else 0.0
    print(f"generated {summary.generated}, already stored {summary.skipped}, in {summary.seconds:.1f} s"
          + (f" (per puzzle p50 {p50:.2f} s, max {times[-1]:.2f} s)" if times else ""))
    return 0


def cmd_show(args) -> int:
    puzzle = _existing(args).get(parse_id(args.id, "id"))
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
    games = sorted({k.game for k in daily.KINDS.values()})
    if args.game and args.game not in games:
        raise InputError("--game", f"unknown; one of {', '.join(games)}", args.game)
    for option, value in (("--from", args.date_from), ("--to", args.date_to)):
        if value:
            parse_date(value, option)
    for p in _existing(args).list(game=args.game or "", date_from=args.date_from or "",
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
        counts = [(len(holding.get(k) or []), k) for k in ("seedlings", "plants", "flowers")]
        return ", ".join(f"{n} {k if n != 1 else k[:-1]}" for n, k in counts)  # ("1 flower", not "1 flowers")
    setup = public.get("setup")
    if isinstance(setup, dict) and setup.get("nursery"):
        return f"side {setup.get('side')}, {len(setup['nursery'])} cards"
    return ""


def cmd_verify(args) -> int:
    """Exit 1 when any stored puzzle fails its hash or its answer check."""
    store = _intact(_existing(args))
    damaged, rows = store.read_all()  # one read: the damaged ids, and the puzzles whose hashes match
    bad = len(damaged)
    for pid in damaged:
        print(f"{pid}: damaged: does not read back as written (content, JSON or its hash)")
    for puzzle in rows:
        for problem in daily.problems(puzzle, _game_data(args)):
            bad += 1
            print(f"{puzzle.id}: {problem}")
    print(f"verified {len(rows) + len(damaged)} puzzles: {bad} problem(s)")
    return 1 if bad else 0


def cmd_atlas_build(args) -> int:
    sizes = []
    for text in args.sizes.split(","):
        try:
            size = int(text)
        except ValueError:
            raise InputError("--sizes", "comma-separated combination sizes, each 1, 2 or 3", args.sizes) from None
        if not 1 <= size <= ATLAS_MAX_SIZE:
            raise InputError("--sizes", f"each size is 1, 2 or 3 (single cards, pairs, triples)", size)
        sizes.append(size)
    from generators import atlas
    standard = atlas.standard_ids(args.card_file)
    if args.first is not None and args.first > len(standard):
        raise InputError("--first", f"the Standard deck has {len(standard)} cards", args.first)
    ids = standard[:args.first] if args.first else None
    _writable(args)
    if args.ray:
        from generators.cluster import build_atlas_ray
        summary = build_atlas_ray(args.ray, _db(args), sizes, ids, catalog=args.catalog, cards=args.card_file)
    else:
        with _sigterm_interrupts():
            summary = batch.build_atlas(_db(args), sizes, _workers(args), ids, catalog=args.catalog,
                                        cards=args.card_file)
    counts = Store(_db(args)).atlas_counts()
    rate = summary.solved / summary.seconds if summary.seconds else 0.0
    print(f"atlas: {summary.solved} combinations in {summary.seconds:.1f} s ({rate:.1f}/s), "
          f"{summary.skipped} already stored, {summary.witnesses} witness gardens stored"
          + (f", {summary.dropped} rows of other tile/card data dropped" if summary.dropped else ""))
    print(f"the atlas in {_db(args)} now holds (every run so far):")
    for (size, verdict), n in sorted(counts.items()):
        print(f"  size {size} {verdict}: {n}")
    return 0


def cmd_atlas_show(args) -> int:
    from generators import atlas
    cards = [c.strip() for c in args.cards.split(",")]
    standard = set(atlas.standard_ids(args.card_file))
    for i, card in enumerate(cards):
        if card not in standard:
            raise InputError(f"cards[{i}]", "not a card of the Standard deck, which the atlas holds", card)
        if card in cards[:i]:
            raise InputError(f"cards[{i}]", "card given twice", card)
    store = _existing(args)
    entry = store.atlas_get(cards, atlas.atlas_digest(args.catalog, args.card_file))  # rows of this data only
    if entry is None:
        other = store.atlas_get(cards) is not None
        print("not in the atlas" + (": its entry was built from other tile or card data (give the --catalog and "
                                    "--card-file it was built with)" if other else ""), file=sys.stderr)
        return 1
    print(dumps({"cards": list(entry.cards), "verdict": entry.verdict, "conflicts": entry.conflicts,
                 "discards": entry.discards, "complete": entry.complete}))
    return 0


def _common(p) -> None:
    p.add_argument("--db", help=f"SQLite file (env GARDENS_PUZZLES_DB, default {default_path()})")


def _atlas_data(p) -> None:
    """The data options of `atlas build|show`, named as the Gardeners commands name them: atlas rows are keyed by
    the digest of the tile catalog and card file they were built from (docs/data-files.md)."""
    p.add_argument("--catalog", help="tile catalog JSON (default: the reference catalog)")
    p.add_argument("--card-file", help="card decks JSON, whose Standard deck the atlas holds (default: the "
                                       "reference decks)")


# The server's data settings, in GameData's order: each is a flag --name-with-dashes and a variable GARDENS_NAME
_DATA = (("tiles_file", "Gardeners tile catalog JSON"), ("cards_file", "Gardeners card decks JSON"),
         ("gartenbau_data", "directory of Gartenbau data files"),
         ("versailles_data", "directory of Versailles data files"),
         ("horticulture_data", "directory of Horticulture data files"))


def _puzzle_data(p) -> None:
    """The data files puzzles are made and checked with: the server's flags and variables, under the same names."""
    for name, what in _DATA:
        flag = "--" + name.replace("_", "-")
        p.add_argument(flag, help=f"{what}, as the server's {flag} (env GARDENS_{name.upper()}, as the server's; "
                                  "default: the reference data)")


def _game_data(args) -> GameData:
    """The flags, else the server's GARDENS_* variables: a cron job with the server's environment made puzzles
    with the reference data that its server, given other data by the same variables, then refused to serve."""
    return GameData(*(getattr(args, name) or os.environ.get("GARDENS_" + name.upper()) or None for name, _ in _DATA))


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
    g.add_argument("--workers", type=integer(1), default=None, help="local processes, >= 1 (default: the cores)")
    g.add_argument("--ray", help="Ray cluster address (needs the optional 'cluster' extra)")
    _puzzle_data(g)
    _common(g)
    g.set_defaults(func=cmd_generate)
    s = sub.add_parser("show", help="one stored puzzle as JSON")
    s.add_argument("id", help="game/variant/difficulty/YYYY-MM-DD")
    s.add_argument("--answer", action="store_true", help="include the stored answer (server-side data)")
    _common(s)
    s.set_defaults(func=cmd_show)
    v = sub.add_parser("verify", help="re-check every stored puzzle: hash and answer (pure checkers)")
    _puzzle_data(v)
    _common(v)
    v.set_defaults(func=cmd_verify)
    ls = sub.add_parser("list", help="stored puzzles, by date")
    ls.add_argument("--game", help="only this game: gardeners, gartenbau, versailles or horticulture")
    ls.add_argument("--from", dest="date_from", help="first date, YYYY-MM-DD")
    ls.add_argument("--to", dest="date_to", help="last date, YYYY-MM-DD (inclusive)")
    ls.add_argument("--limit", type=integer(1), default=100, help="at most this many puzzles, >= 1 (default 100)")
    _common(ls)
    ls.set_defaults(func=cmd_list)

    a = subparsers.add_parser("atlas", help="solvability atlas of Standard card pairs and triples")
    asub = a.add_subparsers(dest="atlas_command", metavar="ACTION")
    asub.required = True
    b = asub.add_parser("build", help="build (or resume) the atlas in the puzzle database")
    b.add_argument("--sizes", default="2,3",
                   help="comma-separated combination sizes, each 1, 2 or 3: every size up to the largest is built, "
                        "smaller ones first (default 2,3)")
    b.add_argument("--first", type=integer(1), default=None,
                   help="only the first N Standard cards, N >= 1 (quick runs; default all)")
    b.add_argument("--workers", type=integer(1), default=None, help="local processes, >= 1 (default: the cores)")
    b.add_argument("--ray", help="Ray cluster address (needs the optional 'cluster' extra)")
    _atlas_data(b)
    _common(b)
    b.set_defaults(func=cmd_atlas_build)
    sh = asub.add_parser("show", help="the atlas entry of a combination")
    sh.add_argument("cards", help="comma-separated card ids")
    _atlas_data(sh)
    _common(sh)
    sh.set_defaults(func=cmd_atlas_show)
