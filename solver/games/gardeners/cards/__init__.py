"""Constraint cards: the card grammar (kind + parameters), the decks, and the pure checker per kind.

Each kind lives in its own module with three functions: `parse(params, field)` validates the
parameters into a frozen spec, `check(garden, spec)` is the executable rule (plain Python), and
`describe(spec)` words it. The CP-SAT faces are in `solver.games.gardeners.encodings`.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from solver.core.datafile import check_top_level, load_data_file
from solver.errors import InputError
from solver.games.gardeners.cards import (agglomeration, border, distance, geometry, link, panorama, path,
                                          proximity)
from solver.games.gardeners.cards.verdict import Verdict

KINDS: dict[str, ModuleType] = {
    "proximity": proximity, "distance": distance, "agglomeration": agglomeration, "panorama": panorama,
    "link": link, "border": border, "geometry": geometry, "path": path,
}
DECKS = ("training-a", "training-b", "training-c", "standard", "expert")
DEFAULT_CARDS = Path(__file__).resolve().parents[3] / "data" / "gardeners" / "cards.json"


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    kind: str
    text: str
    spec: object  # the kind's frozen parameter spec
    params: str   # the parameters as canonical JSON (for wire formats and digests)

    def check(self, garden) -> Verdict:
        return KINDS[self.kind].check(garden, self.spec)


# A card's keys; a key starting with "_" is a note (like the file's "_reference") and is kept out of the card.
CARD_KEYS = ("id", "deck", "kind", "params", "text")
SCHEMA = "gardeners-cards/1"
_TOP_KEYS = {"schema", "cards"}


def parse_card(raw, where: str = "card") -> Card:
    if not isinstance(raw, dict):
        raise InputError(where, "a card is an object {id, deck, kind, params, text}", raw)
    unknown = {k for k in raw if not k.startswith("_")} - set(CARD_KEYS)
    if unknown:
        raise InputError(where, f"unknown keys {sorted(unknown)}; a card has {', '.join(CARD_KEYS)} "
                                "(and notes whose names start with '_')")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid:
        raise InputError(f"{where}.id", "must be a non-empty string", cid)
    deck = raw.get("deck")
    if not isinstance(deck, str) or deck not in DECKS:
        raise InputError(f"{where}.deck", f"must be one of {list(DECKS)}", deck)
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InputError(f"{where}.kind", f"must be one of {sorted(KINDS)}", kind)
    params = raw.get("params", {})
    if not isinstance(params, dict):
        raise InputError(f"{where}.params", "must be an object", params)
    spec = KINDS[kind].parse(params, f"{where}.params")
    text = raw.get("text")
    if text is None:
        text = KINDS[kind].describe(spec)
    elif not isinstance(text, str) or not text.strip():
        raise InputError(f"{where}.text", "must be a non-empty string (leave it out to word the card from its "
                                          "parameters)", text)
    return Card(cid, deck, kind, text, spec, json.dumps(params, sort_keys=True))


@dataclass(frozen=True)
class Deck:
    cards: tuple[Card, ...]
    digest: str
    source: str

    def get(self, card_id: str) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def of(self, deck: str) -> list[Card]:
        return [c for c in self.cards if c.deck == deck]

    def resolve(self, card_ids, field: str = "card_ids") -> list[Card]:
        """Cards by id, in the order given; unknown and repeated ids are input errors."""
        if isinstance(card_ids, str) or not isinstance(card_ids, (list, tuple)):
            raise InputError(field, "must be a list of card ids", card_ids)
        by_id = {c.id: c for c in self.cards}
        out, seen = [], set()
        for i, cid in enumerate(card_ids):
            if cid not in by_id:
                raise InputError(f"{field}[{i}]", "unknown card id", cid)
            if cid in seen:
                raise InputError(f"{field}[{i}]", "card given twice", cid)
            seen.add(cid)
            out.append(by_id[cid])
        return out


def parse_deck(doc, source: str = "<memory>") -> Deck:
    check_top_level(doc, "cards", _TOP_KEYS, SCHEMA, "card file")
    cards, seen = [], set()
    for i, raw in enumerate(doc["cards"]):
        card = parse_card(raw, f"cards[{i}]")
        if card.id in seen:
            raise InputError(f"cards[{i}].id", "duplicate card id", card.id)
        seen.add(card.id)
        cards.append(card)
    canonical = json.dumps([[c.id, c.deck, c.kind, c.params] for c in cards]).encode()
    return Deck(tuple(cards), hashlib.sha256(canonical).hexdigest()[:16], source)


def load_cards(path: str | Path | None = None) -> Deck:
    """Load and validate a card file (default: the reference decks shipped with gardens)."""
    return load_data_file(path, DEFAULT_CARDS, "cards", parse_deck)
