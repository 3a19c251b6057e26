"""HintService over a real channel on a real server: every RPC against the domain hint functions, and bad input."""
from __future__ import annotations

import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from ortools.sat.python import cp_model

from conftest import as_doc
from gardens.v1 import common_pb2, gardeners_pb2 as gpb, hints_pb2 as pb, hints_pb2_grpc
from solver.core.solve import SolveControl
from solver.games.gardeners import api, engine, moves
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog

NORMAL = gpb.GAME_MODE_NORMAL
CARDS = ["S08", "S16"]
CAT = load_catalog()


@pytest.fixture(scope="module")
def solution():
    return api.solve(CARDS, "normal", SolveControl(time_limit_s=20)).garden


@pytest.fixture
def stub(start_server):
    return hints_pb2_grpc.HintServiceStub(start_server(with_probe=False).channel())


def msg(garden_dict) -> common_pb2.Garden:
    return common_pb2.Garden(size=6, placements=[common_pb2.Placement(**p) for p in garden_dict["placements"]])


def partial(solution, keep: int, wrong_cell=None):
    """The first `keep` placements of the solution in row-major order, one of them optionally swapped."""
    doc = solution.to_dict()
    doc["placements"] = doc["placements"][:keep]
    if wrong_cell is not None:
        a, b = doc["placements"][wrong_cell], doc["placements"][keep - 1]
        a["tile"], b["tile"] = b["tile"], a["tile"]
    return doc


def field_violations(err: grpc.RpcError) -> dict[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err).details[0].Unpack(bad)
    return {v.field: v.description for v in bad.field_violations}


def test_check_progress_matches_the_domain(stub, solution):
    doc = partial(solution, 20)
    resp = stub.CheckProgress(pb.CheckProgressRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL), timeout=60)
    domain = api.check_progress(doc, CARDS, "normal", SolveControl(time_limit_s=20))
    assert resp.completable == common_pb2.SOLVABILITY_SOLVABLE
    assert [(c.card_id, pb.ProgressStatus.Name(c.status)) for c in resp.cards] == \
        [(c.card_id, "PROGRESS_STATUS_" + c.status.upper()) for c in domain.cards]
    assert api.check_garden(as_doc(resp.witness), CARDS).valid


def test_hint_levels_are_one_answer(stub, solution):
    doc = partial(solution, 24, wrong_cell=3)
    answers = [stub.GetHint(pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL, level=k), timeout=60)
               for k in (1, 2, 3)]
    one, two, three = answers
    assert {a.status for a in answers} == {pb.HINT_STATUS_MOVE}
    assert one.card_id == two.card_id == three.card_id and one.card_id in CARDS
    assert not one.cells and not one.HasField("move") and not two.HasField("move")
    assert not two.HasField("route_length") and not two.HasField("proven") and three.HasField("proven")
    assert list(two.cells) == list(three.cells)
    assert two.text.startswith(one.text) and three.text.startswith(two.text)
    # the move is legal under Normal rules and starts a proven shortest route
    m = three.move
    state = {"mode": "normal", "size": 6, "garden": doc["placements"],
             "supplies": [{"loose": [t.id for t in CAT.tiles if t.id not in {p["tile"] for p in doc["placements"]}]},
                          {}]}
    move = {"kind": gpb.MoveKind.Name(m.kind)[len("MOVE_KIND_"):].lower(), "player": m.player, "tile": m.tile,
            "cell": [m.cell.row, m.cell.col], "rotation": m.rotation}
    if m.HasField("to_player"):
        move["to_player"] = m.to_player
    assert api.validate_move(state, move).legal
    assert three.proven and three.route_length > 0


def test_repair_is_minimal_and_leaves_a_completable_garden(stub, solution):
    doc = partial(solution, 24, wrong_cell=3)
    resp = stub.SuggestRepair(pb.SuggestRepairRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL,
                                                      removal_rules=True), timeout=60)
    assert resp.verdict == pb.REPAIR_VERDICT_OPTIMAL and resp.removals_bound == len(resp.remove)
    gone = {(c.row, c.col) for c in resp.remove}
    left = {**doc, "placements": [p for p in doc["placements"] if (p["row"], p["col"]) not in gone]}
    cards = api._cards(CARDS, None)
    assert engine.complete(parse_garden(left, CAT, MODES["normal"]), cards, MODES["normal"], CAT,
                           SolveControl(time_limit_s=20)).verdict == engine.SOLVABLE
    cells = {(p["row"], p["col"]) for p in doc["placements"]}
    for c in [(c.row, c.col) for c in resp.remove]:
        assert moves.removable(cells, c).legal
        cells.discard(c)


def test_forced_placements_and_deduction(stub, solution):
    doc = partial(solution, 30)
    resp = stub.ListForcedPlacements(pb.ListForcedPlacementsRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL),
                                     timeout=60)
    domain = api.forced_placements(doc, CARDS, "normal", SolveControl(time_limit_s=20))
    assert resp.verdict == common_pb2.SOLVABILITY_SOLVABLE
    assert [((f.cell.row, f.cell.col), list(f.tiles)) for f in resp.forced] == \
        [(f.cell, list(f.tiles)) for f in domain.cells]
    full = solution.to_dict()
    trial = pb.DeductionTrial(garden=msg(full), verdict=pb.OWNER_VERDICT_THRILLED)
    ded = stub.DeduceCard(pb.DeduceCardRequest(kind="distance", trials=[trial], mode=NORMAL), timeout=60)
    expected = api.deduce_card("distance", [{"garden": full, "verdict": "thrilled"}], "normal")
    assert [c.id for c in ded.candidates] == [c.id for c in expected.candidates] and "S08" in \
        [c.id for c in ded.candidates]
    assert ded.split_complete  # a 60 s deadline leaves the scan its ~0.3 s
    # with the Expert cards in play and S08 already seen face up
    more = stub.DeduceCard(pb.DeduceCardRequest(kind="distance", trials=[trial], mode=NORMAL, expert=True,
                                                exclude_card_ids=["S08"]), timeout=60)
    expected = api.deduce_card("distance", [{"garden": full, "verdict": "thrilled"}], "normal", expert=True,
                               exclude=["S08"])
    assert [c.id for c in more.candidates] == [c.id for c in expected.candidates]
    assert "S08" not in [c.id for c in more.candidates]
    with pytest.raises(grpc.RpcError) as err:
        stub.DeduceCard(pb.DeduceCardRequest(kind="distance", trials=[trial], exclude_card_ids=["S08", "S08"]),
                        timeout=30)
    assert "exclude_card_ids[1]" in field_violations(err.value)
    if len(ded.candidates) > 1:
        assert ded.split.thrilled_card_ids and ded.split.angry_card_ids


def test_bad_requests_name_the_field(stub):
    with pytest.raises(grpc.RpcError) as err:
        stub.GetHint(pb.GetHintRequest(card_ids=CARDS, level=7), timeout=30)
    assert "level" in field_violations(err.value)
    bad = common_pb2.Garden(placements=[common_pb2.Placement(tile="ZZ", row=0, col=0)])
    with pytest.raises(grpc.RpcError) as err:
        stub.CheckProgress(pb.CheckProgressRequest(garden=bad, card_ids=CARDS), timeout=30)
    assert "garden.placements[0].tile" in field_violations(err.value)
    with pytest.raises(grpc.RpcError) as err:
        stub.CheckProgress(pb.CheckProgressRequest(card_ids=[]), timeout=30)
    assert "card_ids" in field_violations(err.value)
    with pytest.raises(grpc.RpcError) as err:
        stub.DeduceCard(pb.DeduceCardRequest(kind="distance", trials=[pb.DeductionTrial()]), timeout=30)
    assert "trials[0].verdict" in field_violations(err.value)
    with pytest.raises(grpc.RpcError) as err:
        stub.DeduceCard(pb.DeduceCardRequest(kind="colour"), timeout=30)
    assert "kind" in field_violations(err.value)
    with pytest.raises(grpc.RpcError) as err:  # the garden's fields were named without `garden.`
        stub.DeduceCard(pb.DeduceCardRequest(kind="distance", garden=bad), timeout=30)
    assert "garden.placements[0].tile" in field_violations(err.value)


# ---- arbitrary requests: answered or refused with a precise status, never INTERNAL/UNKNOWN -------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from field_paths import unresolved  # noqa: E402
from server.app import create_server  # noqa: E402
from server.config import ServerConfig  # noqa: E402

TILES = [t.id for t in CAT.tiles]
ALLOWED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.DEADLINE_EXCEEDED}
_small = st.integers(-2, 7)
_placement = st.builds(common_pb2.Placement, tile=st.sampled_from(TILES) | st.text(max_size=3), row=_small,
                       col=_small, rotation=_small)


@st.composite
def _gardens(draw):
    order = draw(st.permutations(TILES))
    n = draw(st.integers(0, 36))
    return common_pb2.Garden(size=draw(st.sampled_from([0, 6])), placements=[
        common_pb2.Placement(tile=t, row=i // 6, col=i % 6, rotation=draw(st.integers(0, 3)))
        for i, t in enumerate(order[:n])])


_garden = _gardens() | _gardens() | st.builds(common_pb2.Garden, size=_small, placements=st.lists(_placement, max_size=8))
_cards = st.lists(st.sampled_from([f"S{i:02d}" for i in range(1, 60)]), min_size=1, max_size=3, unique=True) | \
    st.lists(st.text(max_size=3), max_size=2)
_mode = st.sampled_from([0, NORMAL]) | st.integers(0, 7)
FUZZ = {
    "CheckProgress": st.builds(pb.CheckProgressRequest, garden=_garden, card_ids=_cards, mode=_mode),
    "SuggestRepair": st.builds(pb.SuggestRepairRequest, garden=_garden, card_ids=_cards, mode=_mode,
                               removal_rules=st.booleans()),
    "GetHint": st.builds(pb.GetHintRequest, garden=_garden, card_ids=_cards, mode=_mode, level=st.integers(-1, 4),
                         rules=st.integers(0, 3), player=st.integers(-1, 3),
                         supplies=st.lists(st.builds(gpb.PlayerSupply,
                                                     stack=st.lists(st.sampled_from(TILES), max_size=20),
                                                     loose=st.lists(st.sampled_from(TILES), max_size=3)), max_size=3)),
    "ListForcedPlacements": st.builds(pb.ListForcedPlacementsRequest, garden=_garden, card_ids=_cards, mode=_mode),
    "DeduceCard": st.builds(pb.DeduceCardRequest, kind=st.sampled_from(["distance", "link", "colour", ""]),
                            trials=st.lists(st.builds(pb.DeductionTrial, garden=_garden, verdict=st.integers(0, 3)),
                                            max_size=2), mode=_mode),
}


@pytest.fixture(scope="module")
def fuzz_stub():
    server, port = create_server(ServerConfig(address="localhost:0", time_cap_s=1.0, call_time_cap_s=3.0))
    server.start()
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        yield hints_pb2_grpc.HintServiceStub(channel)
    server.stop(0).wait()
    server.runtime.metrics.close()


@pytest.mark.parametrize("method", sorted(FUZZ))
def test_arbitrary_requests_get_a_deliberate_status(fuzz_stub, method):
    rpc = getattr(fuzz_stub, method)

    @settings(max_examples=10, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(FUZZ[method])
    def check_one(request):
        try:
            rpc(request, timeout=10)
        except grpc.RpcError as err:
            assert err.code() in ALLOWED, (err.code(), err.details(), request)
            assert not (lost := unresolved(err, request.DESCRIPTOR)), (lost, err.details(), request)

    check_one()


def test_cli_hint_levels_and_progress(tmp_path, capsys, solution):
    import json

    from server.cli.main import main
    path = tmp_path / "garden.json"
    path.write_text(json.dumps(partial(solution, 24, wrong_cell=3)))
    views = []
    for level in (1, 2, 3):
        assert main(["hint", str(path), "--cards", ",".join(CARDS), "--level", str(level), "--json"]) == 0
        views.append(json.loads(capsys.readouterr().out))
    assert views[0]["card_id"] == views[1]["card_id"] == views[2]["card_id"]
    assert "cells" not in views[0] and "move" in views[2] and views[2]["text"].startswith(views[1]["text"])
    assert main(["progress", str(path), "--cards", ",".join(CARDS), "--json"]) == 0
    assert {c["card"] for c in json.loads(capsys.readouterr().out)["cards"]} == set(CARDS)


def test_floating_progress_over_the_wire(stub):
    tree = next(t for t in CAT.tiles if t.has("tree"))
    garden = common_pb2.Garden(placements=[common_pb2.Placement(tile=tree.id, row=1, col=1)])
    fixed = stub.CheckProgress(pb.CheckProgressRequest(garden=garden, card_ids=["S42"]), timeout=60)
    slid = stub.CheckProgress(pb.CheckProgressRequest(garden=garden, card_ids=["S42"], floating=True), timeout=60)
    assert fixed.completable == common_pb2.SOLVABILITY_UNSOLVABLE
    assert slid.completable == common_pb2.SOLVABILITY_SOLVABLE and slid.cards[0].status == pb.PROGRESS_STATUS_POSSIBLE
    moved = {(p.row, p.col): p.tile for p in slid.witness.placements}
    assert moved[(1 + slid.shift_rows, 1 + slid.shift_cols)] == tree.id


def test_floating_hint_and_repair_over_the_wire(stub):
    tree = next(t for t in CAT.tiles if t.has("tree"))
    garden = common_pb2.Garden(placements=[common_pb2.Placement(tile=tree.id, row=1, col=1)])
    hint = stub.GetHint(pb.GetHintRequest(garden=garden, card_ids=["S42"], floating=True), timeout=60)
    assert hint.move.kind == gpb.MOVE_KIND_ADD and hint.proven
    rep = stub.SuggestRepair(pb.SuggestRepairRequest(garden=garden, card_ids=["S42"], floating=True), timeout=60)
    assert rep.verdict == pb.REPAIR_VERDICT_OPTIMAL and not rep.remove
    moved = {(p.row, p.col): p.tile for p in rep.witness.placements}
    assert moved[(1 + rep.shift_rows, 1 + rep.shift_cols)] == tree.id


def test_a_floating_hints_move_can_be_laid_and_sent_again(stub):
    """GetHint with `floating` gives the move in the request's coordinates, which may be negative: the
    garden with that tile laid is accepted again (it was refused: col must be from 0 to 5)."""
    laid = [common_pb2.Placement(tile="A01"), common_pb2.Placement(tile="A02", col=1)]
    for _ in range(3):
        req = pb.GetHintRequest(garden=common_pb2.Garden(placements=laid), card_ids=["S01"], floating=True)
        hint = stub.GetHint(req, timeout=60)
        assert hint.status == pb.HINT_STATUS_MOVE and hint.move.kind == gpb.MOVE_KIND_ADD
        m = hint.move
        cells = {(p.row, p.col) for p in laid}
        assert (m.cell.row, m.cell.col) not in cells and (m.cell.row, m.cell.col) in {(c.row, c.col) for c in hint.cells}
        assert f"({m.cell.row}, {m.cell.col})" in hint.text
        laid.append(common_pb2.Placement(tile=m.tile, row=m.cell.row, col=m.cell.col, rotation=m.rotation))
    assert min(p.col for p in laid) < 0 or min(p.row for p in laid) < 0   # the case the test is about
    garden = common_pb2.Garden(placements=laid)
    progress = stub.CheckProgress(pb.CheckProgressRequest(garden=garden, card_ids=["S01"], floating=True), timeout=60)
    moved = {(p.row, p.col): p.tile for p in progress.witness.placements}
    assert all(moved[(p.row + progress.shift_rows, p.col + progress.shift_cols)] == p.tile for p in laid)
    rep = stub.SuggestRepair(pb.SuggestRepairRequest(garden=garden, card_ids=["S01"], floating=True), timeout=60)
    moved = {(p.row, p.col): p.tile for p in rep.witness.placements}
    assert all(moved[(p.row + rep.shift_rows, p.col + rep.shift_cols)] == p.tile for p in laid)
    # without `floating` the frame is fixed, and a garden wider than the frame is refused either way
    with pytest.raises(grpc.RpcError) as err:
        stub.GetHint(pb.GetHintRequest(garden=garden, card_ids=["S01"]), timeout=30)
    assert any(f.endswith((".row", ".col")) for f in field_violations(err.value))
    wide = [common_pb2.Placement(tile="A01", col=-3), common_pb2.Placement(tile="A02", col=3)]
    with pytest.raises(grpc.RpcError) as err:
        stub.GetHint(pb.GetHintRequest(garden=common_pb2.Garden(placements=wide), card_ids=["S01"], floating=True),
                     timeout=30)
    assert "must fit within 6 x 6" in field_violations(err.value)["garden.placements"]


def test_get_hint_refuses_a_split_garden_like_suggest_repair(stub):
    split = [common_pb2.Garden(placements=[common_pb2.Placement(tile="A01"), common_pb2.Placement(tile="A02", col=2)]),
             common_pb2.Garden(placements=[common_pb2.Placement(tile="A01"), common_pb2.Placement(tile="A02", col=1),
                                           common_pb2.Placement(tile="A03", row=3, col=3)])]
    for garden in split:
        for call, req in ((stub.GetHint, pb.GetHintRequest(garden=garden, card_ids=["S08"])),
                          (stub.SuggestRepair, pb.SuggestRepairRequest(garden=garden, card_ids=["S08"],
                                                                       removal_rules=True))):
            with pytest.raises(grpc.RpcError) as err:
                call(req, timeout=60)
            assert "one piece" in field_violations(err.value)["garden"]


def test_floating_is_refused_under_solo_rules_and_in_solo_mode(stub):
    garden = common_pb2.Garden(placements=[common_pb2.Placement(tile="A01", row=1, col=1)])
    calls = [(stub.GetHint, pb.GetHintRequest(garden=garden, card_ids=["S01"], rules=pb.MOVE_RULES_SOLO,
                                              floating=True)),
             (stub.GetHint, pb.GetHintRequest(garden=garden, card_ids=["S01"], mode=gpb.GAME_MODE_SOLO,
                                              floating=True)),
             (stub.CheckProgress, pb.CheckProgressRequest(garden=garden, card_ids=["S01"], mode=gpb.GAME_MODE_SOLO,
                                                          floating=True)),
             (stub.SuggestRepair, pb.SuggestRepairRequest(garden=garden, card_ids=["S01"], mode=gpb.GAME_MODE_SOLO,
                                                          floating=True))]
    for call, req in calls:
        with pytest.raises(grpc.RpcError) as err:
            call(req, timeout=60)
        assert list(field_violations(err.value)) == ["floating"]


def test_a_solo_mode_hint_follows_the_solo_rules_unless_told_otherwise(stub):
    """GetHint in GAME_MODE_SOLO without `rules` played by the Normal rules ("REMOVE A02, to player 1" in a game
    without players). Unset rules are now the mode's own; the Normal rules in Solo mode are INVALID_ARGUMENT."""
    garden = common_pb2.Garden(placements=[common_pb2.Placement(tile="A01", row=0, col=0),
                                           common_pb2.Placement(tile="A02", row=0, col=1)])
    solo = stub.GetHint(pb.GetHintRequest(garden=garden, card_ids=["S08"], mode=gpb.GAME_MODE_SOLO), timeout=60)
    told = stub.GetHint(pb.GetHintRequest(garden=garden, card_ids=["S08"], mode=gpb.GAME_MODE_SOLO,
                                          rules=pb.MOVE_RULES_SOLO), timeout=60)
    assert solo.status == pb.HINT_STATUS_MOVE and not solo.move.HasField("to_player")
    assert (solo.move, solo.route_length) == (told.move, told.route_length)
    normal = stub.GetHint(pb.GetHintRequest(garden=garden, card_ids=["S08"]), timeout=60)
    assert normal.move.kind != solo.move.kind or normal.move.HasField("to_player")  # (Normal mode: as before)
    with pytest.raises(grpc.RpcError) as err:
        stub.GetHint(pb.GetHintRequest(garden=garden, card_ids=["S08"], mode=gpb.GAME_MODE_SOLO,
                                       rules=pb.MOVE_RULES_NORMAL), timeout=60)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and list(field_violations(err.value)) == ["rules"]


def test_hint_with_supplies_over_the_wire(stub, solution):
    """The move is the asking player's own (top of their stack or a loose tile), legal in the game state."""
    doc = partial(solution, 20)
    rest = [t.id for t in CAT.tiles if t.id not in {p["tile"] for p in doc["placements"]}]
    supplies = [gpb.PlayerSupply(stack=rest[0::2]), gpb.PlayerSupply(stack=rest[1::2][:-1], loose=rest[-1:])]
    seen = set()
    for player in (0, 1):
        req = pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL, supplies=supplies, player=player)
        three = stub.GetHint(req, timeout=60)
        assert three.status in (pb.HINT_STATUS_MOVE, pb.HINT_STATUS_WAIT) and three.route_bound <= three.route_length
        seen.add(three.status)
        domain = api_hint_with_supplies(doc, supplies, player)
        assert pb.HintStatus.Name(three.status) == "HINT_STATUS_" + domain.status.upper()
        if three.status == pb.HINT_STATUS_MOVE:
            m = three.move
            assert m.player == player and three.proven and three.route_length == 36 - 20
            state = {"mode": "normal", "size": 6, "garden": doc["placements"],
                     "supplies": [{"stack": list(s.stack), "loose": list(s.loose)} for s in supplies]}
            move = {"kind": "add", "player": m.player, "tile": m.tile, "cell": [m.cell.row, m.cell.col],
                    "rotation": m.rotation}
            assert api.validate_move(state, move).legal
    assert pb.HINT_STATUS_MOVE in seen


def api_hint_with_supplies(doc, supplies, player):
    from solver.games.gardeners import supplies as sup
    docs = [{"stack": list(s.stack), "loose": list(s.loose)} for s in supplies]
    return sup.hint(doc, CARDS, "normal", docs, player, control=SolveControl(time_limit_s=20))


def test_bad_supplies_name_the_field_over_the_wire(stub, solution):
    doc = partial(solution, 20)
    rest = [t.id for t in CAT.tiles if t.id not in {p["tile"] for p in doc["placements"]}]
    dup = [gpb.PlayerSupply(stack=rest), gpb.PlayerSupply(loose=rest[:1])]
    with pytest.raises(grpc.RpcError) as err:
        stub.GetHint(pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, supplies=dup), timeout=30)
    assert "supplies[1].loose[0]" in field_violations(err.value)
    with pytest.raises(grpc.RpcError) as err:
        stub.GetHint(pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, player=1), timeout=30)
    assert "player" in field_violations(err.value)


def test_solo_hint_reports_its_bound_over_the_wire(stub, solution):
    doc = partial(solution, 24, wrong_cell=3)
    three = stub.GetHint(pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL, rules=pb.MOVE_RULES_SOLO),
                         timeout=60)
    assert three.status == pb.HINT_STATUS_MOVE and three.HasField("route_bound")
    assert three.route_bound <= three.route_length and (three.route_bound == three.route_length) == three.proven
    assert three.move.kind in (gpb.MOVE_KIND_SWAP, gpb.MOVE_KIND_ROTATE, gpb.MOVE_KIND_ADD)
    # the route's target comes back, and handed back with the same garden it bounds the route
    target = as_doc(three.target)
    assert len(target["placements"]) == 36 and api.check_garden(target, CARDS).valid
    again = stub.GetHint(pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL, rules=pb.MOVE_RULES_SOLO,
                                           target=three.target), timeout=60)
    assert again.status == pb.HINT_STATUS_MOVE and again.route_length <= three.route_length
    for rules, bad in ((pb.MOVE_RULES_SOLO, msg(doc)), (pb.MOVE_RULES_NORMAL, three.target)):
        with pytest.raises(grpc.RpcError) as err:  # not a valid garden of every tile; not Solo rules
            stub.GetHint(pb.GetHintRequest(garden=msg(doc), card_ids=CARDS, mode=NORMAL, rules=rules, target=bad),
                         timeout=60)
        assert "target" in field_violations(err.value)


# ---- deadlines: no step of a hint starts once the call's budget is gone ----------------------

TESTER_CARDS = ["S36", "S18", "S57", "S09", "S53", "S28", "S59", "S58"]   # 8 cards: no quick answer
TESTER_GARDEN = common_pb2.Garden(placements=[common_pb2.Placement(tile="A01")])


class _SpentAfterFirst(SolveControl):
    """A control whose budget (`ends_at`, the client's deadline less the margin) is gone once its first
    search returns; no wall clock decides anything. With `fake_first` that search stands for one that
    used the whole budget (it hits its limit: UNKNOWN) without running CP-SAT. Records what the call
    does after it: searches asked for and Gardeners models built."""

    fake_first = True

    def __post_init__(self):
        super().__post_init__()
        self.spent, self.searches_after, self.models_after = False, 0, 0

    def solve(self, model, solver=None, callback=None):
        if self.spent:
            self.searches_after += 1
            return super().solve(model, solver, callback)
        self.spent = True
        try:
            if self.fake_first:
                return cp_model.UNKNOWN, solver or self.new_solver()
            return super().solve(model, solver, callback)
        finally:
            self.ends_at = time.monotonic()


@pytest.fixture
def spent_server(start_server, monkeypatch):
    """A server whose calls get a _SpentAfterFirst control (limit 60 s, `ends_at` 60 s away until the first
    search ends), and a count of the Gardeners models built after that search."""
    from solver.games.gardeners import model as gmodel
    srv = start_server(with_probe=False)
    made = []

    def control(context):
        made.append(_SpentAfterFirst(time_limit_s=60, num_workers=1, ends_at=time.monotonic() + 60))
        return made[-1]
    monkeypatch.setattr(srv.runtime, "control", control)
    build = gmodel.GardenModel.__init__

    def counted(self, *args, **kwargs):
        for c in made:
            c.models_after += c.spent
        build(self, *args, **kwargs)
    monkeypatch.setattr(gmodel.GardenModel, "__init__", counted)
    return hints_pb2_grpc.HintServiceStub(srv.channel()), made


@pytest.mark.parametrize("method", ["GetHint", "CheckProgress", "SuggestRepair"])
def test_nothing_runs_after_the_budget_is_gone(spent_server, method):
    """The tester's GetHint (8 Standard cards, A01 laid; `--time-cap-s 5`, client deadline 0.8 s) ended
    DEADLINE_EXCEEDED: its first search took the budget (deadline - 0.5 s margin), and then CheckProgress's
    one completion per open card (8, a loop card's two) and the repair's two went on, each building its
    model (20-130 ms) for a search cut to 1 ms: ~0.5 s past the budget, the whole margin. Now a step is not
    started once the budget is gone: the answer says unknown, and nothing is searched or built after."""
    stub, made = spent_server
    if method == "GetHint":
        resp = stub.GetHint(pb.GetHintRequest(garden=TESTER_GARDEN, card_ids=TESTER_CARDS), timeout=60)
        assert resp.status == pb.HINT_STATUS_UNKNOWN
    elif method == "CheckProgress":
        resp = stub.CheckProgress(pb.CheckProgressRequest(garden=TESTER_GARDEN, card_ids=TESTER_CARDS), timeout=60)
        assert resp.completable == common_pb2.SOLVABILITY_UNKNOWN
        assert {c.status for c in resp.cards} <= {pb.PROGRESS_STATUS_UNKNOWN, pb.PROGRESS_STATUS_SATISFIED,
                                                  pb.PROGRESS_STATUS_BROKEN}
        assert pb.PROGRESS_STATUS_UNKNOWN in {c.status for c in resp.cards}
    else:
        resp = stub.SuggestRepair(pb.SuggestRepairRequest(garden=TESTER_GARDEN, card_ids=TESTER_CARDS), timeout=60)
        assert resp.verdict == pb.REPAIR_VERDICT_UNKNOWN
    [control] = made
    assert control.spent and (control.searches_after, control.models_after) == (0, 0)


def test_forced_placements_stop_testing_cells_when_the_budget_is_gone(spent_server, solution, monkeypatch):
    """ListForcedPlacements: a real first completion, then the budget is gone: the cells it did not get to
    test are undecided (verdict UNKNOWN), not tested one by one with 1 ms each."""
    stub, made = spent_server
    monkeypatch.setattr(_SpentAfterFirst, "fake_first", False)
    resp = stub.ListForcedPlacements(pb.ListForcedPlacementsRequest(garden=msg(partial(solution, 20)),
                                                                    card_ids=CARDS, mode=NORMAL), timeout=60)
    assert resp.verdict == common_pb2.SOLVABILITY_UNKNOWN and len(resp.undecided) == 16 and not resp.forced
    [control] = made
    assert control.spent and (control.searches_after, control.models_after) == (0, 0)


@pytest.mark.serial  # wall-clock: the answer must come before a 1.2 s deadline
@pytest.mark.parametrize("method", ["GetHint", "CheckProgress"])
def test_the_testers_call_answers_before_a_short_deadline(start_server, method):
    """The tester's request over a real server (`--time-cap-s 5`, margin 0.5 s): at a 0.8-1.5 s deadline it
    ended DEADLINE_EXCEEDED (server log: 0.78-1.53 s spent). Now it answers in time, unknown if need be."""
    srv = start_server(with_probe=False, time_cap_s=5, call_time_cap_s=20, deadline_margin_s=0.5)
    stub = hints_pb2_grpc.HintServiceStub(srv.channel())
    for _ in range(3):
        if method == "GetHint":
            resp = stub.GetHint(pb.GetHintRequest(garden=TESTER_GARDEN, card_ids=TESTER_CARDS), timeout=1.2)
            assert resp.status in (pb.HINT_STATUS_UNKNOWN, pb.HINT_STATUS_MOVE, pb.HINT_STATUS_UNSOLVABLE)
        else:
            resp = stub.CheckProgress(pb.CheckProgressRequest(garden=TESTER_GARDEN, card_ids=TESTER_CARDS),
                                      timeout=1.2)
            assert len(resp.cards) == len(TESTER_CARDS)
