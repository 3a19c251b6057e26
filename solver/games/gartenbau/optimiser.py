"""The best Gartenbau garden for a holding (CP-SAT, checked by the pure scorer) and placement hints."""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from solver.core.datafile import named
from solver.core.grid import transforms
from solver.core.solve import MIN_STEP_S, SolveControl
from solver.errors import Gather, InputError

from .bound import counting_plan
from .data import Catalog
from .garden import MAX_FLOWERS_HELD, Cell, Garden, PlacedFlower, PlacedPlant, PlacedSeedlingTile, orthogonal
from .model import GardenModel, OutOfTime, Pinned, build_model
from .rules import flower_refusals, garden_violations, hand_refusals, plant_refusals, seedling_refusals
from .scoring import Score, score
from .shapes import candidate_shapes


class ModelMismatch(RuntimeError):
    """The CP-SAT objective and the pure scorer disagree on a returned garden: a bug, never ignored."""


@dataclass
class Holding:
    """The tiles a player holds: starter side, seedling tiles, plants and flowers in hand; the
    flags say whether the Flower Pot / Watering Can tokens are still unused (2 prestige each)."""
    starter: str
    side: str
    seedlings: list[str] = field(default_factory=list)
    plants: list[str] = field(default_factory=list)
    flowers: list[str] = field(default_factory=list)
    flower_pot: bool = False
    watering_can: bool = False

    def validate(self, catalog: Catalog, where: str = "holding", flowers_elsewhere: int = 0) -> None:
        """Every unknown or repeated tile at once (`where` names the request field: a hint's tiles to come are
        `known`; `flowers_elsewhere`: the flowers the player holds besides these, a hint's garden and new tile)."""
        gather = Gather()
        if isinstance(self.flowers, list) and len(self.flowers) + flowers_elsewhere > MAX_FLOWERS_HELD:
            besides = f" together with the {flowers_elsewhere} in the garden or being placed" if flowers_elsewhere else ""
            gather.errors.append(InputError(
                f"{where}.flowers", f"a player holds at most {MAX_FLOWERS_HELD} flowers{besides} (the 2-player "
                "draft's 8 before its discard)", len(self.flowers) + flowers_elsewhere))
        if self.starter not in catalog.starter_tiles:
            gather.errors.append(InputError(f"{where}.starter", "unknown starter tile", self.starter))
        else:
            sides = catalog.starter_tiles[self.starter].sides
            self.side = named(self.side, sides)  # ("A" for "a", as Horticulture writes its sides)
            if self.side not in sides:
                gather.errors.append(InputError(f"{where}.side", f"must be one of {sorted(sides)}", self.side))
        for key, known in (("seedlings", catalog.seedling_tiles), ("plants", catalog.plants),
                           ("flowers", catalog.flowers)):
            ids = getattr(self, key)
            if not isinstance(ids, list):
                gather.errors.append(InputError(f"{where}.{key}", "must be a list of tile ids", ids))
                continue
            for i, tid in enumerate(ids):
                if not isinstance(tid, str) or tid not in known:
                    gather.errors.append(InputError(f"{where}.{key}[{i}]", "unknown tile id", tid))
                elif ids.index(tid) != i:
                    gather.errors.append(InputError(f"{where}.{key}[{i}]", "a tile can be held only once", tid))
        if isinstance(self.flowers, list):
            gather.errors += [InputError(f"{where}.flowers[{i}]", why, self.flowers[i])
                              for i, why in hand_refusals(catalog, self.flowers)]
        gather.check()


@dataclass
class Solution:
    """`status` is "optimal" only when CP-SAT proved it; "feasible" comes with the best bound."""
    status: str
    board: int
    seconds: float
    prestige: int | None = None
    bound: int | None = None
    garden: Garden | None = None
    score: Score | None = None


STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible",
          cp_model.UNKNOWN: "unknown", cp_model.MODEL_INVALID: "model_invalid"}


def default_board(seedling_tiles: int) -> int:
    """Side of the square board searched: room for the garden's spaces laid out compactly plus a
    margin of 3 for holes and arms. Gardens wider than this are not considered (documented)."""
    cells = 2 * (seedling_tiles + 1)
    return min(cells, max(4, math.ceil(math.sqrt(cells)) + 3))


def _strip_board(seedling_tiles: int) -> int:
    """The smallest board whose row pairs hold every seedling tile upright beside the flat starter."""
    size = max(3, math.ceil(math.sqrt(2 * (seedling_tiles + 1))))
    while (size // 2) * size < seedling_tiles + 2:
        size += 1
    return size


def _extract(gm: GardenModel, value, holding: Holding, catalog: Catalog, pinned: Pinned | None) -> Garden:
    pinned_tiles = {pos: tid for tid, pos in (pinned.tiles if pinned else [])}
    pinned_tiles.update({pos[::-1]: tid for pos, tid in list(pinned_tiles.items())})
    pinned_plants = {pos: pid for pid, pos in (pinned.plants if pinned else [])}
    pinned_plants.update({pos[::-1]: pid for pos, pid in list(pinned_plants.items())})
    free_tiles = [list(ids) for _, ids in gm.tile_classes]
    for tid in pinned_tiles.values():
        for ids in free_tiles:
            if tid in ids:
                ids.remove(tid)
    tiles = []
    for (k, p, o), v in sorted(gm.tile_vars.items(), key=lambda kv: kv[0][0]):
        if not value(v):
            continue
        canon = gm.tile_classes[k][0]
        tid = pinned_tiles.get(p) or free_tiles[k].pop(0)
        first = p[0] if o == 0 else p[1]  # where canon[0] lies
        other = p[1] if first == p[0] else p[0]
        if tid == "@starter":
            halves = catalog.starter_tiles[holding.starter].sides[holding.side]
        else:
            halves = catalog.seedling_tiles[tid].seedlings
        cells = (first, other) if halves[0] == canon[0] else (other, first)
        if tid == "@starter":
            tiles.insert(0, PlacedSeedlingTile(holding.starter, cells, halves, True, holding.side))
        else:
            tiles.append(PlacedSeedlingTile(tid, cells, halves))
    free_plants = [list(ids) for ids in gm.plant_classes]
    for pid in pinned_plants.values():
        for ids in free_plants:
            if pid in ids:
                ids.remove(pid)
    plants = []
    for (j, p), v in gm.plant_vars.items():
        if value(v):
            pid = pinned_plants.get(p) or free_plants[j].pop(0)
            plants.append(PlacedPlant(catalog.plants[pid], p))
    flowers = [PlacedFlower(gm.flowers[f], b) for (f, b, o), v in gm.flower_vars.items() if value(v)]
    return Garden(tiles, plants, flowers, holding.flower_pot, holding.watering_can)


@dataclass
class Layout:
    """A plain garden's layout (`_plain_garden`): the tiles after the starter row by row, None for an empty slot,
    the tiles laid with their second seedling on top, and the plants [(id, cells)] and flowers [(id, top-left)]
    of a bed made with it (`_bed`)."""
    order: list[str | None]
    flipped: frozenset[str] = frozenset()
    plants: tuple[tuple[str, tuple[Cell, Cell]], ...] = ()
    flowers: tuple[tuple[str, Cell], ...] = ()


def _plain_garden(holding: Holding, catalog: Catalog, size: int, layout: Layout | None = None) -> Garden | None:
    """The starter and the seedling tiles upright side by side in row pairs of the size x size board, no plant, no
    flower: a legal garden of every holding (None when the board has too few row pairs). The tiles stand in the
    holding's order, or in `layout`'s (`_sown_garden`'s layouts: `_colour_order`, `_rainbow_layout`)."""
    order = list(holding.seedlings) if layout is None else layout.order
    flipped = frozenset() if layout is None else layout.flipped
    if (size // 2) * size < len(order) + 1:
        return None
    starter = PlacedSeedlingTile(holding.starter, ((0, 0), (1, 0)),
                                 catalog.starter_tiles[holding.starter].sides[holding.side], True, holding.side)

    def upright(k: int, tid: str) -> tuple[Cell, Cell]:
        cells = ((2 * (k // size), k % size), (2 * (k // size) + 1, k % size))
        return cells[::-1] if tid in flipped else cells

    tiles = [starter] + [PlacedSeedlingTile(tid, upright(k, tid), catalog.seedling_tiles[tid].seedlings)
                         for k, tid in enumerate(order, start=1) if tid is not None]
    return Garden(tiles, [], [], holding.flower_pot, holding.watering_can)


def _colour_order(holding: Holding, catalog: Catalog) -> list[str]:
    """The tiles in the order of their seedlings' colours, so that neighbours in a row often share a colour and a
    plant can lie across them."""
    return sorted(holding.seedlings, key=lambda tid: tuple(s.colour for s in catalog.seedling_tiles[tid].seedlings))


def _bed(holding: Holding, catalog: Catalog, flower: str, tiles: list[str]
         ) -> tuple[list[tuple[str, bool]], tuple[str, str]] | None:
    """Four of `tiles` for a bed of `flower`: two tiles side by side in one row pair with the bed's seedlings at
    the bottom, two below them in the next row pair with the bed's seedlings on top, so that two held plants stand
    upright across the row pairs and the flower lies on them. Answers the tiles [top left, top right, bottom left,
    bottom right] with whether each is flipped (its second seedling on top), and the two plants (left, right):
    the first such bed in the order of the held plants and of `tiles`; None when there is none."""
    need = catalog.requirements
    halves = [(tid, i) for tid in tiles for i in (0, 1)]

    def column(plant_colour: str, used: set[str]) -> tuple[tuple[str, int], tuple[str, int]] | None:
        for top, i in halves:
            for bottom, j in halves:
                if top != bottom and not {top, bottom} & used and tuple(sorted(
                        (catalog.seedling_tiles[top].seedlings[i].colour,
                         catalog.seedling_tiles[bottom].seedlings[j].colour))) in need[plant_colour]:
                    return (top, i), (bottom, j)
        return None

    for a, b in itertools.combinations(holding.plants, 2):
        ca, cb = catalog.plants[a].colour, catalog.plants[b].colour
        if tuple(sorted((ca, cb))) not in need[catalog.flowers[flower].colour]:
            continue
        left = column(ca, set())
        right = None if left is None else column(cb, {left[0][0], left[1][0]})
        if right is not None:
            (tl, i), (bl, j) = left
            (tr, k), (br, m) = right
            return [(tl, i == 0), (tr, k == 0), (bl, j == 1), (br, m == 1)], (a, b)
    return None


RAINBOW_GROUPS = 20_000  # `_rainbow_layout` gives up beyond this many kinds of group (6 colours: at most 1,771)


def _rainbow_layout(holding: Holding, catalog: Catalog, size: int, flower: str) -> Layout | None:
    """A layout for a Garden Rose (`flower`, a `rainbow_sets` flower): many runs of g = ceil(colours / 2) tiles side
    by side in one row pair (a connected block of 2g seedlings) holding every colour the flower counts, which the
    colour order (`_colour_order`) never makes, and a bed for the rose itself (`_bed`) when the held plants and
    tiles allow one. The runs are the most disjoint groups of g tiles (or of the starter and g - 1 tiles, laid
    first) covering the colours, found by a small CP-SAT model over the tiles' colour signatures (one worker, a
    fixed number of conflicts: the same layout every time); the bed follows the starter's run; each run lies
    inside one row pair; the other tiles (colour order) fill the rest, and a stretch of a row too short for a run
    is left empty when no other tile is left. None when no group covers the colours, or when there are more kinds
    of group than RAINBOW_GROUPS."""
    colours = catalog.flowers[flower].scoring.params["colours"]
    g = -(-len(colours) // 2)
    wanted = set(colours)
    by_colour = _colour_order(holding, catalog)
    bed = _bed(holding, catalog, flower, by_colour) if size >= g + 2 else None
    beds = [] if bed is None else [tid for tid, _ in bed[0]]

    def signature(halves) -> tuple[str, ...]:
        return tuple(sorted({s.colour for s in halves} & wanted))

    kinds: dict[tuple[str, ...], list[str]] = {}
    for tid in by_colour:
        if tid not in beds:
            kinds.setdefault(signature(catalog.seedling_tiles[tid].seedlings), []).append(tid)
    starter = set(signature(catalog.starter_tiles[holding.starter].sides[holding.side]))
    signatures = sorted(sig for sig in kinds if sig)
    if math.comb(len(signatures) + g - 1, g) > RAINBOW_GROUPS:
        return None
    groups = [combo for n in (g, g - 1) if n for combo in itertools.combinations_with_replacement(signatures, n)
              if set().union(*combo, starter if n < g else set()) >= wanted
              and all(combo.count(sig) <= len(kinds[sig]) for sig in set(combo))]
    if not groups:
        return None
    model = cp_model.CpModel()
    uses = [model.new_int_var(0, 1 if len(combo) < g else len(holding.seedlings) // g, f"group{i}")
            for i, combo in enumerate(groups)]
    model.add(sum(n for combo, n in zip(groups, uses) if len(combo) < g) <= 1)  # (one starter)
    for sig in signatures:
        model.add(sum(combo.count(sig) * n for combo, n in zip(groups, uses) if sig in combo) <= len(kinds[sig]))
    model.maximize(sum(uses))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_number_of_conflicts = 10_000
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or solver.objective_value < 1:
        return None
    runs, first = [], []
    for combo, n in zip(groups, uses):
        for _ in range(solver.value(n)):
            (first if len(combo) < g else runs).append([kinds[sig].pop(0) for sig in combo])
    rest = sorted((tid for sig in kinds for tid in kinds[sig]), key=by_colour.index)
    order: list[str | None] = [tid for run in first for tid in run]
    fixed: dict[int, str] = {}
    plants, flowers = (), ()
    if bed is not None:
        column = len(order) + 1
        for slot, (tid, _) in zip((column, column + 1, size + column, size + column + 1), bed[0]):
            fixed[slot] = tid
        plants = tuple((pid, ((1, c), (2, c))) for pid, c in zip(bed[1], (column, column + 1)))
        flowers = ((flower, (1, column)),)
    while runs or rest or len(order) < max(fixed, default=0):
        slot = len(order) + 1  # (the starter holds slot 0)
        if slot in fixed:
            order.append(fixed[slot])
            continue
        room = 1
        while (slot + room) % size and slot + room not in fixed:
            room += 1  # free slots from here to the row pair's end or the bed
        if runs and room >= g:
            order += runs.pop(0)
        elif rest:
            order.append(rest.pop(0))
        else:
            order += [None] * (room if runs else 1)
    flipped = frozenset() if bed is None else frozenset(tid for tid, flip in bed[0] if flip)
    return Layout(order, flipped, plants, flowers)


SOWN_SHARE = 0.05  # of the limit for `_sown_garden`'s search, and at least 0.5 s (at most a quarter of the limit):
# it takes 0.1-0.5 s at 18-24 tiles


def _sown_garden(holding: Holding, catalog: Catalog, size: int, control: SolveControl, limit: float,
                 stop: Callable[[], bool]) -> Garden | None:
    """The plain garden (tiles sorted by colour) with the best plants and flowers a short search puts on it: only
    the plants and flowers are free, so its model is small (0.1-0.5 s to build and solve at the service's caps, 18
    to 24 seedling tiles). It is the floor of an answer: under load or at the caps the searches over layouts
    found nothing in time and the answer was the bare plain garden, prestige 0 (the fuzzing of 7 Dec: 0 at the
    caps in 3 s and in 30 s; 18 tiles at 5 s on a loaded machine, where this gives 26). With a Garden Rose (a
    `rainbow_sets` flower) held, the plain garden of `_rainbow_layout` is sown too, and the better garden kept (a
    24-tile holding whose only flower is a Garden Rose answered 3 where a hand-made garden scores 72: no search
    found the rainbow sets). None when there is no plain garden, the time is spent, or the search finds
    nothing."""
    layouts = [Layout(_colour_order(holding, catalog))]
    layouts += [_rainbow_layout(holding, catalog, size, f) for f in holding.flowers
                if catalog.flowers[f].scoring.rule == "rainbow_sets"]
    best: tuple[int, Garden] | None = None
    for layout in layouts:
        plain = None if layout is None else _plain_garden(holding, catalog, size, layout)
        if plain is None:
            continue
        if layout.flowers:  # the layout's own bed, laid by hand (a search may find nothing in its share)
            bedded = replace(plain, plants=[PlacedPlant(catalog.plants[pid], cells) for pid, cells in layout.plants],
                             flowers=[PlacedFlower(catalog.flowers[fid], at) for fid, at in layout.flowers])
            points = None if garden_violations(bedded, catalog) else score(bedded).total
            if points is not None and (best is None or points > best[0]):
                best = (points, bedded)
        cells = frozenset(c for t in plain.tiles for c in t.cells)
        side = max(max(r for r, _ in cells), max(c for _, c in cells)) + 1
        pinned = Pinned([("@starter", plain.tiles[0].cells)] + [(t.id, t.cells) for t in plain.tiles[1:]])
        try:
            gm = build_model(catalog, side, catalog.starter_tiles[holding.starter].sides[holding.side],
                             holding.seedlings, holding.plants, holding.flowers,
                             int(holding.flower_pot) + int(holding.watering_can), pinned, strips=True, shape=cells,
                             stop=stop)
        except OutOfTime:
            break
        if stop():
            break
        status, solver = control.solve(gm.model, _share(control, max(SOWN_SHARE, min(0.25, 0.5 / limit)), limit))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and (best is None or solver.objective_value > best[0]):
            best = (round(solver.objective_value), _extract(gm, solver.value, holding, catalog, pinned))
    return None if best is None else best[1]


def _check(garden: Garden, catalog: Catalog, objective: int) -> Score:
    """The two faces must agree: a legal garden whose pure score equals the CP-SAT objective."""
    violations = garden_violations(garden, catalog)
    if violations:
        raise ModelMismatch("the model returned an illegal garden: " + "; ".join(map(str, violations)))
    pure = score(garden)
    if pure.total != objective:
        raise ModelMismatch(f"CP-SAT objective {objective} != pure prestige {pure.total} ({pure})")
    return pure


# fixed shapes tried before the free searches, best first, with these shares of the time (or
# deterministic) limit: the first shape is the one that most often meets the ceiling
SHAPE_SHARES = (0.1, 0.1, 0.1, 0.1, 0.1)


def _share(control: SolveControl, fraction: float, limit: float) -> cp_model.CpSolver:
    """A solver for one sub-search: `fraction` of the wall limit, and of the deterministic limit when set."""
    solver = control.new_solver(fraction * limit)
    if control.deterministic_limit is not None:
        solver.parameters.max_deterministic_time = fraction * control.deterministic_limit
    return solver


def _hint_from(warm: GardenModel, solved: cp_model.CpSolver, gm: GardenModel, control: SolveControl,
               limit: float) -> int | None:
    """Hint the big-board model with the small board's garden, completed into a full assignment (a
    hint of the layout alone is not completed reliably by the search). Returns that garden's
    settled prestige, or None when the completion did not finish."""
    found = {("x",) + k for k, v in warm.tile_vars.items() if solved.value(v)}
    found |= {("y",) + k for k, v in warm.plant_vars.items() if solved.value(v)}
    found |= {("w",) + k for k, v in warm.flower_vars.items() if solved.value(v)}
    fixed = gm.model.clone()
    for tag, table in (("x", gm.tile_vars), ("y", gm.plant_vars), ("w", gm.flower_vars)):
        for k, v in table.items():
            fixed.add(fixed.get_bool_var_from_proto_index(v.index) == int((tag,) + k in found))
    status, solver = control.solve(fixed, control.new_solver(max(0.05, 0.5 * limit)))
    if status != cp_model.OPTIMAL:
        return None
    for i in range(len(gm.model.proto.variables)):
        gm.model.add_hint(gm.model.get_int_var_from_proto_index(i), solver.value(fixed.get_int_var_from_proto_index(i)))
    return round(solver.objective_value)


def solve_optimal(holding: Holding, catalog: Catalog, control: SolveControl | None = None,
                  board: int | None = None, pinned: Pinned | None = None,
                  time_limit_s: float | None = None, ceiling: int | None = None) -> Solution:
    """The garden of maximum prestige for `holding` on a board x board grid (default_board).
    `time_limit_s` (if given) shortens the control's limit for this one search. `ceiling`, with `pinned`: the
    counting relaxation's proven bound for `holding` (`counting_plan(...).bound`; it bounds every garden of the
    holding, so every pinned one too), posted like the unpinned search's own: a garden reaching it is proven
    optimal (`hint` computes it once for all its options). Without `pinned` the ceiling is computed here."""
    holding.validate(catalog)
    control = control or SolveControl(time_limit_s=10.0)
    size = default_board(len(holding.seedlings)) if board is None else board  # (0 was read as the default)
    if not isinstance(size, int) or size < 2:
        raise InputError("board", "must be an integer >= 2", size)
    start = time.perf_counter()
    limit = control.time_limit_s if time_limit_s is None else min(time_limit_s, control.time_limit_s)

    starter = catalog.starter_tiles[holding.starter].sides[holding.side]
    tokens = int(holding.flower_pot) + int(holding.watering_can)

    plan = None if pinned else counting_plan(catalog, starter, holding.seedlings, holding.plants,
                                             holding.flowers, tokens, control)
    if not pinned:  # (a pinned search gets its ceiling from the caller)
        ceiling = None if plan is None else plan.bound

    def spent() -> bool:
        """No time left to build another model (the board's alone took ~1.5-3 s at the service's caps: 24 seedling
        tiles, 24 plants, 8 flowers): the call's deadline is near, or the wall limit is used up. Never on a
        deterministic limit, whose answers must not depend on the clock. A pinned search (a hint's option) stops
        for the deadline only: its share of the hint's time may be shorter than its model's build, and the hint
        pays an overrun from the next options' shares (optimiser.hint)."""
        return control.out_of_time() or (control.deterministic_limit is None and pinned is None
                                          and time.perf_counter() - start > limit - MIN_STEP_S)

    def model_on(board_size: int, stop: bool = True, **restrict) -> GardenModel:
        """The model, or OutOfTime (with `stop`) when the time is spent before one of its layers."""
        gm = build_model(catalog, board_size, starter, holding.seedlings, holding.plants, holding.flowers,
                         tokens, pinned, stop=spent if stop else None, **restrict)
        if ceiling is not None:
            # the ceiling bounds every garden: a redundant cut, and the search stops once a garden meets it
            gm.model.add(gm.objective <= ceiling)
        return gm

    def late() -> Solution | None:
        """The answer when the time is spent before the board's search: the best small board's garden, else the
        plain one (a pinned search: unknown). The client would otherwise wait for the board's model past its
        deadline (the fuzzing of 7 Dec: 1.5-4.2 s past deadlines of 0.6-3 s, holding a solve slot)."""
        if pinned is not None:
            return Solution("unknown", size, time.perf_counter() - start, bound=ceiling)
        return floor(_extract(best[0], best[1].value, holding, catalog, None) if best is not None else None)

    def floor(garden: Garden | None) -> Solution | None:
        """The answer from `garden` or the sown garden, whichever scores more (the plain garden when neither
        exists), with the colour-budget ceiling as its bound: when the searches over layouts found nothing
        better in time."""
        scored = [(score(g).total, i, g) for i, g in enumerate((garden, sown)) if g is not None]
        garden = max(scored)[2] if scored else _plain_garden(holding, catalog, size)
        if garden is None:
            return None
        pure = _check(garden, catalog, score(garden).total)
        return Solution("optimal" if ceiling == pure.total else "feasible", size, time.perf_counter() - start,
                        pure.total, ceiling, garden, pure)

    fallback = None
    best = None
    sown = None
    sowed = pinned is not None  # (a hint's pinned search has no plain garden)

    def sow() -> bool:
        """Find the sown garden (once): True when it meets the ceiling, a proven optimum."""
        nonlocal sown, sowed
        if not sowed:
            sowed = True
            sown = _sown_garden(holding, catalog, size, control, limit, spent)
        return sown is not None and ceiling is not None and score(sown).total == ceiling

    # Fixed shapes first when the ceiling counts holes: gardens of exactly those spaces (many holes,
    # room for the flower beds), where the holes are constants and the search is small. Shapes are
    # anchored top-left and fit the big board, so a garden found here also starts the big search.
    # The sown garden comes after the first shape, which most often meets the ceiling at once.
    spaces = 2 * (len(holding.seedlings) + 1)
    shapes = [] if plan is None else candidate_shapes(spaces, max(1, plan.beds), plan.holes)
    for i, (cells, share) in enumerate(zip(shapes, SHAPE_SHARES)):
        if i == 1 and sow():
            return floor(sown)
        side = max(max(r for r, _ in cells), max(c for _, c in cells)) + 1
        if side > size:
            continue
        try:
            fixed = model_on(side, shape=cells)
        except OutOfTime:
            break
        if spent():  # (even a search cut to 1 ms loads the model: ~0.5 s at the caps)
            break
        status0, solver0 = control.solve(fixed.model, _share(control, share, limit))
        if status0 not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            continue
        if round(solver0.objective_value) == ceiling:
            garden = _extract(fixed, solver0.value, holding, catalog, None)
            pure = _check(garden, catalog, ceiling)
            return Solution("optimal", size, time.perf_counter() - start, pure.total, ceiling, garden, pure)
        if best is None or solver0.objective_value > best[1].objective_value:
            best = (fixed, solver0)
    if sow():
        return floor(sown)
    # Two quick searches on small boards: strip gardens (seedling tiles upright in row pairs, so
    # plants run across neighbouring tiles and beds are two such plants) and free gardens on the
    # smallest square. Both kinds fit the big board too (all anchored top-left): a garden reaching
    # the colour-budget ceiling is optimal on any board; otherwise the better one starts the big search.
    warm_ups = [(_strip_board(len(holding.seedlings)), True),
                (max(3, math.ceil(math.sqrt(2 * (len(holding.seedlings) + 1)))), False)]
    for small, strips in (w for w in warm_ups if pinned is None and w[0] < size):
        try:
            warm = model_on(small, strips=strips)
        except OutOfTime:
            break
        if spent():
            break
        status0, solver0 = control.solve(warm.model, control.new_solver(0.2 * limit))
        if status0 not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            continue
        if round(solver0.objective_value) == ceiling:
            garden = _extract(warm, solver0.value, holding, catalog, None)
            pure = _check(garden, catalog, ceiling)
            return Solution("optimal", size, time.perf_counter() - start, pure.total, ceiling, garden, pure)
        if best is None or solver0.objective_value > best[1].objective_value:
            best = (warm, solver0)
    try:
        gm = model_on(size)
    except OutOfTime:
        answer = late()
        if answer is not None:
            return answer
        gm = model_on(size, stop=False)  # (a board too small for the plain garden: a small model)
    if best is not None:
        settled = _hint_from(best[0], best[1], gm, control, limit)
        if settled is not None:
            fallback = (_extract(best[0], best[1].value, holding, catalog, None), settled)
    remaining = max(0.05, limit - (time.perf_counter() - start))
    status, solver = control.solve(gm.model, control.new_solver(remaining))
    name = STATUS.get(status, "unknown")
    if status == cp_model.UNKNOWN and fallback is not None:
        # the big search found nothing in time: the small board's garden stands (or the sown one, when better),
        # with what bound we have (an UNKNOWN search reports no usable bound: only the colour-budget ceiling is
        # a proof)
        garden, objective = fallback
        _check(garden, catalog, objective)
        return floor(garden)
    if status == cp_model.UNKNOWN and pinned is None:
        # nothing found in time: the sown garden, else the seedling tiles alone, side by side (always legal;
        # plants and flowers are optional), with the colour-budget ceiling when there is one
        answer = floor(None)
        if answer is not None:
            return answer
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Solution(name, size, time.perf_counter() - start, bound=ceiling if status == cp_model.UNKNOWN else None)
    values = {v.index: solver.value(v) for v in gm.layout}
    garden = _extract(gm, lambda v: values[v.index], holding, catalog, pinned)
    objective = round(solver.objective_value)
    bound = math.floor(solver.best_objective_bound + 1e-6)
    if ceiling is not None:
        bound = min(bound, ceiling)
    if status == cp_model.FEASIBLE and objective == bound:
        status, name = cp_model.OPTIMAL, "optimal"  # the found garden meets a proven bound
    if status == cp_model.FEASIBLE:
        # the best layout found may leave a "max" choice unsettled (which sets, which split of holes):
        # settle it with the layout fixed, so that the objective is that garden's true prestige
        for v in gm.layout:
            gm.model.add(v == values[v.index])
        status2, solver2 = control.solve(gm.model, control.new_solver(check=True))
        if status2 != cp_model.OPTIMAL:
            raise ModelMismatch(f"could not settle the found garden's prestige ({STATUS.get(status2)})")
        objective = round(solver2.objective_value)
    pure = _check(garden, catalog, objective)
    if status == cp_model.FEASIBLE and sown is not None and score(sown).total > pure.total:
        # (the big search stopped below the sown garden: that garden is the answer, with the search's bound)
        better = _check(sown, catalog, score(sown).total)
        return Solution(name, size, time.perf_counter() - start, better.total, bound, sown, better)
    return Solution(name, size, time.perf_counter() - start, pure.total, bound, garden, pure)


# ------------------------------------------------------------------------ hint

@dataclass
class Option:
    """One way to place the new tile, with the best final prestige still reachable after it."""
    placement: dict
    status: str
    prestige: int | None
    bound: int | None
    garden: Garden | None = None


def _shift(garden: Garden, dr: int, dc: int) -> Garden:
    def mv(c: Cell) -> Cell:
        return (c[0] + dr, c[1] + dc)
    return Garden([replace(t, cells=tuple(mv(c) for c in t.cells)) for t in garden.tiles],
                  [replace(p, cells=tuple(mv(c) for c in p.cells)) for p in garden.plants],
                  [replace(f, at=mv(f.at)) for f in garden.flowers], garden.flower_pot, garden.watering_can)


def _moved_by(garden: Garden, f: Callable[[Cell], Cell]) -> Garden:
    """`garden` with every space moved by `f` (a rotation or reflection of the grid). A flower's `at` is its block's
    top-left space, found again after the move."""
    return Garden([replace(t, cells=tuple(f(c) for c in t.cells)) for t in garden.tiles],
                  [replace(p, cells=tuple(f(c) for c in p.cells)) for p in garden.plants],
                  [replace(fl, at=min(f(c) for c in fl.cells)) for fl in garden.flowers],
                  garden.flower_pot, garden.watering_can)


def _corner(garden: Garden) -> Cell:
    return min(c[0] for c in garden.filled), min(c[1] for c in garden.filled)


def _mapped(garden: Garden, f: Callable[[Cell], Cell]) -> Garden:
    """`garden` moved by `f`, then shifted so that its box starts at (0, 0)."""
    moved = _moved_by(garden, f)
    r, c = _corner(moved)
    return _shift(moved, -r, -c)


def _layout(garden: Garden) -> tuple:
    """What a garden is, whatever the order its tiles were listed in: each piece with its spaces."""
    tiles = [("t", t.id, tuple(sorted(zip(t.cells, (s.label() for s in t.seedlings))))) for t in garden.tiles]
    return tuple(sorted(tiles + [("p", p.plant.id, tuple(sorted(p.cells))) for p in garden.plants]
                        + [("f", fl.flower.id, (fl.at,)) for fl in garden.flowers]))


def _twins(gardens: list[Garden]) -> list[tuple[int, Callable[[Cell], Cell]] | None]:
    """For each garden, (an earlier garden it is a rotation or reflection of, the map taking that one onto it), or
    None. No scoring rule or placement rule of Gartenbau has a direction (adjacency, holes, edges, rectangles,
    connected sets), so twin gardens reach the same prestige with the same tiles still to come."""
    seen: dict[tuple, tuple[int, Callable[[Cell], Cell]]] = {}  # every image of a first garden -> (it, the map)
    out = []
    for j, g in enumerate(gardens):
        own = _layout(_mapped(g, lambda c: c))
        out.append(seen.get(own))
        if own not in seen:
            box = max(max(c[0] for c in g.filled) - min(c[0] for c in g.filled),
                      max(c[1] for c in g.filled) - min(c[1] for c in g.filled)) + 1
            for f in transforms(box, box):
                seen.setdefault(_layout(_mapped(g, f)), (j, f))
    return out


def _turned(option: Option, board: Garden, turn: Callable[[Cell], Cell], moved: Garden, catalog: Catalog,
            placement: dict) -> Option | None:
    """The answer for a twin placement `placement`, from `option`, the answer for a placement whose garden on its
    search board (`board`) `turn` takes onto the twin's (`moved`, up to a shift): `option`'s best garden turned the
    same way and lined up on `moved`. None (solve it instead) unless the turned garden holds `moved`'s pieces where
    they are, passes the rules and scores `option`'s prestige."""
    if option.garden is None:
        return replace(option, placement=placement)
    (r0, c0), (r1, c1) = _corner(moved), _corner(_moved_by(board, turn))
    garden = _shift(_moved_by(option.garden, turn), r0 - r1, c0 - c1)
    if not set(_layout(moved)) <= set(_layout(garden)) or garden_violations(garden, catalog) \
            or score(garden).total != option.prestige:
        return None
    return replace(option, placement=placement, garden=garden)


def placements(garden: Garden, catalog: Catalog, tile_id: str) -> list[tuple[dict, Garden]]:
    """Every legal placement of one new tile (seedling, plant or flower) in the current garden."""
    out = []
    if tile_id in catalog.seedling_tiles:
        # one of the two spaces touches the garden; the tile's first seedling may lie on either
        frontier = orthogonal(garden.seedling_at.keys())
        pairs = {pair for f in frontier for n in orthogonal([f]) for pair in ((f, n), (n, f))}
        for a, b in sorted(pairs):
            if not seedling_refusals(garden, tile_id, (a, b)):
                tile = PlacedSeedlingTile(tile_id, (a, b), catalog.seedling_tiles[tile_id].seedlings)
                out.append(({"id": tile_id, "cells": [list(a), list(b)]}, replace(garden, tiles=garden.tiles + [tile])))
    elif tile_id in catalog.plants:
        plant = catalog.plants[tile_id]
        for a in sorted(garden.seedling_at):
            for b in (((a[0], a[1] + 1)), (a[0] + 1, a[1])):
                if not plant_refusals(garden, catalog, plant, (a, b)):
                    out.append(({"id": tile_id, "cells": [list(a), list(b)]},
                                replace(garden, plants=garden.plants + [PlacedPlant(plant, (a, b))])))
    elif tile_id in catalog.flowers:
        flower = catalog.flowers[tile_id]
        for at in sorted(garden.plant_at):
            if not flower_refusals(garden, catalog, flower, at):
                out.append(({"id": tile_id, "at": list(at)},
                            replace(garden, flowers=garden.flowers + [PlacedFlower(flower, at)])))
    else:
        raise InputError("tile", "unknown tile id", tile_id)
    return out


def placed(garden: Garden, tile_id: str) -> dict | None:
    """The placement of `tile_id` in `garden` in the form `placements` gives it (None when it is not there)."""
    for t in garden.tiles[1:]:
        if t.id == tile_id:
            return {"id": tile_id, "cells": [list(c) for c in t.cells]}
    for p in garden.plants:
        if p.plant.id == tile_id:
            return {"id": tile_id, "cells": [list(c) for c in sorted(p.cells)]}
    for f in garden.flowers:
        if f.flower.id == tile_id:
            return {"id": tile_id, "at": list(f.at)}
    return None


def hint(garden: Garden, catalog: Catalog, tile_id: str, known: Holding, control: SolveControl | None = None,
         margin: int = 2, top: int | None = None, follow: Garden | None = None) -> list[Option]:
    """Placements of the newly acquired `tile_id`, ranked by the best final prestige reachable with the
    tiles still to come (`known`: its seedlings/plants/flowers are the ones not yet in the garden).
    Each option is solved on a board of the current garden plus `margin` spaces on every side, with
    an equal share of the time still left; an option not proved optimal says so, and one not searched because
    the wall-clock time (or the control's `ends_at`, a caller's deadline) ran out is "unknown", with the holding's
    ceiling as its bound. Ties rank by the placement's text. An option whose garden is a rotation or reflection of
    an earlier option's is not solved again: it gets that option's answer, its best garden turned the same way
    (checked again by the rules and the scorer).

    `top`: only the best `top` options. Every option's holding is the same tiles (the garden's, the new one, the
    known ones), so the counting ceiling of that holding bounds them all, and no option ranks above one that
    meets it. With `top` the options are therefore solved in tie-break order, and the search stops once `top` of
    them meet the ceiling: those are the first `top` of the full ranking (the rest would rank below them or tie
    and come later in that order). A holding with no counting ceiling gives no such stop: every option is searched,
    each with an equal share, and the best `top` are returned.

    Each option's `garden` (the best found) is in the current garden's coordinates. `follow` (a previous option's
    garden, checked by the caller: legal, holding the current garden as it is, the new tile and known tiles only):
    its placement of the new tile is ranked too, reaching at least that garden's prestige, so a player following the
    hints keeps the line they promised (the puzzle walkthrough of 7 Dec: 24 promised, the game ended at 13)."""
    violations = garden_violations(garden, catalog)
    if violations:
        raise InputError("garden", "; ".join(map(str, violations)))
    control = control or SolveControl(time_limit_s=10.0)
    starter = garden.tiles[0]
    options = []
    choices = placements(garden, catalog, tile_id)
    if top is not None:
        choices.sort(key=lambda choice: str(choice[0]))
    began = time.perf_counter()

    def holding_after(after: Garden) -> Holding:
        return Holding(starter.id, starter.side, [t.id for t in after.tiles[1:]] + known.seedlings,
                       [p.plant.id for p in after.plants] + known.plants,
                       [f.flower.id for f in after.flowers] + known.flowers,
                       garden.flower_pot, garden.watering_can)
    ceiling = None
    if choices:
        whole = holding_after(choices[0][1])
        plan = counting_plan(catalog, starter.seedlings, whole.seedlings, whole.plants, whole.flowers,
                             int(garden.flower_pot) + int(garden.watering_can), control)
        ceiling = None if plan is None else plan.bound
    at_ceiling = 0
    twins = _twins([after for _, after in choices])
    left = sum(t is None for t in twins)  # the searches still to run
    solved: dict[int, tuple[Option, Garden]] = {}  # each option with its garden on its search board
    for index, (placement, after) in enumerate(choices):
        rows = [c[0] for c in after.filled]
        cols = [c[1] for c in after.filled]
        grow = 2 * len(known.seedlings)
        pad = min(margin, grow) if grow else 0
        moved = _shift(after, pad - min(rows), pad - min(cols))
        option = None
        if twins[index] is not None:
            # a rotation or reflection of an earlier option's garden: its answer, with its garden turned the same way
            # and checked again (the pure rules and scorer, as every garden a search returns)
            first, turn = twins[index]
            option = _turned(*solved[first], turn, moved, catalog, placement)
        # what quick options leave over goes to the later ones; on the wall clock, once the call's time (or its
        # deadline, `ends_at`) is spent the options not solved yet are "unknown" below the ceiling, not searched
        seconds = min(control.seconds_left(), control.time_limit_s - (time.perf_counter() - began))
        if option is None and control.deterministic_limit is None and (control.out_of_time()
                                                                        or seconds < MIN_STEP_S):
            option = Option(placement, "unknown", None, ceiling)
        if option is None:
            # with `top` and a ceiling the search is expected to stop after about `top` options: those get the time
            # (split over every placement, a 5 s --top 3 hint left each 0.27 s and proved nothing; the later
            # options, solved only when the first ones fall short of the ceiling, get what is left). Without a
            # ceiling nothing stops the search early, so every option gets an equal share: the first option in
            # tie-break order took all the time of a --top 1 hint and was returned as the best, 27 where another
            # placement reached 29 (the bot walkthrough of 7 Dec)
            early = top is not None and ceiling is not None
            share = max(min(0.2, seconds), seconds / max(1, min(left, top) if early else left))
            left -= twins[index] is None
            size = max(max(rows) - min(rows), max(cols) - min(cols)) + 1 + 2 * pad
            pinned = Pinned([("@starter", moved.tiles[0].cells)] + [(t.id, t.cells) for t in moved.tiles[1:]],
                            [(p.plant.id, p.cells) for p in moved.plants],
                            [(f.flower.id, f.at) for f in moved.flowers])
            sol = solve_optimal(holding_after(after), catalog, control, board=size, pinned=pinned,
                                time_limit_s=share, ceiling=ceiling)
            option = Option(placement, sol.status, sol.prestige, sol.bound, sol.garden)
        solved[index] = (option, moved)
        # (the garden back in the current garden's coordinates)
        options.append(option if option.garden is None else
                       replace(option, garden=_shift(option.garden, min(rows) - pad, min(cols) - pad)))
        at_ceiling += ceiling is not None and option.prestige == ceiling
        if top is not None and at_ceiling >= top:
            break
    here = None if follow is None else placed(follow, tile_id)
    if here is not None:
        points = score(follow).total
        match = next((o for o in options if o.placement == here), None)
        if match is None:
            options.append(Option(here, "optimal" if points == ceiling else "feasible", points, ceiling, follow))
        elif match.prestige is None or points > match.prestige:
            options[options.index(match)] = replace(match, status="optimal" if points in (ceiling, match.bound)
                                                    else "feasible", prestige=points, garden=follow)
    options.sort(key=lambda o: (-(o.prestige if o.prestige is not None else -1), o.status != "optimal",
                                str(o.placement)))
    return options if top is None else options[:top]
