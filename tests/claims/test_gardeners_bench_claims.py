"""Second claims audit (1 Dec 2026): ListForcedPlacements, SuggestRepair and GetHint (Normal rules,
played move by move) on a 3x3 catalog with a bench, whose facing the cards read, against every
distinct garden enumerated with the bench in each of its 4 rotations (20,160 gardens)."""
import itertools
import random

import pytest

from solver.core.solve import SolveControl
from solver.games.gardeners import hints, moves
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from tests.games.gardeners.helpers import card, catalog, tile, tiny_mode
from tests.games.gardeners.test_oracle import distinct_orders

MODE = tiny_mode(3)
BENCH = catalog(tile("b", "grass", ["bench:N"]), tile("t1", "grass", ["tree:green"]), tile("t2", "grass", ["tree:green"]),
                tile("f1", "soil", ["flower:fuchsia"]), tile("f2", "soil", ["flower:fuchsia"]),
                tile("f3", "soil", ["flower:fuchsia"]), tile("s1", "soil"), tile("s2", "soil"), tile("s3", "soil"))
CARDS = {c.id: c for c in [
    card("panorama", id="pan-tree", target="tree"),   # the one card here that reads the bench's facing
    card("border", id="bench-in", element="bench", region="interior"),
    card("border", id="bench-edge", element="bench", region="edge"),
    card("distance", id="tree-bench", element="tree", other="bench"),
    card("proximity", id="prox-tree", element="tree"),
    card("link", id="link-soil", element="soil")]}
CELLS = [(r, c) for r in range(3) for c in range(3)]


def control():
    return SolveControl(time_limit_s=20, num_workers=1)


def vis(p: Placed):
    """What any card can see of a placed tile: its face and the bench's facing."""
    return p.tile.background, p.tile.elements, p.tile.bench_facings(p.rotation)


@pytest.fixture(scope="module")
def table():
    """Every distinct garden (identical faces taken as one, the bench in 4 rotations) with the cards it satisfies."""
    kinds: dict = {}
    for t in sorted(BENCH.tiles, key=lambda t: t.id):
        kinds.setdefault((t.background, t.elements), []).append(t)
    cards = list(CARDS.values())
    out = []
    for order in distinct_orders(list(kinds.values())):
        for rot in range(4):
            g = Garden(3, {c: Placed(t, rot if t.id == "b" else 0) for c, t in zip(CELLS, order)})
            report = check(g, cards)
            out.append((g, frozenset(c.id for c, v in zip(cards, report.verdicts) if v.status == "satisfied")))
    return out


def partial(rng, table):
    whole, _ = rng.choice(table)
    cells = [rng.choice(CELLS)]
    for _ in range(rng.randint(1, 5)):
        cells.append(rng.choice(sorted({(r + dr, c + dc) for r, c in cells
                                        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} & set(CELLS) - set(cells))))
    return Garden(3, {c: Placed(whole.cells[c].tile, rng.randrange(4)) for c in cells})


def test_forced_repair_and_played_hints_agree_with_enumeration(table):
    """12 seeded connected partial gardens (tiles in random rotations) with 1-2 bench cards:
    every forced cell holds its class in every valid completion and no cell showing one face and
    facing in every completion is missed; the repair optimum (no order rules) keeps the most tiles
    any valid garden keeps (same face and facing); GetHint's moves, played one by one, are legal by
    moves.validate_normal, end in a valid garden, and a route called proven is as long as played."""
    rng = random.Random(20261202)
    forced_seen = missed_possible = unsolvable = 0
    drawn = set()
    for _ in range(12):
        ids = set(rng.sample(sorted(CARDS), rng.choice([1, 2])))
        cards = [CARDS[i] for i in sorted(ids)]
        drawn |= ids
        valid = [g for g, ok in table if ids <= ok]
        part = partial(rng, table)
        shown = {c: vis(p) for c, p in part.cells.items()}
        completions = [g for g in valid if all(vis(g.cells[c]) == v for c, v in shown.items())]
        f = hints.forced_placements(part, cards, MODE, BENCH, control())
        assert f.verdict == ("solvable" if completions else "unsolvable"), (ids, part.render(), f.verdict)
        forced = {x.cell: x for x in f.cells}
        for cell in set(CELLS) - set(part.cells):
            faces = {vis(g.cells[cell]) for g in completions}
            if cell in forced:
                forced_seen += 1
                x = forced[cell]
                # every tile named may stand there: none is already laid elsewhere in the garden
                assert not set(x.tiles) & {p.tile.id for p in part.cells.values()}, (ids, part.render(), cell, x)
                # every completion shows there what one of the named tiles shows in a named rotation
                # (tiles with identical faces are interchangeable, so compare what is seen)
                assert all(any(vis(Placed(BENCH.tile(t), r)) == vis(g.cells[cell]) for t in x.tiles for r in x.rotations[t])
                           for g in completions), (ids, part.render(), cell, x)
            else:
                missed_possible += completions != []
                assert len(faces) != 1, (ids, part.render(), cell, faces)
        most = max((k for k in range(len(part.cells), -1, -1) for sub in itertools.combinations(sorted(part.cells), k)
                    if any(all(vis(g.cells[c]) == shown[c] for c in sub) for g in valid)), default=None)
        rep = hints.repair(part, cards, MODE, BENCH, control())
        if most is None:
            unsolvable += 1
            assert rep.verdict == "unsolvable", (ids, part.render(), rep.verdict)
            assert hints.next_move(part, cards, MODE, BENCH, control()).status == "unsolvable"
            continue
        assert rep.verdict == "optimal" and rep.kept == most and len(part.cells) - rep.bound == most, \
            (ids, part.render(), rep.verdict, rep.kept, rep.bound, most)
        g, claims = part, []
        for _ in range(25):
            h = hints.next_move(g, cards, MODE, BENCH, control())
            if h.status != "move":
                break
            claims.append(h)
            state = hints.state_for(g, MODE, BENCH, "normal")
            assert moves.validate_normal(state, h.move).legal, (ids, g.render(), h.move)
            cells = dict(g.cells)
            if h.move.kind == moves.ADD:
                cells[h.move.cell] = Placed(BENCH.tile(h.move.tile), h.move.rotation)
            else:
                del cells[h.move.cell]
            g = Garden(3, cells)
        assert h.status == "done" and check(g, cards).valid, (ids, part.render(), h.status)
        if claims and claims[0].proven:
            assert claims[0].route_length == len(claims), (ids, part.render(), [c.route_length for c in claims])
    assert forced_seen >= 5 and missed_possible >= 5 and unsolvable <= 4
    assert {"pan-tree", "bench-in", "bench-edge", "tree-bench"} <= drawn
    # the bench facing is read: in many gardens turning the bench alone changes pan-tree's verdict
    # (the table holds each order with the bench in rotations 0-3, in turn)
    turned = [{"pan-tree" in ok for _, ok in table[i:i + 4]} for i in range(0, len(table), 4)]
    assert sum(len(v) == 2 for v in turned) >= 100
