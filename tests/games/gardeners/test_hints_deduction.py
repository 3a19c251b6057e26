"""The deduction assistant: candidates are exactly the fronts whose pure checker agrees with every verdict."""
import random

import pytest

from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import api, deduction, engine
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.cards.verdict import SATISFIED
from solver.games.gardeners.garden import Garden, Placed
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog

CAT = load_catalog()
DECK = load_cards()
NORMAL = MODES["normal"]


def random_garden(rng) -> Garden:
    tiles = list(CAT.tiles)
    rng.shuffle(tiles)
    cells = [(r, c) for r in range(6) for c in range(6)]
    return Garden(6, {c: Placed(t, rng.randrange(4)) for c, t in zip(cells, tiles)})


@pytest.mark.parametrize("secret", ["S02", "S10", "S17", "S26", "S35", "S41", "S50", "S56"])
def test_candidates_are_exactly_the_consistent_fronts(secret):
    rng = random.Random(secret)
    card = DECK.get(secret)
    same_kind = [c for c in DECK.of("standard") if c.kind == card.kind]
    # one garden the secret card likes (a solver witness) and a few random ones
    gardens = [engine.solve([card], NORMAL, CAT, SolveControl(time_limit_s=20)).garden]
    gardens += [random_garden(rng) for _ in range(3)]
    trials = [deduction.Trial(g, deduction.THRILLED if card.check(g).status == SATISFIED else deduction.ANGRY)
              for g in gardens]
    result = deduction.deduce(card.kind, trials, DECK.of("standard"))
    expected = [c.id for c in same_kind
                if all((c.check(t.garden).status == SATISFIED) == (t.verdict == "thrilled") for t in trials)]
    assert [c.id for c in result.candidates] == expected and secret in expected
    if len(expected) >= 2 and result.split is not None:
        s = result.split
        assert s.thrilled and s.angry and sorted(s.thrilled + s.angry) == sorted(expected)
        for cid in expected:   # the predicted verdicts are what the checker says on the changed garden
            happy = DECK.get(cid).check(s.garden).status == SATISFIED
            assert (cid in s.thrilled) == happy
        changed = {c for c in set(s.garden.cells) | set(trials[-1].garden.cells)
                   if s.garden.get(c) != trials[-1].garden.get(c)}
        assert changed <= set(s.cells)


def test_following_the_splits_narrows_to_one_front():
    secret = DECK.get("S12")
    rng = random.Random(3)
    trials = [deduction.Trial(g := random_garden(rng), "thrilled" if secret.check(g).ok else "angry")]
    for _ in range(8):
        result = deduction.deduce(secret.kind, trials, DECK.of("standard"))
        if result.split is None:
            break
        g = result.split.garden
        trials.append(deduction.Trial(g, "thrilled" if secret.check(g).ok else "angry"))
    ids = [c.id for c in deduction.deduce(secret.kind, trials, DECK.of("standard")).candidates]
    assert secret.id in ids
    # whatever is left cannot be told apart by any single swap or turn of the last garden
    assert len(ids) == 1 or deduction.best_split([DECK.get(i) for i in ids], trials[-1].garden)[0] is None


def test_api_names_bad_fields():
    with pytest.raises(InputError) as exc:
        api.deduce_card("colour", [])
    assert exc.value.field == "kind"
    with pytest.raises(InputError) as exc:
        api.deduce_card("proximity", [{"garden": {"placements": []}, "verdict": "bored"}])
    assert exc.value.field == "trials[0].verdict"
    with pytest.raises(InputError) as exc:
        api.deduce_card("proximity", [{"garden": {"placements": [{"tile": "Z9", "row": 0, "col": 0}]},
                                       "verdict": "angry"}])
    assert exc.value.field.startswith("trials[0].garden")


def test_the_deduction_assistant_is_pure_python():
    import subprocess
    import sys
    code = ("import sys, solver.games.gardeners.deduction; "
            "print(any(m.split('.')[0] in ('ortools', 'grpc') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_split_scan_keeps_to_the_call_time_and_says_so():
    """DeduceCard's scan of ~740 changes stops when the call's time is spent: the best change found so far, marked
    incomplete; a cancelled call raises Cancelled; without an end the scan is complete and the same as uncontrolled."""
    import time

    from solver.core.solve import Cancelled

    garden = random_garden(random.Random(7))
    cands = [c for c in DECK.of("standard") if c.kind == "distance"]
    free = deduction.best_split(cands, garden)
    assert free[2] and free[1] > 16 and free == deduction.best_split(cands, garden, SolveControl(time_limit_s=5))
    spent = SolveControl(time_limit_s=5, ends_at=time.monotonic())
    split, tried, complete = deduction.best_split(cands, garden, spent)
    assert not complete and tried == 0 and split is None
    result = deduction.deduce("distance", [], DECK.of("standard"), garden, spent)
    assert not result.split_complete and [c.id for c in result.candidates] == [c.id for c in cands]
    gone = SolveControl(time_limit_s=5)
    gone.cancel()
    with pytest.raises(Cancelled):
        deduction.best_split(cands, garden, gone)


def test_expert_cards_and_cards_already_seen():
    """A face-down Distance card in a game with the Expert cards may be any Standard or Expert Distance front; a card
    already seen face up is none of them (each card exists once). Neither could be said until 7 Dec (the rules
    lawyer: "You can open the packet of Expert cards and add them to the Standard cards")."""
    rng = random.Random(7)
    trials = [{"garden": random_garden(rng).to_dict(), "verdict": "angry"}]
    standard = [c.id for c in api.deduce_card("distance", trials, "normal").candidates]
    both = [c.id for c in api.deduce_card("distance", trials, "normal", expert=True).candidates]
    expert = [c.id for c in DECK.of("expert") if c.kind == "distance"]
    assert standard and expert and all(i.startswith("S") for i in standard)
    # the Expert fronts the verdict allows join the Standard ones, judged by the same checker
    angry = [i for i in expert if DECK.get(i).check(parse(trials[0]["garden"])).status != SATISFIED]
    assert both == standard + angry and angry
    assert [c.id for c in api.deduce_card("distance", trials, "normal", deck="standard+expert").candidates] == both
    seen = standard[:2]
    left = [c.id for c in api.deduce_card("distance", trials, "normal", exclude=seen, expert=True).candidates]
    assert left == [i for i in both if i not in seen]
    with pytest.raises(InputError) as exc:
        api.deduce_card("distance", trials, "normal", exclude=["S99"])
    assert exc.value.field == "exclude_card_ids[0]"
    with pytest.raises(InputError) as exc:
        api.deduce_card("distance", trials, "normal", deck="standard+nope")
    assert exc.value.field == "deck"
    with pytest.raises(InputError) as exc:  # (a training deck is no Standard deck to add the Expert cards to)
        api.deduce_card("distance", [], "training-a", expert=True)
    assert exc.value.field == "expert"


def parse(doc):
    from solver.games.gardeners.garden import parse_garden
    return parse_garden(doc, CAT, NORMAL)
