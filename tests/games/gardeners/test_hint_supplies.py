"""Normal-mode hints with the players' supplies: the move is one the asking player can make now, and
playing the hints out (players taking turns asking) reaches a valid garden in the promised moves."""
import random

import pytest

from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, hints, moves, supplies as sup
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from tests.games.gardeners.test_hints import CAT, DECK, NORMAL, partial_from_solution


def ctl():
    return SolveControl(time_limit_s=20, num_workers=1, random_seed=0)


def deal(garden: Garden, players: int, seed: int) -> list[moves.Supply]:
    rest = sorted(t.id for t in CAT.tiles if t.id not in {p.tile.id for p in garden.cells.values()})
    random.Random(seed).shuffle(rest)
    return [moves.Supply(rest[i::players][:-1], rest[i::players][-1:]) for i in range(players)]


def play(garden: Garden, supplies: list[moves.Supply], move: moves.Move) -> Garden:
    g = dict(garden.cells)
    if move.kind == moves.ADD:
        g[move.cell] = Placed(CAT.tile(move.tile), move.rotation)
        s = supplies[move.player]
        if s.stack and s.stack[0] == move.tile:
            s.stack.pop(0)
        else:
            s.loose.remove(move.tile)
    else:
        del g[move.cell]
        supplies[move.to_player].loose.append(move.tile)
    return Garden(garden.size, g)


@pytest.mark.parametrize("ids,seed,keep,wrong,players", [
    (("S08", "S16"), 3, 14, 2, 3), (("S03", "S42", "S20"), 5, 20, 1, 2), (("S11", "S24", "S10"), 6, 0, 0, 4)])
def test_playing_the_supply_hints_out_reaches_a_valid_garden(ids, seed, keep, wrong, players):
    cards = [DECK.get(i) for i in ids]
    garden = partial_from_solution(seed, cards, keep, wrong) if keep else Garden(6, {})
    supplies = deal(garden, players, seed)
    first, steps, asker, waits = None, 0, 0, 0
    while steps < 80:
        hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), supplies=supplies, player=asker)
        first = first or hint
        if hint.status == "done":
            break
        if hint.status == "wait":
            waits += 1
            assert hint.move is None and str(asker) in hint.reason
            one, two, three = (hint.at_level(k) for k in (1, 2, 3))
            assert three["text"].startswith(two["text"]) and two["text"].startswith(one["text"])
            assert hint.card_id in one["text"]
            asker = (asker + 1) % players
            assert waits < 2 * players
            continue
        assert hint.status == "move", hint.reason
        waits = 0
        mv = hint.move
        assert mv.player == asker
        state = moves.NormalState(6, {c: (p.tile.id, p.rotation) for c, p in garden.cells.items()}, supplies)
        assert moves.validate_normal(state, mv).legal, mv
        if mv.kind == moves.ADD:   # from the top of the stack or the loose tiles, never from deeper down
            assert mv.tile in supplies[asker].playable()
        garden = play(garden, supplies, mv)
        steps += 1
        asker = (asker + 1) % players
        if hint.proven and mv.kind == moves.ADD:
            assert engine.complete(garden, cards, NORMAL, CAT, ctl()).verdict == engine.SOLVABLE
    assert hint.status == "done" and check(garden, cards).valid
    assert first.route_bound <= steps
    if first.proven:
        assert steps == first.route_length


def test_a_tile_under_the_top_of_the_stack_is_not_suggested():
    """Player 0's stack holds the only tile that fits the cell left, under another tile: their hint
    must not lay it (they wait or lay the top); the tile left is laid only once it is on top."""
    cards = [DECK.get(i) for i in ("S08", "S16")]
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    cells = sorted(solution.cells)
    last = cells[-2:]
    garden = Garden(6, {c: solution.get(c) for c in cells if c not in last})
    a, b = (solution.get(c).tile.id for c in last)
    supplies = [moves.Supply([a, b]), moves.Supply([])]
    hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), supplies=supplies, player=0)
    assert hint.status == "move" and hint.move.tile == a and hint.proven and hint.route_length == 2
    other = hints.next_move(garden, cards, NORMAL, CAT, ctl(), supplies=supplies, player=1)
    assert other.status == "wait" and "player 0" in other.reason and other.route_length == 2


def test_bad_supplies_name_the_field():
    garden = Garden(6, {})
    every = sorted(t.id for t in CAT.tiles)
    with pytest.raises(InputError) as exc:
        sup.parse_supplies([{"stack": every}], garden, NORMAL, CAT)
    assert exc.value.field == "supplies"   # one player cannot hand a removed tile to another
    with pytest.raises(InputError) as exc:
        sup.parse_supplies([{"stack": every[:20]}, {"loose": every[19:]}], garden, NORMAL, CAT)
    assert exc.value.field == "supplies[1].loose[0]"
    with pytest.raises(InputError) as exc:
        sup.parse_supplies([{"stack": every[:20]}, {"loose": every[20:-1]}], garden, NORMAL, CAT)
    assert exc.value.field == "supplies" and every[-1] in exc.value.description
    with pytest.raises(InputError) as exc:
        sup.parse_supplies([{"stack": every[:20]}, {"loose": every[20:]}], garden, NORMAL, CAT, player=2)
    assert exc.value.field == "player"
    ok = sup.parse_supplies([{"stack": every[:20]}, {"loose": every[20:]}], garden, NORMAL, CAT, player=1)
    assert ok[0].playable() == [every[0]] and len(ok[1].playable()) == 16


def test_cli_hint_with_supplies(tmp_path, capsys):
    import json

    from server.cli.main import main
    cards = [DECK.get(i) for i in ("S08", "S16")]
    garden = partial_from_solution(3, cards, 20, 0)
    supplies = deal(garden, 2, 1)
    (tmp_path / "g.json").write_text(json.dumps(garden.to_dict()))
    (tmp_path / "s.json").write_text(json.dumps([{"stack": s.stack, "loose": s.loose} for s in supplies]))
    assert main(["hint", str(tmp_path / "g.json"), "--cards", "S08,S16", "--supplies", str(tmp_path / "s.json"),
                 "--player", "1", "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["status"] in ("move", "wait")
    if view["status"] == "move":
        assert view["move"]["player"] == 1 and view["move"]["tile"] in supplies[1].playable()
