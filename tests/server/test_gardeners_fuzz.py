"""Arbitrary requests to every GardenersService RPC: answered or refused with a precise status, never INTERNAL/UNKNOWN."""
from __future__ import annotations

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import as_doc
from gardens.v1 import common_pb2, gardeners_pb2 as pb, gardeners_pb2_grpc
from server import convert
from field_paths import unresolved
from server.app import create_server
from server.config import ServerConfig
from solver.games.gardeners import api

TILES = [t.id for t in api.list_tiles()]
CARDS = [c.id for c in api.list_cards() if c.deck in ("training-a", "training-b", "standard")]
ALLOWED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.DEADLINE_EXCEEDED}

# Each strategy mixes mostly well-formed values (to reach the engines) with malformed ones.
small = st.integers(-3, 8) | st.sampled_from([-2**31, 2**31 - 1])
tile = st.sampled_from(TILES) | st.text(max_size=4)
mode = st.integers(0, 7)
placement = st.builds(common_pb2.Placement, tile=tile, row=small, col=small, rotation=small)
any_garden = st.builds(common_pb2.Garden, size=small, placements=st.lists(placement, max_size=40))


@st.composite
def full_gardens(draw):
    """A Normal-mode garden, complete or partial, each tile once, filled row by row."""
    order = draw(st.permutations(TILES))
    n = draw(st.integers(0, 36))
    return common_pb2.Garden(size=draw(st.sampled_from([0, 6])), placements=[
        common_pb2.Placement(tile=t, row=i // 6, col=i % 6, rotation=draw(st.integers(0, 3)))
        for i, t in enumerate(order[:n])])


@st.composite
def normal_states(draw):
    """A Normal-mode state: a row of tiles, the rest split between two players."""
    order = draw(st.permutations(TILES))
    k = draw(st.integers(0, 6))
    rest = order[k:k + 8]
    return pb.GameState(mode=draw(st.sampled_from([0, pb.GAME_MODE_NORMAL])),
                        garden=[common_pb2.Placement(tile=t, row=0, col=i) for i, t in enumerate(order[:k])],
                        supplies=[pb.PlayerSupply(stack=rest[:3], loose=rest[3:4]),
                                  pb.PlayerSupply(stack=rest[4:6], loose=rest[6:])])


garden = full_gardens() | full_gardens() | any_garden
cards = st.lists(st.sampled_from(CARDS), max_size=3, unique=True) | st.lists(st.sampled_from(CARDS) | st.text(max_size=4), max_size=4)
cell = st.builds(common_pb2.Cell, row=small, col=small)
any_state = st.builds(pb.GameState, mode=mode, size=small, garden=st.lists(placement, max_size=8),
                      supplies=st.lists(st.builds(pb.PlayerSupply, stack=st.lists(tile, max_size=3),
                                                  loose=st.lists(tile, max_size=3)), max_size=3),
                      pool=st.lists(tile, max_size=4))
state = normal_states() | normal_states() | any_state
move = st.builds(pb.Move, kind=st.integers(0, 5), player=st.integers(-1, 2), tile=tile, cell=cell,
                 rotation=small, other=cell)

REQUESTS = {
    "ListCards": st.builds(pb.ListCardsRequest, deck=st.sampled_from(["", "standard", "expert"]) | st.text(max_size=5)),
    "CheckGarden": st.builds(pb.CheckGardenRequest, garden=garden, card_ids=cards, mode=st.sampled_from([0, 5]) | mode),
    "Solve": st.builds(pb.SolveRequest, card_ids=cards, mode=mode),
    "CheckSolvable": st.builds(pb.CheckSolvableRequest, card_ids=cards, mode=mode),
    "ClosestSolution": st.builds(pb.ClosestSolutionRequest, garden=garden, card_ids=cards,
                                 mode=st.sampled_from([0, 5]) | mode),
    "CountSolutions": st.builds(pb.CountSolutionsRequest, card_ids=cards, mode=mode, cap=st.integers(-1, 4)),
    "ListLegalMoves": st.builds(pb.ListLegalMovesRequest, state=state),
    "ValidateMove": st.builds(pb.ValidateMoveRequest, state=state, move=move),
}


@pytest.fixture(scope="module")
def stub():
    config = ServerConfig(address="localhost:0", time_cap_s=1.0, call_time_cap_s=3.0)
    server, port = create_server(config)
    server.start()
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        yield gardeners_pb2_grpc.GardenersServiceStub(channel)
    server.stop(0).wait()


@pytest.mark.parametrize("method", sorted(REQUESTS))
def test_arbitrary_requests_get_a_deliberate_status(stub, method):
    rpc = getattr(stub, method)

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(REQUESTS[method])
    def check(request):
        try:
            response = rpc(request, timeout=10)
        except grpc.RpcError as err:
            assert err.code() in ALLOWED, (err.code(), err.details(), request)
            assert not (lost := unresolved(err, request.DESCRIPTOR)), (lost, err.details(), request)
            return
        # A garden the server calls a solution survives the trip through the wire and the checker.
        solution = {"Solve": "garden", "CheckSolvable": "witness", "ClosestSolution": "garden"}.get(method)
        if solution and response.verdict == common_pb2.SOLVABILITY_SOLVABLE:
            mode_name = convert.mode(request.mode)
            assert api.check_garden(as_doc(getattr(response, solution)), list(request.card_ids), mode_name).valid

    check()
