"""End to end with a client that is not ours: Node.js (@grpc/grpc-js + proto-loader) against `python -m server`."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver.games.gardeners import api

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """`npm ci` from the committed lock file into var/ (git-ignored), once per lock file content."""
    node, npm = shutil.which("node"), shutil.which("npm")
    # Not a skip: this test proves the proto works from another ecosystem, so CI needs Node.js.
    assert node and npm, "the e2e test needs node and npm on PATH"
    lock = (HERE / "package-lock.json").read_bytes()
    target = REPO / "var" / "e2e-node" / hashlib.sha256(lock).hexdigest()[:16]
    if not (target / "node_modules" / ".installed").exists():
        target.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(HERE / name, target / name)
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=target, check=True,
                       capture_output=True, timeout=300)
        (target / "node_modules" / ".installed").touch()
    return target / "node_modules"


@pytest.fixture(scope="module")
def server_address():
    proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in proc.stdout:
            if line.startswith("LISTENING "):
                yield f"localhost:{line.split()[1]}"
                break
        else:
            raise AssertionError(f"server exited: {proc.wait()}")
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0


def run_node(node_modules: Path, address: str, spec: dict) -> dict:
    env = {**os.environ, "NODE_PATH": str(node_modules)}
    out = subprocess.run(["node", str(HERE / "gardens_client.js"), address, json.dumps(spec)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_node_check_solvable_and_check_garden_on_the_witness(node_modules, server_address):
    out = run_node(node_modules, server_address, {"card_ids": ["A1", "A3"], "mode": "GAME_MODE_TRAINING_A"})
    answer = out["checkSolvable"]["response"]
    assert answer["verdict"] == "SOLVABILITY_SOLVABLE"
    witness = answer["witness"]
    assert witness["size"] == 4 and len(witness["placements"]) == 16
    # Our own checker agrees with the witness the Node client received ...
    assert api.check_garden(witness, ["A1", "A3"], "training-a").valid
    # ... and so does the server when the Node client sends it back.
    check = out["checkWitness"]["response"]
    assert check["complete"] and check["valid"]
    assert [(v["card_id"], v["status"]) for v in check["verdicts"]] == [
        ("A1", "CARD_STATUS_SATISFIED"), ("A3", "CARD_STATUS_SATISFIED")]


def test_node_sees_the_conflict_and_field_errors(node_modules, server_address):
    bad_garden = {"size": 6, "placements": [{"tile": "A01", "row": 0, "col": 0, "rotation": 5}]}
    out = run_node(node_modules, server_address,
                   {"card_ids": ["S09", "S01", "S44"], "mode": "GAME_MODE_NORMAL", "garden": bad_garden})
    answer = out["checkSolvable"]["response"]
    domain = api.check_solvable(["S09", "S01", "S44"], "normal")
    assert answer["verdict"] == "SOLVABILITY_UNSOLVABLE"
    assert [s["card_ids"] for s in answer["conflicts"]] == domain.conflicts
    assert [s["card_ids"] for s in answer["discard_sets"]] == domain.discards
    assert answer["conflicts_complete"] is True
    assert "checkWitness" not in out
    error = out["checkGiven"]["error"]
    assert error["code"] == 3  # INVALID_ARGUMENT
    assert "garden.placements[0].rotation" in error["details"]
