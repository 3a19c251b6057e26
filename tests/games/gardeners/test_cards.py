"""Every card kind on hand-made gardens: satisfied, violated, and open on partial gardens."""
import pytest

from solver.games.gardeners.cards.verdict import OPEN, SATISFIED, VIOLATED
from tests.games.gardeners.helpers import card, catalog, garden, tile

CAT = catalog(
    tile("G", "grass"), tile("S", "soil"),
    tile("gf1", "grass", ["flower:green"]), tile("gf2", "soil", ["flower:green"]), tile("gf3", "grass", ["flower:green"]),
    tile("ff1", "grass", ["flower:fuchsia"]), tile("of1", "soil", ["flower:orange"]),
    tile("gt1", "grass", ["tree:green"]), tile("gt2", "soil", ["tree:green"]), tile("ft1", "grass", ["tree:fuchsia"]),
    tile("bN", "grass", ["bench:N"]), tile("bE", "soil", ["bench:E"]), tile("fo", "soil", ["fountain"]),
    tile("pNS", "grass", path="NS"), tile("pNE", "grass", path="NE"), tile("pN", "soil", path="N"),
    tile("pNS2", "soil", path="NS"), tile("pNE2", "soil", path="NE"), tile("pNE3", "grass", path="NE"),
    tile("pNE4", "soil", path="NE"), tile("pNS3", "grass", path="NS"), tile("pNS4", "soil", path="NS"),
    tile("x1", "grass"), tile("x2", "grass"), tile("x3", "soil"), tile("x4", "soil"),
)


def verdict(c, rows):
    return c.check(garden(CAT, rows))


def test_proximity():
    c = card("proximity", element="flower:green")
    assert verdict(c, ["gf1 gf2", "G S"]).status == SATISFIED
    v = verdict(c, ["gf1 G", "S gf2"])
    assert v.status == VIOLATED and set(v.cells) == {(0, 0), (1, 1)}
    # a lonely flower with an empty neighbour may still get a partner
    v = verdict(c, ["gf1 .", "S G"])
    assert v.status == OPEN and v.cells == ((0, 0),)


def test_distance_trees_not_adjacent_training_a3():
    c = card("distance", element="tree", other="tree")
    assert verdict(c, ["gt1 G", "S gt2"]).status == SATISFIED
    v = verdict(c, ["gt1 ft1", "S G"])
    assert v.status == VIOLATED and set(v.cells) == {(0, 0), (0, 1)}
    assert verdict(c, ["gt1 .", ". ."]).status == OPEN  # nothing broken yet, tiles still to come


def test_distance_orange_vs_green_training_a4():
    c = card("distance", element="flower:orange", other="flower:green|tree:green")
    assert verdict(c, ["of1 G", "S gf1"]).status == SATISFIED
    assert verdict(c, ["of1 gt1", "S G"]).status == VIOLATED
    assert verdict(c, ["of1 G", "gf1 S"]).status == VIOLATED


def test_agglomeration():
    c = card("agglomeration", element="grass", min=3)
    v = verdict(c, ["G gf1 S", "x1 S S", "S S S"])
    assert v.status == SATISFIED and set(v.cells) == {(0, 0), (0, 1), (1, 0)}
    assert verdict(c, ["G S gf1", "S x1 S", "S S S"]).status == VIOLATED
    assert verdict(c, ["G S gf1", "S x1 .", "S S S"]).status == OPEN
    two = card("agglomeration", element="flower|tree", min=3)
    assert verdict(two, ["gf1 gt1 S", "S ff1 S", "S S S"]).status == SATISFIED


def test_agglomeration_counts_elements_a_tile_with_two_counts_twice():
    """The rulebook counts "X elements" in a contiguous group: a tile with a tree and a flower is two "flowers and/or
    trees", a tile with two flowers two flowers (until 7 Dec the card counted tiles: the reference garden with six
    flowers on five tiles was "violated" under S20, 6 or more flowers)."""
    cat = catalog(tile("tf", "grass", ["tree:green", "flower:fuchsia"]), tile("ff", "grass", ["flower:green",
                                                                                              "flower:orange"]),
                  tile("gf", "grass", ["flower:green"]), tile("G", "grass"), tile("S", "soil"), tile("x", "soil"))
    flowers = card("agglomeration", element="flower", min=4)
    v = flowers.check(garden(cat, ["ff gf S", "tf S G", "S G x"]))
    assert v.status == SATISFIED and set(v.cells) == {(0, 0), (0, 1), (1, 0)}  # 2 + 1 + 1 on three tiles
    v = flowers.check(garden(cat, ["ff S gf", "tf S G", "S G x"]))
    assert v.status == VIOLATED and v.reason == "largest group of flowers holds 3 on 2 tiles, needs 4"
    both = card("agglomeration", element="flower|tree", min=5)
    assert both.check(garden(cat, ["ff gf S", "tf S G", "S G x"])).status == SATISFIED  # 2 + 1 + 2
    green = card("agglomeration", element="flower:green|tree:green", min=3)  # each tile one green element
    v = green.check(garden(cat, ["ff gf S", "tf S G", "S G x"]))
    assert v.status == SATISFIED and v.cells == ((0, 0), (0, 1), (1, 0))
    grass = card("agglomeration", element="grass", min=4)  # a Grass tile is one element, whatever it carries
    assert grass.check(garden(cat, ["ff gf S", "tf S G", "S G x"])).reason == \
        "largest group of Grass tiles has 3 tiles, needs 4"
    assert grass.check(garden(cat, ["G S S", "S S S", "S S x"])).reason == \
        "largest group of Grass tiles has 1 tile, needs 4"


def test_panorama_each_bench_faces_fuchsia_tree():
    c = card("panorama", target="tree:fuchsia")
    # bench at (2,0) facing N looks up column 0: the fuchsia tree two cells away counts (no blocking)
    assert verdict(c, ["ft1 S S", "gt1 S S", "bN S S"]).status == SATISFIED
    # turned to face E it looks along row 2 and sees nothing
    v = verdict(c, ["ft1 S S", "gt1 S S", "bN/1 S S"])
    assert v.status == VIOLATED and v.cells == ((2, 0),)
    # facing off the garden: sees nothing
    assert verdict(c, ["bN ft1", "S S"]).status == VIOLATED
    # the view crosses an empty cell: still open
    assert verdict(c, [". S S", "gt1 S S", "bN S S"]).status == OPEN


def test_panorama_benches_face_each_other_training_b2():
    c = card("panorama", target="bench")
    assert verdict(c, ["bE S bN/3", "S S S", "S S S"]).status == SATISFIED   # E and W facing each other
    assert verdict(c, ["bE S bN", "S S S", "S S S"]).status == VIOLATED      # second bench looks north


def test_link():
    c = card("link", element="soil")
    assert verdict(c, ["G G G", "S S S", "G G G"]).status == SATISFIED
    assert verdict(c, ["G S G", "G S G", "G S G"]).status == SATISFIED
    assert verdict(c, ["S G G", "S S G", "G S S"]).status == SATISFIED   # winding
    v = verdict(c, ["S S G", "G G G", "G G S"])
    assert v.status == VIOLATED
    assert verdict(c, ["S S .", "G G G", "G G G"]).status == OPEN


def test_border_edge_and_interior():
    edge = card("border", element="tree:fuchsia|flower:fuchsia", region="edge")
    assert verdict(edge, ["ft1 S S", "S G S", "S S ff1"]).status == SATISFIED
    v = verdict(edge, ["ft1 S S", "S ff1 S", "S S S"])
    assert v.status == VIOLATED and v.cells == ((1, 1),)
    inner = card("border", element="bench", region="interior")
    assert verdict(inner, ["S S S", "S bN S", "S S S"]).status == SATISFIED
    assert verdict(inner, ["bN S S", "S S S", "S S S"]).status == VIOLATED


def test_geometry_fountain_surrounded_by_flowers_training_c1():
    c = card("geometry", pattern=[[None, "flower", None], ["flower", "fountain", "flower"], [None, "flower", None]])
    ok = ["G gf1 S", "ff1 fo of1", "S gf2 S"]
    assert verdict(c, ok).status == SATISFIED
    assert verdict(c, ["G gf1 S", "ff1 fo of1", "S gt1 S"]).status == VIOLATED
    assert verdict(c, ["G gf1 S", "ff1 fo of1", "S . S"]).status == OPEN


def test_geometry_orientation_free_and_mirror():
    c = card("geometry", pattern=[["tree", "fountain", "flower:orange"]])
    assert verdict(c, ["gt1 fo of1", "S S S", "S S S"]).status == SATISFIED
    assert verdict(c, ["of1 fo gt1", "S S S", "S S S"]).status == SATISFIED   # mirror image
    assert verdict(c, ["of1 S S", "fo S S", "gt1 S S"]).status == SATISFIED   # turned
    assert verdict(c, ["of1 fo S", "gt1 S S", "S S S"]).status == VIOLATED


def test_geometry_soil_corners_grass_cross_training_c2():
    c = card("geometry", pattern=[["soil", "grass", "soil"], ["grass", "grass", "grass"], ["soil", "grass", "soil"]])
    assert verdict(c, ["S G S", "x1 gf1 gt1", "x3 x2 x4"]).status == SATISFIED
    assert verdict(c, ["S G S", "x1 gf2 gt1", "x3 x2 x4"]).status == VIOLATED  # soil in the centre


# A 3x3 ring of path tiles: corners turned so that the loop closes around the centre cell.
RING = ["pNE/1 pNS/1 pNE2/2", "pNS2 {c} pNS3", "pNE3 pNS4/1 pNE4/3"]


def test_path_loop_around_a_bench_training_c3():
    c = card("path", shape="loop", around="bench")
    v = verdict(c, [r.format(c="bN") for r in RING])
    assert v.status == SATISFIED and (1, 1) in v.cells
    assert verdict(c, [r.format(c="fo") for r in RING]).status == VIOLATED   # loop, but no bench inside
    broken = [r.format(c="bN") for r in RING]
    broken[2] = "pNE3 pNS4 pNE4/3"                                           # one straight turned: open ring
    assert verdict(c, broken).status == VIOLATED


def test_path_route_of_at_least_n_tiles_training_c4():
    route = card("path", shape="route", min=8)
    v = verdict(route, [r.format(c="bN") for r in RING])
    assert v.status == SATISFIED and len(v.cells) == 8
    assert card("path", shape="route", min=3).check(garden(CAT, ["pNS G S", "pNS2 S G", "pN G S"])).status == SATISFIED
    assert card("path", shape="route", min=4).check(garden(CAT, ["pNS G S", "pNS2 S G", "pN G S"])).status == VIOLATED


def test_path_each_connected_and_the_rulebook_example():
    """Rulebook: 'Constraint A: each path must be connected to at least one other path. Constraint B:
    each bench must face a green tree.' First garden: A holds, B not; second: both hold."""
    a = card("path", shape="connected")
    b = card("panorama", target="tree:green")
    first = garden(CAT, ["pNS S bE", "pNS2 S G", "gt1 S S"])
    assert a.check(first).status == SATISFIED and b.check(first).status == VIOLATED
    second = garden(CAT, ["pNS S bE/2", "pNS2 S G", "gt1 S S"])   # bench turned to face S... sees nothing
    assert b.check(second).status == VIOLATED
    third = garden(CAT, ["pNS S bE/1", "pNS2 S G", "gt1 S gt2"])  # facing S, green tree at the bottom
    assert a.check(third).status == SATISFIED and b.check(third).status == SATISFIED
    lonely = garden(CAT, ["pNS S bE", "G pNS2 G", "gt1 S S"])
    v = a.check(lonely)
    assert v.status == VIOLATED and set(v.cells) == {(0, 0), (1, 1)}
    assert a.check(garden(CAT, ["pNS S S", ". S G", "gt1 S S"])).status == OPEN


@pytest.mark.parametrize("kind, params", [
    ("proximity", {"element": "flower"}), ("link", {"element": "soil"}), ("path", {"shape": "connected"})])
def test_describe_words_every_kind(kind, params):
    assert card(kind, **params).text.endswith(".")
