"""PuzzleService over a real channel with a real SQLite file: window, generation on first request, answers, paging."""
from __future__ import annotations

import datetime as dt
import threading

import grpc
import pytest

from gardens.v1 import common_pb2, puzzles_pb2 as pb, puzzles_pb2_grpc
from generators.identity import PuzzleId
from generators.store import Puzzle, Store
from tests.generators.dailies import seed

GARDENERS, EASY, MEDIUM = pb.PUZZLE_GAME_GARDENERS, pb.PUZZLE_DIFFICULTY_EASY, pb.PUZZLE_DIFFICULTY_MEDIUM
TIMEOUT = 120  # generation on first request runs CP-SAT on a loaded machine


def today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(path))
    return path


@pytest.fixture
def stub(db, start_server):
    return puzzles_pb2_grpc.PuzzleServiceStub(start_server(with_probe=False, workers=4).channel())


@pytest.fixture
def open_stub(db, start_server, monkeypatch):
    """A server whose window is opened wide, so that fixed (golden) dates are served."""
    monkeypatch.setenv("GARDENS_PUZZLES_PAST_DAYS", "100000")
    monkeypatch.setenv("GARDENS_PUZZLES_FUTURE_DAYS", "100000")
    return puzzles_pb2_grpc.PuzzleServiceStub(start_server(with_probe=False, workers=4).channel())


def code_of(call, request) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=TIMEOUT)
    return err.value.code()


def test_todays_puzzle_is_generated_once_and_served_without_answer(stub, db):
    request = pb.GetDailyPuzzleRequest(game=GARDENERS, difficulty=EASY)
    got = []
    threads = [threading.Thread(target=lambda: got.append(stub.GetDailyPuzzle(request, timeout=TIMEOUT)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 2 and got[0] == got[1]
    puzzle = got[0]
    assert puzzle.id == f"gardeners/decree/easy/{today().isoformat()}"
    assert puzzle.WhichOneof("content") == "gardeners_decree"
    assert len(puzzle.gardeners_decree.card_ids) == 3 and puzzle.gardeners_decree.grade.score > 0
    stored = Store(db).list()
    assert [str(p.id) for p in stored] == [puzzle.id]
    # nothing of the stored answer travels: no tile id of the solution appears in the message
    wire = puzzle.SerializeToString()
    assert not any(p["tile"].encode() in wire for p in stored[0].answer["solution"]["placements"])
    assert stub.GetDailyPuzzle(request, timeout=TIMEOUT) == puzzle   # now from the store


def test_the_window_never_leaks_the_future(stub, db):
    later = (today() + dt.timedelta(days=2)).isoformat()
    request = pb.GetDailyPuzzleRequest(game=GARDENERS, difficulty=EASY, date=later)
    assert code_of(stub.GetDailyPuzzle, request) == grpc.StatusCode.FAILED_PRECONDITION
    old = (today() - dt.timedelta(days=30)).isoformat()
    assert code_of(stub.GetDailyPuzzle, pb.GetDailyPuzzleRequest(game=GARDENERS, difficulty=EASY, date=old)) == \
        grpc.StatusCode.NOT_FOUND
    # a puzzle stored ahead of time is not listed, and cannot be answered, before its day
    pid = PuzzleId("gardeners", "decree", "easy", today() + dt.timedelta(days=5))
    Store(db).put(Puzzle(pid, "test", "d", 1, {"card_ids": ["S01"], "size": 6, "deck": "standard"},
                         {"kind": "garden", "solution": {}}))
    assert stub.ListPuzzles(pb.ListPuzzlesRequest(), timeout=TIMEOUT).puzzles == []
    check = pb.CheckAnswerRequest(puzzle_id=str(pid), garden=common_pb2.Garden())
    assert code_of(stub.CheckAnswer, check) == grpc.StatusCode.FAILED_PRECONDITION
    # answering never generates: an unseen puzzle of today is not found
    unseen = pb.CheckAnswerRequest(puzzle_id=f"gardeners/decree/hard/{today().isoformat()}",
                                   garden=common_pb2.Garden())
    assert code_of(stub.CheckAnswer, unseen) == grpc.StatusCode.NOT_FOUND


def violations(call, request) -> dict[str, str]:
    """The BadRequest field violations of an INVALID_ARGUMENT answer, without the quoted bad value."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=TIMEOUT)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err.value).details[0].Unpack(bad)
    return {v.field: v.description.split(" (got ")[0] for v in bad.field_violations}


@pytest.mark.parametrize("request_", [
    pb.GetDailyPuzzleRequest(difficulty=EASY),
    pb.GetDailyPuzzleRequest(game=GARDENERS),
    pb.GetDailyPuzzleRequest(game=GARDENERS, difficulty=EASY, date="2027-02-30"),
    pb.GetDailyPuzzleRequest(game=GARDENERS, difficulty=EASY, variant="sudoku"),
], ids=["no-game", "no-difficulty", "bad-date", "bad-variant"])
def test_bad_requests_are_invalid_arguments(stub, request_):
    assert code_of(stub.GetDailyPuzzle, request_) == grpc.StatusCode.INVALID_ARGUMENT


def test_decree_answers(open_stub, db):
    puzzle = open_stub.GetDailyPuzzle(pb.GetDailyPuzzleRequest(
        game=GARDENERS, difficulty=EASY, date="2027-01-01"), timeout=TIMEOUT)
    assert puzzle.id == "gardeners/decree/easy/2027-01-01"
    solution = Store(db).get(PuzzleId("gardeners", "decree", "easy", dt.date(2027, 1, 1))).answer["solution"]
    garden = common_pb2.Garden(size=6, placements=[common_pb2.Placement(**p) for p in solution["placements"]])
    ok = open_stub.CheckAnswer(pb.CheckAnswerRequest(puzzle_id=puzzle.id, garden=garden), timeout=TIMEOUT)
    assert ok.correct and ok.outcome == pb.ANSWER_OUTCOME_CORRECT
    assert [v.card_id for v in ok.verdicts] == list(puzzle.gardeners_decree.card_ids)
    assert all(v.kind for v in ok.verdicts)  # the card's kind, as CheckGarden gives it (was left empty)
    partial = common_pb2.Garden(size=6, placements=garden.placements[:-1])
    bad = open_stub.CheckAnswer(pb.CheckAnswerRequest(puzzle_id=puzzle.id, garden=partial), timeout=TIMEOUT)
    assert not bad.correct and bad.outcome == pb.ANSWER_OUTCOME_INCOMPLETE
    wrong_kind = pb.CheckAnswerRequest(puzzle_id=puzzle.id, discard=common_pb2.CardSet(card_ids=["S01"]))
    assert code_of(open_stub.CheckAnswer, wrong_kind) == grpc.StatusCode.INVALID_ARGUMENT


def test_impossible_decree_answers(open_stub, db):
    puzzle = open_stub.GetDailyPuzzle(pb.GetDailyPuzzleRequest(
        game=GARDENERS, variant="impossible", difficulty=MEDIUM, date="2027-01-02"), timeout=TIMEOUT)
    assert not puzzle.gardeners_decree.HasField("grade")
    answer = Store(db).get(PuzzleId("gardeners", "impossible", "medium", dt.date(2027, 1, 2))).answer
    right = min(answer["discards"], key=len)  # (a larger minimal set is BELOW_OPTIMUM)
    ok = open_stub.CheckAnswer(pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, discard=common_pb2.CardSet(card_ids=right)), timeout=TIMEOUT)
    assert ok.correct and ok.outcome == pb.ANSWER_OUTCOME_CORRECT
    every = list(puzzle.gardeners_decree.card_ids)
    more = open_stub.CheckAnswer(pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, discard=common_pb2.CardSet(card_ids=every)), timeout=TIMEOUT)
    assert not more.correct and more.outcome == pb.ANSWER_OUTCOME_NOT_MINIMAL
    none = open_stub.CheckAnswer(pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, discard=common_pb2.CardSet()), timeout=TIMEOUT)
    assert none.outcome == pb.ANSWER_OUTCOME_WRONG and none.violations  # (the conflicts left)
    assert (ok.score, ok.optimum) == (-(len(right) - 1), -(len(right) - 1))
    stranger = pb.CheckAnswerRequest(puzzle_id=puzzle.id, discard=common_pb2.CardSet(card_ids=["S99"]))
    assert code_of(open_stub.CheckAnswer, stranger) == grpc.StatusCode.INVALID_ARGUMENT
    # a card named twice is an input error, as in every other RPC (it was CORRECT)
    twice = pb.CheckAnswerRequest(puzzle_id=puzzle.id, discard=common_pb2.CardSet(card_ids=right + right[-1:]))
    assert violations(open_stub.CheckAnswer, twice) == {f"discard.card_ids[{len(right)}]": "card given twice"}
    garden = pb.CheckAnswerRequest(puzzle_id=puzzle.id, garden=common_pb2.Garden())
    assert violations(open_stub.CheckAnswer, garden) == {"discard": "an impossible puzzle is answered with `discard`"}


def test_list_puzzles_pages(open_stub, db):
    store = Store(db)
    for day in range(1, 6):
        pid = PuzzleId("gardeners", "decree", "easy", dt.date(2027, 3, day))
        store.put(Puzzle(pid, "test", "d", day, {"card_ids": ["S01"], "size": 6, "deck": "standard"}, {}))
    seen, token = [], ""
    while True:
        page = open_stub.ListPuzzles(pb.ListPuzzlesRequest(page_size=2, page_token=token), timeout=TIMEOUT)
        assert len(page.puzzles) <= 2
        seen += [p.id for p in page.puzzles]
        token = page.next_page_token
        if not token:
            break
    assert seen == [f"gardeners/decree/easy/2027-03-0{d}" for d in range(1, 6)]
    first = open_stub.ListPuzzles(pb.ListPuzzlesRequest(page_size=2), timeout=TIMEOUT)
    changed = pb.ListPuzzlesRequest(page_size=2, page_token=first.next_page_token, difficulty=EASY)
    assert code_of(open_stub.ListPuzzles, changed) == grpc.StatusCode.INVALID_ARGUMENT
    assert code_of(open_stub.ListPuzzles, pb.ListPuzzlesRequest(page_token="garbage")) == \
        grpc.StatusCode.INVALID_ARGUMENT
    import base64
    for forged in (b"[" * 1000, b'{"after": ' + b"[" * 600):  # deeply nested JSON was a RecursionError: INTERNAL
        token = base64.urlsafe_b64encode(forged).decode()
        assert violations(open_stub.ListPuzzles, pb.ListPuzzlesRequest(page_token=token)) == \
            {"page_token": "not a page token of this listing (the filters must stay the same)"}
    ranged = open_stub.ListPuzzles(pb.ListPuzzlesRequest(date_from="2027-03-02", date_to="2027-03-03"),
                                   timeout=TIMEOUT)
    assert [p.id[-10:] for p in ranged.puzzles] == ["2027-03-02", "2027-03-03"]


def test_settings_from_env_and_config_fields(tmp_path):
    from types import SimpleNamespace

    from server.services.puzzles import settings_for
    env = {"GARDENS_PUZZLES_DB": "/x.sqlite", "GARDENS_PUZZLES_FUTURE_DAYS": "3"}
    assert settings_for(SimpleNamespace(), env) == type(settings_for(SimpleNamespace(), env))("/x.sqlite", 1, 3)
    # config fields (when the server config grows them) win over the environment
    config = SimpleNamespace(puzzles_db=str(tmp_path / "p.sqlite"), puzzles_past_days=0, puzzles_future_days=2)
    got = settings_for(config, env)
    assert (got.db, got.past_days, got.future_days) == (str(tmp_path / "p.sqlite"), 0, 2)
    with pytest.raises(ValueError, match="GARDENS_PUZZLES_PAST_DAYS"):
        settings_for(SimpleNamespace(), {"GARDENS_PUZZLES_PAST_DAYS": "-1"})


def test_gartenbau_holding_answers(open_stub, db):
    from google.protobuf import json_format, struct_pb2
    # stored as if made before (the generation on first request is the gardeners tests', and the Versailles and
    # Horticulture days'; the holding's proof took ~20 s here)
    seed(db, "gartenbau/holding/easy/2027-01-01")
    puzzle = open_stub.GetDailyPuzzle(pb.GetDailyPuzzleRequest(
        game=pb.PUZZLE_GAME_GARTENBAU, difficulty=EASY, date="2027-01-01"), timeout=TIMEOUT)
    assert puzzle.id == "gartenbau/holding/easy/2027-01-01" and puzzle.gartenbau_holding.starter_id
    answer = Store(db).get(PuzzleId("gartenbau", "holding", "easy", dt.date(2027, 1, 1))).answer

    def check(garden: dict):
        struct = struct_pb2.Struct()
        json_format.ParseDict(garden, struct)
        return open_stub.CheckAnswer(pb.CheckAnswerRequest(puzzle_id=puzzle.id, gartenbau_garden=struct),
                                     timeout=TIMEOUT)

    best = check(answer["garden"])
    assert best.correct and best.score == best.optimum == answer["prestige"]
    bare = check({"starter": answer["garden"]["starter"], "tokens": {"flower_pot": True, "watering_can": True}})
    # (no seedling tile placed: every held one must be, decision 11 of docs/gartenbau.md)
    assert not bare.correct and bare.outcome == pb.ANSWER_OUTCOME_INCOMPLETE and bare.score < bare.optimum
    with pytest.raises(grpc.RpcError) as err:
        check({"starter": {"id": "ST9", "side": "a", "cells": [[0, 0], [0, 1]]}})
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "gartenbau_garden.starter" in err.value.details()
    for key, value in (("seedlings", 1), ("plants", True), ("flowers", 1e300), ("seedlings", "S05")):
        # a number was INTERNAL ('int' object is not iterable); a string was read letter by letter
        request = pb.CheckAnswerRequest(puzzle_id=puzzle.id,
                                        gartenbau_garden=_struct({"starter": answer["garden"]["starter"], key: value}))
        assert violations(open_stub.CheckAnswer, request) == {f"gartenbau_garden.{key}": "must be a list of placed tiles"}


def _struct(doc: dict):
    from google.protobuf import json_format, struct_pb2
    struct = struct_pb2.Struct()
    json_format.ParseDict(doc, struct)
    return struct


def test_versailles_day_answers(open_stub, db):
    puzzle = open_stub.GetDailyPuzzle(pb.GetDailyPuzzleRequest(
        game=pb.PUZZLE_GAME_VERSAILLES, difficulty=EASY, date="2027-01-01"), timeout=TIMEOUT)
    assert puzzle.id == "versailles/tiles/easy/2027-01-01" and puzzle.variant == "tiles"
    stored = Store(db).get(PuzzleId("versailles", "tiles", "easy", dt.date(2027, 1, 1)))
    assert list(puzzle.versailles_tiles.tiles) == stored.public["tiles"]
    assert puzzle.versailles_tiles.first_stage_tiles == len(stored.public["tiles"])   # easy: within stage one

    def check(garden: dict):
        return open_stub.CheckAnswer(pb.CheckAnswerRequest(puzzle_id=puzzle.id, versailles_garden=_struct(garden)),
                                     timeout=TIMEOUT)

    best = check(stored.answer["garden"])
    assert best.correct and best.outcome == pb.ANSWER_OUTCOME_CORRECT and best.score == best.optimum
    from solver.games.versailles import api as versailles
    placements = stored.answer["garden"]["placements"]
    turned = ({"placements": placements[:i] + [dict(p, rotation=(p.get("rotation", 0) + turn) % 4)] + placements[i + 1:]}
              for i, p in enumerate(placements) for turn in (1, 2, 3))  # one tile turned
    lower = [garden for garden in turned
             if versailles.validate(garden)["valid"] and versailles.score(garden)["solo_points"] < best.optimum]
    below = check(lower[0])  # legal, complete, fewer points: was WRONG with no violation
    assert (below.outcome, below.correct, list(below.violations)) == (pb.ANSWER_OUTCOME_BELOW_OPTIMUM, False, [])
    assert below.score == versailles.score(lower[0])["solo_points"] < below.optimum
    part = check({"placements": stored.answer["garden"]["placements"][:2]})
    assert not part.correct and part.outcome == pb.ANSWER_OUTCOME_INCOMPLETE and part.violations
    with pytest.raises(grpc.RpcError) as err:
        check({"placements": list(reversed(stored.answer["garden"]["placements"]))})
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "versailles_garden.placements[0].tile" in err.value.details()
    wrong = dict(stored.answer["garden"]["placements"][0], y="a")  # the engine's field, under the answer's name
    assert violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, versailles_garden=_struct({"placements": [wrong]}))) == \
        {"versailles_garden.placements[0].y": "expected an integer, got 'a'"}
    assert code_of(open_stub.CheckAnswer, pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, horticulture_game=_struct({"days": []}))) == grpc.StatusCode.INVALID_ARGUMENT
    extra = placements + [{"tile": 999, "x": 40, "y": 40}]  # (it said "the day's tile at this turn is no more tiles")
    assert violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, versailles_garden=_struct({"placements": extra}))) == \
        {"versailles_garden.placements": f"the day has {len(placements)} tiles, not more"}


def test_horticulture_day_answers(open_stub, db):
    puzzle = open_stub.GetDailyPuzzle(pb.GetDailyPuzzleRequest(
        game=pb.PUZZLE_GAME_HORTICULTURE, difficulty=EASY, date="2027-01-01"), timeout=TIMEOUT)
    assert puzzle.id == "horticulture/nursery/easy/2027-01-01"
    stored = Store(db).get(PuzzleId("horticulture", "nursery", "easy", dt.date(2027, 1, 1)))
    setup = puzzle.horticulture_setup
    assert list(setup.nursery) == stored.public["setup"]["nursery"] and setup.side == stored.public["setup"]["side"]
    assert setup.path_moves == stored.public["setup"]["path"]["moves"]
    assert [setup.gnome_column, setup.gnome_row] == stored.public["setup"]["gnome"]
    # the typed copy: a HorticultureService request made from it reads as the stored setup (the flat gnome_column
    # and gnome_row were the only gnome, where the service takes a Cell: the client walkthrough of 7 Dec)
    from gardens.v1 import horticulture_pb2
    from server.services import horticulture
    request = horticulture_pb2.HorticultureSolveOptimalRequest(side=setup.side, path=setup.path, gnome=setup.gnome,
                                                               plan=setup.plan, nursery=setup.nursery)
    assert horticulture.setup(request) == {k: stored.public["setup"][k] for k in ("side", "path", "gnome", "plan")}
    assert (setup.gnome.row, setup.gnome.col) == (setup.gnome_row, setup.gnome_column)

    def check(game: dict):
        return open_stub.CheckAnswer(pb.CheckAnswerRequest(puzzle_id=puzzle.id, horticulture_game=_struct(game)),
                                     timeout=TIMEOUT)

    days = stored.answer["garden"]["days"]
    best = check({"days": days})
    assert best.correct and best.score == best.optimum == stored.answer["score"]
    part = check({"days": days[:1]})
    assert not part.correct and part.outcome == pb.ANSWER_OUTCOME_INCOMPLETE and part.score <= part.optimum
    with pytest.raises(grpc.RpcError) as err:
        check({"days": [dict(days[0], chosen=999)]})
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "horticulture_game.days[0].chosen" in err.value.details()
    assert list(violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, horticulture_game=_struct({"days": [dict(days[0], plants=3)]})))) == \
        ["horticulture_game.days[0].plants"]  # was the whole answer, with the path in the message
    assert list(violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, horticulture_game=_struct({"days": [5]})))) == ["horticulture_game.days[0]"]
    assert violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(
        puzzle_id=puzzle.id, horticulture_game=_struct({"days": days + days[:1]}))) == \
        {"horticulture_game.days": f"the puzzle has {len(days)} days, not more"}  # (it said "the day has")


def test_typed_answers_are_judged_as_their_struct_twins(open_stub, db):
    """CheckAnswer also takes the game services' own typed messages (`gartenbau`, `versailles`, `horticulture`), so
    that a client sends a garden back as SolveOptimal gave it: the Struct forms took other pair orders than the
    services' Cells (the client walkthrough of 7 Dec). The same outcomes as the Struct twins, fields named by the
    typed member."""
    from gardens.v1 import horticulture_pb2, versailles_pb2
    from server.services import gartenbau, horticulture, versailles

    def versailles_msg(garden):
        return versailles_pb2.VersaillesGarden(placements=[versailles.placement_msg(p) for p in garden["placements"]])

    def horticulture_msg(garden):
        return horticulture_pb2.HorticultureGame(days=[horticulture.day_msg(d) for d in garden["days"]])

    date = dt.date(2027, 1, 1)
    # stored as if made before (generated once a run, tests/generators/dailies.py): made here, they took ~40 s
    seed(db, "gartenbau/holding/easy/2027-01-01", "versailles/tiles/easy/2027-01-01",
         "horticulture/nursery/easy/2027-01-01")
    for game, name, variant, member, twin, typed, wrong in (
            (pb.PUZZLE_GAME_GARTENBAU, "gartenbau", "holding", "gartenbau", "gartenbau_garden", gartenbau.garden_msg,
             {"versailles": versailles_pb2.VersaillesGarden()}),
            (pb.PUZZLE_GAME_VERSAILLES, "versailles", "tiles", "versailles", "versailles_garden", versailles_msg,
             {"horticulture": horticulture_pb2.HorticultureGame()}),
            (pb.PUZZLE_GAME_HORTICULTURE, "horticulture", "nursery", "horticulture", "horticulture_game",
             horticulture_msg, {"versailles": versailles_pb2.VersaillesGarden()})):
        puzzle = open_stub.GetDailyPuzzle(pb.GetDailyPuzzleRequest(game=game, difficulty=EASY, date=date.isoformat()),
                                          timeout=TIMEOUT)
        garden = Store(db).get(PuzzleId(name, variant, "easy", date)).answer["garden"]

        def check(**answer):
            return open_stub.CheckAnswer(pb.CheckAnswerRequest(puzzle_id=puzzle.id, **answer), timeout=TIMEOUT)
        best = check(**{member: typed(garden)})
        assert best.correct and best.outcome == pb.ANSWER_OUTCOME_CORRECT and best.score == best.optimum
        assert best == check(**{twin: _struct(garden)})
        if name != "gartenbau":  # (the first placement or day alone)
            short = {k: v[:1] if k in ("placements", "days") else v for k, v in garden.items()}
            part = check(**{member: typed(short)})
            assert part.outcome == pb.ANSWER_OUTCOME_INCOMPLETE and part == check(**{twin: _struct(short)})
        refused = violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(puzzle_id=puzzle.id, **wrong))
        assert list(refused) == [twin] and f"`{member}`" in refused[twin]
        if name == "versailles":  # a field of the typed answer is named under its member
            backwards = {"placements": list(reversed(garden["placements"]))}
            assert list(violations(open_stub.CheckAnswer, pb.CheckAnswerRequest(
                puzzle_id=puzzle.id, versailles=versailles_msg(backwards)))) == ["versailles.placements[0].tile"]


def test_a_config_value_makes_the_environments_irrelevant():
    """Flags win over the environment: a bad GARDENS_PUZZLES_PAST_DAYS under --puzzles-past-days 2 was refused."""
    from server.config import ServerConfig
    from server.services.puzzles import settings_for

    env = {"GARDENS_PUZZLES_PAST_DAYS": "-1", "GARDENS_PUZZLES_FUTURE_DAYS": "x", "GARDENS_PUZZLES_DB": "/nowhere"}
    config = ServerConfig(puzzles_past_days=2, puzzles_future_days=0, puzzles_db="/tmp/p.sqlite")
    settings = settings_for(config, env)
    assert (settings.past_days, settings.future_days, settings.db) == (2, 0, "/tmp/p.sqlite")
    with pytest.raises(ValueError, match="GARDENS_PUZZLES_PAST_DAYS"):  # with no config value the variable counts
        settings_for(ServerConfig(), env)


def test_a_page_token_outlives_midnight(db):
    """The token's filters held the default end of the listing (the last day served, which moves at midnight UTC):
    the next page, asked for after midnight with the same request, was refused."""
    from server.config import ServerConfig
    from server.runtime import Runtime
    from server.services.puzzles import PuzzleServicer, PuzzleSettings

    store = Store(db)
    for day in range(1, 6):
        pid = PuzzleId("gardeners", "decree", "easy", dt.date(2027, 3, day))
        store.put(Puzzle(pid, "test", "d", day, {"card_ids": ["S01"], "size": 6, "deck": "standard"}, {}))
    clock = [dt.date(2027, 3, 4)]
    service = PuzzleServicer(Runtime(ServerConfig()), PuzzleSettings(str(db)), today=lambda: clock[0])
    first = service.ListPuzzles(pb.ListPuzzlesRequest(page_size=2), None)
    assert [p.id[-10:] for p in first.puzzles] == ["2027-03-01", "2027-03-02"] and first.next_page_token
    clock[0] = dt.date(2027, 3, 5)  # midnight: one more day is served
    second = service.ListPuzzles(pb.ListPuzzlesRequest(page_size=2, page_token=first.next_page_token), None)
    assert [p.id[-10:] for p in second.puzzles] == ["2027-03-03", "2027-03-04"]
    with pytest.raises(ValueError, match="page_token"):  # other filters still cannot change under a token
        service.ListPuzzles(pb.ListPuzzlesRequest(page_size=2, page_token=first.next_page_token,
                                                  date_to="2027-03-03"), None)


def test_a_puzzle_not_stored_yet_is_made_for_a_call_without_deadline(stub, db):
    """The load walkthrough of 7 Dec: a call without deadline (the default of most gRPC clients and of grpcurl) got
    INTERNAL for every puzzle not stored yet: gRPC's time remaining is then ~1e10 s, and the wait for the puzzle's
    lock overflowed threading's timeout."""
    request = pb.GetDailyPuzzleRequest(game=GARDENERS, difficulty=EASY)
    future = stub.GetDailyPuzzle.future(request)  # no timeout: no deadline on the wire
    puzzle = future.result(timeout=TIMEOUT)  # (the test's own wait)
    assert puzzle.id == f"gardeners/decree/easy/{today().isoformat()}"
    assert [str(p.id) for p in Store(db).list()] == [puzzle.id]
