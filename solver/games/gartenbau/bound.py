"""An upper bound on a holding's prestige from colour budgets alone (no geometry), for quick proofs."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.core.solve import SolveControl

from .data import Catalog, Seedling
from .scoring import TOKEN_PRESTIGE, step_value
from .shapes import max_holes

# Rules whose prestige depends only on which plants and flowers are placed over which colours
# (plus the number of holes, bounded by the chart's last column): the relaxation covers them.
COUNTING_RULES = frozenset({"fixed", "colour_bonus", "visible_plants", "colour_sets", "holes"})


@dataclass(frozen=True)
class Plan:
    """The relaxation's optimum: its prestige (the ceiling), how many flowers it places (flower beds,
    i.e. filled 2x2 blocks a garden reaching the ceiling may need) and how many holes it counts."""
    bound: int
    beds: int
    holes: int


def counting_bound(catalog: Catalog, starter: tuple[Seedling, Seedling], seedlings: list[str], plants: list[str],
                   flowers: list[str], unused_tokens: int, control: SolveControl) -> int | None:
    """The best prestige of any garden when only colours are counted (see `counting_plan`)."""
    plan = counting_plan(catalog, starter, seedlings, plants, flowers, unused_tokens, control)
    return None if plan is None else plan.bound


def counting_plan(catalog: Catalog, starter: tuple[Seedling, Seedling], seedlings: list[str], plants: list[str],
                  flowers: list[str], unused_tokens: int, control: SolveControl) -> Plan | None:
    """The best prestige of any garden when only colours are counted: every placed plant uses an allowed
    pair of seedling colours from the holding, every placed flower an allowed pair of placed plant
    colours; holes are only limited by the most a garden of that many spaces can enclose
    (`shapes.max_holes`, shared by copies of one holes flower as in the model). Every real garden is
    a solution of this relaxation with the same prestige, so its optimum bounds them all. None when
    a flower's rule is outside COUNTING_RULES or the relaxation was not solved to optimality."""
    chosen = [catalog.flowers[f] for f in flowers]
    if any(f.scoring.rule not in COUNTING_RULES for f in chosen):
        return None
    m = cp_model.CpModel()
    supply = Counter(s.colour for s in starter) + Counter(s.colour for t in seedlings
                                                         for s in catalog.seedling_tiles[t].seedlings)
    classes = Counter((catalog.plants[p].colour, catalog.plants[p].prestige) for p in plants)
    used_seedlings = defaultdict(list)  # colour -> terms
    placed_plants = defaultdict(list)  # colour -> terms
    covered_plants = defaultdict(list)
    terms: list = [TOKEN_PRESTIGE * unused_tokens]
    for (colour, prestige), count in sorted(classes.items()):
        placed = m.new_int_var(0, count, f"placed{colour}{prestige}")
        covered = m.new_int_var(0, count, f"covered{colour}{prestige}")
        m.add(covered <= placed)
        uses = []
        for pair in sorted(catalog.requirements[colour]):
            n = m.new_int_var(0, count, f"uses{colour}{prestige}{pair}")
            uses.append(n)
            for c in pair:
                used_seedlings[c].append(n)
        m.add(sum(uses) == placed)
        placed_plants[colour].append(placed)
        covered_plants[colour].append(covered)
        terms.append(prestige * (placed - covered))
    for colour in catalog.colours:
        m.add(sum(used_seedlings[colour]) <= supply[colour])
    flower_uses = defaultdict(list)
    placed_flower = []
    for i, f in enumerate(chosen):
        uses = []
        for pair in sorted(catalog.requirements[f.colour]):
            b = m.new_bool_var(f"fuses{i}{pair}")
            uses.append(b)
            for c in pair:
                flower_uses[c].append(b)
        placed = m.new_bool_var(f"placedf{i}")
        m.add(sum(uses) == placed)
        placed_flower.append(placed)
    for colour in catalog.colours:
        m.add(sum(flower_uses[colour]) == sum(covered_plants[colour]))

    def visible_seedlings(colour):
        return supply[colour] - sum(used_seedlings[colour])

    def visible_plants(colour=None):
        cols = catalog.colours if colour is None else [colour]
        return sum(sum(placed_plants[c]) - sum(covered_plants[c]) for c in cols)

    total_cells = 2 * (1 + len(seedlings))
    hole_cap = max_holes(total_cells)
    hole_takes = defaultdict(list)  # copies of one holes flower share the garden's holes
    for i, f in enumerate(chosen):
        p = f.scoring.params
        placed = placed_flower[i]
        rule = f.scoring.rule
        if rule == "fixed":
            terms.append(p["prestige"] * placed)
        elif rule == "holes":
            # a chart column per copy; the copies' counts together at most the holes a garden of
            # this many spaces can have (or unlimited beyond the table)
            steps = [(0, 0)] + [tuple(s) for s in p["table"]]
            pick = [m.new_bool_var(f"holes{i}_t{at}") for at, _ in steps]
            m.add(sum(pick) == placed)
            hole_takes[f.copy_key].append(sum(at * x for (at, _), x in zip(steps, pick)))
            terms.append(p["base"] * placed + sum(v * x for (_, v), x in zip(steps, pick)))
        elif rule == "colour_sets":
            terms.append((p["base"] + step_value(p["table"], 10 ** 6)) * placed)
        else:
            per = p["per_plant"]
            bonus = per * visible_plants(None if rule == "visible_plants" else p["colour"])
            if rule == "colour_bonus":
                bonus += p["per_seedling"] * visible_seedlings(p["colour"])
            upper = per * len(plants) + p.get("per_seedling", 0) * total_cells
            v = m.new_int_var(0, upper, f"bonus{i}")
            m.add(v <= bonus)
            m.add(v <= upper * placed)
            terms.append(p["base"] * placed + v)
    holes = []
    for takes in hole_takes.values():
        if hole_cap is not None:
            m.add(sum(takes) <= hole_cap)
        holes.append(sum(takes))
    m.maximize(sum(terms))
    status, solver = control.solve(m, control.new_solver(min(5.0, control.time_limit_s)))
    if status != cp_model.OPTIMAL:
        return None
    return Plan(round(solver.objective_value), sum(solver.value(v) for v in placed_flower),
                max([solver.value(h) for h in holes], default=0))
