"""The CP-SAT face of every card kind, each posted behind the card's enforcement literal.

Each function also posts implied constraints that are consequences of the card and the tile counts
(counting bounds): they never change the set of solutions, but let CP-SAT refute impossible cards
at once instead of searching. `impossible(gm, card)` is the same counting reasoning done in Python
before any search: a sound reason why the card cannot be met with these tiles, or None.
"""
from __future__ import annotations

from solver.core.connectivity import closed_loop, connected_group, enclosed_by
from solver.core.grid import DIRECTIONS, OPPOSITE, is_border, neighbours, ray, step
from solver.core.patterns import sees, somewhere
from solver.games.gardeners.cards import Card
from solver.games.gardeners.model import GardenModel


def impossible(gm: GardenModel, card: Card) -> str | None:
    spec, n = card.spec, gm.size
    if card.kind == "proximity":
        if gm.count(spec.element) == 1:
            return f"there is only {spec.element.counted(1)}"
    elif card.kind == "agglomeration":
        k = gm.count(spec.element)
        held = gm.elements(spec.element)
        if held < spec.min:
            return (f"there are only {spec.element.counted(k)}, {spec.min} are needed" if held == k else
                    f"there are only {held} {spec.element.describe()} (on {k} tiles), {spec.min} are needed")
    elif card.kind == "link":
        k = gm.count(spec.element)
        if k < n:
            return f"a link across {n} rows or columns needs {n} tiles; there are only {spec.element.counted(k)}"
    elif card.kind == "border":
        k = gm.count(spec.element)
        room = sum(1 for c in gm.cells if is_border(c, n) == (spec.region == "edge"))
        if k > room:
            return (f"there {'is' if k == 1 else 'are'} {spec.element.counted(k)}, the {spec.region} "
                    f"holds only {room} tiles")
    elif card.kind == "geometry":
        if not spec.placements(n):
            return "the arrangement does not fit the garden"
    elif card.kind == "path":
        paths = [t for t in gm.tiles if t.path]
        if spec.shape == "route" and len(paths) < spec.min:
            return f"there are only {len(paths)} path tiles, {spec.min} are needed"
        if spec.shape == "loop":
            two = [t for t in paths if len(t.path) == 2]
            corners = [t for t in two if t.path not in (frozenset("NS"), frozenset("EW"))]
            if len(two) < 8 or len(corners) < 4 or n < 3:
                return "a closed route around a tile needs at least 8 path tiles, 4 of them corners"
            if not any(spec.around.matches(t) for t in gm.tiles):
                return f"there are no {spec.around.describe()} to surround"
    return None


def post(gm: GardenModel, card: Card, e, rings_only: bool = False) -> None:
    """Post `card` on the model, enforced by literal `e`. With `rings_only`, a closed route must be a
    rectangular ring: a sufficient condition (every ring is a closed route) that solves much faster,
    used to find witnesses quickly; never use it to prove unsolvability."""
    m, spec, n = gm.model, card.spec, gm.size
    reason = impossible(gm, card)
    if reason is not None:
        m.add_bool_or([e.Not()])
        return
    tag = card.id
    if card.kind == "proximity":
        for c in gm.cells:
            around = [gm.has(x, spec.element) for _, x in neighbours(c, n)]
            m.add_bool_or(around).only_enforce_if([e, gm.has(c, spec.element)])
    elif card.kind == "distance":
        for c in gm.cells:
            for _, x in neighbours(c, n):
                m.add_bool_or([gm.has(c, spec.element).Not(), gm.has(x, spec.other).Not()]).only_enforce_if(e)
    elif card.kind == "border":
        for c in gm.cells:
            if is_border(c, n) != (spec.region == "edge"):
                m.add_implication(e, gm.has(c, spec.element).Not())
    elif card.kind == "panorama":
        for c in gm.cells:
            for d in DIRECTIONS:
                sees(m, gm.bench_facing(c, d), [gm.has(x, spec.target) for x in ray(c, d, n)], e)
    elif card.kind == "agglomeration":
        allowed = {c: gm.has(c, spec.element) for c in gm.cells}
        extra = {c: gm.amount(c, spec.element) for c in gm.cells}
        if not any(extra.values()):  # one element a tile: a group of exactly `min` tiles
            connected_group(m, gm.cells, allowed, e, size=spec.min, name=f"{tag}")
        else:
            # Tiles with k >= 2 elements count k times. Every member counts at least once, so a group holding
            # `min` elements can be cut (leaf by leaf) to one of at most `min` tiles that still holds them.
            z = connected_group(m, gm.cells, allowed, e, at_most=spec.min, name=f"{tag}")
            held = []
            for c in gm.cells:
                held.append(z[c])
                for k, lit in extra[c].items():
                    both = m.new_bool_var("")
                    m.add_implication(both, z[c])
                    m.add_implication(both, lit)
                    held.append((k - 1) * both)
            m.add(sum(held) >= spec.min).only_enforce_if(e)
    elif card.kind == "link":
        allowed = {c: gm.has(c, spec.element) for c in gm.cells}
        across = m.new_bool_var("")
        down = m.new_bool_var("")
        m.add_bool_or([across, down]).only_enforce_if(e)
        directions = [(across, 1), (down, 0)]
        if gm.rotation_free and not gm.link_oriented:
            # Every card kind reads the garden the same way after a quarter turn (tiles turning with
            # it), so a solution with this link top-to-bottom turns into one with it left-to-right:
            # the first link card may be oriented without losing any solution up to rotation.
            gm.link_oriented = True
            m.add(down == 0)
            directions = [(across, 1)]
        for lit, axis in directions:
            roots = [c for c in gm.cells if c[axis] == 0]
            reach = [c for c in gm.cells if c[axis] == n - 1]
            z = connected_group(m, gm.cells, allowed, lit, roots=roots, reach=reach, name=f"{tag}")
            # implied: a link crossing the garden has a member in every column (or row) it crosses
            for i in range(n):
                m.add_bool_or([z[c] for c in gm.cells if c[axis] == i]).only_enforce_if(lit)
    elif card.kind == "geometry":
        somewhere(m, spec.placements(n), gm.has, e)
    elif card.kind == "path":
        if rings_only and spec.shape == "loop":
            _post_rings(gm, card, e)
        else:
            _post_path(gm, card, e)
    else:  # pragma: no cover - parse_card refuses unknown kinds
        raise ValueError(f"no encoding for card kind {card.kind}")


def _match_literals(gm: GardenModel):
    """Literal per neighbouring pair (a, b): both paths reach their shared edge."""
    m = gm.model
    cache = gm._feature_lits.setdefault(("match-cache",), {})
    if cache:
        return cache
    for c in gm.cells:
        for d in DIRECTIONS:
            x = step(c, d)
            if x not in set(gm.cells) or (x, c) in cache:
                continue
            a, b = gm.path_edge(c, d), gm.path_edge(x, OPPOSITE[d])
            lit = m.new_bool_var("")
            m.add_bool_and([a, b]).only_enforce_if(lit)
            m.add_bool_or([a.Not(), b.Not(), lit])
            cache[(c, x)] = cache[(x, c)] = lit
    return cache


def _post_path(gm: GardenModel, card: Card, e) -> None:
    m, spec, n = gm.model, card.spec, gm.size
    match = _match_literals(gm)
    if spec.shape == "connected":
        for c in gm.cells:
            met = [match[(c, x)] for _, x in neighbours(c, n)]
            m.add_bool_or(met).only_enforce_if([e, gm.has_path(c)])
    elif spec.shape == "route":
        allowed = {c: gm.has_path(c) for c in gm.cells}
        connected_group(m, gm.cells, allowed, e, size=spec.min, link=lambda a, b: match[(a, b)], name=card.id)
    else:
        on, edges = closed_loop(m, gm.cells, lambda a, b: match[(a, b)], e, name=card.id)
        m.add(sum(on.values()) >= 8).only_enforce_if(e)
        options = []
        for c in gm.cells:
            if is_border(c, n):
                continue  # a tile on the garden's edge can never be surrounded
            inside = enclosed_by(m, c, on, edges, name=f"{card.id}_in")
            here = m.new_bool_var("")
            m.add_implication(here, inside)
            m.add_implication(here, gm.has(c, spec.around))
            options.append(here)
        m.add_bool_or(options).only_enforce_if(e)


def rings(size: int):
    """Every rectangular ring of at least 3 x 3 cells: (ring cells with the path edges each needs,
    the cells strictly inside)."""
    out = []
    for r0, r1 in ((a, b) for a in range(size) for b in range(a + 2, size)):
        for c0, c1 in ((a, b) for a in range(size) for b in range(a + 2, size)):
            ring = {}
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    if r in (r0, r1) or c in (c0, c1):
                        need = set()
                        if r > r0 and c in (c0, c1):
                            need.add("N")
                        if r < r1 and c in (c0, c1):
                            need.add("S")
                        if c > c0 and r in (r0, r1):
                            need.add("W")
                        if c < c1 and r in (r0, r1):
                            need.add("E")
                        ring[(r, c)] = frozenset(need)
            inner = [(r, c) for r in range(r0 + 1, r1) for c in range(c0 + 1, c1)]
            out.append((ring, inner))
    return out


def _post_rings(gm: GardenModel, card: Card, e) -> None:
    m, spec = gm.model, card.spec
    all_rings = rings(gm.size)
    options = somewhere(m, [[(cell, d) for cell, need in ring.items() for d in sorted(need)] for ring, _ in all_rings],
                        gm.path_edge, e)
    for here, (_, inner) in zip(options, all_rings):
        m.add_bool_or([gm.has(c, spec.around) for c in inner]).only_enforce_if(here)
