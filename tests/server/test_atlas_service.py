"""CheckSolvable consults the solvability atlas in the puzzle store, for rows of the data files in use only."""
from __future__ import annotations

from gardens.v1 import common_pb2, gardeners_pb2 as pb, gardeners_pb2_grpc
from generators import atlas
from generators.store import AtlasEntry, Store

PAIR = ("S01", "S02")


def test_check_solvable_answers_from_the_atlas_of_the_same_data(tmp_path, monkeypatch, start_server):
    db = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(db))
    stub = gardeners_pb2_grpc.GardenersServiceStub(start_server(with_probe=False).channel())
    asked = pb.CheckSolvableRequest(card_ids=list(PAIR))
    engine_answer = stub.CheckSolvable(asked, timeout=60)       # no atlas file yet: the engine answers
    assert engine_answer.verdict == common_pb2.SOLVABILITY_SOLVABLE
    # A row planted with the verdict flipped shows where the answer comes from (a real build never
    # stores a false row: tests/generators/test_batch.py holds built rows against the engine).
    planted = AtlasEntry(PAIR, "unsolvable", [list(PAIR)], [[PAIR[0]], [PAIR[1]]], True)
    Store(db).put_atlas([planted], "tiles:other+cards:other", "test")
    assert stub.CheckSolvable(asked, timeout=60).verdict == common_pb2.SOLVABILITY_SOLVABLE   # other data: ignored
    Store(db).atlas_drop_stale(atlas.atlas_digest())
    Store(db).put_atlas([planted], atlas.atlas_digest(), "test")
    from_atlas = stub.CheckSolvable(asked, timeout=60)
    assert from_atlas.verdict == common_pb2.SOLVABILITY_UNSOLVABLE and from_atlas.conflicts_complete
    assert [sorted(c.card_ids) for c in from_atlas.conflicts] == [list(PAIR)]
