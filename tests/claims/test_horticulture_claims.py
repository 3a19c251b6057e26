"""Claims audit of the Horticulture service (1 Dec 05:00-07:05 UTC): the engine seam
(`solver/games/horticulture/api.py`) against an independent oracle written from the rulebook
(`oracles_horticulture.py`: its own path rules, planting rule, scoring and an exhaustive player of
short nurseries; it calls nothing of the engine)."""
from __future__ import annotations

import copy
import itertools
import random

from solver.core.solve import SolveControl
from solver.games.horticulture import api

from . import oracles_horticulture as h

DECK = h.deck()


def control(seed: int = 0, work: float = 4.0) -> SolveControl:
    return SolveControl(time_limit_s=60.0, num_workers=1, random_seed=seed, deterministic_limit=work)


def setup(rng):
    side = rng.choice("AB")
    start, moves = h.random_path(rng, side)
    sheet = h.Sheet(side, start, moves)
    gnome = rng.choice(sheet.cells)
    plan = {"border": rng.choice(h.PLANTS), "path": rng.choice(h.PLANTS),
            "companions": [rng.choice(h.PLANTS), rng.choice(h.PLANTS)]}
    req = {"side": side, "path": {"start": start, "moves": moves}, "gnome": list(gnome), "plan": plan}
    return sheet, gnome, plan, req


def as_days(played):
    return [{"chosen": cid, "plants": [{"plant": p, "at": at if at == h.WINDOW else list(at)} for p, at in plants]}
            for cid, plants in played]


def test_validate_path_against_every_short_drawing():
    n = 0
    for side, (cols, rows, starts) in h.sheets().items():
        for start in range(0, 8):
            for length in range(0, 8):
                for moves in map("".join, itertools.product("DLRU" if length <= 4 else "DLR", repeat=length)):
                    idx, complete = h.path_verdict(cols, rows, starts, start, moves)
                    got = api.validate_path({"side": side, "path": {"start": start, "moves": moves}})
                    assert got["legal"] == (idx is None and complete), (side, start, moves)
                    if idx is not None:
                        assert [v["where"] for v in got["violations"]] == \
                            ["path.start" if idx < 0 else f"path.moves[{idx}]"] and not got["next_directions"]
                    elif not complete:
                        assert got["next_directions"] == [
                            m for m in "LRD" if h.path_verdict(cols, rows, starts, start, moves + m)[0] is None]
                    n += 1
    assert n > 50000


def test_validate_and_score_games_against_the_oracle():
    rng = random.Random(3)
    refused = 0
    for _ in range(60):
        sheet, gnome, plan, req = setup(rng)
        days = rng.randint(1, 16)
        nursery = rng.sample(sorted(DECK), 2 * days)
        garden, box, played = {}, [], []
        for d in range(days):
            cid = rng.choice(nursery[2 * d:2 * d + 2])
            plants, garden, box = h.random_day(rng, sheet, garden, box, gnome, DECK[cid])
            played.append((cid, plants[::-1] if rng.random() < 0.5 else plants))
        want = sheet.score(garden, box, gnome, plan)
        record = dict(req, days=as_days(played), nursery=nursery)
        got = api.validate(record)
        assert got["legal"] and got["score"]["total"] == want
        snapshot = dict(req, garden=[{"plant": p, "at": list(c)} for c, p in garden.items()], window_box=box)
        assert api.score(snapshot)["total"] == want
        # one planting moved, retyped, or the card changed: legal exactly when the oracle replays it
        bad = copy.deepcopy(record)
        d, j = rng.randrange(days), rng.randrange(2)
        k = rng.random()
        if k < 0.6:
            bad["days"][d]["plants"][j]["at"] = list(rng.choice(sheet.cells)) if rng.random() < 0.9 else h.WINDOW
        elif k < 0.8:
            bad["days"][d]["plants"][j]["plant"] = rng.choice(h.PLANTS)
        else:
            bad["days"][d]["chosen"] = rng.choice(sorted(DECK))
        legal = h.replay(sheet, gnome, bad["days"]) is not None and all(
            day["chosen"] in nursery[2 * i:2 * i + 2] and h.card_matches(DECK[day["chosen"]], [p["plant"] for p in day["plants"]])
            for i, day in enumerate(bad["days"])) and len({day["chosen"] for day in bad["days"]}) == days
        assert api.validate(bad)["legal"] == legal, bad["days"][d]
        refused += not legal
    assert refused >= 15


def test_solve_optimal_against_every_one_day_game():
    rng = random.Random(4)
    for trial in range(5):
        sheet, gnome, plan, req = setup(rng)
        nursery = rng.sample(sorted(DECK), 2)
        best = sheet.best({}, [], gnome, plan, [[DECK[nursery[0]], DECK[nursery[1]]]])
        got = api.solve_optimal(dict(req, nursery=nursery), control=control(trial))
        day = got["days"][0]
        assert day["chosen"] in nursery and h.card_matches(DECK[day["chosen"]], [p["plant"] for p in day["plants"]])
        end = h.replay(sheet, gnome, got["days"])
        assert end is not None and sheet.score(*end, gnome, plan) == got["score"]
        assert got["status"] == "optimal" and got["score"] == best and got["bound"] >= best


def test_best_plan_against_every_plan_and_one_day_game():
    rng = random.Random(7)
    sheet, gnome, plan, req = setup(rng)
    nursery = rng.sample(sorted(DECK), 2)
    # the gnome given, the plan free: the plan's three parts are independent given the garden
    states = {}
    for c in nursery:
        for _, g, b in sheet.day_options({}, [], gnome, DECK[c]):
            states[(frozenset(g.items()), frozenset(b))] = (g, b)
    none = {"border": "-", "path": "-", "companions": ["-", "-"]}
    best = max(sheet.score(g, b, gnome, none)
               + max(2 * sum(p == t and sheet.border(c) for c, p in g.items()) for t in h.PLANTS)
               + max(2 * sum(p == t and sheet.by_path(c) for c, p in g.items()) for t in h.PLANTS)
               + max(2 * sum(p == f and any(g.get(n) == s for n in sheet.adjacent(c)) for c, p in g.items())
                     for f in h.PLANTS for s in h.PLANTS)
               for g, b in states.values())
    got = api.best_plan({"side": req["side"], "path": req["path"], "gnome": list(gnome), "nursery": nursery},
                        control=control(1, 8.0))
    assert tuple(got["gnome"]) == gnome
    end = h.replay(sheet, gnome, got["days"])
    assert end is not None and sheet.score(*end, gnome, got["plan"]) == got["score"]
    assert got["status"] == "optimal" and got["score"] == best


def test_hint_on_the_last_day_and_without_a_future_against_enumeration():
    rng = random.Random(8)
    for trial in range(3):
        sheet, gnome, plan, req = setup(rng)
        past_days = rng.randint(0, 4)
        cards = rng.sample(sorted(DECK), 2 * past_days + 2)
        garden, box, played = {}, [], []
        for d in range(past_days):
            cid = rng.choice(cards[2 * d:2 * d + 2])
            plants, garden, box = h.random_day(rng, sheet, garden, box, gnome, DECK[cid])
            played.append((cid, plants))
        request = dict(req, days=as_days(played), today=cards[-2:])
        if trial % 2:
            request["future"] = []  # today is the last day: final_score is the game's end
        got = api.hint(request, control=control(trial))
        key = got["ranked_by"]
        assert {o["card"] for o in got["options"]} == set(cards[-2:])
        for option in got["options"]:
            truth = sheet.best(garden, box, gnome, plan, [[DECK[option["card"]]]])
            assert h.card_matches(DECK[option["card"]], [p["plant"] for p in option["plants"]])
            end = h.replay(sheet, gnome, as_days(played) + [{"plants": option["plants"]}])
            assert end is not None and sheet.score(*end, gnome, plan) == option[key]
            assert option[key] <= truth and option["bound"] >= truth
            if option["status"] == "optimal":
                assert option[key] == truth
        values = [o[key] for o in got["options"]]
        assert values == sorted(values, reverse=True)


def test_hint_refuses_a_card_that_already_came_up():
    """Each card comes up once a game. Before the audit's fix a future card equal to one of today's
    made the search plant it twice and the pure check raise ModelMismatch (an INTERNAL error over
    the wire), and a past day's discarded card was accepted as today's."""
    req = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}, "gnome": [3, 5],
           "plan": {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]}}
    past = [{"chosen": 5, "cards": [4, 5], "plants": [{"plant": "topiary", "at": [3, 4]},
                                                       {"plant": "sweet_potato", "at": [2, 4]}]}]
    for request, where in ((dict(req, today=[4, 5], future=[4, 6]), "future[0]:"),
                           (dict(req, today=[4, 4]), "today[1]:"),
                           (dict(req, days=past, today=[4, 6]), "today[0]:"),
                           (dict(req, days=past, today=[7, 6], future=[4, 8]), "future[0]:")):
        try:
            api.hint(request, control=control(0, 0.5))
        except ValueError as exc:
            assert str(exc).startswith(where), exc
        else:
            raise AssertionError(f"accepted {request}")
    assert api.hint(dict(req, days=past, today=[7, 6], future=[9, 8]), control=control(0, 0.5))["options"]


def test_validate_holds_recorded_flipped_cards_to_the_nursery():
    """A day that records its flipped cards must record the nursery's; before the audit's fix a day
    recording [1, 3] where the nursery flips [1, 2] was legal."""
    req = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}, "gnome": [3, 5],
           "plan": {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]}}
    day = {"chosen": 1, "plants": [{"plant": "topiary", "at": [3, 4]}, {"plant": "turnip", "at": [2, 4]}]}
    for cards, legal in (([1, 3], False), ([1], False), ([2, 1], True), (None, True)):
        d = dict(day, cards=cards) if cards is not None else day
        got = api.validate(dict(req, days=[d], nursery=[1, 2, 3, 4]))
        assert got["legal"] == legal, (cards, got["violations"])
        assert legal or [v["where"] for v in got["violations"]] == ["days[0].cards"]
