"""A whole Versailles game replayed from a record: tile distribution, placements, majorities, scoring."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from solver.games.versailles.data import Catalog
from solver.games.versailles.rules import Garden, IllegalPlacement, distribute, parse_placement
from solver.games.versailles.scoring import (
    Majorities, StageScore, final_score, intermediate_score, largest_areas, small_token_winners, winners,
)

LUDWIG = "Ludwig"


@dataclass
class PlayerResult:
    intermediate: StageScore | None
    final: StageScore | None
    areas: dict[str, int]

    @property
    def total(self) -> int:
        return sum(s.total for s in (self.intermediate, self.final) if s is not None)

    def as_dict(self) -> dict:
        return {"intermediate": self.intermediate.as_dict() if self.intermediate else None,
                "final": self.final.as_dict() if self.final else None,
                "areas": self.areas, "total": self.total}


@dataclass
class GameResult:
    players: dict[str, PlayerResult]
    holders: dict[str, str | None]
    transfers: list
    small_tokens: dict[str, str | None]
    winners: list[str]
    complete: bool
    gardens: dict[str, Garden] = field(repr=False, default_factory=dict)

    def as_dict(self) -> dict:
        return {"players": {p: r.as_dict() for p, r in self.players.items()},
                "large_token_holders": self.holders, "small_token_winners": self.small_tokens,
                "transfers": [t.as_dict() for t in self.transfers],
                "winners": self.winners, "complete": self.complete}


def _players(record: Mapping, catalog: Catalog) -> list[str]:
    players = record.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError(f"players: expected a non-empty list of names, got {players!r}")
    for i, p in enumerate(players):
        if not isinstance(p, str) or not p.strip():
            raise ValueError(f"players[{i}]: expected a non-empty name, got {p!r}")
    if len(set(players)) != len(players):
        raise ValueError(f"players: names must be distinct, got {players!r}")
    if len(players) not in catalog.setup.row_tiles:
        raise ValueError(f"players: the game is for {min(catalog.setup.row_tiles)}-"
                         f"{max(catalog.setup.row_tiles)} players, got {len(players)}")
    if LUDWIG in players and len(players) == 2 and catalog.setup.ludwig_in_2_player_game:
        raise ValueError(f"players: {LUDWIG!r} is the imaginary third player of a 2-player game")
    return players


def play(record: Mapping[str, Any], catalog: Catalog) -> GameResult:
    """Replay a game record and score it; ValueError names the first bad field.

    Record: {"players": [...], "stages": [{"row": [tile ids]?, "rounds": [{"cards": {player: n}?,
    "placements": [{"player", "tile"?, "x", "y", "rotation"?}]}]}]}. With cards the placement order
    is by ascending card, and with a row the tiles come from the row; without, list order and the
    placements' own tiles count.
    """
    if not isinstance(record, Mapping):
        raise ValueError("game: expected an object with players and stages")
    players = _players(record, catalog)
    setup = catalog.setup
    ludwig = len(players) == 2 and setup.ludwig_in_2_player_game
    seats = players + ([LUDWIG] if ludwig else [])
    stages = record.get("stages")
    if not isinstance(stages, list) or not 1 <= len(stages) <= setup.stages:
        raise ValueError(f"stages: expected a list of 1 to {setup.stages} stages, got {stages!r}")
    gardens = {p: Garden() for p in players}
    areas = {p: largest_areas({}, catalog) for p in players}
    majorities = Majorities(catalog)
    used_tiles: dict[int, str] = {}
    rowed: dict[int, int] = {}  # tile -> the stage whose row held it (Ludwig's tiles too: they are discarded)
    inter: dict[str, StageScore] = {}
    complete = len(stages) == setup.stages
    for s, stage in enumerate(stages, start=1):
        where_s = f"stages[{s - 1}]"
        if not isinstance(stage, Mapping):
            raise ValueError(f"{where_s}: expected an object with rounds")
        row = stage.get("row")
        if row is not None:
            _check_row(row, f"{where_s}.row", len(seats) * setup.rounds_per_stage, catalog, used_tiles, rowed)
            rowed.update({t: s for t in row})
        rounds = stage.get("rounds")
        if not isinstance(rounds, list) or not 1 <= len(rounds) <= setup.rounds_per_stage:
            raise ValueError(f"{where_s}.rounds: expected a list of 1 to {setup.rounds_per_stage} rounds")
        complete = complete and len(rounds) == setup.rounds_per_stage
        stage_cards: set[int] = set()
        for r, rnd in enumerate(rounds, start=1):
            where = f"{where_s}.rounds[{r - 1}]"
            for player, plc, at in _round_order(rnd, where, players, seats, row, r, catalog, stage_cards):
                if plc.tile in used_tiles:
                    raise ValueError(f"{at}.tile: tile {plc.tile} was already taken by {used_tiles[plc.tile]}")
                if plc.tile not in catalog.tiles:
                    raise ValueError(f"{at}.tile: unknown tile id {plc.tile!r}")
                tile = catalog.tiles[plc.tile]
                try:
                    gardens[player].place(tile, plc)
                except IllegalPlacement as exc:
                    raise IllegalPlacement(f"{at}: {player}: {exc}") from None
                used_tiles[plc.tile] = player
                areas[player] = largest_areas(gardens[player].fields, catalog)
                majorities.after_placement(player, areas, s, r)
        if s == 1:
            inter = {p: intermediate_score(p, areas[p], majorities) for p in players}
    final: dict[str, StageScore] = {}
    small: dict[str, str | None] = {}
    if len(stages) == setup.stages and setup.stages > 1:
        small = small_token_winners(areas, majorities, small_tokens=not ludwig)
        final = {p: final_score(p, areas[p], majorities, small) for p in players}
    results = {p: PlayerResult(inter.get(p), final.get(p), areas[p]) for p in players}
    largest = {p: max(areas[p][t] for t in catalog.garden_types) for p in players}
    won = winners({p: results[p].total for p in players}, largest)
    return GameResult(results, dict(majorities.holders), list(majorities.log), small, won, complete, gardens)


def _check_row(row: Any, where: str, length: int, catalog: Catalog, used: Mapping[int, str],
               rowed: Mapping[int, int]) -> None:
    """A stage's row: known tiles, none twice, none placed before, and none of an earlier stage's row (the second
    stage's row is laid "From the Garden Tiles returned to the box at the start of the first stage"; a tile Ludwig
    took in stage 1 was discarded, so it cannot come back either)."""
    if not isinstance(row, list) or len(row) != length:
        raise ValueError(f"{where}: expected a list of {length} tile ids, got {row!r}")
    for i, t in enumerate(row):
        if isinstance(t, bool) or not isinstance(t, int) or t not in catalog.tiles:
            raise ValueError(f"{where}[{i}]: unknown tile id {t!r}")
        if t in used:
            raise ValueError(f"{where}[{i}]: tile {t} was already used in an earlier stage")
        if t in rowed:
            raise ValueError(f"{where}[{i}]: tile {t} was in stage {rowed[t]}'s row; the second stage's row comes "
                             "from the tiles returned to the box")
    if len(set(row)) != len(row):
        raise ValueError(f"{where}: a tile appears twice in the row")


def _round_order(rnd: Any, where: str, players: list[str], seats: list[str], row: list | None,
                 r: int, catalog: Catalog, stage_cards: set[int]):
    """Yield (player, placement, its field path) in placing order for one round."""
    if not isinstance(rnd, Mapping):
        raise ValueError(f"{where}: expected an object with placements")
    raw = rnd.get("placements")
    if not isinstance(raw, list):
        raise ValueError(f"{where}.placements: expected a list, got {raw!r}")
    by_player: dict[str, dict] = {}
    index: dict[str, str] = {}  # each player's placement's field path
    for i, p in enumerate(raw):
        if not isinstance(p, Mapping) or p.get("player") not in players:
            raise ValueError(f"{where}.placements[{i}].player: expected one of {players}, got "
                             f"{p.get('player') if isinstance(p, Mapping) else p!r}")
        if p["player"] in by_player:
            raise ValueError(f"{where}.placements[{i}].player: {p['player']} places twice this round")
        by_player[p["player"]] = dict(p)
        index[p["player"]] = f"{where}.placements[{i}]"
    missing = [p for p in players if p not in by_player]
    if missing:
        raise ValueError(f"{where}.placements: no placement for {', '.join(missing)}")
    cards = rnd.get("cards")
    order = list(by_player)
    if cards is not None:
        if not isinstance(cards, Mapping):
            raise ValueError(f"{where}.cards: expected an object from player to number card")
        needed = seats if row is not None else players
        for seat in needed:
            if seat not in cards:
                raise ValueError(f"{where}.cards: no card for {seat}")
        for seat, v in cards.items():
            if seat not in seats:
                raise ValueError(f"{where}.cards: {seat!r} is not at the table")
            lo, hi = catalog.cards.low, catalog.cards.high
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"{where}.cards.{seat}: expected a number card {lo}..{hi}, got {v!r}")
            if v in stage_cards:
                raise ValueError(f"{where}.cards.{seat}: card {v} was already played this stage")
        if len(set(cards.values())) != len(cards):
            raise ValueError(f"{where}.cards: each number card exists once; a value is played twice")
        stage_cards.update(cards.values())
        if row is not None:
            group = row[(r - 1) * len(seats): r * len(seats)]
            given = distribute({s: cards[s] for s in seats}, group)
            order = [s for s, _ in given if s in by_player]
            for seat, tile in given:
                if seat in by_player:
                    if by_player[seat].get("tile", tile) != tile:
                        raise ValueError(f"{index[seat]}.tile: {seat} takes tile {tile} by the cards, "
                                         f"not tile {by_player[seat]['tile']}")
                    by_player[seat]["tile"] = tile
        else:
            order = sorted(by_player, key=lambda s: cards[s])
    elif row is not None:
        raise ValueError(f"{where}.cards: a stage with a row needs the played cards to distribute its tiles")
    for seat in order:
        plc = {k: v for k, v in by_player[seat].items() if k != "player"}
        if "tile" not in plc:
            raise ValueError(f"{index[seat]}.tile: {seat}: missing field 'tile'")
        yield seat, parse_placement(plc, index[seat]), index[seat]
