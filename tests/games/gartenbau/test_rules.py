"""Placement legality: every rule accepts a legal move and refuses an illegal one with its reason."""
from __future__ import annotations

import pytest

from solver.errors import InputError
from solver.games.gartenbau import rules
from solver.games.gartenbau.garden import garden_from_dict, garden_to_dict
from solver.games.gartenbau.rules import IllegalPlacement

from .helpers import CATALOG

# ST1 side a standing on the left: red sprout over yellow leaf; S07 (red leaf, yellow leaf) beside it.
BASE = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [1, 0]]},
        "seedlings": [{"id": "S07", "cells": [[0, 1], [1, 1]]}]}


def base():
    return garden_from_dict(BASE, CATALOG)


def reasons(violations):
    return [v.rule for v in violations]


def test_seedling_must_touch_the_garden_and_not_overlap():
    g = base()
    assert rules.seedling_refusals(g, "S02", ((0, 2), (0, 3))) == []
    assert reasons(rules.seedling_refusals(g, "S02", ((5, 5), (5, 6)))) == ["adjacency"]
    assert reasons(rules.seedling_refusals(g, "S02", ((1, 1), (1, 2)))) == ["overlap"]
    assert reasons(rules.seedling_refusals(g, "S02", ((0, 2), (0, 4)))) == ["domino"]
    assert reasons(rules.seedling_refusals(g, "S07", ((2, 0), (2, 1)))) == ["unique_tile"]
    # colours need not match: a blue/blue tile next to red and yellow is fine
    g2 = rules.place_seedling(g, CATALOG, "S03", ((2, 0), (2, 1)))
    assert g2.seedling_at[(2, 1)][1].colour == "blue"


def test_plant_crosses_two_seedling_tiles_with_the_right_colours():
    g = base()
    assert rules.plant_refusals(g, CATALOG, CATALOG.plants["P-red-1"], ((0, 0), (0, 1))) == []
    # both halves of S07: refused even though red+yellow makes orange
    assert reasons(rules.plant_refusals(g, CATALOG, CATALOG.plants["P-orange-1"], ((0, 1), (1, 1)))) == ["two_tiles"]
    # both halves of the starter tile
    refusal = rules.plant_refusals(g, CATALOG, CATALOG.plants["P-orange-1"], ((0, 0), (1, 0)))
    assert reasons(refusal) == ["two_tiles"] and "starter" in refusal[0].message
    # colour mixing: orange over red+yellow is fine, red over yellow+yellow is not
    assert reasons(rules.plant_refusals(g, CATALOG, CATALOG.plants["P-red-1"], ((1, 0), (1, 1)))) == ["colour"]
    assert reasons(rules.plant_refusals(g, CATALOG, CATALOG.plants["P-red-1"], ((0, 1), (0, 2)))) == ["needs_seedlings"]
    g2 = rules.place_plant(g, CATALOG, "P-red-1", ((0, 0), (0, 1)))
    assert reasons(rules.plant_refusals(g2, CATALOG, CATALOG.plants["P-red-2"], ((0, 0), (0, 1)))) == ["overlap"]
    assert reasons(rules.plant_refusals(g2, CATALOG, CATALOG.plants["P-red-1"], ((1, 0), (1, 1)))) == [
        "unique_tile", "colour"]


def test_flower_covers_two_parallel_plants_with_the_right_colours():
    g = rules.place_plant(base(), CATALOG, "P-red-1", ((0, 0), (0, 1)))
    assert reasons(rules.flower_refusals(g, CATALOG, CATALOG.flowers["B-beetle-sweet-william"], (0, 0))) == [
        "two_plants"]
    g = rules.place_plant(g, CATALOG, "P-yellow-1", ((1, 0), (1, 1)))
    orange = CATALOG.flowers["B-beetle-sweet-william"]  # orange: red + yellow plants
    assert rules.flower_refusals(g, CATALOG, orange, (0, 0)) == []
    red = CATALOG.flowers["B-beetle-red-lily"]
    assert reasons(rules.flower_refusals(g, CATALOG, red, (0, 0))) == ["colour"]
    assert reasons(rules.flower_refusals(g, CATALOG, orange, (0, 0), hand=["B-beetle-red-lily"])) == ["hand"]
    g2 = rules.place_flower(g, CATALOG, orange.id, (0, 0), hand=[orange.id])
    assert g2.visible_plants == [] and g2.visible_seedlings == {}
    with pytest.raises(IllegalPlacement, match="overlap"):
        rules.place_flower(g2, CATALOG, "B-moth-garden-rose", (0, 0))


def test_flower_must_not_straddle_plants():
    # a red plant on row 0 and a yellow one on row 1 shifted right by one: the block at
    # (0, 0) holds one whole plant and half of another
    doc = dict(BASE, seedlings=BASE["seedlings"] + [{"id": "S08", "cells": [[1, 2], [0, 2]]}])
    g = garden_from_dict(doc, CATALOG)
    g = rules.place_plant(g, CATALOG, "P-red-1", ((0, 0), (0, 1)))
    g = rules.place_plant(g, CATALOG, "P-yellow-1", ((1, 1), (1, 2)))
    assert reasons(rules.flower_refusals(g, CATALOG, CATALOG.flowers["B-beetle-red-lily"], (0, 0))) == ["two_plants"]


def test_purchase_and_resource_limit():
    plant = CATALOG.plants["P-red-4"]  # 2 sun, 2 water
    assert rules.purchase_refusals({"sun": 2, "water": 2}, plant) == []
    assert reasons(rules.purchase_refusals({"sun": 1, "water": 2}, plant)) == ["resources"]
    assert rules.resource_limit_refusals({"sun": 5, "water": 5}) == []
    assert reasons(rules.resource_limit_refusals({"sun": 6, "water": 5})) == ["resource_limit"]


def watering_garden():
    doc = dict(BASE, seedlings=BASE["seedlings"] + [{"id": "S02", "cells": [[0, 2], [0, 3]]}])
    return garden_from_dict(doc, CATALOG)


def test_watering_can_moves_and_swaps_uncovered_tiles_without_splitting():
    g = watering_garden()
    moved = rules.use_watering_can(g, ["S02"], ((2, 0), (2, 1)))
    assert moved.watering_can is False and moved.seedling_at[(2, 0)][1].colour == "yellow"
    refusal = rules.watering_can_refusals(g, ["S07"], ((5, 5), (5, 6)))
    assert reasons(refusal) == ["connected"]
    swapped = rules.use_watering_can(g, ["S02", "S07"])
    assert swapped.seedling_at[(0, 1)][1].colour == "yellow" and swapped.seedling_at[(0, 2)][1].colour == "red"
    covered = rules.place_plant(g, CATALOG, "P-red-1", ((0, 0), (0, 1)))
    assert reasons(rules.watering_can_refusals(covered, ["S07"], ((2, 0), (2, 1)))) == ["uncovered"]
    assert reasons(rules.watering_can_refusals(moved, ["S02"], ((3, 0), (3, 1)))) == ["token_used"]
    assert reasons(rules.watering_can_refusals(g, ["S02"], ((0, 1), (0, 4)))) == ["domino", "overlap"]
    # "to another location": S02 turned round on its own spaces (0, 2), (0, 3) is no move (was accepted)
    assert reasons(rules.watering_can_refusals(g, ["S02"], ((0, 3), (0, 2)))) == ["watering_can"]


def test_whole_garden_check():
    g = rules.place_plant(base(), CATALOG, "P-red-1", ((0, 0), (0, 1)))
    assert rules.garden_violations(g, CATALOG) == []
    doc = garden_to_dict(g)
    assert garden_from_dict(doc, CATALOG).plants == g.plants
    apart = dict(doc, seedlings=doc["seedlings"] + [{"id": "S02", "cells": [[4, 4], [4, 5]]}])
    assert reasons(rules.garden_violations(garden_from_dict(apart, CATALOG), CATALOG)) == ["connected"]
    twice = dict(doc, seedlings=doc["seedlings"] + [{"id": "S07", "cells": [[2, 0], [2, 1]]}])
    assert reasons(rules.garden_violations(garden_from_dict(twice, CATALOG), CATALOG)) == ["unique_tile"]
    over = dict(doc, seedlings=doc["seedlings"] + [{"id": "S02", "cells": [[1, 1], [2, 1]]}])
    assert reasons(rules.garden_violations(garden_from_dict(over, CATALOG), CATALOG)) == ["overlap"]
    wrong = dict(doc, plants=[{"id": "P-blue-1", "cells": [[0, 0], [0, 1]]}])
    assert reasons(rules.garden_violations(garden_from_dict(wrong, CATALOG), CATALOG)) == ["colour"]


@pytest.mark.parametrize("doc, field", [
    ({"starter": {"id": "ST9", "side": "a", "cells": [[0, 0], [0, 1]]}}, "garden.starter.id"),
    ({"starter": {"id": "ST1", "side": "c", "cells": [[0, 0], [0, 1]]}}, "garden.starter.side"),
    ({"starter": {"id": "ST1", "side": "a", "cells": [[0, 0]]}}, "garden.starter.cells"),
    (dict(BASE, seedlings=[{"id": "S07", "cells": [[0, "x"], [1, 1]]}]), "garden.seedlings[0].cells[0]"),
    (dict(BASE, plants=[{"id": "P-red-99", "cells": [[0, 0], [0, 1]]}]), "garden.plants[0].id"),
    (dict(BASE, flowers=[{"id": "B-beetle-red-lily", "at": [0]}]), "garden.flowers[0].at"),
    (dict(BASE, tokens={"flower_pot": "yes"}), "garden.tokens.flower_pot"),
])
def test_bad_garden_documents_name_the_field(doc, field):
    with pytest.raises(InputError) as err:
        garden_from_dict(doc, CATALOG)
    assert err.value.field == field


def test_placements_offer_both_orientations_of_a_new_tile():
    from solver.games.gartenbau.optimiser import placements
    # next to the lone starter at (0,0)-(0,1): 6 frontier spaces; the domino may lie with either
    # seedling on the frontier space, and either space may be the one touching the garden
    g = garden_from_dict({"starter": BASE["starter"]}, CATALOG)  # starter on (0,0) and (1,0)
    cells = {tuple(map(tuple, p["cells"])) for p, _ in placements(g, CATALOG, "S02")}
    assert ((1, 1), (2, 1)) in cells and ((2, 1), (1, 1)) in cells  # first seedling away from the garden
    assert ((-1, 0), (-2, 0)) in cells and ((-2, 0), (-1, 0)) in cells
    # every placement is legal and none is repeated
    assert all(not rules.seedling_refusals(g, "S02", c) for c in cells)
    assert len(cells) == len(placements(g, CATALOG, "S02"))
