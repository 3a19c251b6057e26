"""The pure checker: the executable specification of every card on a (possibly partial) garden."""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import Cell
from solver.games.gardeners.cards import Card
from solver.games.gardeners.cards.verdict import SATISFIED
from solver.games.gardeners.garden import Garden


@dataclass(frozen=True)
class CardReport:
    card_id: str
    kind: str
    status: str
    cells: tuple[Cell, ...]
    reason: str


@dataclass(frozen=True)
class CheckReport:
    complete: bool
    verdicts: tuple[CardReport, ...]

    @property
    def valid(self) -> bool:
        """His Majesty is thrilled: the garden is complete and every card is satisfied."""
        return self.complete and all(v.status == SATISFIED for v in self.verdicts)

    @property
    def broken(self) -> list[str]:
        return [v.card_id for v in self.verdicts if v.status != SATISFIED]


def check(garden: Garden, cards: list[Card]) -> CheckReport:
    verdicts = []
    for card in cards:
        v = card.check(garden)
        verdicts.append(CardReport(card.id, card.kind, v.status, v.cells, v.reason))
    return CheckReport(garden.complete, tuple(verdicts))
