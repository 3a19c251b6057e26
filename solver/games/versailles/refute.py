"""Refuting garden values above the best found: can the scored types' fields be joined at all?

A solo garden worth T or more picks, at each scoring, k types whose largest areas sum to T or
more; so for that choice ("plan", see `plans`) with field counts summing to c >= T,
at most c - T of the chosen types' fields lie outside their type's largest area. `arrangeable`
decides, for one plan and such a loss budget, whether ANY arrangement of the tiles on the
unbounded plane (no overlap, the tiles one connected group) meets it, with the placement order
checked only where it is cheap (see `arrangeable`). Every legal garden is such an arrangement,
so "no arrangement" refutes
the plan for every garden on every board; when every plan with c >= T is refuted, no garden
scores T (`refute_above`).

The search (pure Python, no CP-SAT): a *requirement* is (tiles of the scoring, type): all
fields counting for the type (its own or a Joker) on those tiles should form one area. Tiles
are placed one at a time next to what is placed; the search picks a requirement's area that can
still grow (its open neighbour fields: empty and not excluded for that requirement) with fewest
open fields (`fewest_spare`, the default: among as few, one of the requirement with fewest
counting fields left to place; any pick keeps the search a partition), and branches on its first open field f: either a field counting for the type, of
one of the scoring's unplaced tiles, covers f (every tile, distinct turn and field of the tile
that fits), or f is excluded for the requirement from then on. The two branches partition the
arrangements, so nothing is lost. An area with no open field is closed: it never grows (its
neighbour fields are either covered by what is placed, or excluded). With d closed areas of a
requirement of sizes s_1..s_d, the fields it loses are at least min(count - max s, sum s)
(either one of them is the largest area and the rest of the count is lost, or every one of them
is lost). When no area can grow and tiles with requirement fields are left: if every tile takes
part, one of the unplaced tiles touches a placed one in any garden (a garden is one connected
group of tiles), so each is tried at every free place next to the placed tiles; otherwise those
tiles touch no open field of what is placed, so placing them far away keeps every area as it is,
and the search restarts with one of them as a new root far away (all turns). The first root keeps its printed
turn (turning a whole arrangement keeps every area). Two unplaced tiles with the same layout
and the same scorings are interchangeable when the order is ignored; only the first is tried.

Two prunings, each a necessary condition of every arrangement counted (so "infeasible" stays a
proof), on by default (`prefix`, `bridge`; off, the search is node for node the one before them):
- prefix (the order): tile i >= 1 touches an earlier tile exactly when every prefix of tiles 0..k
  is one connected group. Placed tiles a, b of a prefix are joined through at least
  `tiles_between` unplaced tiles of that prefix; any connection of the prefix's placed tiles
  crosses each cut between them by one direct chain, so the bottleneck of those numbers (the
  largest edge of a minimum spanning tree) must not exceed the prefix's unplaced tiles: checked as
  "the placed tiles of the prefix are connected by edges of at most that many tiles".
- bridge (joining areas): at the end a requirement's largest area holds either one group of its
  areas that can still be joined, or one closed area and nothing more, or none of the placed
  fields; every placed field outside it is lost. Joining fields are counting fields of the
  scoring's unplaced tiles (`spare` of them) on empty, not excluded fields, and any joining of two
  sets of areas crosses the cut between them by one path of such fields from an area to an area,
  so the groups are the components of the graph of areas linked by paths of at most `spare`
  fields (`box_components`: bounding-box gaps, `fields_between`, a lower bound of every path;
  `path_components`: real paths by breadth-first search, when `spare` <= `bridge_bfs`). The
  requirement loses at least min(held, count - closed area, held - group sum) fields (held = its
  placed fields), which replaces the closed-area bound when larger; for loss 0 it means every area
  must be in one group.

A third rule, `joint` (on by default, `JOINT`), at nodes where the bounds use up the whole loss
(the sum of the requirements' bounds b_r equals `loss`): every arrangement below the node loses
at least b_r for each requirement and at most `loss` in all, so exactly b_r for each. Take a
requirement whose bound is its bridge minimum, held - sum(g), reached by one group g only (every
other group, every closed area's count - size and held itself are larger). Its final largest area
D holds placed fields of one group, a closed area or none (bridge above), and any other choice
than g loses more than b_r, so D's placed fields lie in g's areas, and D loses at least
count - sum(g) - (fields placed later that join D) = b_r + (fields placed later outside D). So
every counting field placed later joins D, through counting fields placed later (at most `spare`
in all, on empty, not excluded fields): each lies within `spare` such fields of g's areas (a
breadth-first search from them; `bridge_bfs` caps `spare`). A tile carries fields for several
requirements at once, so every unplaced tile needs one place (any turn) that fits (no overlap,
no excluded field) and puts each of its fields that counts for such a requirement within reach
of that requirement's group, all at once; when one has none, no arrangement below the node meets
the loss. A necessary condition, so "infeasible" stays a proof. The bridge bound alone takes each
requirement and each field on its own, and learns that two types' areas lie too far apart for
one tile only after the tile is placed. Tests (`test_refute_joint.py`) caught a reach one field
too short and the rule applied with one field of loss left; a tie between two groups (the
uniqueness condition dropped) was not caught (ties are rare), so that condition rests on the
argument above.

With `joint_slack` (`JOINT_SLACK`) the rule also runs with s = loss - (sum of the bounds) > 0
fields left: each requirement then loses at most T_r = b_r + s; one whose only option within T_r
is a group g (value v <= b_r) loses at least v + (fields placed later outside D), so the fields
placed later outside the D's of such requirements number at most s + sum(b_r - v) (the rest of
each b_r is already counted); a tile's fitting place with the fewest of its (field, requirement)
pairs out of reach (every pair, when no place puts one in reach) is a lower bound of its share,
and the node is dropped when these sum above that budget. With s = 0 and every b_r = v it is the
rule above.

With `joint_children` (`JOINT_CHILDREN`) a node whose joint check passed also judges each child it
would search: a child places one unplaced tile i at one place, and every arrangement below the
child is one below the node, so the argument above holds for it with the node's reach sets: each
(field, requirement) pair of tile i out of its requirement's reach at that place is a field placed
outside that requirement's final largest area (a field out of reach cannot join it within the
`spare` fields left), and every other unplaced tile still places at least its share (its fewest
such pairs over its fitting places, as summed by the check) outside. When tile i's pairs out of
reach there plus the other tiles' shares exceed the budget (with no loss left: any pair out of
reach), no arrangement below the child meets the loss and the child is not searched. It prunes
what the child's own bounds would see only later (the child's bridge bound takes each area alone
and the child's joint check is built from its own, smaller, spare), and saves the nodes of
children that die at once (8 tiles seed 5's top plan, loss 3: 12,156 of its first 30,001 nodes
ended on the loss bound with 7 tiles placed, one tile below ~3,000 nodes whose checks had passed).
Tests
(`test_refute_joint_children.py`) caught a prune at pairs = budget and a prune of every child with
a pair out of reach whatever the budget; counting the tile's own share twice was not caught (it
differs only when some tile's share is > 0 with loss left: rare), so that rests on the argument.

With `joint_tight` (`JOINT_TIGHT`, on) the children's verdict counts a tile's fields by clusters:
a cluster C is a set of the placed tile's fields counting for one held requirement r that are
joined inside the tile (2x2 adjacency). If any field of C lies in r's final largest area D, all of
C does, and a shortest path inside D from C to a placed field of D (these lie in the group g's
areas: the check's argument) runs c, e_1, .., e_m, a with c in C (the last field of C on it), a
in g's areas and e_1..e_m fields of D placed later, not of C (so m <= spare - |C|: spare counts
every field of r still to place, the tile's included) and not placed fields (a placed field of D
is in g's areas and would end the path earlier). e_1 is a neighbour of c outside the tile (inside
it lies either C or a field not counting for r), empty and not excluded for r at the node, and
e_1..e_m is a path of such fields to g, so its distance in the node's reach search is at most m.
So unless some field of C touches g's areas or has a neighbour outside the tile at distance at
most spare - |C| (distances of the node's breadth-first search, a lower bound below it: fields
only get occupied or excluded), all |C| (field, r) pairs of C lie outside D, and are counted as
the pairs out of reach are. It implies the per-field test (a field of a passing C is within
spare of g), and adds the two things a child's bridge bound sees at once: C needs d - 1 fields
not its own, and the tile's own fields block paths. Test (`test_refute_joint_tight.py`): the
limit one field too short (spare - |C|) is caught by a least-loss witness found by a hunt (1 of
30 x 6 plan instances), not by the greedy-garden witnesses.

With `closing` (`CLOSING`, on) a node judges the children that close an area before searching
them. An area A of requirement r with exactly one open field f (at the node: every other neighbour
field is occupied, excluded for r, or no unplaced tile can put a field counting for r there, and
all three stay so below the node) never grows again below a child that excludes f for r (the
exclusion child of the pick), or that places a tile whose field on f does not count for r (a
placement child). Below such a child the final largest area D of r is then either one such area A
(r loses at least count - |A|), or a closed area c of the node (count - |c|), or holds none of the
fields placed at the node (held), or its fields placed at the node lie in one group g of the node's
growing areas (the bridge argument; all the growing areas as one group when the bridge bound built
none) without the closed A's, since D cannot hold a field of A without being A (held - the sum of
g's areas but the A's); the loss of r is at least the smallest of these, and at least r's bound at
the node (the fields still to place can only join D: count - held of them). Every other
requirement's bound at the node still holds below the child. When these sum above `loss`, no
arrangement below the child meets it and the child is not searched. At loss 0 every exclusion
child of a pick with one open field dies so (count - |A| >= 1 and |A| >= 1 for an unfinished A);
before this rule those children were searched and died at once (9 tiles seed 1, W+Y / G+W+Y at 39:
9,348 of the first 60,001 nodes). The children it drops are, in every search measured, ones the
child's own bounds drop at once (its closed-area and bridge bounds see the same areas closed): on
22 plans of 8 and 9 tiles the nodes saved equal the children dropped, one for one, and nothing
else in the search changes. Tests (`test_refute_closing.py`): witnesses catch a covering field that
counts for r taken as closing, the exclusion child dropped at bound = loss, count - |A| + 1 and a
group's value one too large; the placement prune at bound = loss and the "held" option left out
were not caught, so they rest on this argument.

With `blocking` (`BLOCKING`, on) a node judges each placement child of its pick against the
requirements whose bridge bound built groups by real paths (`path_components`, spare <=
`bridge_bfs`) with a group of two or more areas. Below a child placing tile i, requirement r's
final largest area D holds, of the fields placed at the node, none (r loses held), or one closed
area c of the node (count - |c|), or fields of one group of the node's growing areas joined by
paths of fields placed after the node (the bridge argument: at most `spare` of them, each counting
for r, so none lies on a field of tile i that does not count for r: occupied below the child);
the tile's fields that count for r may be such path fields. So the groups of the node's growing
areas linked by paths of at most `spare` free, not excluded fields that avoid the tile's other
fields (`path_components` with those fields occupied) give r a bound below the child, as do the
node's bound of r and every other requirement's bound of the node (they hold in the whole subtree).
When the requirements' rises above their node bounds, summed with the node's total, exceed `loss`,
no arrangement below the child meets it and the child is not searched. Only a tile covering a
field of some link path can split a group: every field of a path of k <= spare fields between two
areas lies within (k + 1) // 2 steps of one of them, so the test runs only when one of the tile's
fields not counting for r lies within (spare + 1) // 2 free, not excluded steps of an area of a
group of two or more (built once per node and requirement, on first use), and only for the
requirements whose bound, with every group split into single areas, could exceed the loss.
Tests (`test_refute_blocking.py`): see that file's doc for the unsound versions its witnesses
catch and the ones that rest on this argument.

With `connected` (the default) every tile is placed and the tiles stay one connected group;
without it, tiles with no field counting for any requirement are left out (they cannot join
anything).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product
from typing import Callable, Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Placement, build_garden, distinct_rotations, neighbours
from solver.games.versailles.scoring import cell_groups, solo_checkpoints, solo_points

Cell = tuple[int, int]
OFFSETS = ((0, 0), (1, 0), (0, 1), (1, 1))  # footprint order: TL, TR, BL, BR
RING = ((-1, 0), (-1, 1), (2, 0), (2, 1), (0, -1), (1, -1), (0, 2), (1, 2))  # a tile's 8 edge neighbours (from its anchor)
FAR = 1000  # a new root's offset: farther than any arrangement of the tiles reaches
# Inside `arrangeable` a field (x, y) is one int: its index in the search's window (`_cell`, since
# 1 Dec 05:00 UTC; before, (x + 4096) * 65536 + (y + 4096), looked up through an index function).
# The window is w x w fields around each root (w = 2 * reach + 1): field (x, y) of the first root is
# (x + reach) * w + (y + reach), field (FAR * k + x, FAR * k + y) of the k-th far root (connected=False
# only) the same in the k-th block of w * w. So a field's neighbours are +-w and +-1, a tile's field
# offsets dx * w + dy, and every byte array of one plane's size (the state array's planes, a reach's
# distances, the stamped scratch) is read at the field itself. Int order is the (x, y) tuples' order
# over the fields of the window (within a block row by row, the blocks in the roots' order), and a
# neighbour step never leaves a row or a block for a field the search reads (they lie within
# 2 * tiles + bridge_bfs + 2 of their root, WINDOW_MARGIN inside the window's edge: below). Sets and
# dicts of ints hash without building tuples; the search visits the same nodes in the same order
# (the order of a set of fields decides nothing but the caches of `fillable`; the tie-break between
# equal areas keeps the (x, y) sets).
MAX_TILES = 60  # a tile's index + 1 and an area's index (4 fields a tile) fit a byte of the state arrays
CELL_REACH = 64  # the default window of `_cell` / `_xy` / `box_components` outside a search (tests)
# The search's state array (`_state`): besides the dicts and sets it keeps, `arrangeable` marks each
# occupied field (with its tile's index + 1, at most 61), and per requirement each excluded field
# (bit 1) and each field known unfillable in the subtree (bit 2), in one bytearray over the window,
# so the hot helpers look fields up by index instead of hashing them (the
# compiled copy: C reads, refute.pxd). Byte arrays of one plane's size, indexed the same way, also
# hold a reach's distances (`_reach`), the stamped scratch of `_open_count`, `_fewest_far_any` and
# `_path_groups`, and lists of that size the witnesses of `_fillable`. The window:
# every field the search reads lies within 2 * tiles + bridge_bfs + 2 of a root (placed fields within
# 2 * tiles, breadth-first searches at most bridge_bfs steps beyond them, a tile's anchor and fields
# within 2 of those); WINDOW_MARGIN adds to that.
WINDOW_MARGIN = 8


def _state(reach: int, blocks: int, planes: int) -> tuple[bytearray, int]:
    """A zeroed state array for fields within `reach` of each of `blocks` roots, with `planes`
    planes (plane 0: occupied (nonzero); plane 1 + r: requirement r's bits), and its window width w
    (`_cell`); a plane is blocks * w * w entries."""
    if 2 * reach + 1 >= FAR:
        raise ValueError("the search's window is wider than FAR")
    w = 2 * reach + 1
    return bytearray(blocks * w * w * planes), w


def _cell(x: int, y: int, reach: int = CELL_REACH, w: int = 2 * CELL_REACH + 1) -> int:
    """Field (x, y) as its index in a window of w = 2 * reach + 1 fields a side around each root:
    the k-th block of w * w holds the fields within `reach` of root k at (FAR * k, FAR * k)."""
    k = (x + reach) // FAR
    return (k * w + x - k * FAR + reach) * w + y - k * FAR + reach


def _xy(c: int, reach: int = CELL_REACH, w: int = 2 * CELL_REACH + 1) -> tuple[int, int]:
    """The inverse of `_cell`."""
    k, r = divmod(c, w * w)
    return r // w - reach + k * FAR, r % w - reach + k * FAR


JOINT_SLACK = True  # arrangeable's default `joint_slack`: the joint rule with loss left too (module doc)
JOINT = True  # arrangeable's default `joint` (see the module doc)
JOINT_CHILDREN = True  # arrangeable's default `joint_children`: the joint check's verdict on each child placement (module doc)
CLOSING = True  # arrangeable's default `closing`: children that close an area (its only open field excluded or covered by a field not counting for it) are judged at the parent (module doc)
BLOCKING = True  # arrangeable's default `blocking`: children whose tile blocks every short path between areas of another requirement's group are judged at the parent (module doc)
JOINT_TIGHT = True  # arrangeable's default `joint_tight`: in `joint_children`, a tile's joined fields of a requirement must lie within spare - (their number) + 1 of the group (module doc)


class NodeLimit(Exception):
    pass


def tiles_between(dx: int, dy: int) -> int:
    """A lower bound on the tiles a chain of touching tiles needs between two tiles whose anchors
    differ by (dx, dy) (0 when they touch). Two tiles touch when one anchor difference is 2 and the
    other at most 1 (side by side, staggered by at most one field), so each step of a chain moves
    the anchor by at most 2 on each axis and 3 in all: s steps reach at most (2s, 2s) and 3s in
    all, so s >= max(dx/2, dy/2, (dx+dy)/3), and a chain of s steps has s - 1 tiles between.
    Exact on the open plane for small differences (test: breadth-first search over anchors)."""
    dx, dy = abs(dx), abs(dy)
    return max((dx + 1) // 2, (dy + 1) // 2, (dx + dy + 2) // 3) - 1


def fields_between(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    """A lower bound on the fields an orthogonal path needs between two disjoint, non-adjacent
    areas with bounding boxes a and b (x0, x1, y0, y1): any field of one and any of the other are
    at least the boxes' distance apart per axis, and a path between two fields d apart (Manhattan)
    has d - 1 fields between them; overlapping boxes give -1 (no bound). Exact for single fields."""
    return max(0, b[0] - a[1], a[0] - b[1]) + max(0, b[2] - a[3], a[2] - b[3]) - 1


def path_components(areas: list[set[Cell]], label: dict[Cell, set[Cell]], occ, excluded,
                    spare: int) -> list[list[set[Cell]]]:
    """The groups of `areas` (a requirement's areas that can still grow; `label` maps every placed
    field of the requirement to its area) linked by paths of at most `spare` fields that are empty
    (not in `occ`) and not `excluded`, stepping from area to area. Areas in different groups can
    never end in one area once at most `spare` more fields join: any joining crosses the cut
    between the groups by one such path from an area on one side to one on the other. A lower
    bound argument only: the paths may share fields or fit no tile (test: a plain BFS).

    One breadth-first search from all areas at once (each free field gets its distance d, in
    fields, to a nearest area and that area; fields farther than `spare` are not needed), then two
    areas are linked when a field of one area's region touches the other area (d <= spare) or
    touches a field of its region (d + d' <= spare). Same groups as a search per pair: such a link
    is a path of d or d + d' fields between the two areas; conversely, along a shortest path
    f_1..f_k (k <= spare) from area A to area B, f_i is at most i fields from A and f_(i+1) at most
    k - i from B, so every change of region along it (and its two ends) is a link of at most k:
    A and B end in one group. Adjacent fields' distances differ by at most 1, so every link
    involves only fields at most (spare + 1) // 2 from an area: the search stops there, or as soon
    as every area is in one group."""
    fields = [xy for a in areas for xy in a] + list(label) + list(occ) + list(excluded)
    reach = max((max(abs(x), abs(y)) for x, y in fields), default=0) + spare + 2
    st, w = _state(reach, 1, 2)
    enc = [{_cell(x, y, reach, w) for x, y in a} for a in areas]
    plane = w * w
    for x, y in list(occ) + list(label):  # placed fields (an area not among `areas` joins nothing)
        st[_cell(x, y, reach, w)] = 1
    for x, y in excluded:
        st[plane + _cell(x, y, reach, w)] = 1
    groups = _path_groups(enc, st, plane, w, spare, bytearray(3 * plane), 1)
    back = {id(e): a for a, e in zip(areas, enc)}
    return [[back[id(e)] for e in g] for g in groups]


def _path_groups(areas: list, st, plane: int, w: int, spare: int, scratch, gen: int) -> list:
    """`path_components` on int fields (`_cell`, window width `w`): the search's own; occupied fields
    are the nonzero entries of `st` (`_state`; every placed field, the areas' own among them),
    excluded ones those with bit 1 at `plane` + the field. The breadth-first search's fields (their nearest area
    and distance) are kept in `scratch` (three planes of a window: a field's entries count when its
    first-plane entry is `gen`; an area index and a distance fit a byte: at most 4 * 60 areas,
    distances at most spare + 1 <= 255); the areas' own fields are entered first, at distance 0
    (so a search field next to area i's field links i at its own distance, as a path ends there;
    other placed fields are occupied and stop the search)."""
    n = len(areas)
    parent = list(range(n))
    left = n  # groups left

    reach = (spare + 1) // 2
    if spare > 0 and n > 1:
        # a free field's nearest area (index) at size + its index, its distance at 2 * size + its index
        size = len(scratch) // 3
        layer = []
        steps = (w, -w, 1, -1)
        for k, comp in enumerate(areas):
            for c in comp:
                j = c
                scratch[j] = gen
                scratch[size + j] = k
                scratch[2 * size + j] = 0
        for k, comp in enumerate(areas):
            for c in comp:
                for step in steps:
                    d = c + step
                    j = d
                    if st[j] or st[plane + j] & 1:
                        continue
                    if scratch[j] != gen:
                        scratch[j] = gen
                        scratch[size + j] = k
                        scratch[2 * size + j] = 1
                        layer.append(d)
                    elif scratch[size + j] != k:
                        left -= _link(parent, scratch[size + j], k)  # one field between the two areas
        length = 1
        while layer and left > 1:
            nxt = []
            for c in layer:
                k = scratch[size + c]
                for step in steps:
                    d = c + step
                    j = d
                    if scratch[j] == gen:
                        # a search field (a link of length + its distance) or an area's own field
                        # (distance 0: a path of `length` fields ends there)
                        if scratch[size + j] != k and length + scratch[2 * size + j] <= spare:
                            left -= _link(parent, scratch[size + j], k)
                        continue
                    if length < reach and not st[j] and not st[plane + j] & 1:
                        scratch[j] = gen
                        scratch[size + j] = k
                        scratch[2 * size + j] = length + 1
                        nxt.append(d)
            layer = nxt
            length += 1
    groups: dict[int, list] = {}
    for k, comp in enumerate(areas):
        groups.setdefault(_find(parent, k), []).append(comp)
    return list(groups.values())


def _find(parent: list, k: int) -> int:
    """Union-find (`_path_groups`): the root of k, halving the path."""
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


def _link(parent: list, a: int, b: int) -> int:
    """Union-find: join the classes of a and b under the smaller root; 1 if they were apart."""
    a, b = _find(parent, a), _find(parent, b)
    if a == b:
        return 0
    parent[max(a, b)] = min(a, b)
    return 1


def _clear(chk, a: int, st) -> bool:
    """No field of a tile anchored at int field `a` (`chk`: per field its offset and the exclusion
    planes of the requirements it counts for) is occupied or excluded for such a requirement (`st`)."""
    for off, planes in chk:
        j = a + off
        if st[j]:
            return False
        for p in planes:
            if st[p + j] & 1:
                return False
    return True


def _fewest_far(places, ox: int, offs: list, dists: list, skip: int, best: int, chk, st) -> int:
    """`far_fields`' inner loop: the fewest of the pairs q (field offset offs[q], reach distances
    dists[q]; q != skip) out of reach (`_reach`: a zero distance) over the anchors p - ox (p in
    `places`) where the tile fits (`_clear`), if fewer than `best`, else `best`."""
    n = len(offs)
    for p in places:
        a = p - ox
        far = 0
        for q in range(n):
            if q == skip:
                continue
            dist = dists[q]
            off = offs[q]
            if not dist[a + off]:
                far += 1
                if far >= best:
                    break
        if far < best and _clear(chk, a, st):
            best = far
            if not best:
                return 0
    return best


def _fewest_far_any(offs: list, fields: list, dists: list, best: int, chk, st, mark, gen: int) -> int:
    """`_fewest_far` over the union of the anchors p - offs[q] (p in fields[q], the pair's reach
    fields), checking every pair; each anchor is judged once (its `mark` entry set to `gen`)."""
    n = len(offs)
    for q0 in range(n):
        ox = offs[q0]
        places = fields[q0]
        for p in places:
            a = p - ox
            if mark[a] == gen:
                continue
            mark[a] = gen
            far = 0
            for q in range(n):
                dist = dists[q]
                off = offs[q]
                if not dist[a + off]:
                    far += 1
                    if far >= best:
                        break
            if far < best and _clear(chk, a, st):
                best = far
                if not best:
                    return 0
    return best


def _fresh(buf, stamps: list, k: int, n: int) -> int:
    """A new stamp (1..255, kept in stamps[k]) for the stamped plane of `buf` (its first n entries),
    the plane cleared when the 255 stamps run out."""
    g = stamps[k] + 1
    if g == 256:
        buf[:n] = bytes(n)
        g = 1
    stamps[k] = g
    return g


def _far_fields(pairs: list, reaches: list, cap: int, chks: list, st, mark, stamps: list) -> int:
    """The joint check's share of one unplaced tile: the fewest of its (field, requirement) pairs held
    to a group that lie out of reach, over its fitting places (every pair, when no place puts one
    in reach), or `cap` when that is `cap` or more. Per distinct turn t: pairs[t] its (field offset,
    requirement) pairs, chks[t] its field checks; reaches[ri] the requirement's reach (`_reach`:
    fields, distances) when it is held to a group, else None (every held requirement of the tile's
    fields built: the same in every turn). Places come from the union of the pairs' reach sets (a
    place in none has every pair far); with cap 1 only a place with every pair in reach counts, and
    every such place lies in the smallest reach set (the first smallest), so places come from that
    set alone (with a larger cap a place outside it may still have fewer than cap pairs far: the
    union, each place judged once by a fresh stamp in `mark`; a minimum, so the order they are met
    in decides nothing)."""
    best = cap
    offs = []  # the turn's pairs held to a group: field offset, reach fields, reach distances
    fields = []
    dists = []
    for t in range(len(pairs)):
        del offs[:], fields[:], dists[:]
        for off, ri in pairs[t]:
            got = reaches[ri]
            if got is not None:
                offs.append(off)
                fields.append(got[0])
                dists.append(got[1])
        n = len(offs)
        if not n:
            return 0  # no field of the tile is held to a group (in any turn)
        if n < best:
            best = n
        if best == 1:
            k = 0
            if n > 1:
                size = len(fields[0])
                for q in range(1, n):
                    if len(fields[q]) < size:
                        k, size = q, len(fields[q])
            # a place is the anchor p - offs[k], p in the smallest reach set
            best = _fewest_far(fields[k], offs[k], offs, dists, k, best, chks[t], st)
        else:
            best = _fewest_far_any(offs, fields, dists, best, chks[t], st, mark, _fresh(mark, stamps, 0, len(mark)))
        if not best:
            return 0
    return best


def _reach(group, st, plane: int, w: int, spare: int, size: int) -> tuple:
    """The free, not excluded (`st`, `plane`) int fields within `spare` steps of the areas of
    `group`, each with its distance in fields (breadth-first, layer by layer): (the fields in the
    order met, a new byte array of `size` entries (one plane of `st`) holding each one's distance at
    the field itself, 0 for every other field). A distance is at most spare <= bridge_bfs < 256.
    The array outlives the call (the joint check's children and its exclusion child read it), so it
    is its own, not a stamped plane of the search."""
    dist = bytearray(size)
    fields = []
    steps = (w, -w, 1, -1)
    for comp in group:
        for c in comp:
            for step in steps:
                d = c + step
                j = d
                if not st[j] and not st[plane + j] & 1 and not dist[j]:
                    dist[j] = 1
                    fields.append(d)
    start = 0
    length = 2
    while length <= spare:
        end = len(fields)  # fields[start:end]: the last layer
        for k in range(start, end):
            c = fields[k]
            for step in steps:
                d = c + step
                j = d
                if not st[j] and not st[plane + j] & 1 and not dist[j]:
                    dist[j] = length
                    fields.append(d)
        start = end
        length += 1
    return fields, dist


def _corridor(areas, st, plane: int, w: int, label, steps: int) -> set:
    """The int fields within `steps` steps of `areas` that are free, not excluded (`st`, `plane`)
    and not a placed field of the requirement (`label`), by breadth-first layers."""
    seen = set()
    layer = []
    nb = (w, -w, 1, -1)
    for comp in areas:
        for c in comp:
            for step in nb:
                d = c + step
                j = d
                if not st[j] and not st[plane + j] & 1 and d not in seen and label[d] is None:
                    seen.add(d)
                    layer.append(d)
    for _ in range(steps - 1):
        nxt = []
        for c in layer:
            for step in nb:
                d = c + step
                j = d
                if not st[j] and not st[plane + j] & 1 and d not in seen and label[d] is None:
                    seen.add(d)
                    nxt.append(d)
        layer = nxt
    return seen


def _fillable(f: int, plane: int, st, wit: list, slots: list, here, frame: list) -> bool:
    """Some unplaced tile (`here[i]` 0) of a requirement's `slots` (its `fill_slots`: per tile the
    (field checks, field offset) of each turn's counting fields) can put a field counting for the
    requirement on int field `f`. Cached without changing any answer: a field no unplaced tile can
    fill stays so in the subtree (the search only adds placed tiles, occupied and excluded fields
    on the way down), so a no is marked with bit 2 at `plane` + f in `st` and the entry is
    recorded in `frame` (the node's: cleared when it returns); a yes keeps its witness placement at
    `wit[f]` (the requirement's), re-checked (4 fields) on use."""
    j = plane + f
    if st[j] & 2:
        return False
    got = wit[f]
    if got is not None:
        i, a, chk = got
        if not here[i] and _clear(chk, a, st):
            return True
    for i, sl in slots:
        if here[i]:
            continue
        for chk, off in sl:
            a = f - off
            if _clear(chk, a, st):
                wit[f] = (i, a, chk)
                return True
    st[j] |= 2
    frame.append(j)
    return False


def _open_count(comp, st, plane: int, w: int, best: int, wit: list, slots: list, here, frame: list,
                mark, gen: int) -> tuple:
    """Area `comp`'s open fields (next to it, free, not excluded, not known unfillable (`st`: at
    `plane`, bit 1 excluded, bit 2 known unfillable) and `_fillable`), counted only as far as they
    decide: their number, up to best + 1, and when it is at most `best` the smallest of them, packed
    in one int, (first << 10) | count (0 when there is none; `_bounds` unpacks it: count <= the
    area's neighbour fields <= 4 * 4 * MAX_TILES = 960 < 1024, so the count fits its 10 bits, and a
    compiled caller gets it without a tuple or a boxed int). Each neighbour field is judged once (its `mark` entry set to `gen`, a
    fresh stamp). The order they are met in decides neither answer (a count capped at best + 1,
    a minimum over all of them when the count is at most best), only which fields `_fillable`
    caches (exact caches)."""
    count = 0
    first = -1
    steps = (w, -w, 1, -1)
    for c in comp:
        for step in steps:
            d = c + step
            j = d
            if st[j] or st[plane + j] or mark[j] == gen:
                continue
            mark[j] = gen
            if _fillable(d, plane, st, wit, slots, here, frame):
                count += 1
                if first < 0 or d < first:
                    first = d
                if count > best:
                    return (first << 10) | count
    return (first << 10) | count if count else 0


def _bounds(counts: list, planes: list, comps: list, counted: list, label: list, witness: list, fill_slots: list,
            st, w: int, wreach: int, here, frame: list, mark, stamps: list, scratch,
            fewest_spare: bool, bridge: bool, bridge_bfs: int, joint: bool, closing: bool, blocking: bool,
            loss: int, pick: list) -> int:
    """`rec`'s per-requirement bounds at one node (module doc: the closed areas' loss, the bridge bound;
    `fewest_spare`, `joint`, `closing`, `blocking`), one requirement after the other in their order:
    returns the summed bound `total_lost`, or -1 as soon as it exceeds `loss` (the node is refuted).
    Leaves in `pick` (the search's list, read at once by the node): pick[:4] the pick (pick[1] = -1 when
    there is none, else its open fields, requirement, first open field, its counting fields left to
    place), pick[4] `options` (for `joint`: (requirement, its bound, held, closed options' values,
    groups)), pick[5] / pick[6] `sole` / `kept` (for `closing`: by requirement, the areas with exactly
    one open field by that field and (its bound, its closed options' values, its growing areas, their
    groups or None)) and pick[7] `blockers` (for `blocking`), each list made only when it gets an entry
    (else None). A typed helper (not `rec`'s own loop) so that the compiled copy keeps its
    counts, bounds and indices in C ints (`refute.pxd`); the same calls in the same order as the loop
    it replaces (1 Dec 08:15)."""
    total_lost = 0
    pick_best = 0
    pick_ri = -1
    pick_f = 0
    pick_spare = 0
    n = len(mark)
    options = sole = kept = blockers = None
    for ri in range(len(counts)):
        plane = planes[ri]  # its excluded and known not fillable (in this subtree) fields: not open
        full = counts[ri]
        counted_r = counted[ri]
        held = len(counted_r)
        # an area is picked only with fewer open fields than the pick so far, or as few and
        # (fewest_spare) fewer counting fields of the requirement left to place
        spare_r = full - held
        if pick_ri < 0:
            best = 1 << 30
        elif fewest_spare and spare_r < pick_spare:
            best = pick_best + 1
        else:
            best = pick_best
        # the first area met with the fewest open fields when fewer than `best` (`tie_comp`, its first open
        # field `tie_first`), `n_ties` the areas with as many after it, all of them in `ties` (made only then)
        n_ties = 0
        tie_comp = ties = None
        tie_first = 0
        growing = []  # its areas with an open field
        shut_lb = [held]  # held, then count - each closed area's size
        # its areas (by id; an area of `full` fields is the whole requirement and skipped): each one's open
        # fields (`_open_count`, with a fresh `mark` stamp per area, at most `best` + 1 counted), in the
        # dict's order
        n_areas = closed_sum = closed_max = biggest = 0
        sole_r = None  # (`closing`) the areas with exactly one open field by that field
        for comp in comps[ri].values():
            size = len(comp)
            if size == full:
                continue
            # open fields, counted only as far as they decide: none (closed), or up to one more than best
            got = _open_count(comp, st, plane, w, best, witness[ri], fill_slots[ri], here, frame, mark,
                              _fresh(mark, stamps, 0, n))
            count = got & 1023
            first = got >> 10
            n_areas += 1
            if size > biggest:
                biggest = size
            if count == 1 and closing:
                # exactly one open field (best >= 1, so a count of 1 is exact): `first`
                if sole_r is None:
                    sole_r = {}
                sole_r.setdefault(first, []).append(comp)
            if not count:
                closed_sum += size
                if size > closed_max:
                    closed_max = size
                shut_lb.append(full - size)
                continue
            growing.append(comp)
            if count < best:
                best = count
                n_ties = 1
                tie_comp = comp
                tie_first = first
                ties = None
            elif count == best and n_ties:
                if ties is None:
                    ties = [(tie_comp, tie_first)]
                ties.append((comp, first))
                n_ties += 1
        if sole_r is not None:
            if sole is None:
                sole = [None] * len(counts)
                kept = [None] * len(counts)
            sole[ri] = sole_r
        if n_ties:
            if n_ties > 1:
                # equal areas: the one whose fields come first in the order the flood fill of the
                # requirement's fields (scoring.cell_groups on a copy of the set) meets them
                ids = {id(comp): k for k, (comp, _) in enumerate(ties)}
                lab = label[ri]
                for cx, cy in set(counted_r):
                    k = ids.get(id(lab[_cell(cx, cy, wreach, w)]))
                    if k is not None:
                        tie_first = ties[k][1]
                        break
            pick_best = best
            pick_ri = ri
            pick_f = tie_first
            pick_spare = spare_r
        # with d closed areas of sizes s_1..s_d: min(count - max s, sum s) (module doc)
        lost_r = (full - closed_max if full - closed_max < closed_sum else closed_sum) if closed_sum else 0
        grp = None  # the groups of the growing areas, when the bridge bound built them
        if bridge and n_areas > 1:
            # the requirement's largest area at the end holds at most one group of areas that
            # can still be joined (`path_components`: paths of at most `spare` joining fields,
            # the unplaced counting fields of its scoring), or one closed area and nothing
            # more, or none of the placed fields: every placed field outside it is lost
            # (at most held - the largest area: the bounding boxes first, the real paths only
            # when the boxes stay below that)
            cap = held - biggest
            if lost_r < cap:
                spare = full - held
                # the loss with the final largest area on each option: min(shut_lb + group values)
                groups = box_components(growing, spare, w)
                got = _least(shut_lb, _group_values(held, groups))
                if got > lost_r:
                    lost_r = got
                if lost_r < cap and spare <= bridge_bfs:
                    groups = _path_groups(growing, st, plane, w, spare, scratch, _fresh(scratch, stamps, 1, n))
                    got = _least(shut_lb, _group_values(held, groups))
                    if got > lost_r:
                        lost_r = got
                    if blocking and _any_joined(groups):
                        if blockers is None:
                            blockers = []
                        blockers.append([ri, lost_r, shut_lb, groups, spare, growing, None])
                grp = groups
                if joint:
                    if options is None:
                        options = []
                    options.append((ri, lost_r, held, shut_lb, groups))
        elif joint and n_areas == 1 and growing:
            if options is None:
                options = []
            options.append((ri, lost_r, held, [held], [[growing[0]]]))
        total_lost += lost_r
        if total_lost > loss:
            return -1
        if sole_r is not None:
            kept[ri] = (lost_r, shut_lb, growing, grp)
    pick[0] = pick_best
    pick[1] = pick_ri
    pick[2] = pick_f
    pick[3] = pick_spare
    pick[4] = options
    pick[5] = sole
    pick[6] = kept
    pick[7] = blockers
    return total_lost


def _unmark(frame: list, st) -> None:
    """`rec`'s exit: clear the unfillable bit (2) of the state entries its node marked (`frame`)."""
    for e in frame:
        st[e] &= ~2


def _doomed(hold: tuple, built: dict, cl: list, i: int, a: int) -> bool:
    """`joint_children` with `joint_tight` (module doc): tile i anchored at `a` (its turn's clusters `cl`:
    (requirement, the cluster's field offsets, its neighbour fields outside the tile), `_clusters`)
    below a node whose joint check passed with `hold` = (near, budget, far, share) and reach sets
    `built`: each of the tile's joined clusters C of a requirement's fields joins the final area
    through at least d(C) - 1 later fields not of C (d: its nearest field's distance from the group),
    at most spare - |C|: a cluster farther than spare - |C| + 1 is lost whole (the distance through a
    neighbour outside the tile: the tile's own fields block); with the other tiles' shares, more than
    the budget is out of reach. Reads the reach distances at the tile's fields and their edge
    neighbours (within EXTENT + 1 steps of `a`)."""
    near, budget, far, share = hold
    got = share.get(i)
    if got is None:
        return False
    k = far - got
    for ri, cluster, outside in cl:
        g = near.get(ri)
        if g is None:
            continue
        dist = built[ri][2][1]  # distances by index (`_reach`), 0: out of reach
        lim = g[1] - len(cluster) + 1
        # a field of C touches g's areas exactly when its own distance is 1 (it is empty
        # and not excluded); otherwise a neighbour outside the tile within lim - 1
        for off in cluster:
            if dist[a + off] == 1:
                break
        else:
            for off in outside:
                d = dist[a + off]
                if 0 < d < lim:
                    break
            else:
                k += len(cluster)
                if k > budget:
                    return True
    return False


def _touches_earlier(a: int, i: int, st, ring: tuple) -> bool:
    """Tile i, anchored at int field `a`, has a neighbour field covered by a tile before it (plane 0
    of `st` holds an occupied field's tile index + 1; `ring`: RING as offsets of the search's window)."""
    for off in ring:
        o = st[a + off]
        if o and o - 1 < i:
            return True
    return False


def _stranded(a: int, i: int, st, ring: tuple) -> bool:
    """Tile i, anchored at `a`, can no longer touch a tile placed before it: every neighbour field is
    covered, by later tiles."""
    for off in ring:
        o = st[a + off]
        if not o or o - 1 < i:
            return False
    return True


def _can_touch(a: int, i: int, st, here, turns: list, ring: tuple, offs: tuple) -> bool:
    """Tile i, anchored at `a`, touches a tile before it, or an unplaced tile j < i (`here`) still
    fits (`turns[j]`: its distinct turns' field checks; `offs`: OFFSETS as offsets of the window) with a
    field on a free neighbour field of it."""
    if _touches_earlier(a, i, st, ring):
        return True
    for r in ring:
        c = a + r
        if st[c]:
            continue
        for j in range(i):
            if here[j]:
                continue
            for chk in turns[j]:
                for off in offs:
                    if _clear(chk, c - off, st):
                        return True
    return False


def _order_broken(n: int, here, early, at: list, st, whole: bool, turns: list, ring: tuple, offs: tuple) -> bool:
    """The order rule's cheap test: some placed tile i >= 1 of `early` is stranded, or (`whole`: the
    first root only) can no longer touch an earlier tile (`_can_touch`)."""
    for i in range(1, n):
        if here[i] and early[i]:
            a = at[i]
            if _stranded(a, i, st, ring) or (whole and not _can_touch(a, i, st, here, turns, ring, offs)):
                return True
    return False


def _untouched(n: int, here, early, at: list, st, ring: tuple) -> bool:
    """Some placed tile i >= 1 of `early` touches no tile before it."""
    for i in range(1, n):
        if here[i] and early[i] and not _touches_earlier(at[i], i, st, ring):
            return True
    return False


def _join(c: int, ri: int, lab: list, cm: dict, steps: list, w: int) -> None:
    """`put`'s area update for one new field `c` counting for requirement ri (`lab`: its placed fields'
    areas, a list over the window: the area at a placed field's index, None elsewhere; `cm`: its
    areas by id): c joins the largest area it touches (the first largest in the order
    its neighbours +w, -w, +1, -1 meet them: x + 1, x - 1, y + 1, y - 1) and the other touched areas are merged into that
    one, in place; or c starts an area of its own. Undo records (kind, ri, area, field or merged
    area) go to `steps` (`_unjoin`)."""
    near = []
    for step in (w, -w, 1, -1):
        comp = lab[c + step]
        if comp is not None:
            for o in near:
                if o is comp:
                    break
            else:
                near.append(comp)
    if not near:
        comp = {c}
        cm[id(comp)] = comp
        lab[c] = comp
        steps.append((0, ri, comp, c))
    else:
        target = near[0]
        for k in range(1, len(near)):
            if len(near[k]) > len(target):
                target = near[k]
        for other in near:
            if other is not target:
                target |= other
                for o in other:
                    lab[o] = target
                del cm[id(other)]
                steps.append((1, ri, target, other))
        target.add(c)
        lab[c] = target
        steps.append((2, ri, target, c))


def _unjoin(records: list, comps: list, label: list) -> None:
    """`take`: undo one tile's `_join` records, last first."""
    for k in range(len(records) - 1, -1, -1):
        kind, ri, comp, what = records[k]
        if kind == 0:
            del comps[ri][id(comp)]
            label[ri][what] = None
        elif kind == 1:
            comp -= what
            comps[ri][id(what)] = what
            lab = label[ri]
            for o in what:
                lab[o] = what
        else:
            comp.discard(what)
            label[ri][what] = None


def _prefix_ok(n: int, here, early, ax: list, ay: list, mx: list, my: list, seen, stack: list) -> bool:
    """The order rule's prefix test (`prefix`, module doc): the order rule (tile i >= 1 touches a tile
    before it) holds exactly when every prefix of tiles 0..k is one connected group (induction on k;
    conversely tile k touches the rest of its connected prefix). A chain of touching tiles moves the
    anchor by at most 2 per axis and 3 in all per step, so placed tiles a, b of the prefix are joined
    through at least `tiles_between` unplaced tiles of it; any spanning connection of the prefix's
    placed tiles crosses every cut of them by a direct chain between the two sides, so it needs at
    least the bottleneck (largest edge of the minimum spanning tree) of those weights unplaced tiles of
    the prefix: the placed tiles of each prefix (tiles placed, `here`, among the `early` ones; anchors
    ax / ay) must be connected by edges of at most u_k (its unplaced tiles). mx / my / seen / stack:
    scratch of n entries. Connectivity is order-free: any search order gives the same answer."""
    u = 0
    m = 0  # the prefix's placed tiles so far, their anchors in mx / my
    for k in range(n):
        if not here[k]:
            if early[k]:
                u += 1
            continue
        if not early[k]:
            break
        mx[m] = ax[k]
        my[m] = ay[k]
        m += 1
        if m < 2:
            continue
        # is the graph of the m members joined by chains of at most u unplaced tiles connected?
        for q in range(m):
            seen[q] = 0
        seen[m - 1] = 1
        stack[0] = m - 1
        top = 1
        reached = 1
        while top and reached < m:
            top -= 1
            a = stack[top]
            for b in range(m):
                if not seen[b] and tiles_between(mx[a] - mx[b], my[a] - my[b]) <= u:
                    seen[b] = 1
                    stack[top] = b
                    top += 1
                    reached += 1
        if reached < m:
            return False
    return True


def _group_values(held: int, groups: list) -> list:
    """Per group, held - the sum of its areas' sizes (a requirement's loss when its final largest
    area holds that group's placed fields: the bridge bound's options)."""
    values = []
    for g in groups:
        v = held
        for a in g:
            v -= len(a)
        values.append(v)
    return values


def _least(values: list, more: list) -> int:
    """min(values + more), without the joined list (both nonempty lists of ints, or `more` empty)."""
    low = values[0]
    for v in values:
        if v < low:
            low = v
    for v in more:
        if v < low:
            low = v
    return low


def _any_joined(groups: list) -> bool:
    """Some group holds two or more areas."""
    for g in groups:
        if len(g) > 1:
            return True
    return False


def _same_objects(a: list, b: list) -> bool:
    """The two lists hold the same objects in the same order (`is`)."""
    if len(a) != len(b):
        return False
    for k in range(len(a)):
        if a[k] is not b[k]:
            return False
    return True


def box_components(areas: list[set[Cell]], spare: int, w: int = 2 * CELL_REACH + 1) -> list[list[set[Cell]]]:
    """`path_components` with `fields_between` of the areas' bounding boxes as path lengths (a
    lower bound of every path's length: coarser groups, no search); int fields (`_cell`, window
    width `w`)."""
    n = len(areas)
    ww = w * w
    bx0, bx1, by0, by1 = [0] * n, [0] * n, [0] * n, [0] * n
    for k in range(n):  # from the field's block kb and its place r in it: x + reach and y + reach (the same differences)
        x0 = y0 = 1 << 62
        x1 = y1 = -1
        for c in areas[k]:
            kb = c // ww
            r = c - kb * ww
            x = kb * FAR + r // w
            y = kb * FAR + r % w
            if x < x0:
                x0 = x
            if x > x1:
                x1 = x
            if y < y0:
                y0 = y
            if y > y1:
                y1 = y
        bx0[k], bx1[k], by0[k], by1[k] = x0, x1, y0, y1
    groups = []
    grouped = bytearray(n)
    for k in range(n):
        if grouped[k]:
            continue
        grouped[k] = 1
        group, stack = [k], [k]
        while stack:
            a = stack.pop()
            for b in range(n):
                if grouped[b]:
                    continue
                # fields_between(box a, box b)
                gx = bx0[b] - bx1[a]
                if bx0[a] - bx1[b] > gx:
                    gx = bx0[a] - bx1[b]
                gy = by0[b] - by1[a]
                if by0[a] - by1[b] > gy:
                    gy = by0[a] - by1[b]
                if (gx if gx > 0 else 0) + (gy if gy > 0 else 0) - 1 <= spare:
                    grouped[b] = 1
                    group.append(b)
                    stack.append(b)
        groups.append([areas[k] for k in group])
    return groups


@dataclass
class Outcome:
    status: str  # "infeasible" (proved: no arrangement), "feasible" (one found) or "unknown" (node limit)
    nodes: int
    arrangement: dict[int, tuple[int, int, int]] | None = None  # tile index -> (x, y, rotation)
    lost: int | None = None  # fields lost by the arrangement found


@dataclass
class _Req:
    tiles: frozenset[int]
    codes: frozenset[str]
    count: int  # its excluded fields: bit 1 of its plane of the search's state array (`_state`)


def arrangeable(tiles: Sequence[Tile], catalog: Catalog, requirements: Sequence[tuple[int, str]], loss: int = 0,
                node_limit: int | None = 200_000, ordered: bool = True, connected: bool = True,
                stop: Callable[[], bool] | None = None, prefix: bool = True,
                bridge: bool = True, bridge_bfs: int = 8, fewest_spare: bool = True,
                joint: bool | None = None, joint_slack: bool | None = None,
                joint_children: bool | None = None, joint_tight: bool | None = None,
                closing: bool | None = None, blocking: bool | None = None) -> Outcome:
    """Is there an arrangement of `tiles` (any offsets and turns, no overlap; order and touching
    ignored) where, for the requirements (upto, t) together, at most `loss` fields counting for t
    on tiles[:upto] lie outside that type's largest area among tiles[:upto]? See the module doc
    for why "infeasible" is a proof. `node_limit` caps the search (then "unknown"). `joint` (None:
    the module's JOINT) checks the unplaced tiles when no loss is left (module doc); `joint_children`
    (None: JOINT_CHILDREN) applies that check's verdict to each child placement (module doc)."""
    if joint is None:
        joint = JOINT
    if joint_slack is None:
        joint_slack = JOINT_SLACK
    if joint_children is None:
        joint_children = JOINT_CHILDREN
    if joint_tight is None:
        joint_tight = JOINT_TIGHT
    if closing is None:
        closing = CLOSING
    if blocking is None:
        blocking = BLOCKING
    jokers = frozenset(catalog.joker_types)
    reqs = []
    for upto, t in requirements:
        codes = frozenset({t}) | jokers
        count = sum(1 for tile in tiles[:upto] for code in tile.fields if code in codes)
        if count:
            reqs.append(_Req(frozenset(range(upto)), codes, count))
    # connected: every tile is placed, so the tiles form one connected group as in a garden (a
    # tile with no field counting for any requirement is only placed next to the others);
    # otherwise such tiles are left out and groups with nothing to join are placed far apart
    relevant = [i for i, tile in enumerate(tiles)
                if connected or any(i in r.tiles and code in r.codes for r in reqs for code in tile.fields)]
    layouts = {i: [(r, tiles[i].oriented(r)) for r in distinct_rotations(tiles[i])] for i in relevant}
    # equal tiles are interchangeable only when the order does not count
    signature = {i: (tiles[i].fields, tuple(i in r.tiles for r in reqs), i if ordered else None) for i in relevant}
    # the same as an int per tile index: the first relevant tile with its signature (equal ints for equal
    # signatures: the pick loops' `tried` sets hold these, not tuples hashed afresh at every look-up)
    kinds: dict = {}
    sig = [kinds.setdefault(signature[i], i) if i in signature else -1 for i in range(len(tiles))]
    # tiles before which every tile takes part: only they can be held to the touching rule (a left
    # out tile, placed anywhere, might be the one they touch)
    early = set()
    for i in range(len(tiles)):
        if i not in relevant:
            break
        early.add(i)
    is_early = bytearray(1 if i in early else 0 for i in range(len(tiles)))
    placed: dict[int, tuple[int, int, int]] = {}
    here = bytearray(len(tiles))  # placed tiles: 1 at the tile's index (`placed` by index, for the helpers)
    nodes = 0
    roots = 0

    # per tile and distinct turn: each field's offset and the exclusion sets it must avoid (the
    # requirements it counts for); per requirement and tile: the (turn, field offset) pairs that
    # put a counting field on a given field
    # (fields and anchors are window indices, `_cell`; a field offset is dx * w + dy)
    if len(tiles) > MAX_TILES:
        raise ValueError("too many tiles for the state arrays' bytes (MAX_TILES)")
    # the state array (`_state`): one window when every tile takes part (no far roots), else one per
    # possible root; plane 0 occupied (the tile's index + 1), plane 1 + ri requirement ri's excluded (1) /
    # unfillable (2) bits
    wreach = 2 * len(tiles) + bridge_bfs + WINDOW_MARGIN
    st, w = _state(wreach, 1 if len(relevant) == len(tiles) else len(relevant) + 1, 1 + len(reqs))
    offs = tuple(dx * w + dy for dx, dy in OFFSETS)  # a tile's fields from its anchor, in this window
    ring = tuple(dx * w + dy for dx, dy in RING)  # its edge neighbours
    planes = [len(st) // (1 + len(reqs)) * (1 + ri) for ri in range(len(reqs))]
    checks = {i: {rot: tuple((off, tuple(planes[ri] for ri, r in enumerate(reqs) if code in r.codes and i in r.tiles))
                             for off, code in zip(offs, layout))
                  for rot, layout in layouts[i]} for i in relevant}
    slots = {(ri, i): [(rot, layout, off) for rot, layout in layouts[i]
                       for off, code in zip(offs, layout) if code in r.codes]
             for ri, r in enumerate(reqs) for i in relevant if i in r.tiles}

    # the same by requirement and tile index (None: the tile is not of its scoring, or left out)
    tile_slots = [[slots.get((ri, i)) for i in range(len(tiles))] for ri in range(len(reqs))]

    def fits(i: int, a: int, rot: int) -> bool:
        return _clear(checks[i][rot], a, st)

    counted = [set() for _ in reqs]  # per requirement: the placed fields counting for it
    member = {i: {rot: tuple((off, dxy, tuple(ri for ri, r in enumerate(reqs) if code in r.codes and i in r.tiles))
                             for off, dxy, code in zip(offs, OFFSETS, layout))
                  for rot, layout in layouts[i]} for i in relevant}
    # incremental areas: per requirement, each placed counting field's area (a set shared by its
    # fields) and the areas by id; `put` joins each new field to the areas it touches (merging them
    # into the largest, in place), `take` undoes that in reverse (undo stack); `counted` keeps the
    # (x, y) fields (its set's order breaks ties between equal areas), the rest int fields
    # (`label[ri]`: a list over the window, the area at each placed field's index, None elsewhere)
    label: list[list] = [[None] * (len(st) // (1 + len(reqs))) for _ in reqs]
    comps: list[dict[int, set[int]]] = [{} for _ in reqs]
    undo: list[list] = []
    at = [0] * len(tiles)  # a placed tile's anchor (int field), by tile index
    # each window field's (x, y) tuple, made on first use (`counted` holds these: equal tuples, so
    # the same hashes and the same set order as tuples made afresh)
    xys: list = [None] * (len(st) // (1 + len(reqs)))

    def put(i: int, a: int, rot: int, layout) -> None:
        t = xys[a]
        if t is None:
            t = xys[a] = _xy(a, wreach, w)
        placed[i] = (t[0], t[1], rot)
        ax[i] = t[0]
        ay[i] = t[1]
        here[i] = 1
        at[i] = a
        for off in offs:
            st[a + off] = i + 1  # plane 0: the tile's index + 1 (nonzero: occupied)
        steps = []  # undo records: (kind, requirement, area, field or merged area)
        for off, ri in held_fields[i][rot]:  # (field offset, requirement) in `member` order
            c = a + off
            t = xys[c]
            if t is None:
                t = xys[c] = _xy(c, wreach, w)
            counted[ri].add(t)
            _join(c, ri, label[ri], comps[ri], steps, w)
        undo.append(steps)

    def take(i: int) -> None:
        rot = placed.pop(i)[2]
        here[i] = 0
        a = at[i]
        for off in offs:
            st[a + off] = 0
        for off, ri in held_fields[i][rot]:
            counted[ri].discard(xys[a + off])
        _unjoin(undo.pop(), comps, label)

    # per tile: its distinct turns' field checks, in `layouts` order (`_can_touch`, `_far_fields`)
    turns = [[checks[i][rot] for rot, _ in layouts[i]] if i in checks else None for i in range(len(tiles))]

    # per requirement: (tile, [(the turn's field checks, field offset)]) for the tiles of its scoring
    fill_slots = [[(i, [(checks[i][rot], off) for rot, _, off in slots[(ri, i)]])
                   for i in relevant if (ri, i) in slots] for ri in range(len(reqs))]

    # prefix_ok's placed anchors by tile (set by `put`) and its scratch (`_prefix_ok`)
    ax = [0] * len(tiles)
    ay = [0] * len(tiles)
    pre_x = [0] * len(tiles)
    pre_y = [0] * len(tiles)
    pre_seen = bytearray(len(tiles))
    pre_stack = [0] * len(tiles)

    # `_fillable`'s witnesses: per requirement, one entry per window index (the field found
    # fillable's placement, or None)
    witness: list[list] = [[None] * (len(st) // (1 + len(reqs))) for _ in reqs]

    def areas(ri: int) -> list[set[Cell]]:
        return cell_groups(set(counted[ri]))

    # per tile and turn: its (field offset, requirement) pairs, one per requirement a field counts
    # for; per tile: those requirements
    held_xy = {i: {rot: tuple((dx, dy, ri) for _, (dx, dy), ris in member[i][rot] for ri in ris)
                   for rot, _ in layouts[i]} for i in relevant}
    held_fields = {i: {rot: tuple((off, ri) for off, _, ris in member[i][rot] for ri in ris)
                       for rot, _ in layouts[i]} for i in relevant}
    held_reqs = {i: frozenset(ri for rot in held_fields[i] for _, ri in held_fields[i][rot]) for i in relevant}
    held_turns = {i: [held_fields[i][rot] for rot, _ in layouts[i]] for i in relevant}  # in `layouts` order

    # per tile and turn: (requirement, cluster) for each set of the tile's fields counting for a
    # requirement that are joined inside the tile (field offsets), for `joint_tight`
    def _clusters(pairs) -> list:
        out = []
        for ri in sorted({ri for _, _, ri in pairs}):
            cells = {(dx, dy) for dx, dy, rj in pairs if rj == ri}
            while cells:
                todo = [cells.pop()]
                cluster = []
                while todo:
                    cx, cy = todo.pop()
                    cluster.append((cx, cy))
                    for d in neighbours((cx, cy)):
                        if d in cells:
                            cells.discard(d)
                            todo.append(d)
                # the cluster's neighbour fields outside the tile (offsets from the anchor)
                outside = sorted({d for c in cluster for d in neighbours(c) if not (0 <= d[0] <= 1 and 0 <= d[1] <= 1)})
                out.append((ri, tuple(dx * w + dy for dx, dy in sorted(cluster)),
                            tuple(dx * w + dy for dx, dy in outside)))
        return out

    clusters = {i: {rot: _clusters(held_xy[i][rot]) for rot in held_xy[i]} for i in relevant}

    mark = bytearray(len(st) // (1 + len(reqs)))  # far_fields' places / an area's neighbours seen (`_open_count`), one entry per field of the window
    scratch = bytearray(3 * len(mark))  # `_path_groups`' breadth-first fields, stamped in their first plane
    stamps = [0, 0]  # the current stamp (1..255, `_fresh`) of `mark` and of `scratch`

    # the reach sets of a node's joint check, handed to its exclusion child (same placed tiles, one
    # more excluded field f of one requirement): a reach from the same group objects and spare is
    # the same there, but for f's requirement when f lies in it
    carry = None  # (requirement, f, {requirement: (group, spare, reach)}) for the next rec() only
    pick = [0, -1, 0, 0, None, None, None, None]  # `_bounds`' out: a node's pick, read by the node before any child runs
    counts = [r.count for r in reqs]  # per requirement: its counting fields (`_bounds`)

    def joint_ok(options, slack: int = 0, inherited=None) -> tuple[bool, dict | None, tuple | None]:
        # returns (the verdict, the reach sets built: {requirement: (group, spare, reach)}, or None
        # when no requirement is held to a group, and, when it passed with `joint_children` on,
        # (near, budget, far pairs counted, {tile: its share}) for the children's verdict)
        # `joint` (module doc), at a node with no loss left: a requirement whose one cheapest option
        # is a group g (every other option, a closed area or none of the placed fields, costs more)
        # must put every counting field still to place into the area holding g, so each such field
        # lies within `spare` free, not excluded fields of g's areas; every unplaced tile needs one
        # fitting place that meets this for all such requirements of its fields at once
        near = {}  # requirement -> (its group g, spare, excluded fields): reach_of builds the reach
        budget = slack
        for ri, lost_r, held, shut_lb, groups in options:
            r = reqs[ri]
            spare = r.count - held
            if not spare or spare > bridge_bfs:
                continue
            values = _group_values(held, groups)
            low = _least(values, [])
            if joint_slack:
                top = lost_r + slack
                if low > top or _least(shut_lb, []) <= top:
                    continue
                within = 0  # the options within top: only g
                for v in values:
                    if v <= top:
                        within += 1
                if within > 1:
                    continue
                budget += lost_r - low
            elif low != lost_r or values.count(low) > 1 or _least(shut_lb, []) <= low:
                continue
            # the reach (breadth-first, `spare` steps from g's areas) is built on first use
            near[ri] = (groups[values.index(low)], spare, planes[ri])
        if not near:
            return True, None, None
        built = {}
        reaches = [None] * len(reqs)  # the reaches built, by requirement (`_far_fields`)

        def reach_of(ri: int) -> tuple:
            got = built.get(ri)
            if got is not None:
                return got[2]
            group, spare, ex = near[ri]
            if inherited is not None:
                old = inherited[2].get(ri)
                if (old is not None and old[1] == spare and _same_objects(old[0], group)
                        and (ri != inherited[0] or not old[2][1][inherited[1]])):
                    built[ri] = old
                    reaches[ri] = old[2]
                    return old[2]
            reach = _reach(group, st, ex, w, spare, len(mark))
            built[ri] = (group, spare, reach)
            reaches[ri] = reach
            return reach

        # every unplaced tile's fewest far pairs, summed: at most `budget` (with no slack, 0: each
        # tile needs a place with every pair in reach, looked for in its smallest reach set)
        far = 0
        share = {} if joint_children else None
        for i in relevant:
            if i in placed or held_reqs[i].isdisjoint(near):
                continue  # placed, or no field of the tile is held to a group
            for ri in held_reqs[i]:  # its held requirements' reaches, built on first use
                if ri in near and reaches[ri] is None:
                    reach_of(ri)
            got = _far_fields(held_turns[i], reaches, budget + 1 - far, turns[i], st, mark, stamps)
            far += got
            if far > budget:
                return False, built, None
            if share is not None:
                share[i] = got
        return True, built, (near, budget, far, share) if share is not None else None

    def doomed(hold, built, i: int, a: int, rot: int) -> bool:
        # `joint_children` (module doc): tile i placed at (a, rot) below a node whose joint check
        # passed with `hold` = (near, budget, far, share) and reach sets `built`: its (field,
        # requirement) pairs out of reach, with the other tiles' shares, exceed the budget
        if joint_tight:
            return _doomed(hold, built, clusters[i][rot], i, a)
        near, budget, far, share = hold
        if i not in share:
            return False
        k = far - share[i]
        for off, ri in held_fields[i][rot]:
            if ri in near and not built[ri][2][1][a + off]:
                k += 1
                if k > budget:
                    return True
        return False

    def closing_lost(kept: list, ri: int, shut: list) -> int:
        # `closing` (module doc): requirement ri's bound below a child where its areas `shut` (each
        # with one open field, at the node) never grow; kept[ri] = (its bound at the node, its closed
        # options' values (held, then count - each closed area's size), its growing areas, their
        # groups or None = one group of them all)
        r = reqs[ri]
        lost_r, shut_lb, growing, grp = kept[ri]
        held = len(counted[ri])
        gone = {id(a) for a in shut}
        values = shut_lb + [r.count - len(a) for a in shut]
        if grp is None:
            grp = [growing]
        values += [held - sum(len(a) for a in g if id(a) not in gone) for g in grp]
        return max(lost_r, min(values))

    def closes(kept: list, shut: list, total_lost: int, i: int, a: int, rot: int) -> bool:
        # `closing`: tile i at (a, rot) covers the one open field of some areas with a field not
        # counting for their requirement; their requirements' bounds below the child, with the
        # node's other bounds, exceed the loss
        hit = None
        for off, _, ris in member[i][rot]:
            c = a + off
            for rj, by_field in shut:
                got = by_field.get(c)
                if got is not None and rj not in ris:
                    if hit is None:
                        hit = {}
                    hit.setdefault(rj, []).extend(got)
        if hit is None:
            return False
        extra = 0
        for rj, areas_j in hit.items():
            extra += closing_lost(kept, rj, areas_j) - kept[rj][0]
        return total_lost + extra > loss

    def corridor(entry) -> set:
        # `blocking`: the free, not excluded fields within (spare + 1) // 2 steps of an area of a
        # group of two or more areas (every field of a link path between two areas of one group is
        # that close to one of its ends), built on first use and kept in entry[6]
        got = entry[6]
        if got is not None:
            return got
        ri, _, _, groups, spare, _, _ = entry
        seen = _corridor([comp for g in groups if len(g) > 1 for comp in g], st, planes[ri], w, label[ri],
                         (spare + 1) // 2)
        entry[6] = seen
        return seen

    def blocks(blockers: list, total_lost: int, i: int, a: int, rot: int) -> bool:
        # `blocking` (module doc): tile i at (a, rot) occupies, with fields not counting for
        # requirement r, fields of r's link paths: r's groups below the child are at most those of
        # the paths of at most the node's spare that avoid those fields (the tile's fields counting
        # for r may lie on a path: they are among the spare), and r's bound there, with the node's
        # other bounds, exceeds the loss
        extra = 0
        for entry in blockers:
            ri, lost_r, shut_lb, groups, spare, growing, _ = entry
            cells = [a + off for off, _, ris in member[i][rot] if ri not in ris]
            if not cells:
                continue
            near = corridor(entry)
            for c in cells:
                if c in near:
                    break
            else:
                continue
            for c in cells:
                st[c] = 1
            try:
                split = _path_groups(growing, st, planes[ri], w, spare, scratch,
                                     _fresh(scratch, stamps, 1, len(mark)))
            finally:
                for c in cells:
                    st[c] = 0
            got = min(shut_lb + [shut_lb[0] - sum(len(c) for c in g) for g in split])
            if got > lost_r:
                extra += got - lost_r
                if total_lost + extra > loss:
                    return True
        return False

    def rec() -> bool:
        nonlocal nodes, roots, carry
        inherited, carry = carry, None
        mine = None  # this node's reach sets, when its joint check ran and passed
        hold = None  # for `joint_children`: what the joint check held the unplaced tiles to
        frame: list[int] = []  # the state entries this node marked unfillable (`_fillable`)
        try:
            nodes += 1
            if node_limit is not None and nodes > node_limit:
                raise NodeLimit
            if stop is not None and nodes % 1000 == 0 and stop():
                raise NodeLimit  # cancelled: "unknown"
            # each requirement's bound and the pick (`_bounds`), read from `pick` before any child runs:
            # (open fields, requirement, first open field, its counting fields left to place), pick[1] = -1
            # when none; for `joint`: (requirement, its bound, held, closed options' values, groups); for
            # `closing`: per requirement, its areas with exactly one open field by that field, and (its
            # bound, its closed options' values, its growing areas, their groups or None = all one group);
            # for `blocking`: [requirement, its bound, closed options' values (held first), its groups
            # (path_components), spare, its growing areas, corridor (built on first use)]; each None when empty
            total_lost = _bounds(counts, planes, comps, counted, label, witness, fill_slots, st, w, wreach, here,
                                 frame, mark, stamps, scratch, fewest_spare, bridge, bridge_bfs, joint, closing,
                                 blocking, loss, pick)
            if total_lost < 0:
                return False
            options = pick[4]
            sole = pick[5]
            kept = pick[6]
            blockers = pick[7]
            if ordered and _order_broken(len(tiles), here, is_early, at, st, roots == 0, turns, ring, offs):
                return False
            if prefix and ordered and roots == 0 and not _prefix_ok(len(tiles), here, is_early, ax, ay, pre_x, pre_y,
                                                                    pre_seen, pre_stack):
                return False
            if options and (total_lost == loss or joint_slack):
                ok, mine, hold = joint_ok(options, loss - total_lost, inherited)
                if not ok:
                    return False
            ri = pick[1]
            if ri < 0:
                rest = [i for i in relevant if i not in placed]
                if not rest:
                    # every requirement's areas are final and the loss is within budget
                    return not (ordered and roots == 0 and _untouched(len(tiles), here, is_early, at, st, ring))
                if len(relevant) == len(tiles):
                    # every tile takes part: a garden's tiles are one connected group (each touches an
                    # earlier one), so some unplaced tile touches a placed one: try each, everywhere
                    anchors = sorted({c - off for k in placed for cell in (at[k] + o for o in offs)
                                      for c in (cell + w, cell - w, cell + 1, cell - 1) if not st[c] for off in offs})
                    tried = set()
                    for i in rest:
                        if sig[i] in tried:
                            continue
                        tried.add(sig[i])
                        for rot, layout in layouts[i]:
                            for a in anchors:
                                if fits(i, a, rot) and (hold is None or not doomed(hold, mine, i, a, rot)):
                                    put(i, a, rot, layout)
                                    if rec():
                                        return True
                                    take(i)
                    return False
                i = rest[0]
                roots += 1
                base = _cell(FAR * roots, FAR * roots, wreach, w)
                for rot, layout in layouts[i]:
                    if hold is not None and doomed(hold, mine, i, base, rot):
                        continue
                    put(i, base, rot, layout)
                    if rec():
                        return True
                    take(i)
                roots -= 1
                return False
            f = pick[2]
            r = reqs[ri]
            shut = [(rj, sole[rj]) for rj in range(len(reqs)) if sole[rj] is not None] if sole is not None else None
            if blockers:
                # only a requirement whose bound, with every group split into single areas, would
                # exceed the loss with the others' bounds can refute a child by blocking
                blockers = [e for e in blockers
                            if total_lost - e[1] + min(e[2] + [e[2][0] - len(a) for a in e[5]]) > loss]
            tried = set()
            slots_r = tile_slots[ri]
            for i in relevant:
                if i in placed or slots_r[i] is None or sig[i] in tried:
                    continue  # placed, not of the requirement's scoring (no slots), or an equal tile tried
                tried.add(sig[i])
                for rot, layout, off in slots_r[i]:
                    a = f - off
                    if not fits(i, a, rot) or (hold is not None and doomed(hold, mine, i, a, rot)):
                        continue
                    if shut and closes(kept, shut, total_lost, i, a, rot):
                        continue
                    if blockers and blocks(blockers, total_lost, i, a, rot):
                        continue
                    put(i, a, rot, layout)
                    if rec():
                        return True
                    take(i)
            if sole is not None and sole[ri] is not None and f in sole[ri]:
                # `closing`: excluding f closes the areas whose only open field it is
                if total_lost - kept[ri][0] + closing_lost(kept, ri, sole[ri][f]) > loss:
                    return False
            j = planes[ri] + f
            st[j] |= 1
            if mine:
                carry = (ri, f, mine)
            try:
                if rec():
                    return True
            finally:
                st[j] &= ~1
            return False
        finally:
            _unmark(frame, st)

    if not reqs:
        return Outcome("feasible", 0, {}, 0)
    first = relevant[0]
    try:
        put(first, _cell(0, 0, wreach, w), 0, tiles[first].oriented(0))
        ok = rec()
    except NodeLimit:
        return Outcome("unknown", nodes)
    if not ok:
        return Outcome("infeasible", nodes)
    found = dict(placed)
    lost = 0
    for ri, r in enumerate(reqs):
        comps = areas(ri)
        lost += r.count - max((len(c) for c in comps), default=0)
    return Outcome("feasible", nodes, found, lost)


def plans(tiles: Sequence[Tile], catalog: Catalog) -> list[tuple[int, tuple[tuple[str, ...], ...]]]:
    """Every choice of scored types (one k-set per scoring; the types with a field counting for them) with
    its counting bound (the chosen types' field counts summed), largest first, ties in catalog order."""
    jokers = set(catalog.joker_types)
    per = []
    for upto, k in solo_checkpoints(len(tiles), catalog):
        counts = {t: sum(1 for tile in tiles[:upto] for code in tile.fields if code == t or code in jokers)
                  for t in catalog.garden_types}
        present = [t for t in catalog.garden_types if counts[t]]
        per.append([(sum(counts[t] for t in ch), ch) for ch in combinations(present, min(k, len(present)))])
    out = [(sum(c for c, _ in combo), tuple(ch for _, ch in combo)) for combo in product(*per)]
    order = {t: i for i, t in enumerate(catalog.garden_types)}
    out.sort(key=lambda p: (-p[0], [[order[t] for t in ch] for ch in p[1]]))
    return out


def refute_above(tiles: Sequence[Tile], catalog: Catalog, target: int, node_limit: int | None = 200_000,
                 ) -> tuple[bool, int, list]:
    """Is every garden of `tiles` worth less than `target`? For each plan whose counting bound
    reaches `target`, `arrangeable` with loss = bound - target. Returns (all refuted, nodes,
    [(plan, outcome status)]); True is a proof (module doc), False means a plan stayed open."""
    checkpoints = solo_checkpoints(len(tiles), catalog)
    nodes = 0
    report = []
    ok = True
    for count, chosen in plans(tiles, catalog):
        if count < target:
            break
        reqs = [(checkpoints[cp][0], t) for cp, types in enumerate(chosen) for t in types]
        out = arrangeable(tiles, catalog, reqs, count - target, node_limit)
        nodes += out.nodes
        report.append((chosen, out.status))
        if out.status != "infeasible":
            ok = False
            break
    return ok, nodes, report


def garden_of(tiles: Sequence[Tile], arrangement: dict[int, tuple[int, int, int]]):
    """The arrangement as placements in order, turned so the first tile keeps its printed turn and
    moved so its fields start at (0, 0) (the model's board convention), or None when a tile is
    missing. Turning the whole garden a quarter turn clockwise maps field (x, y) to (-y, x)."""
    if len(arrangement) != len(tiles):
        return None
    turns = (-arrangement[0][2]) % 4
    placed = []
    for i, tile in enumerate(tiles):
        x, y, rot = arrangement[i]
        for _ in range(turns):
            # the tile's fields (x..x+1, y..y+1) go to (-y-1..-y, x..x+1): anchor (-y - 1, x)
            x, y = -y - 1, x
            rot = (rot + 1) % 4
        placed.append((x, y, rot))
    mx = min(x for x, _, _ in placed)
    my = min(y for _, y, _ in placed)
    return [Placement(tile.id, x - mx, y - my, rot) for tile, (x, y, rot) in zip(tiles, placed)]


def _refute_shared(tiles: Sequence[Tile], catalog: Catalog, checkpoints, all_plans, target: int,
                   refuted: set[int], tried: dict, budget: int, stop: Callable[[], bool] | None,
                   max_loss: int = 0) -> int:
    """Refute plans in bulk through one scoring's choice of types that several open plans share
    (`shared` in `raise_or_refute`). A garden worth `target` or more on plan (C_1, .., C_m) with
    counting bound c loses at most c - target fields over all its requirements, each loss >= 0, so
    the requirements of scoring k alone lose at most c - target; and the garden's first n_k tiles
    (n_k = the tiles scored at k) are a legal garden of their own (every tile touches an earlier
    one). So when `arrangeable(tiles[:n_k], C_k, loss L)` is infeasible, every plan containing C_k
    with c - target <= L is worth less than `target`. Per choice shared by at least two open plans
    (most plans first, then scoring, then plan order), L = the largest c - target among them, with
    at most what is left / the open plans' number of nodes. Returns the nodes spent; adds the
    refuted plans' indices to `refuted`; `tried` keeps the smallest loss a choice was not refuted
    at (not tried again at that loss or above: harder to refute). Only choices with L <= `max_loss`
    are searched (0 by default: measured on 8-tile seeds 3 and 5, a choice alone at a loss of 1-3
    was feasible or open at every try, and seed 3 spent 324k nodes on two of them)."""
    spent = 0
    open_plans = [i for i, (count, _) in enumerate(all_plans) if count >= target and i not in refuted]
    sharing: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for i in open_plans:
        for cp, types in enumerate(all_plans[i][1]):
            sharing.setdefault((cp, types), []).append(i)
    order = sorted((key for key, idx in sharing.items() if len(idx) >= 2),
                   key=lambda key: (-len(sharing[key]), key[0], sharing[key][0]))
    for key in order:
        still = [i for i in sharing[key] if i not in refuted]
        if len(still) < 2:
            continue
        loss = max(all_plans[i][0] - target for i in still)
        if loss > max_loss or (key in tried and loss >= tried[key]):
            continue  # not refuted at a loss: not at a larger one either (more may be lost)
        left = budget - spent
        cap = left // sum(1 for i in open_plans if i not in refuted)
        if cap <= 0 or (stop is not None and stop()):
            break
        cp, types = key
        upto = checkpoints[cp][0]
        out = arrangeable(tiles[:upto], catalog, [(upto, t) for t in types], loss, cap, stop=stop)
        spent += out.nodes
        if out.status == "infeasible":
            refuted.update(still)
        else:
            tried[key] = loss
    return spent


def raise_or_refute(tiles: Sequence[Tile], catalog: Catalog, garden, points: int, node_budget: int,
                    accept=None, stop: Callable[[], bool] | None = None,
                    shared: bool = True, shared_loss: int = 0) -> tuple[object, int, int, int, bool]:
    """From a garden worth `points`: try to refute points + 1 plan by plan (largest counting bound
    first), within `node_budget` search nodes in all. An arrangement found that is a legal garden
    (`accept(placements)` -> its solo points, or None when it is not legal / not wanted) worth more
    replaces the garden and the target rises. Returns (garden, points, bound, nodes, proved):
    bound = the largest counting bound of a plan left open (or points + ... see below), proved =
    every plan above the garden refuted (then bound == points).

    A plan refuted at target T is worth at most T - 1; one left open at most its counting bound;
    so the optimum is at most max(points, T - 1 for refuted plans, count for open ones).

    With `shared` (the default), before the plans are searched one by one at each target, a
    scoring's choice of types shared by two or more open plans is searched alone and, when
    infeasible, refutes them all (`_refute_shared`: its nodes come out of the same budget), when
    those plans lose at most `shared_loss` fields."""
    if accept is None:
        def accept(placements):
            try:
                build_garden(catalog.tiles, placements)
            except Exception:  # noqa: BLE001 - an illegal arrangement is simply not a garden
                return None
            return solo_points(placements, catalog)

    checkpoints = solo_checkpoints(len(tiles), catalog)
    all_plans = plans(tiles, catalog)
    nodes = 0
    refuted: set[int] = set()  # refuted at some target: then at every higher one too (less may be lost)
    tried: dict[tuple[int, tuple[str, ...]], int] = {}  # a scoring's choice -> smallest loss it was not refuted at
    while True:
        target = points + 1
        if shared:
            nodes += _refute_shared(tiles, catalog, checkpoints, all_plans, target, refuted, tried,
                                    node_budget - nodes, stop, shared_loss)
        open_counts = []
        raised = False
        for index, (count, chosen) in enumerate(all_plans):
            if count < target:
                break
            if index in refuted:
                continue
            left = node_budget - nodes
            if left <= 0 or (stop is not None and stop()):
                # out of nodes, or stopped (the clock, a cancellation): the plan stays open without
                # a search (each search checks `stop` only every 1000 nodes, so starting one after
                # the stop would still run up to that many nodes per plan left)
                open_counts.append(count)
                continue
            reqs = [(checkpoints[cp][0], t) for cp, types in enumerate(chosen) for t in types]
            out = arrangeable(tiles, catalog, reqs, count - target, left, stop=stop)
            nodes += out.nodes
            if out.status == "infeasible":
                refuted.add(index)
                continue
            if out.status == "feasible":
                found = garden_of(tiles, out.arrangement)
                value = accept(found) if found is not None else None
                if value is not None and value > points:
                    garden, points, raised = found, value, True
                    break
            open_counts.append(count)
        if raised:
            continue
        bound = max([points] + open_counts)
        return garden, points, bound, nodes, not open_counts
