"""Independent Versailles oracle, written from the rulebook (shared/rulebooks/versailles.txt) and
docs/versailles.md's decisions, for the claims audit. It reads only the tile layouts from the
data file; it calls none of the engine's rules or scoring."""
from __future__ import annotations

import json
from pathlib import Path

TILES_JSON = Path(__file__).resolve().parents[2] / "solver" / "data" / "versailles" / "tiles.json"
GARDEN = "GBWRY"


def tiles() -> dict[int, str]:
    """tile id -> four codes, top-left, top-right, bottom-left, bottom-right."""
    raw = json.loads(TILES_JSON.read_text())
    return {t["id"]: t["fields"][0] + t["fields"][1] for t in raw["tiles"]}


def turn(codes: str, rotation: int) -> str:
    """The 2x2 layout after `rotation` quarter turns clockwise (a clockwise turn moves the
    top-left field to the top-right, top-right to bottom-right, ...)."""
    grid = [[codes[0], codes[1]], [codes[2], codes[3]]]
    for _ in range(rotation % 4):
        grid = [[grid[1][0], grid[0][0]], [grid[1][1], grid[0][1]]]
    return grid[0][0] + grid[0][1] + grid[1][0] + grid[1][1]


def cells(x: int, y: int):
    return [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]


def legal(fields: dict, x: int, y: int) -> bool:
    """No overlap; after the first tile, some field shares an edge with the garden."""
    own = cells(x, y)
    if any(c in fields for c in own):
        return False
    if not fields:
        return True
    return any((cx + dx, cy + dy) in fields for cx, cy in own
               for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def add(fields: dict, codes: str, x: int, y: int, rotation: int) -> dict:
    out = dict(fields)
    for c, code in zip(cells(x, y), turn(codes, rotation)):
        out[c] = code
    return out


def largest(fields: dict, counting: set) -> int:
    todo = {c for c, code in fields.items() if code in counting}
    best = 0
    while todo:
        stack = [todo.pop()]
        size = 0
        while stack:
            cx, cy = stack.pop()
            size += 1
            for n in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                if n in todo:
                    todo.discard(n)
                    stack.append(n)
        best = max(best, size)
    return best


def areas(fields: dict) -> dict[str, int]:
    """Largest area per garden type (a Joker counts in each), and of Construction Sites (alone)."""
    out = {t: largest(fields, {t, "J"}) for t in GARDEN}
    out["C"] = largest(fields, {"C"})
    return out


def top(areas_: dict, k: int) -> int:
    return sum(sorted((areas_[t] for t in GARDEN), reverse=True)[:k])


def solo_points(history: list[dict]) -> int:
    """history[i] = the fields after i + 1 tiles. 2 largest after tile min(n, 7), + 3 largest after
    the last tile when there are more than 7."""
    n = len(history)
    pts = top(areas(history[min(n, 7) - 1]), 2)
    if n > 7:
        pts += top(areas(history[-1]), 3)
    return pts


def placements_of(fields: dict, codes: str):
    """Every (x, y, rotation) legal for a tile next to `fields` (all 4 rotations)."""
    if not fields:
        return [(0, 0, r) for r in range(4)]
    xs = [c[0] for c in fields]
    ys = [c[1] for c in fields]
    out = []
    for y in range(min(ys) - 2, max(ys) + 2):
        for x in range(min(xs) - 2, max(xs) + 2):
            if legal(fields, x, y):
                out.extend((x, y, r) for r in range(4))
    return out


def best_solo(seq: list[int], catalog: dict[int, str], cap_points: int | None = None):
    """Max solo points over every legal placement sequence of the tiles (any board), and one
    garden reaching it: (points, [(tile, x, y, r), ...])."""
    best = [-1, None]

    def rec(i, fields, history, placed):
        if i == len(seq):
            p = solo_points(history)
            if p > best[0]:
                best[0], best[1] = p, list(placed)
            return
        codes = catalog[seq[i]]
        seen = set()
        for x, y, r in placements_of(fields, codes):
            nf = add(fields, codes, x, y, r)
            key = frozenset(nf.items()) if i < len(seq) - 1 else None
            if key is not None:
                if key in seen:
                    continue
                seen.add(key)
            rec(i + 1, nf, history + [nf], placed + [(seq[i], x, y, r)])

    rec(0, {}, [], [])
    return best[0], best[1]


def random_garden(rng, seq: list[int], catalog: dict[int, str]):
    """A random legal garden of the tiles in order: (placements, fields after each tile)."""
    fields: dict = {}
    history, placements = [], []
    for t in seq:
        x, y, r = rng.choice(placements_of(fields, catalog[t]))
        fields = add(fields, catalog[t], x, y, r)
        history.append(fields)
        placements.append({"tile": t, "x": x, "y": y, "rotation": r})
    return placements, history


def hint_points(history: list[dict]) -> int:
    """The points of the scoring the last tile belongs to, as if it came now, plus points already
    banked (the proto's VersaillesHintOption.points): tiles 1-7 belong to the intermediate scoring
    (2 largest areas); tiles 8-14 to the final one (3 largest), with the intermediate banked."""
    n = len(history)
    if n <= 7:
        return top(areas(history[-1]), 2)
    return top(areas(history[6]), 2) + top(areas(history[-1]), 3)


def random_game(rng, catalog: dict[int, str]):
    """A random legal game record for score_game and its score by the rulebook:
    (record, totals, large token holders, small token winners (type -> player), winners, complete);
    `random_game.transfers` keeps the token moves (type, to, from, size, stage, round) of the last game."""
    ids = sorted(catalog)
    n = rng.randint(2, 4)
    players = ["Ann", "Ben", "Cy", "Di"][:n]
    seats = players + (["Ludwig"] if n == 2 else [])
    stages = rng.choice([1, 2, 2])
    use_row = rng.random() < 0.6
    pool = rng.sample(ids, len(ids))
    fields = {p: {} for p in players}
    holder = {t: None for t in GARDEN}
    record = {"players": players, "stages": []}
    inter: dict[str, int] = {}
    complete = stages == 2
    random_game.transfers = moves = []
    for s in range(stages):
        rounds = 7 if rng.random() < 0.7 else rng.randint(1, 7)
        complete = complete and rounds == 7
        row = [pool.pop() for _ in range(len(seats) * 7)] if use_row else None
        stage: dict = {"rounds": []}
        if row:
            stage["row"] = row
        cards_left = rng.sample(range(1, 56), 55)
        for r in range(rounds):
            rnd: dict = {}
            with_cards = use_row or rng.random() < 0.5
            if with_cards:
                cards = {seat: cards_left.pop() for seat in seats if use_row or seat != "Ludwig"}
                rnd["cards"] = cards
                order = sorted(cards, key=lambda q: cards[q])  # lowest card takes and places first
            else:
                order = list(players)
                rng.shuffle(order)  # without cards: list order
            if use_row:
                group = row[r * len(seats):(r + 1) * len(seats)]
                tile_of = {seat: group[k] for k, seat in enumerate(order)}
            else:
                tile_of = {p: pool.pop() for p in players}
            listed = []
            for seat in order:
                if seat == "Ludwig":
                    continue  # his tile is discarded
                t = tile_of[seat]
                x, y, rot = rng.choice(placements_of(fields[seat], catalog[t]))
                fields[seat] = add(fields[seat], catalog[t], x, y, rot)
                pl = {"player": seat, "x": x, "y": y, "rotation": rot}
                if not use_row or rng.random() < 0.5:
                    pl["tile"] = t
                listed.append(pl)
                mine = areas(fields[seat])
                for t2 in GARDEN:  # a token at >= 4 fields, or from its holder with strictly more
                    h = holder[t2]
                    if h != seat and mine[t2] >= 4 and (h is None or mine[t2] > areas(fields[h])[t2]):
                        holder[t2] = seat
                        moves.append((t2, seat, h, mine[t2], s + 1, r + 1))
            if with_cards:
                rng.shuffle(listed)
            rnd["placements"] = listed
            stage["rounds"].append(rnd)
        record["stages"].append(stage)
        if s == 0:
            inter = {p: top(areas(fields[p]), 2) + 3 * sum(h == p for h in holder.values()) for p in players}
    final = {p: 0 for p in players}
    small: dict = {}
    if stages == 2:
        a = {p: areas(fields[p]) for p in players}
        for t in GARDEN:
            if n == 2 or holder[t] is None:
                continue  # no second places with Ludwig; none without a first
            others = [p for p in players if p != holder[t]]
            best = max(a[p][t] for p in others)
            tied = [p for p in others if a[p][t] == best]
            if best > 0 and len(tied) == 1:
                small[t] = tied[0]
        best = max(a[p]["C"] for p in players)
        tied = [p for p in players if a[p]["C"] == best]
        if n > 2 and best > 0 and len(tied) == 1:  # the site award is a small token: none with Ludwig
            small["C"] = tied[0]
        for p in players:
            final[p] = (top(a[p], 3) + 5 * sum(h == p for h in holder.values())
                        + 3 * sum(w == p for w in small.values()))
    totals = {p: inter[p] + final[p] for p in players}
    best = max(totals.values())
    tied = [p for p in players if totals[p] == best]
    big = {p: max(areas(fields[p])[t] for t in GARDEN) for p in tied}
    winners = sorted(p for p in tied if big[p] == max(big.values()))
    return record, totals, holder, small, winners, complete
