"""GardenersService over a real channel: every RPC's happy path and malformed input, against the domain API."""
from __future__ import annotations

import json
import time
import types

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from conftest import as_doc, wait_until
from gardens.v1 import common_pb2, gardeners_pb2 as pb, gardeners_pb2_grpc
from server_probe import golomb
from solver.games.gardeners import api

NORMAL, TRAINING_A = pb.GAME_MODE_NORMAL, pb.GAME_MODE_TRAINING_A
SOLVABLE, UNSOLVABLE = common_pb2.SOLVABILITY_SOLVABLE, common_pb2.SOLVABILITY_UNSOLVABLE


@pytest.fixture
def srv(start_server):
    return start_server(with_probe=False)


@pytest.fixture
def stub(srv):
    return gardeners_pb2_grpc.GardenersServiceStub(srv.channel())


def violations(err: grpc.RpcError) -> dict[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    status = rpc_status.from_call(err)
    bad = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad)
    return {v.field: v.description for v in bad.field_violations}


def invalid(call, request) -> dict[str, str]:
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=30)
    return violations(err.value)


def test_list_tiles_is_the_catalog(stub):
    tiles = stub.ListTiles(pb.ListTilesRequest(), timeout=30).tiles
    domain = api.list_tiles()
    assert [t.id for t in tiles] == [t.id for t in domain]
    assert len(tiles) == 36
    for wire, tile in zip(tiles, domain):
        assert (wire.set, wire.background) == (tile.set, tile.background)
        assert [(e.kind, e.colour) for e in wire.elements] == [(e.kind, e.colour or "") for e in tile.elements]
        assert {common_pb2.Direction.Name(d)[len("DIRECTION_")] for d in wire.path_edges} == set(tile.path)
    facings = [e.facing for t in tiles for e in t.elements if e.kind == "bench"]
    assert facings and common_pb2.DIRECTION_UNSPECIFIED not in facings


def test_list_cards_by_deck(stub):
    cards = stub.ListCards(pb.ListCardsRequest(deck="training-a"), timeout=30).cards
    domain = api.list_cards("training-a")
    assert [(c.id, c.kind, c.text) for c in cards] == [(c.id, c.kind, c.text) for c in domain]
    assert [json_format.MessageToDict(c.params) for c in cards] == [json.loads(c.params) for c in domain]
    assert len(stub.ListCards(pb.ListCardsRequest(), timeout=30).cards) == len(api.list_cards())
    assert "deck" in invalid(stub.ListCards, pb.ListCardsRequest(deck="no-such-deck"))


def test_check_garden_on_a_solution_and_on_a_broken_partial_garden(stub):
    solved = stub.Solve(pb.SolveRequest(card_ids=["A1", "A3"], mode=TRAINING_A), timeout=30)
    assert solved.verdict == SOLVABLE
    report = stub.CheckGarden(pb.CheckGardenRequest(garden=solved.garden, card_ids=["A1", "A3"], mode=TRAINING_A),
                              timeout=30)
    assert report.complete and report.valid
    assert [(v.card_id, v.kind, v.status) for v in report.verdicts] == [
        ("A1", "proximity", pb.CARD_STATUS_SATISFIED), ("A3", "distance", pb.CARD_STATUS_SATISFIED)]
    # Two tree tiles side by side in an otherwise empty garden: "two trees cannot be adjacent" is broken.
    trees = [t.id for t in api.list_tiles() if t.set == "A" and t.has("tree")][:2]
    partial = common_pb2.Garden(size=4, placements=[common_pb2.Placement(tile=trees[0], row=0, col=0),
                                                    common_pb2.Placement(tile=trees[1], row=0, col=1)])
    report = stub.CheckGarden(pb.CheckGardenRequest(garden=partial, card_ids=["A3"], mode=TRAINING_A), timeout=30)
    domain = api.check_garden(as_doc(partial), ["A3"], "training-a")
    assert not report.complete and not report.valid
    [v] = report.verdicts
    assert v.status == pb.CARD_STATUS_VIOLATED
    assert [(c.row, c.col) for c in v.cells] == [tuple(c) for c in domain.verdicts[0].cells] == [(0, 0), (0, 1)]
    assert v.reason == domain.verdicts[0].reason != ""


def test_check_garden_names_every_malformed_field(stub):
    garden = common_pb2.Garden(placements=[common_pb2.Placement(tile="A01", rotation=7),
                                           common_pb2.Placement(tile="ZZ9", row=1)])
    fields = invalid(stub.CheckGarden, pb.CheckGardenRequest(garden=garden, card_ids=["A1"]))
    assert set(fields) == {"garden.placements[0].rotation", "garden.placements[1].tile"}
    assert "card_ids[1]" in invalid(stub.CheckGarden, pb.CheckGardenRequest(card_ids=["A1", "nope"]))
    assert "garden.size" in invalid(stub.CheckGarden, pb.CheckGardenRequest(
        garden=common_pb2.Garden(size=9), card_ids=["A1"]))
    assert "card_ids" in invalid(stub.CheckGarden, pb.CheckGardenRequest(card_ids=["A1"] * 13))
    assert "mode" in invalid(stub.CheckGarden, pb.CheckGardenRequest(card_ids=["A1"], mode=99))


def test_a_larger_max_cards_lets_a_long_solo_game_check_its_cards(start_server):
    """Solo keeps every card drawn ("even when you have more than three"), so an operator may allow more than 12;
    the library's own cap of 12 overruled --max-cards 14 (the rules lawyer of 7 Dec)."""
    srv = start_server(max_cards=14)
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    ids = [f"S{i:02d}" for i in range(1, 14)]
    report = stub.CheckGarden(pb.CheckGardenRequest(card_ids=ids, mode=pb.GAME_MODE_SOLO), timeout=30)
    assert [v.card_id for v in report.verdicts] == ids
    assert "card_ids" in invalid(stub.CheckGarden, pb.CheckGardenRequest(card_ids=[f"S{i:02d}" for i in range(1, 16)],
                                                                         mode=pb.GAME_MODE_SOLO))


def test_solve_unsolvable_has_no_garden(stub):
    answer = stub.Solve(pb.SolveRequest(card_ids=["S09", "S01"], mode=NORMAL), timeout=30)
    assert answer.verdict == UNSOLVABLE and not answer.HasField("garden")


def test_check_solvable_explains_the_conflict(stub, srv):
    answer = stub.CheckSolvable(pb.CheckSolvableRequest(card_ids=["S09", "S01", "S44"], mode=NORMAL), timeout=30)
    domain = api.check_solvable(["S09", "S01", "S44"], "normal")
    assert answer.verdict == UNSOLVABLE and domain.verdict == "unsolvable"
    assert [list(s.card_ids) for s in answer.conflicts] == domain.conflicts
    assert {frozenset(s.card_ids) for s in answer.conflicts} == {frozenset({"S09", "S01"})}
    assert [list(s.card_ids) for s in answer.discard_sets] == domain.discards
    assert answer.conflicts_complete
    assert srv.runtime.metrics.outcomes.labels(
        "/gardens.v1.GardenersService/CheckSolvable", "unsolvable")._value.get() == 1


def test_check_solvable_is_solvable_whenever_solve_is(stub):
    # the rings-only fast path of Solve: CheckSolvable used to spend its whole limit and say UNKNOWN
    ids = ["S36", "S18", "S57", "S09", "S53", "S28", "S59", "S58"]
    solved = stub.Solve(pb.SolveRequest(card_ids=ids, mode=NORMAL), timeout=60)
    answer = stub.CheckSolvable(pb.CheckSolvableRequest(card_ids=ids, mode=NORMAL), timeout=60)
    assert solved.verdict == SOLVABLE and answer.verdict == SOLVABLE
    assert api.check_garden(as_doc(answer.witness), ids, "normal").valid
    assert answer.conflicts_complete and answer.discard_sets_complete and answer.unknown_subsets == 0


def test_check_solvable_says_when_discard_sets_may_be_incomplete(stub):
    ids = ["S59", "S02", "S49", "S34", "S20", "S42", "S06", "S45", "S17"]   # 9 cards: one conflict searched
    answer = stub.CheckSolvable(pb.CheckSolvableRequest(card_ids=ids, mode=pb.GAME_MODE_BEGINNER), timeout=60)
    assert answer.verdict == UNSOLVABLE and not answer.conflicts_complete
    assert not answer.discard_sets_complete          # {S59, S45} is a minimal discard set not listed
    answer = stub.CheckSolvable(pb.CheckSolvableRequest(card_ids=["S09", "S01", "S44"], mode=NORMAL), timeout=30)
    assert answer.conflicts_complete and answer.discard_sets_complete


def test_check_solvable_witness_passes_the_checker(stub):
    answer = stub.CheckSolvable(pb.CheckSolvableRequest(card_ids=["S01", "S44"]), timeout=30)
    assert answer.verdict == SOLVABLE and not answer.conflicts
    assert api.check_garden(as_doc(answer.witness), ["S01", "S44"], "normal").valid
    assert "card_ids[0]" in invalid(stub.CheckSolvable, pb.CheckSolvableRequest(card_ids=["XX"]))


def test_closest_solution_keeps_a_valid_start_untouched(stub):
    solved = stub.Solve(pb.SolveRequest(card_ids=["A1"], mode=TRAINING_A), timeout=30).garden
    answer = stub.ClosestSolution(pb.ClosestSolutionRequest(garden=solved, card_ids=["A1"], mode=TRAINING_A),
                                  timeout=30)
    assert answer.verdict == SOLVABLE and answer.optimal
    assert (answer.kept, answer.changed, answer.kept_bound) == (16, 0, 16)
    assert as_doc(answer.garden) == as_doc(solved)
    start = common_pb2.Garden(placements=[common_pb2.Placement(tile="A01", row=0, col=0, rotation=9)])
    assert "garden.placements[0].rotation" in invalid(
        stub.ClosestSolution, pb.ClosestSolutionRequest(garden=start, card_ids=["A1"], mode=TRAINING_A))


def test_count_solutions_stops_at_the_cap(stub):
    answer = stub.CountSolutions(pb.CountSolutionsRequest(card_ids=["A1"], mode=TRAINING_A, cap=3), timeout=60)
    assert (answer.count, answer.exact) == (3, False)
    assert stub.CountSolutions(pb.CountSolutionsRequest(card_ids=["S09", "S01"], cap=3), timeout=60).exact
    assert "cap" in invalid(stub.CountSolutions, pb.CountSolutionsRequest(card_ids=["A1"], cap=5000))


STATE = {"mode": "normal", "garden": [{"tile": "A01", "row": 0, "col": 0, "rotation": 0}],
         "supplies": [{"stack": ["A02", "A03"], "loose": []}, {"stack": [], "loose": ["A04"]}]}


def _state_msg() -> pb.GameState:
    return pb.GameState(mode=NORMAL, garden=[common_pb2.Placement(tile="A01")],
                        supplies=[pb.PlayerSupply(stack=["A02", "A03"]), pb.PlayerSupply(loose=["A04"])])


def test_list_legal_moves_is_the_rule_engine(stub):
    moves = stub.ListLegalMoves(pb.ListLegalMovesRequest(state=_state_msg()), timeout=30).moves
    domain = api.legal_moves(STATE)
    assert len(moves) == len(domain) > 0
    kinds = {pb.MOVE_KIND_ADD: "add", pb.MOVE_KIND_REMOVE: "remove"}
    assert [(kinds[m.kind], m.player, m.tile, (m.cell.row, m.cell.col), m.rotation) for m in moves] == \
           [(m.kind, m.player, m.tile, m.cell, m.rotation) for m in domain]
    # A3 is under A02 in player 0's stack: it is not playable.
    assert not any(m.tile == "A03" for m in moves)


def test_validate_move(stub):
    add = pb.Move(kind=pb.MOVE_KIND_ADD, player=0, tile="A02", cell=common_pb2.Cell(row=0, col=1))
    assert stub.ValidateMove(pb.ValidateMoveRequest(state=_state_msg(), move=add), timeout=30).legal
    buried = pb.Move(kind=pb.MOVE_KIND_ADD, player=0, tile="A03", cell=common_pb2.Cell(row=0, col=1))
    answer = stub.ValidateMove(pb.ValidateMoveRequest(state=_state_msg(), move=buried), timeout=30)
    expected = api.validate_move(STATE, {"kind": "add", "player": 0, "tile": "A03", "cell": [0, 1]})
    assert not answer.legal and answer.reason == expected.reason != ""
    assert "move.kind" in invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=_state_msg(), move=pb.Move()))
    bad_state = pb.GameState(garden=[common_pb2.Placement(tile="nope")], supplies=[pb.PlayerSupply()])
    assert "state.garden[0].tile" in invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=bad_state, move=add))


def test_validate_move_refuses_malformed_moves_by_field(stub):
    empty = pb.GameState(supplies=[pb.PlayerSupply(stack=["A02"])])
    add = pb.Move(kind=pb.MOVE_KIND_ADD, tile="A02")                   # no cell
    bad = invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=empty, move=add))
    assert list(bad) == ["move.cell"] and "missing" in bad["move.cell"] and "None" not in bad["move.cell"]
    solo = pb.GameState(mode=pb.GAME_MODE_SOLO, garden=[common_pb2.Placement(tile="A01")], pool=["A02"])
    for kind in (pb.MOVE_KIND_REMOVE, pb.MOVE_KIND_ROTATE):
        bad = invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=solo, move=pb.Move(kind=kind)))
        assert list(bad) == ["move.cell"] and "None" not in bad["move.cell"]
    cell = common_pb2.Cell(row=0, col=1)
    turned = pb.Move(kind=pb.MOVE_KIND_ADD, tile="A02", cell=cell, rotation=9)
    assert "move.rotation" in invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=_state_msg(), move=turned))
    nobody = pb.Move(kind=pb.MOVE_KIND_ADD, player=-1, tile="A02", cell=cell)
    assert "move.player" in invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=_state_msg(), move=nobody))
    away = pb.Move(kind=pb.MOVE_KIND_REMOVE, cell=common_pb2.Cell(row=0, col=0), to_player=7)
    bad = invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=_state_msg(), move=away))
    assert "player 7 does not exist" in bad["move.to_player"]


def test_game_state_refuses_the_other_modes_field(stub):
    solo = pb.GameState(mode=pb.GAME_MODE_SOLO, pool=["A01"], supplies=[pb.PlayerSupply(stack=["A02"])])
    assert "state.supplies" in invalid(stub.ListLegalMoves, pb.ListLegalMovesRequest(state=solo))
    normal = pb.GameState(mode=NORMAL, pool=["A01"], supplies=[pb.PlayerSupply(stack=["A02"])])
    add = pb.Move(kind=pb.MOVE_KIND_ADD, tile="A02", cell=common_pb2.Cell())
    assert "state.pool" in invalid(stub.ValidateMove, pb.ValidateMoveRequest(state=normal, move=add))


def _hard_domain(started: list):
    """The real domain API, except check_solvable runs a search that only ends when stopped."""
    def check_solvable(card_ids, mode, control, **_):
        started.append(time.perf_counter())
        control.solve(golomb(max_length=71))  # raises Cancelled when stopped
        raise AssertionError("a cancelled search must not return normally")

    functions = {n: getattr(api, n) for n in dir(api) if not n.startswith("_")}
    return types.SimpleNamespace(**{**functions, "check_solvable": check_solvable})


@pytest.mark.serial  # the slot must be free within 0.6 s of the cancel: run alone by `make test`
def test_cancelled_check_solvable_frees_the_worker(start_server):
    started: list = []
    srv = start_server(with_probe=False, workers=1, time_cap_s=60, domains={"gardeners": _hard_domain(started)})
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    future = stub.CheckSolvable.future(pb.CheckSolvableRequest(card_ids=["S01"]), timeout=60)
    wait_until(lambda: started)
    time.sleep(0.2)
    future.cancel()
    freed = wait_until(lambda: srv.runtime.pools["solve"].in_use == 0, timeout=5)
    assert freed < 0.6, freed  # the bound is 200 ms; slack for a loaded 2-core machine
    calls = srv.runtime.metrics.calls
    assert calls.labels("/gardens.v1.GardenersService/CheckSolvable", "CANCELLED")._value.get() == 1
    # The worker serves the next call: the real domain answers through the same server.
    srv.runtime.domains["gardeners"] = api
    assert stub.CheckSolvable(pb.CheckSolvableRequest(card_ids=["S01"]), timeout=30).verdict == SOLVABLE


def test_missing_domain_function_is_unimplemented(start_server):
    partial = types.SimpleNamespace(list_tiles=api.list_tiles)
    srv = start_server(with_probe=False, domains={"gardeners": partial})
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    assert len(stub.ListTiles(pb.ListTilesRequest(), timeout=30).tiles) == 36
    with pytest.raises(grpc.RpcError) as err:
        stub.CountSolutions(pb.CountSolutionsRequest(card_ids=["A1"]), timeout=30)
    assert err.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_configured_tiles_file_is_served(start_server, tmp_path):
    from solver.games.gardeners.tiles import DEFAULT_CATALOG
    doc = json.loads(DEFAULT_CATALOG.read_text())
    first = doc["tiles"][0]
    first["background"] = "soil" if first["background"] == "grass" else "grass"
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(doc))
    srv = start_server(with_probe=False, tiles_file=str(path))
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    tiles = stub.ListTiles(pb.ListTilesRequest(), timeout=30).tiles
    assert (tiles[0].id, tiles[0].background) == (first["id"], first["background"])
