"""The solvability atlas: verdict and minimal conflicting subsets of every pair and triple of the Standard deck.

A combination is proven solvable by a garden the pure checker accepts for all its cards: every
witness found is checked against the whole deck and stored, so one garden vouches for many
combinations (and CheckSolvable can answer with it). A combination containing a known conflict is
unsolvable without a search, and its minimal conflicts are the smaller ones it contains; only the
rest are solved one by one (one worker, deterministic limit).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from generators.effort import puzzle_control
from generators.store import AtlasEntry
from solver.games.gardeners import engine
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog

ATLAS_LIMIT = 1.0  # deterministic seconds per search
RETRY_LIMIT = 20.0  # deterministic seconds for a combination the first search left unknown
EXTEND_BY = 2          # extra cards tried together with an uncovered combination
LOOK_AHEAD_LIMIT = 0.1  # deterministic seconds for that try
ATLAS_MODE = "solo"


def standard_ids(cards: str | None = None) -> list[str]:
    return [c.id for c in load_cards(cards).of("standard")]


def combinations(size: int, ids: list[str] | None = None, cards: str | None = None) -> list[tuple[str, ...]]:
    return list(itertools.combinations(sorted(ids or standard_ids(cards)), size))


def minimal_discards(cards: tuple[str, ...], conflicts: list[list[str]]) -> list[list[str]]:
    """Minimal hitting sets of the conflicts: the smallest ways to make the rest solvable."""
    found: list[frozenset] = []
    sets = [frozenset(c) for c in conflicts]
    for k in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, k):
            hit = frozenset(combo)
            if any(d <= hit for d in found):
                continue
            if all(hit & c for c in sets):
                found.append(hit)
    return [sorted(d) for d in found]


@dataclass
class Worker:
    """Solves combinations, remembering witnesses (as sets of satisfied cards) across calls."""

    known_conflicts: dict[tuple[str, ...], str] = field(default_factory=dict)  # smaller combo -> verdict
    witnesses: list[frozenset] = field(default_factory=list)
    solves: int = 0
    catalog_file: str | None = None  # the tile catalog and card decks solved with (None: the reference data)
    cards_file: str | None = None

    def __post_init__(self):
        self.deck = load_cards(self.cards_file)
        self.standard = self.deck.of("standard")
        self.catalog = load_catalog(self.catalog_file)
        self.mode = MODES[ATLAS_MODE]
        self.found: list[tuple[tuple[str, ...], dict]] = []  # new witnesses: (cards satisfied, garden)

    def _witness(self, garden) -> None:
        """Keep a found garden (already checked for the cards it was solved for) with every Standard
        card it satisfies: it vouches for every combination of them."""
        report = check(garden, self.standard)
        happy = frozenset(v.card_id for v in report.verdicts if v.status == "satisfied")
        self.witnesses.append(happy)
        self.found.append((tuple(sorted(happy)), garden.to_dict()))

    def entry(self, cards: tuple[str, ...]) -> AtlasEntry:
        chosen = frozenset(cards)
        if any(chosen <= w for w in self.witnesses):
            return AtlasEntry(cards, engine.SOLVABLE, [], [], True)
        inner = [list(sub) for k in range(1, len(cards)) for sub in itertools.combinations(cards, k)
                 if self.known_conflicts.get(sub) == engine.UNSOLVABLE]
        # keep only minimal ones (a conflict containing a smaller known conflict is not minimal)
        inner = [c for c in inner if not any(set(o) < set(c) for o in inner)]
        if inner:
            return AtlasEntry(cards, engine.UNSOLVABLE, inner, minimal_discards(cards, inner), True)
        unknown_inner = any(self.known_conflicts.get(sub) == engine.UNKNOWN
                            for k in range(1, len(cards)) for sub in itertools.combinations(cards, k))
        self.solves += 1
        result = engine.solve(self.deck.resolve(list(cards)), self.mode, self.catalog, puzzle_control(ATLAS_LIMIT))
        if result.verdict == engine.UNKNOWN:
            # rare (1 of the 32,509 Standard triples: S08+S38+S57, proven unsolvable in ~4 s): once more, longer
            self.solves += 1
            result = engine.solve(self.deck.resolve(list(cards)), self.mode, self.catalog,
                                  puzzle_control(RETRY_LIMIT))
        if result.verdict == engine.SOLVABLE:
            self._witness(result.garden)
            return AtlasEntry(cards, engine.SOLVABLE, [], [], True)
        if result.verdict == engine.UNSOLVABLE and not unknown_inner:
            return AtlasEntry(cards, engine.UNSOLVABLE, [list(cards)], [[c] for c in cards], True)
        # unsolvable but a subset's verdict is unknown: the minimal conflicts are not all known
        return AtlasEntry(cards, result.verdict, [], [], False)

    def covered(self, cards) -> bool:
        chosen = frozenset(cards)
        return any(chosen <= w for w in self.witnesses)

    def has_known_conflict(self, cards) -> bool:
        return any(self.known_conflicts.get(sub) is not None
                   for k in range(1, len(cards)) for sub in itertools.combinations(cards, k))

    def look_ahead(self, chunk: list[tuple[str, ...]], i: int, extra: int = EXTEND_BY) -> None:
        """Before solving chunk[i] alone, try it together with cards of the next uncovered
        combinations: one garden meeting them all covers several combinations at once. Only a
        found garden counts (it is checked); a failure here proves nothing and costs a short limit."""
        cards = list(chunk[i])
        for later in chunk[i + 1:]:
            if len(cards) >= len(chunk[i]) + extra:
                break
            if self.covered(later) or self.has_known_conflict(later):
                continue
            cards += [c for c in later if c not in cards][:len(chunk[i]) + extra - len(cards)]
        if len(cards) == len(chunk[i]):
            return
        self.solves += 1
        result = engine.solve(self.deck.resolve(cards), self.mode, self.catalog, puzzle_control(LOOK_AHEAD_LIMIT))
        if result.verdict == engine.SOLVABLE:
            self._witness(result.garden)

    def entries(self, chunk: list[tuple[str, ...]]) -> list[AtlasEntry]:
        out = []
        for i, cards in enumerate(chunk):
            if len(cards) >= 3 and not self.covered(cards) and not self.has_known_conflict(cards):
                self.look_ahead(chunk, i)
            out.append(self.entry(cards))
        return out


_worker: Worker | None = None


def solve_chunk(chunk: list[tuple[str, ...]], known: dict[tuple[str, ...], str],
                witnesses: list[frozenset] = (), catalog: str | None = None,
                cards: str | None = None) -> tuple[list[AtlasEntry], list[tuple[tuple[str, ...], dict]]]:
    """A pool task: entries for `chunk` given the verdicts of the smaller combinations and the
    witnesses known so far, solved with the tile catalog and card decks given (None: the reference
    data); returns the entries and the new witness gardens (to be stored)."""
    global _worker
    if _worker is None or (_worker.catalog_file, _worker.cards_file) != (catalog, cards):
        _worker = Worker(catalog_file=catalog, cards_file=cards)
    _worker.known_conflicts = known
    seen = set(_worker.witnesses)
    _worker.witnesses.extend(w for w in witnesses if w not in seen)
    _worker.found = []
    entries = _worker.entries(chunk)
    return entries, _worker.found


ATLAS_MODES = ("solo", "normal", "beginner")  # 6x6 with all 36 tiles: the atlas's verdicts hold for each


def data_digest(catalog: str | None = None, cards: str | None = None) -> str:
    """The digest of the tile catalog and card deck in use (Gardeners daily puzzles carry it)."""
    return f"tiles:{load_catalog(catalog).digest}+cards:{load_cards(cards).digest}"


# The atlas's verdicts depend on how the cards are read as well as on the data. Bump when a card kind's reading
# changes, so that rows built under the old reading are never served and the next build drops them
# (2, 7 Dec 2026: Agglomeration counts elements, a tile with two flowers twice; it counted tiles).
ATLAS_RULES = 2


def atlas_digest(catalog: str | None = None, cards: str | None = None) -> str:
    """The digest atlas rows are keyed by: the data in use and the card rules' revision."""
    return f"{data_digest(catalog, cards)}+rules:{ATLAS_RULES}"


_witness_cache: dict[tuple[str, str], list[tuple[frozenset, int]]] = {}


def _witness_garden(store, ids: list[str], digest: str):
    """A stored witness garden meeting every card of `ids`, or None."""
    key = (str(store.path), digest)
    wanted = frozenset(ids)
    for attempt in range(2):
        if attempt or key not in _witness_cache:
            _witness_cache[key] = store.atlas_witnesses(digest)
        for cards, wid in _witness_cache[key]:
            if wanted <= cards:
                return store.atlas_witness_garden(wid)
    return None


def lookup(card_ids, mode: str | None = None, store=None, catalog: str | None = None,
           cards: str | None = None) -> engine.Explanation | None:
    """The atlas's answer to CheckSolvable, or None when it has none (then ask the engine).

    Only rows built from the same tile catalog and deck (same digest) count. An unsolvable entry
    answers with its minimal conflicts and discards; a solvable one with a stored witness garden,
    re-checked here by the pure checker against the cards asked before it is returned."""
    if store is None or (mode or "normal") not in ATLAS_MODES:
        return None
    ids = list(card_ids)
    if not 1 <= len(ids) <= 3 or len(set(ids)) != len(ids):
        return None
    digest = atlas_digest(catalog, cards)
    entry = store.atlas_get(ids, digest)
    if entry is None or not entry.complete:
        return None
    if entry.verdict == engine.UNSOLVABLE:
        return engine.Explanation(engine.UNSOLVABLE, None, entry.conflicts, entry.discards, True)
    if entry.verdict == engine.SOLVABLE:
        doc = _witness_garden(store, ids, digest)
        if doc is None:
            return None
        garden = engine.verified(parse_garden(doc, load_catalog(catalog), MODES[mode or "normal"]),
                                 load_cards(cards).resolve(ids))
        return engine.Explanation(engine.SOLVABLE, garden, [], [], True)
    return None


def check_solvable(card_ids, mode: str | None = None, control=None, catalog: str | None = None,
                   cards: str | None = None, store=None) -> engine.Explanation:
    """CheckSolvable that consults the atlas first (see `lookup`), then the engine."""
    from solver.games.gardeners import api
    found = lookup(card_ids, mode, store, catalog, cards)
    return found if found is not None else api.check_solvable(card_ids, mode, control, catalog, cards)
