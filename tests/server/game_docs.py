"""The `gardens call` examples of docs/games-service.md, checked by each game service's tests."""
from __future__ import annotations

import json
import re
from pathlib import Path

from google.protobuf import json_format, message_factory

from server.cli.main import main as cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "games-service.md"
QUICK = {"Validate", "Score", "ScoreGame", "ValidatePath", "GetDataFiles"}


def doc_examples(service: str) -> list[tuple[str, str, str]]:
    """(method, request JSON, abridged answer) per `gardens call` example in this service's section."""
    section = DOC.read_text().split(f"### {service}", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [(m.group(1), m.group(2), m.group(3)) for m in re.finditer(
        r"^gardens call --server \S+ (?:\w+\.)?(\w+) '([^']*)'\n((?:# .*\n)*)", section, re.M)]


def quick_examples(service: str) -> list[tuple[str, str, str]]:
    """The examples cheap enough to run: quick methods and documented input errors."""
    return [e for e in doc_examples(service) if e[0] in QUICK or "INVALID" in e[2]]


def flatten(value, out: set) -> set:
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(v, (dict, list)):
                out.add((k, json.dumps(v)))
            flatten(v, out)
    elif isinstance(value, list):
        for v in value:
            flatten(v, out)
    return out


def check_every_rpc_has_a_doc_example(pb, service: str) -> None:
    methods = pb.DESCRIPTOR.services_by_name[service].methods_by_name
    examples = doc_examples(service)
    assert set(methods) == {m for m, _, _ in examples}
    for method, body, _ in examples:
        json_format.Parse(body, message_factory.GetMessageClass(methods[method].input_type)())


def check_quick_example(start_server, capsys, service: str, method: str, body: str, answer: str) -> None:
    srv = start_server(with_probe=False)
    code = cli(["call", "--server", srv.target, f"{service}.{method}", body])
    out, err = capsys.readouterr()
    if answer.startswith("# INVALID_ARGUMENT"):
        assert code == 2  # README "Exit codes": an RPC error
        for line in answer.splitlines()[1:]:
            assert line[1:].strip() in err
        return
    assert code == 0, err
    documented = {(k, v) for k, v in re.findall(r'"(\w+)": (-?\d+|true|false|"[^"]*")', answer) if "..." not in v}
    assert documented and documented <= flatten(json.loads(out), set())
