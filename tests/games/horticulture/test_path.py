"""Path rules: start downward, then left/right/down on the grid lines, never the side edges, up or back."""
import pytest

from solver.games.horticulture import api
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import Garden, PathDrawing
from solver.games.horticulture.rules import check_path, valid_directions

A = default_catalog().sheet("A")  # 6 columns x 7 rows, starts 1-5 on grid lines 1-5
B = default_catalog().sheet("B")  # 7 columns x 6 rows, starts 1-6


def reasons(drawing, sheet=A):
    return [(v.where, v.reason) for v in check_path(sheet, drawing)]


def test_straight_solo_default_path_from_position_3():
    d = PathDrawing.straight(A)
    assert (d.start, d.moves) == (3, "DDDDDDD")
    assert reasons(d) == []
    assert api.default_path("A") == {"start": 3, "moves": "DDDDDDD"}


def test_winding_path_is_legal():
    assert reasons(PathDrawing(1, "DRRDDLDDDD")) == []  # 1 -> right twice -> down -> left -> down
    assert reasons(PathDrawing(6, "DLDLLDDDD"), B) == []


def test_first_square_goes_down():
    assert reasons(PathDrawing(3, "RDDDDDDD")) == [("path.moves[0]", "the first square of the path goes downward")]


def test_never_up_edges_or_back():
    assert reasons(PathDrawing(3, "DDUDDDDD"))[0] == ("path.moves[2]", "the path may never turn upward")
    assert reasons(PathDrawing(1, "DLDDDDDD"))[0] == ("path.moves[1]", "the path may not reach the left edge of the garden")
    assert reasons(PathDrawing(5, "DRDDDDDD"))[0] == ("path.moves[1]", "the path may not reach the right edge of the garden")
    assert reasons(PathDrawing(3, "DRLDDDDD"))[0] == ("path.moves[2]", "the path may not double back on itself")


def test_path_must_end_at_bottom_and_stop_there():
    assert reasons(PathDrawing(3, "DDD")) == [("path.moves", "the path stops 4 square(s) short of the bottom")]
    assert reasons(PathDrawing(3, "DDDDDDDR"))[0][1] == "the path has already reached the bottom of the garden"
    assert reasons(PathDrawing(6, "DDDDDD"))[0][0] == "path.start"  # side A has no position 6
    assert reasons(PathDrawing(6, "DDDDDD"), B) == []


def test_only_one_valid_direction_is_forced():
    assert valid_directions(A, PathDrawing(3, "")) == ["D"]
    assert valid_directions(A, PathDrawing(3, "D")) == ["L", "R", "D"]
    assert valid_directions(A, PathDrawing(2, "DL")) == ["D"]  # edge on the left, came from the right
    assert valid_directions(A, PathDrawing(3, "DR")) == ["R", "D"]  # left would double back
    assert valid_directions(A, PathDrawing(3, "DDDDDDD")) == []


def test_validate_path_api():
    out = api.validate_path({"side": "A", "path": {"start": 2, "moves": "DL"}})
    assert out["legal"] is False and out["next_directions"] == ["D"]
    assert api.validate_path({"side": "A", "path": {"start": 3, "moves": "ddddddd"}})["legal"] is True
    with pytest.raises(ValueError, match=r"path\.moves: unknown direction letter\(s\) \['X'\]"):
        api.validate_path({"side": "A", "path": {"start": 3, "moves": "DX"}})
    with pytest.raises(ValueError, match="path.start: expected an integer"):
        api.validate_path({"side": "A", "path": {"start": "3", "moves": "D"}})
    with pytest.raises(ValueError, match="side: unknown sheet side"):
        api.validate_path({"side": "Z", "path": {"start": 3, "moves": "D"}})


def test_path_on_grid_lines_separates_and_borders_squares():
    g = Garden(A, PathDrawing(3, "DDRDDDDD"))  # line 3 down two squares, right one, then down line 4
    assert g.separated((2, 0), (3, 0)) and g.separated((2, 1), (3, 1))
    assert not g.separated((2, 2), (3, 2))  # below the turn the path runs on line 4
    assert g.separated((3, 1), (3, 2))  # the horizontal step runs between rows 1 and 2 under column 3
    assert g.separated((3, 2), (4, 2))
    assert g.next_to_path((3, 1)) and g.next_to_path((3, 2)) and g.next_to_path((4, 6))
    assert not g.next_to_path((0, 0)) and not g.next_to_path((2, 3))
    assert g.on_border((0, 3)) and g.on_border((3, 6)) and not g.on_border((2, 3))
