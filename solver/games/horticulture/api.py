"""Horticulture engine seam: plain-dict functions the CLI and the future gRPC servicer call."""
from __future__ import annotations

import math
import re
import time
from typing import Any

from solver.core.solve import SolveControl
from solver.errors import Gather, InputError, InputErrors

from .data import Catalog, default_catalog
from .garden import Garden, PathDrawing, square
from .model import DaySpec, Solution
from .optimiser import solve
from .rules import check_nursery, check_path, replay, unreachable_plants, valid_directions
from .scoring import score_sheet
from .state import (Day, Setup, cell_json, day_json, parse_days, parse_drawing, parse_plan, parse_setup,
                    parse_sheet, setup_json, parse_cell)

MAX_TIME_LIMIT_S = 600.0


def _catalog(catalog: Catalog | None) -> Catalog:
    return catalog or default_catalog()


def _obj(request: Any) -> dict:
    if not isinstance(request, dict):
        raise ValueError(f"request: expected an object, got {type(request).__name__}")
    return request


LIMIT_FIELDS = ("time_limit_s", "random_seed", "deterministic_time")


def _control(request: dict, default_s: float, control: SolveControl | None = None) -> SolveControl:
    """The caller's SolveControl (a gRPC call's, cancelled with it), or one built from the request's limits."""
    if control is not None:
        given = [f for f in LIMIT_FIELDS if request.get(f) is not None]
        if given:
            raise ValueError(f"{given[0]}: the limits come from the SolveControl passed alongside the request; "
                             "give them in one place only")
        if not isinstance(control, SolveControl):
            raise TypeError(f"control: expected a SolveControl, got {type(control).__name__}")
        return control
    limit = request.get("time_limit_s", default_s)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not math.isfinite(limit) \
            or not 0 < limit <= MAX_TIME_LIMIT_S:
        raise ValueError(f"time_limit_s: expected a number in (0, {MAX_TIME_LIMIT_S:g}], got {limit!r}")
    seed = request.get("random_seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31:
        raise ValueError(f"random_seed: expected an integer in [0, 2^31), got {seed!r}")
    work = request.get("deterministic_time")
    if work is not None and (isinstance(work, bool) or not isinstance(work, (int, float))
                             or not math.isfinite(work) or not 0 < work <= MAX_TIME_LIMIT_S):
        raise ValueError(f"deterministic_time: expected a number in (0, {MAX_TIME_LIMIT_S:g}], got {work!r}")
    # With deterministic_time the answer no longer depends on machine speed (time_limit_s is then
    # not used, as in SolveControl); without it, wall-clock limits decide how far each search gets.
    return SolveControl(time_limit_s=float(limit), num_workers=1, random_seed=seed,
                        deterministic_limit=float(work) if work is not None else None)


def _violations(vs: list) -> list[dict]:
    return [{"where": v.where, "reason": v.reason} for v in vs]


def _nursery(value: Any, catalog: Catalog, f: str = "nursery", flipped: int = 0) -> list[int]:
    """The cards in draw order, two a day; with the `flipped` cards of the days before it they fit a nursery."""
    if not isinstance(value, list):
        raise ValueError(f"{f}: expected a list of card ids in draw order")
    if len(value) % 2:
        raise ValueError(f"{f}: {len(value)} cards; each day flips two, so the count must be even")
    if len(value) > catalog.deck.largest_nursery - flipped:
        raise ValueError(f"{f}: {len(value)} cards; a local nursery holds at most {catalog.deck.largest_nursery} "
                         + (f"and {flipped} were flipped already" if flipped else "(the rulebook's deck sizes)"))
    seen: set[int] = set()
    gather = Gather()  # every unknown or repeated card at once
    for i, cid in enumerate(value):
        if gather(catalog.card, cid, f"{f}[{i}]") is None:
            continue
        if cid in seen:
            gather.errors.append(InputError(f"{f}[{i}]", f"card {cid} appears twice"))
        seen.add(cid)
    gather.check()
    return list(value)


def _refuse(violations: list) -> None:
    """Every rule a request breaks, as input errors of the fields they name (nothing when there are none)."""
    if violations:
        raise InputErrors([InputError(v.where, v.reason) for v in violations])


def _legal_setup(setup: Setup, catalog: Catalog) -> None:
    _refuse(check_path(catalog.sheet(setup.side), setup.drawing))


def _record(req: dict, catalog: Catalog, nursery: bool = True) -> tuple[Setup, list[Day], list[int] | None]:
    """A game record's setup, days and (with `nursery`, when given) nursery; every bad field at once."""
    gather = Gather()
    setup = gather(parse_setup, req, catalog)
    days = gather(parse_days, req.get("days", []), catalog.sheet(setup.side), catalog) if setup is not None else None
    order = gather(_nursery, req["nursery"], catalog) if nursery and req.get("nursery") is not None else None
    gather.check()
    return setup, days, order


# --- path -------------------------------------------------------------------------------------------

def validate_path(request: dict, catalog: Catalog | None = None) -> dict:
    """{side, path: {start, moves}} -> {legal, complete, violations, next_directions}."""
    cat = _catalog(catalog)
    req = _obj(request)
    sheet = cat.sheet(req.get("side"))
    drawing = parse_drawing(req.get("path"))
    violations = check_path(sheet, drawing)
    only_short = all(v.where == "path.moves" for v in violations)
    return {
        "legal": not violations,
        "complete": not violations,
        "violations": _violations(violations),
        # while the path is a legal prefix, the directions the next gardener may pick (one = forced)
        "next_directions": valid_directions(sheet, drawing) if violations and only_short else [],
    }


def default_path(side: str = "A", catalog: Catalog | None = None) -> dict:
    sheet = _catalog(catalog).sheet(side)
    d = PathDrawing.straight(sheet)
    return {"start": d.start, "moves": d.moves}


# --- validate and score -----------------------------------------------------------------------------

def validate(request: dict, catalog: Catalog | None = None) -> dict:
    """A game record {side, path, gnome, plan, days[, nursery]} -> {legal, violations, score}."""
    cat = _catalog(catalog)
    req = _obj(request)
    setup, days, nursery = _record(req, cat)
    sheet, violations = replay(cat, setup, days)
    if nursery is not None:
        violations += check_nursery(cat, days, nursery)
    out = {"legal": not violations, "violations": _violations(violations)}
    if not any(v.where.startswith("path") for v in violations):
        out["score"] = score_sheet(cat, sheet).as_dict()
    return out


def score(request: dict, catalog: Catalog | None = None) -> dict:
    """Score a sheet snapshot ({..., garden, window_box}) or a game record ({..., days})."""
    cat = _catalog(catalog)
    req = _obj(request)
    if "days" in req:
        setup, days, _ = _record(req, cat, nursery=False)
        _legal_setup(setup, cat)
        sheet, violations = replay(cat, setup, days)
        _refuse(violations)
    else:
        sheet = parse_sheet(req, cat)
        _legal_setup(sheet.setup, cat)
        far = unreachable_plants(Garden(cat.sheet(sheet.setup.side), sheet.setup.drawing), sheet)
        if far:
            i = list(sheet.garden).index(far[0])
            raise ValueError(f"garden[{i}].at: {square(far[0])} is not joined to the path or the gnome by a "
                             f"chain of plants, so no order of planting reaches it")
    return score_sheet(cat, sheet).as_dict()


# --- optimiser --------------------------------------------------------------------------------------

def _solution_json(sol: Solution, catalog: Catalog, nursery: list[int]) -> dict:
    """Day i was flipped from nursery[2i:2i+2]: every day names its two cards (the search paths set
    Day.cards only where a day had a real choice; the audit of 1 Dec found a one-day answer without them)."""
    out: dict[str, Any] = {
        "status": sol.status,  # "optimal" only when CP-SAT proved it
        "score": sol.score,
        "bound": sol.bound,
        "wall_time_s": round(sol.wall_time, 3),
        "days": _days_json(sol.days, nursery),
    }
    if sol.gnome is not None:
        out["gnome"] = cell_json(sol.gnome)
    if sol.plan is not None:
        out["plan"] = {"border": sol.plan.border, "path": sol.plan.path, "companions": list(sol.plan.companions)}
    if sol.score_sheet is not None:
        out["score_sheet"] = sol.score_sheet.as_dict()
    return out


def _days_json(days: list[Day], nursery: list[int]) -> list[dict]:
    """Days flipped from `nursery` in order (day i from nursery[2i:2i+2]), each naming its two cards."""
    return [dict(day_json(d), cards=list(d.cards or nursery[2 * i:2 * i + 2])) for i, d in enumerate(days)]


def _nursery_days(nursery: list[int]) -> list[DaySpec]:
    return [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)]


def solve_optimal(request: dict, catalog: Catalog | None = None, control: SolveControl | None = None) -> dict:
    """{side, path, gnome, plan, nursery, time_limit_s?, random_seed?, deterministic_time?} -> best solo game found.

    Every CP-SAT search runs through `control.solve(...)`: `control.cancel()` (e.g. from a gRPC
    callback) stops the work and raises `Cancelled`. With `control` the request must not carry the
    limit fields. With `control.deterministic_limit` and one worker the answer is reproducible
    (all fields but the measured `wall_time_s`).
    """
    cat = _catalog(catalog)
    req = _obj(request)
    gather = Gather()
    setup = gather(parse_setup, req, cat)
    nursery = gather(_nursery, req.get("nursery"), cat)
    gather.check()
    _legal_setup(setup, cat)
    sol = solve(cat, setup.side, setup.drawing, _nursery_days(nursery), setup.gnome, setup.plan,
                _control(req, 10.0, control))
    return _solution_json(sol, cat, nursery)


def best_plan(request: dict, catalog: Catalog | None = None, control: SolveControl | None = None) -> dict:
    """{side, path, nursery, ...}: the plan and gnome square that allow the best game ("what should I have planned").

    `control` as in solve_optimal."""
    cat = _catalog(catalog)
    req = _obj(request)
    gather = Gather()
    sheet = gather(cat.sheet, req.get("side"))
    drawing = gather(parse_drawing, req.get("path"))
    nursery = gather(_nursery, req.get("nursery"), cat)
    gnome = gather(parse_cell, req["gnome"], sheet, "gnome") if req.get("gnome") is not None and sheet is not None \
        else None
    plan = gather(parse_plan, req["plan"], cat) if req.get("plan") is not None else None
    gather.check()
    bad = check_path(sheet, drawing)
    if bad:
        raise ValueError(f"{bad[0].where}: {bad[0].reason}")
    sol = solve(cat, sheet.side, drawing, _nursery_days(nursery), gnome, plan, _control(req, 20.0, control))
    return _solution_json(sol, cat, nursery)


# A hint option's fixed cost on the wall clock, however short its search: an option later than the first is not
# searched with less time than this left. 0.25 until 7 Dec, when a search paid ~0.2 s on 32 cards whatever its budget
# (the greedy game, a model build, the closing check); since the short path (optimiser.MODEL_MIN_S, GREEDY_SHARE) an
# option's search ends within its budget but for a greedy day and the quick rule's rest (0.01-0.05 s on 32 cards)
OPTION_FIXED_S = 0.1


def option_share(control: SolveControl, i: int, n: int, elapsed: float) -> float:
    """The share of the call's budget for option `i` of `n` (one control: one cancel stops all).

    Deterministic: an equal share each, so the answer does not depend on the machine. On the wall
    clock: an equal part of what is left after `elapsed` seconds, so an option that overran (a
    solve's fixed cost: the greedy game, a model build, the closing check) is paid for by the next
    ones instead of by the caller (measured: a 2 s hint over 32 cards took 2.38 s with equal shares)."""
    if control.deterministic_limit is not None:
        return 1.0 / n
    return max(0.0, control.time_limit_s - elapsed) / control.time_limit_s / (n - i)


def _today(value: Any, catalog: Catalog) -> list[int]:
    """The one or two cards flipped today."""
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise ValueError(f"today: expected the one or two card ids flipped today, got {value!r}")
    gather = Gather()
    cards = [gather(catalog.card, c, f"today[{i}]") for i, c in enumerate(value)]
    gather.check()
    if len(cards) == 2 and cards[0].id == cards[1].id:
        raise ValueError(f"today[1]: card {cards[1].id} appears twice; each card comes up once a game")
    return [c.id for c in cards]


def _followed(cat: Catalog, setup: Setup, past: list[Day], line: list[Day], today: list[int], rest: list[int]) -> int:
    """The score of the game `past` + `line` (a hint's `follow`), checked: today's day first, then one day for each
    pair of the future nursery, each choosing one of its cards, every planting legal."""
    pairs = [today] + [rest[i:i + 2] for i in range(0, len(rest), 2)]
    if len(line) != len(pairs):
        raise InputError("follow", f"expected {len(pairs)} days: today's and one for each pair of `future`",
                         len(line))
    gather = Gather()
    for d, (day, cards) in enumerate(zip(line, pairs)):
        if day.chosen not in cards:
            gather.errors.append(InputError(f"follow[{d}].chosen", f"one of that day's cards, {cards}", day.chosen))
    gather.check()
    sheet, violations = replay(cat, setup, past + line)
    for v in violations:  # (a day of the line is days[len(past) + d] of the replay)
        m = re.match(r"days\[(\d+)\](.*)", v.where)
        where = f"follow[{int(m.group(1)) - len(past)}]{m.group(2)}" if m else "follow"
        gather.errors.append(InputError(where, f"not a legal continuation of the days played: {v.reason}"))
    gather.check()
    return score_sheet(cat, sheet).total


def hint(request: dict, catalog: Catalog | None = None, control: SolveControl | None = None) -> dict:
    """Rank today's two cards (with their best placements) for a sheet in progress.

    {side, path, gnome, plan, days (played so far), today: [card, card], future?: [card ids], follow?: [days]}.
    With `future` (the rest of the nursery in order, e.g. a daily puzzle) each option is ranked by
    the best final score reachable, and carries its `continuation`: the later days of the game that reaches it
    (replayed and scored by the pure rules). Without it, by an estimate: the best score the sheet could show
    if the game ended after today's planting (documented in docs/horticulture.md).
    `follow` (with `future`): the previous hint's option's continuation, today's day first: the option of its card
    reaches at least that game's score, so a player following the hints keeps the line they promised (day 0's
    hint promised 38 and day 1's best option was 36 found, the puzzle walkthrough of 7 Dec).
    `control` as in solve_optimal; the options share its budget (`option_share`).
    """
    cat = _catalog(catalog)
    req = _obj(request)
    gather = Gather()  # every bad field at once
    setup = gather(parse_setup, req, cat)
    past = gather(parse_days, req.get("days", []), cat.sheet(setup.side), cat) if setup is not None else None
    today = gather(_today, req.get("today"), cat)
    future = req.get("future")
    known = future is not None
    # (today's two cards and the days before it came from the same nursery)
    drawn = 2 * (len(req["days"]) if isinstance(req.get("days"), list) else 0) + 2
    rest = gather(_nursery, future, cat, "future", drawn) if known else []
    if setup is not None:
        gather(_legal_setup, setup, cat)
    follow = req.get("follow")
    if follow is not None and not known:
        gather.errors.append(InputError("follow", "needs `future`: a continuation is a game with a known nursery"))
    line = gather(parse_days, follow, cat.sheet(setup.side), cat, "follow") if (
        known and follow is not None and setup is not None) else None
    gather.check()
    _, violations = replay(cat, setup, past)
    _refuse(violations)
    played = {d.chosen for d in past}
    flipped = played.union(*(d.cards or () for d in past))  # a past day's other card came up too
    for i, cid in enumerate(rest):
        # a card flipped today cannot come up again (the claims audit of 1 Dec 05:00: the search
        # planted it twice and the pure check of its game raised ModelMismatch, an INTERNAL error)
        if cid in today:
            gather.errors.append(InputError(f"future[{i}]", f"card {cid} is one of today's cards; each card comes "
                                            "up once a game"))
    for i, cid in enumerate(today + rest):
        where = f"today[{i}]" if i < len(today) else f"future[{i - len(today)}]"
        if cid in played:
            gather.errors.append(InputError(where, f"card {cid} was already played"))
        elif cid in flipped:
            gather.errors.append(InputError(where, f"card {cid} was already flipped on an earlier day"))
    gather.check()
    followed = _followed(cat, setup, past, line, today, rest) if line is not None else None
    control = _control(req, 10.0, control)
    fixed = [DaySpec((d.chosen,), d.plants) for d in past]
    options = []
    unique = list(dict.fromkeys(today))
    clock = time.perf_counter()
    for i, cid in enumerate(unique):
        elapsed = time.perf_counter() - clock
        share = option_share(control, i, len(unique), elapsed)
        left = min(control.time_limit_s - elapsed, control.seconds_left())
        if i and control.deterministic_limit is None and left < OPTION_FIXED_S:
            # the call's time (or its deadline, less the margin) is (nearly) spent: a later option is "unknown", not
            # searched, since even a cut search pays its fixed cost (the greedy game, a model build, the closing
            # check). With 0.3 s left a 32-card hint answered in 0.59 s, past the deadline on a loaded machine (the
            # chaos walkthrough of 7 Dec); the first option is always searched
            options.append({"card": cid, "status": "unknown", "bound": None})
            continue
        days = fixed + [DaySpec((cid,))] + _nursery_days(rest)
        sol = solve(cat, setup.side, setup.drawing, days, setup.gnome, setup.plan, control, share=share)
        entry: dict[str, Any] = {"card": cid, "status": sol.status, "bound": sol.bound}
        game, points = sol.days, sol.score
        if followed is not None and line[0].chosen == cid and (points is None or followed > points):
            # the line the previous hint promised reaches more than this search found: it stands
            game, points = past + line, followed
            entry["status"] = "optimal" if sol.bound == points else "feasible"
        if game:
            entry["plants"] = day_json(game[len(past)])["plants"]
            entry["final_score" if known else "estimate"] = points
            if known:
                entry["continuation"] = _days_json(game[len(past) + 1:], rest)
        options.append(entry)
    key = "final_score" if known else "estimate"
    options.sort(key=lambda o: (-(o.get(key) if o.get(key) is not None else -1), o["card"]))
    return {"ranked_by": key, "options": options, "setup": setup_json(setup)}
