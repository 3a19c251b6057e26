"""`gardens solve/explain/check/count/closest --server` ask a real running server instead of solving in-process,
and print what the in-process command prints (with --json: the RPC's answer)."""
import json
import re

import pytest

from server.cli.main import main


def _text(capsys) -> str:
    """The printed text with the milliseconds left out (in-process: the solve; --server: the round trip)."""
    return re.sub(r"\(\d+ ms\)", "(ms)", capsys.readouterr().out)


def test_explain_and_solve_through_a_running_server(start_server, capsys, tmp_path):
    running = start_server()
    assert main(["explain", "--cards", "S04,S08", "--server", running.target, "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["verdict"] == "SOLVABILITY_UNSOLVABLE"
    assert [c["card_ids"] for c in answer["conflicts"]] == [["S04", "S08"]]

    assert main(["solve", "--cards", "A1,B2", "--mode", "training-b", "--server", running.target, "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["verdict"] == "SOLVABILITY_SOLVABLE" and len(solved["garden"]["placements"]) == 25
    # every placement's keys in the .proto's order, also where a field is at its default (row 0, rotation 0)
    assert all(list(p) == ["tile", "row", "col", "rotation"] for p in solved["garden"]["placements"])

    garden = tmp_path / "garden.json"
    garden.write_text(json.dumps(solved["garden"]))
    assert main(["check", str(garden), "--cards", "A1,B2", "--mode", "training-b", "--server", running.target,
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


@pytest.mark.parametrize("command", [
    ["explain", "--cards", "S04,S08,S01"],
    ["explain", "--cards", "A1,A2", "--mode", "training-a"],
    # past the enumeration: the conflicts may be incomplete, the discards are proven complete
    ["explain", "--cards", "S01,S04,S08,S16,S20,S25,S33,S39,S47,S55"],
    ["solve", "--cards", "A1,B2", "--mode", "training-b"],
    ["check", "GARDEN", "--cards", "C3,C4,A3", "--mode", "training-c"],
    ["check", "GARDEN", "--cards", "C3", "--mode", "training-c"],
    ["count", "--cards", "A1,A2,A3,A4", "--mode", "training-a", "--cap", "5"],
    ["closest", "GARDEN", "--cards", "C3,A3", "--mode", "training-c"],
    ["closest", "GARDEN", "--cards", "S04,S08"],  # no valid garden at all
    ["solve", "--cards", "S04,S08"],
    ["count", "--cards", "A1", "--mode", "training-a", "--cap", "3"],
], ids=lambda c: "-".join(c[:2]) + "-" + c[c.index("--cards") + 1])
def test_the_server_answer_is_printed_as_the_in_process_one(start_server, capsys, tmp_path, command):
    running = start_server()
    garden = tmp_path / "garden.json"
    assert main(["solve", "--cards", "C3", "--mode", "training-c", "--json"]) == 0
    garden.write_text(capsys.readouterr().out)
    command = [str(garden) if part == "GARDEN" else part for part in command]
    here = main(command)
    local = _text(capsys)
    there = main([*command, "--server", running.target])
    assert (there, _text(capsys)) == (here, local)
    assert local.strip()


def test_server_side_input_errors_are_shown_by_field(start_server, capsys):
    running = start_server()
    assert main(["solve", "--cards", "A1,NOPE", "--server", running.target]) == 2
    err = capsys.readouterr().err
    assert "INVALID_ARGUMENT" in err and "card_ids[1]" in err


def test_answers_keep_the_proto_field_order_inside_lists_and_maps():
    from google.protobuf import json_format

    from gardens.v1 import common_pb2, gardeners_pb2, horticulture_pb2 as hpb
    from server.remote import in_field_order

    def as_dict(msg):
        return in_field_order(msg.DESCRIPTOR, json_format.MessageToDict(
            msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True))

    solved = as_dict(gardeners_pb2.SolveResponse(verdict=1, garden=common_pb2.Garden(size=2, placements=[
        common_pb2.Placement(tile="A01", row=0, col=1, rotation=0), common_pb2.Placement(tile="A02", row=1)])))
    assert list(solved) == ["verdict", "garden", "reason"]
    assert [list(p) for p in solved["garden"]["placements"]] == [["tile", "row", "col", "rotation"]] * 2
    scored = as_dict(hpb.HorticultureScoreResponse(score=hpb.HorticultureScore(
        groups={"carrot": hpb.HorticultureGroupScore(points=3)}, total=3)))
    group = scored["score"]["groups"]["carrot"]
    assert list(group) == [f.name for f in hpb.HorticultureGroupScore.DESCRIPTOR.fields]
    score = scored["score"]
    assert list(score) == [f.name for f in hpb.HorticultureScore.DESCRIPTOR.fields if f.name in score]
