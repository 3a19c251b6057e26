"""A server on the publisher's data: --gartenbau-data, --versailles-data and --horticulture-data reach every RPC of
their game and the daily puzzles (made and checked with the server's data); a broken directory stops the start-up;
a stored puzzle made with other data is not served (the data-replacement walkthrough of 7 Dec: the three games had
no server route at all, and the puzzles always used the reference data, old answers included)."""
from __future__ import annotations

import json
import shutil

import grpc
import pytest

from gardens.v1 import (gartenbau_pb2, gartenbau_pb2_grpc, horticulture_pb2, horticulture_pb2_grpc, puzzles_pb2,
                        puzzles_pb2_grpc, versailles_pb2, versailles_pb2_grpc)
from generators import daily
from generators.data import REFERENCE, GameData
from generators.identity import parse_id
from generators.store import Store
from server.app import create_server
from server.config import ServerConfig
from solver.games.gartenbau.data import DATA_DIR as GARTENBAU
from solver.games.horticulture.data import DATA_DIR as HORTICULTURE
from solver.games.versailles.data import DATA_DIR as VERSAILLES


def _copy(src, tmp_path, name, change):
    """A copy of a reference data directory with `change(file name -> document)` applied."""
    target = tmp_path / name
    shutil.copytree(src, target, ignore=shutil.ignore_patterns("examples"))
    docs = {p.name: json.loads(p.read_text()) for p in target.glob("*.json")}
    change(docs)
    for file, doc in docs.items():
        (target / file).write_text(json.dumps(doc))
    return target


def _final_only(docs):
    docs["setup.json"]["scored_areas"] = {"intermediate": 1, "final": 1}


def _carrots_of_two(docs):
    for plant in docs["plants.json"]["plants"]:
        if plant["id"] == "carrot":
            plant["minimum_group_size"] = 2


@pytest.fixture
def versailles_dir(tmp_path):
    return _copy(VERSAILLES, tmp_path, "versailles", _final_only)


def _server(tmp_path, **config):
    server, port = create_server(ServerConfig(address="localhost:0", puzzles_db=str(tmp_path / "p.sqlite"),
                                              puzzles_past_days=36500, puzzles_future_days=36500, **config))
    server.start()
    return server, grpc.insecure_channel(f"localhost:{port}")


def test_each_game_serves_the_data_directory_it_is_given(tmp_path, versailles_dir):
    garden = versailles_pb2.VersaillesGarden()
    doc = json.loads((VERSAILLES.parents[2] / "examples" / "versailles-garden.json").read_text())
    for p in doc["placements"]:
        garden.placements.add(tile=p["tile"], x=p["x"], y=p["y"], rotation=p.get("rotation", 0))
    plan = _copy(HORTICULTURE, tmp_path, "horticulture", _carrots_of_two)
    prestige = _copy(GARTENBAU, tmp_path, "gartenbau", lambda docs: [
        f["scoring"].update(prestige=30) for f in docs["flowers.json"]["flowers"] if f["id"] == "B-beetle-sweet-william"])
    from test_gartenbau_service import GARDEN, garden_msg
    from test_horticulture_service import SAMANTHA, planting, setup_fields

    answers = {}
    for name, config in (("reference", {}), ("publisher", {"versailles_data": str(versailles_dir),
                                                           "horticulture_data": str(plan),
                                                           "gartenbau_data": str(prestige)})):
        server, channel = _server(tmp_path, **config)
        try:
            score = versailles_pb2_grpc.VersaillesServiceStub(channel).Score(
                versailles_pb2.VersaillesScoreRequest(garden=garden), timeout=30)
            sheet = horticulture_pb2_grpc.HorticultureServiceStub(channel).Score(horticulture_pb2.HorticultureScoreRequest(
                **setup_fields(SAMANTHA), garden=[planting(p) for p in SAMANTHA["garden"]],
                window_box=SAMANTHA["window_box"]), timeout=30)
            prestige_now = gartenbau_pb2_grpc.GartenbauServiceStub(channel).Score(
                gartenbau_pb2.GartenbauScoreRequest(garden=garden_msg(GARDEN)), timeout=30)
            answers[name] = ((len(score.intermediate_areas), len(score.final_areas)), sheet.score.groups_total,
                             prestige_now.score.total)
        finally:
            channel.close()
            server.stop(0).wait()
    (areas, groups, total), (areas2, groups2, total2) = answers["reference"], answers["publisher"]
    assert areas == (2, 3) and areas2 == (1, 1)   # the largest areas scored at each scoring: setup.json
    assert (groups, total) == (24, 18) and (groups2, total2) == (23, 32), answers  # carrots of 2; the flower 16 -> 30


@pytest.mark.parametrize("setting", ["gartenbau_data", "versailles_data", "horticulture_data"])
def test_a_broken_data_directory_stops_the_start_up_naming_the_flag(tmp_path, setting):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match=f"--{setting.replace('_', '-')} {empty}"):
        create_server(ServerConfig(address="localhost:0", **{setting: str(empty)}))


def test_daily_puzzles_are_made_with_the_servers_data_and_old_ones_are_not_served(tmp_path, versailles_dir):
    pid = parse_id("versailles/tiles/easy/2027-01-01")
    old = Store(tmp_path / "p.sqlite").put(daily.generate(pid))  # made with the reference data
    data = GameData(versailles=str(versailles_dir))
    assert daily.problems(old, data) == [str(daily.StaleData(old, daily.kind_of(pid).digest(data)))]
    server, channel = _server(tmp_path, versailles_data=str(versailles_dir))
    stub = puzzles_pb2_grpc.PuzzleServiceStub(channel)
    try:
        request = puzzles_pb2.GetDailyPuzzleRequest(game=puzzles_pb2.PUZZLE_GAME_VERSAILLES,
                                                    difficulty=puzzles_pb2.PUZZLE_DIFFICULTY_EASY, date="2027-01-01")
        with pytest.raises(grpc.RpcError) as err:
            stub.GetDailyPuzzle(request, timeout=120)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "other data files" in err.value.details()
        with pytest.raises(grpc.RpcError) as err:
            stub.CheckAnswer(puzzles_pb2.CheckAnswerRequest(puzzle_id=str(pid)), timeout=30)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        request.date = "2027-01-02"  # not stored: made now, with the server's data
        fresh = stub.GetDailyPuzzle(request, timeout=120)
        assert fresh.catalog_digest == daily.kind_of(pid).digest(data) != daily.kind_of(pid).digest(REFERENCE)
        stored = Store(tmp_path / "p.sqlite").get(parse_id(fresh.id))
        assert daily.problems(stored, data) == []
        from google.protobuf import json_format, struct_pb2
        answer = struct_pb2.Struct()
        json_format.ParseDict(stored.answer["garden"], answer)
        checked = stub.CheckAnswer(puzzles_pb2.CheckAnswerRequest(puzzle_id=fresh.id, versailles_garden=answer),
                                   timeout=30)
        assert checked.correct and checked.score == checked.optimum == stored.answer["points"]
    finally:
        channel.close()
        server.stop(0).wait()


@pytest.mark.parametrize("game, service, setting, source", [
    ("gartenbau", "GartenbauService", "gartenbau_data", GARTENBAU),
    ("versailles", "VersaillesService", "versailles_data", VERSAILLES),
    ("horticulture", "HorticultureService", "horticulture_data", HORTICULTURE)])
def test_get_data_files_hands_out_the_files_in_use_with_the_puzzles_digest(tmp_path, game, service, setting, source):
    """A web page draws tiles, cards and sheets from the data the answers come from: there was no RPC for it."""
    from google.protobuf import json_format

    from gardens.v1 import common_pb2
    changed = _copy(source, tmp_path, game, lambda docs: docs[sorted(docs)[0]].update(_note="the publisher's"))
    for directory, config in ((source, {}), (changed, {setting: str(changed)})):
        server, channel = _server(tmp_path, **config)
        try:
            stub = {"gartenbau": gartenbau_pb2_grpc.GartenbauServiceStub, "versailles": versailles_pb2_grpc.
                    VersaillesServiceStub, "horticulture": horticulture_pb2_grpc.HorticultureServiceStub}[game](channel)
            answer = stub.GetDataFiles(common_pb2.GetDataFilesRequest(), timeout=30)
        finally:
            channel.close()
            server.stop(0).wait()
        files = json_format.MessageToDict(answer.files)
        assert files == {p.name: json.loads(p.read_text()) for p in directory.glob("*.json")}
        data = GameData(**{game: None if directory == source else str(directory)})
        assert answer.digest == daily.digest_of(game, data)
    assert "_note" in files[sorted(files)[0]] and answer.digest != daily.digest_of(game)


def test_the_day_sizes_follow_the_data():
    """The hard days are the whole solo game of the data in use, not the reference data's 14 tiles and 32 cards."""
    from dataclasses import replace

    from generators import horticulture, versailles
    from solver.games.horticulture.data import default_catalog as horticulture_catalog
    from solver.games.versailles.data import default_catalog as versailles_catalog

    ref = versailles_catalog()
    assert [versailles.tiles_for(d, ref) for d in ("easy", "medium", "hard")] == [7, 10, 14]
    short = replace(ref, setup=replace(ref.setup, rounds_per_stage=4))
    assert [versailles.tiles_for(d, short) for d in ("easy", "medium", "hard")] == [4, 8, 8]
    cat = horticulture_catalog()
    assert [horticulture.cards_for(d, cat) for d in ("easy", "medium", "hard")] == [12, 18, 32]
    small = replace(cat, deck=replace(cat.deck, size_by_gardeners={**cat.deck.size_by_gardeners, "1": 16}))
    assert [horticulture.cards_for(d, small) for d in ("easy", "medium", "hard")] == [12, 16, 16]
