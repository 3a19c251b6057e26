"""End to end in a real browser: Debian's headless Chromium (playwright-core) -> Envoy gRPC-Web -> the gRPC server.

The stack is `python -m server.web` (what `make run` starts) on free ports with a fresh puzzle store.
The workshop names the conflict of S04 + S08 and shows a refused request in plain words; today's
decree is planted tile by tile from the server's own stored answer (read from the store: the test
hook), two tiles exchanged make His Majesty angry with the broken cells outlined, exchanged back he
is thrilled; today's impossible decree is answered three times (a discard leaving the conflict, one larger than
needed, the fewest) and the page shows each verdict with the server's reasons; with no server behind the address the page says so. The page runs in a time zone whose date is
not UTC's (the decree must be of the player's date), and with a clock 10 days off the page says the server
serves no decree of that date. Screenshots go to var/web-artifacts/ (git-ignored).
"""
from __future__ import annotations

import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from generators.identity import parse_id
from generators.store import Store
from server.web import free_port
from generators.gardeners import check_discard
from solver.games.gardeners import api

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
HERE = Path(__file__).resolve().parent
ARTIFACTS = REPO / "var" / "web-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


# node: what the page shows for a RESOURCE_EXHAUSTED whose message is SAID
EXPLAIN = """
import { Code, ConnectError } from "@connectrpc/connect";
import { explain } from "./src/api.js";
console.log(JSON.stringify(explain(new ConnectError(SAID, Code.ResourceExhausted))));
"""


def _run(cmd, cwd=REPO, timeout=900):
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"


@pytest.fixture(scope="module")
def chromium() -> str:
    """Debian's Chromium; installed with apt-get when missing (CI runs as root on Debian)."""
    if not Path(CHROMIUM).exists():
        if os.geteuid() != 0 or not shutil.which("apt-get"):
            pytest.skip(f"{CHROMIUM} is missing and cannot be installed here (needs root and apt-get)")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)
            if done.returncode != 0:
                pytest.skip(f"chromium could not be installed ({' '.join(cmd)}): {done.stderr[-500:]}")
    return CHROMIUM


def _stale(built: Path) -> bool:
    if not built.exists():
        return True
    sources = [WEB / "build.mjs", WEB / "package-lock.json", *(WEB / "src").rglob("*"), *(WEB / "static").rglob("*"),
               *(REPO / "proto").rglob("*.proto")]
    return any(p.stat().st_mtime > built.stat().st_mtime for p in sources if p.is_file())


@pytest.fixture(scope="module")
def built_page() -> Path:
    """`npm ci` (when web/node_modules is missing or older than the lock file) and the page's build."""
    npm = shutil.which("npm")
    assert npm and shutil.which("node"), "the browser test needs node and npm on PATH"
    marker = WEB / "node_modules" / ".package-lock.json"
    if _stale(marker):
        _run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=WEB)
    if _stale(WEB / "dist" / "app.js"):
        _run(["node", "build.mjs"], cwd=WEB, timeout=300)
    return WEB / "dist"


@pytest.fixture(scope="module")
def stack(built_page, tmp_path_factory):
    """`python -m server.web` on free ports; yields (page url, puzzle store path)."""
    db = tmp_path_factory.mktemp("web") / "puzzles.sqlite"
    env = {**os.environ, "GARDENS_PUZZLES_DB": str(db), "GARDENS_WORKERS": "2"}
    proc = subprocess.Popen([sys.executable, "-m", "server.web", "--address", "localhost:0", "--envoy-port", "0",
                             "--port", "0"], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout] and None, daemon=True).start()
    try:
        while True:
            line = lines.get(timeout=120)
            if line.startswith("PAGE "):
                break
        yield line.split()[1], db
    finally:
        proc.terminate()
        assert proc.wait(timeout=60) == 0


def spoiling_swap(solution: list[dict], card_ids: list[str]):
    """Two cells whose exchange breaks a card (pure checker), and the broken cards' witness cells.

    (None, set()) when no exchange breaks any card (it happens: ['S16', 'S18', 'S24'] on one date).
    An exchange whose broken card names cells is preferred (some cards, e.g. "6 or more ... contiguous",
    break without cells to show).
    """
    cells = [(p["row"], p["col"]) for p in solution]
    fallback = None
    for a, b in itertools.combinations(range(len(solution)), 2):
        garden = [dict(p) for p in solution]
        garden[a]["row"], garden[a]["col"], garden[b]["row"], garden[b]["col"] = *cells[b], *cells[a]
        report = api.check_garden({"size": 6, "placements": garden}, card_ids, "solo")
        broken = {tuple(c) for v in report.verdicts if v.status == "violated" for c in v.cells}
        swap = [list(cells[a]), list(cells[b])]
        if broken:
            return swap, broken
        if not report.valid and fallback is None:
            fallback = swap, broken
    return fallback or (None, set())   # a loose decree: every exchange keeps every card


def discard_tries(card_ids: list[str], discards: list[list[str]]) -> dict:
    """Three discards for an impossible decree: `wrong` leaves a conflict (one card in no minimal discard set; None
    when every card is one), `notMinimal` is a fewest set and one card more, `right` a fewest set."""
    fewest = min(discards, key=len)
    wrong = next(([c] for c in card_ids if not any(set(d) <= {c} for d in discards)), None)
    extra = next(c for c in card_ids if c not in fewest)
    return {"wrong": wrong, "notMinimal": [*fewest, extra], "right": list(fewest)}


def far_zone(now: datetime) -> str:
    """A time zone whose date differs from UTC's now and for at least the next hour (the test takes ~1 min).

    Etc/GMT+12 (UTC-12) is on UTC's yesterday until 12:00 UTC, Pacific/Kiritimati (UTC+14) on UTC's
    tomorrow from 10:00 UTC; neither crosses its own midnight within an hour of the switch at 11:00 UTC.
    """
    return "Etc/GMT+12" if now.astimezone(timezone.utc).hour < 11 else "Pacific/Kiritimati"


def test_far_zone_is_never_on_utcs_date():
    start = datetime(2026, 12, 6, tzinfo=timezone.utc)
    for minutes in range(0, 24 * 60, 5):
        now = start + timedelta(minutes=minutes)
        zone = ZoneInfo(far_zone(now))
        assert {(now + timedelta(minutes=m)).astimezone(zone).date() for m in (0, 60)} == {now.astimezone(zone).date()}
        assert now.astimezone(zone).date() != now.date(), now


def test_workshop_and_todays_decree_in_chromium(chromium, stack):
    page, db = stack
    shutil.rmtree(ARTIFACTS, ignore_errors=True)   # only this run's screenshots
    ARTIFACTS.mkdir(parents=True)
    nobody = f"http://127.0.0.1:{free_port()}"
    started = datetime.now(timezone.utc)
    zone = far_zone(started)   # the player's: a date other than UTC's, so the page must send its own
    driver = subprocess.Popen(["node", str(HERE / "drive.cjs"), page, str(ARTIFACTS), nobody, zone], cwd=REPO,
                              env={**os.environ, "CHROMIUM": chromium},
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The page asked for today's puzzle; the server generated and stored it with its answer.
        first = json.loads(driver.stdout.readline() or "{}")
        assert "puzzle" in first, driver.stderr.read()
        stored = Store(db).get(parse_id(first["puzzle"], "puzzle"))
        solution = stored.answer["solution"]["placements"]
        swap, broken = spoiling_swap(solution, stored.public["card_ids"])
        driver.stdin.write(json.dumps({"placements": solution, "swap": swap}) + "\n")
        driver.stdin.flush()
        second = json.loads(driver.stdout.readline() or "{}")
        assert "impossible" in second, driver.stderr.read()
        doomed = Store(db).get(parse_id(second["impossible"], "puzzle"))
        tries = discard_tries(doomed.public["card_ids"], doomed.answer["discards"])
        driver.stdin.write(json.dumps(tries) + "\n")
        driver.stdin.flush()
        out, err = driver.communicate(timeout=240)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 0, err
    ended = datetime.now(timezone.utc)
    result = json.loads(out.strip().splitlines()[-1])
    print("hint shown:", result["decree"]["hint"])

    w = result["workshop"]
    assert w["verdict"].startswith("Unsolvable")
    assert len(w["conflicts"]) == 1 and "S04 + S08 cannot hold together" in w["conflicts"][0]
    assert "green trees" in w["conflicts"][0] and "Two tiles with trees cannot" in w["conflicts"][0]
    assert "discard S04 or S08" in w["discard"] and w["notes"] == 0
    # 9 cards: one conflict searched, discards not proven complete (discard_sets_complete false): said so
    many = w["many"]
    assert many["verdict"].startswith("Unsolvable")
    assert many["conflictsIncomplete"] == "There may be more conflicting sets than these."
    assert many["discardIncomplete"] and "may be incomplete" in many["discardIncomplete"]
    assert "could not accept" in w["error"] and "card_ids" in w["error"]
    assert w["solvable"].startswith("Solvable") and w["witnessTiles"] == 36

    d = result["decree"]
    # the decree of the player's date (zone), not of the server's (UTC) day
    local = {t.astimezone(ZoneInfo(zone)).date().isoformat() for t in (started, ended)}
    assert started.date().isoformat() not in local
    date = d["puzzle"].rsplit("/", 1)[1]
    assert d["puzzle"].startswith("gardeners/decree/easy/") and date in local, (zone, d["puzzle"], local)
    assert d["heading"].startswith(f"Decree of {date}")
    assert "not finished: 18 of 36" in d["incomplete"]
    assert d["hint"].startswith("Hint (level 1)")
    key = lambda p: (p["row"], p["col"])  # noqa: E731
    assert sorted(d["planted"], key=key) == sorted(
        ({k: p[k] for k in ("tile", "row", "col", "rotation")} for p in solution), key=key)
    assert len(d["turns"]) == 8 and all(want == got for _, want, got in d["turns"])
    # Two tiles exchanged: His Majesty is angry and the broken card's cells are outlined, as our checker says.
    if swap is None:
        print(f"note: no exchange of two tiles breaks {stored.public['card_ids']}: the angry step was skipped")
    else:
        assert d["angry"].startswith("His Majesty is angry!")
        assert {tuple(c) for c in d["outlined"]} == broken
    assert d["thrilled"] == "His Majesty is thrilled!"
    assert d["verdicts"] == [[cid, "satisfied"] for cid in stored.public["card_ids"]]
    # Today's impossible decree: each discard's verdict and the server's own reasons (CheckAnswer's violations)
    i = result["impossible"]
    assert i["puzzle"].startswith("gardeners/impossible/easy/") and i["puzzle"].rsplit("/", 1)[1] in local
    assert i["heading"] == f"Impossible decree of {i['puzzle'].rsplit('/', 1)[1]}"
    for name, outcome, words in (("wrong", "wrong", "His Majesty is angry!"),
                                 ("notMinimal", "not_minimal", "That works, but you discard more cards than needed."),
                                 ("right", "correct", "His Majesty is thrilled!")):
        if tries[name] is None:
            print(f"note: every card of {doomed.public['card_ids']} mends the decree alone: no wrong discard shown")
            continue
        server = check_discard(doomed.public, doomed.answer, tries[name])
        assert server["outcome"] == outcome, (name, server)
        assert i[name]["verdict"].startswith(words), i[name]
        assert i[name]["reasons"] == server["violations"] and (outcome == "correct") == (not server["violations"])
    assert "cannot be reached" in result["unreachable"]
    # a clock 10 days ahead: not published yet (FAILED_PRECONDITION); 10 days behind: none kept (NOT_FOUND)
    for name, days, says in (("ahead", 10, "is not published yet"), ("behind", -10, "was published")):
        refused = result["refused"][name]
        assert refused["date"] in {(t + timedelta(days=days)).date().isoformat() for t in (started, ended)}
        assert refused["text"].startswith(f"No decree for {refused['date']}, today's date on this computer."), refused
        assert says in refused["text"], refused
    assert result["pageErrors"] == []
    # A refusal's reason reaches the player (the page said "every solver is in use" for all of them, also for
    # deploy/envoy.yaml's per-client limit and a puzzle being made for another player): explain() on the built
    # page's own module
    said = "too many calls from your address; wait a moment and try again"
    shown = subprocess.run(["node", "--input-type=module", "-e", EXPLAIN.replace("SAID", json.dumps(said))],
                           cwd=WEB, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == {"title": "The server is busy right now. Please try again in a moment.",
                                        "lines": [said]}
    for name in ("workshop-conflict.png", "workshop-error.png", "workshop-witness.png", "workshop-many.png",
                 "decree-thrilled.png", "impossible-notMinimal.png", "impossible-right.png", "unreachable.png", "decree-ahead.png", "decree-behind.png",
                 *(["decree-angry.png"] if swap else [])):
        assert (ARTIFACTS / name).stat().st_size > 10_000
