"""Independent Gartenbau oracle, written from the rulebook (shared/rulebooks/gartenbau.txt) and
docs/gartenbau.md's decisions, for the claims audit: placement legality and the end-of-season
prestige of every flower rule. It reads the catalog's JSON files and calls
nothing of the engine. Spaces are (row, col)."""
from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "solver" / "data" / "gartenbau"
SHARED = {"holes", "largest_hole", "longest_identical_set"}  # rules two copies share (decision 8)


def load():
    s = json.loads((DATA / "seedlings.json").read_text())
    starters = {t["id"]: {side: [(x["colour"], x["type"]) for x in v] for side, v in t["sides"].items()}
                for t in s["starter_tiles"]}
    tiles = {t["id"]: [(x["colour"], x["type"]) for x in t["seedlings"]] for t in s["tiles"]}
    plants = {p["id"]: (p["colour"], p["prestige"]) for p in json.loads((DATA / "plants.json").read_text())["plants"]}
    flowers = {f["id"]: f for f in json.loads((DATA / "flowers.json").read_text())["flowers"]}
    req = {c: {frozenset(p) if p[0] != p[1] else frozenset([p[0]]) for p in pairs}
           for c, pairs in json.loads((DATA / "colours.json").read_text())["requirements"].items()}
    return starters, tiles, plants, flowers, req


STARTERS, TILES, PLANTS, FLOWERS, REQ = load()


def allows(colour: str, a: str, b: str) -> bool:
    return (colour, a, b) in ALLOWED


ALLOWED = {(c, a, b) for c, pairs in REQ.items() for a in REQ for b in REQ
           if (frozenset([a]) if a == b else frozenset([a, b])) in pairs}


def nbrs(c):
    r, k = c
    return [(r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)]


def flower_kind(flower_id: str) -> tuple:
    """The way a player comes to hold the flower: its Beginner hand, or the Advanced draft."""
    f = FLOWERS[flower_id]
    return (f["level"], f.get("hand"))


def block(at):
    r, k = at
    return [(r, k), (r, k + 1), (r + 1, k), (r + 1, k + 1)]


def legal(g: dict) -> bool:
    """The garden dict (as the API takes it) obeys every placement rule."""
    dominoes = [("starter", g["starter"]["id"], g["starter"]["cells"])] + \
        [("tile", t["id"], t["cells"]) for t in g.get("seedlings", [])]
    ids = [d[1] for d in dominoes] + [p["id"] for p in g.get("plants", [])] + [f["id"] for f in g.get("flowers", [])]
    if len(set(ids)) != len(ids):
        return False
    # "There are 2 possible ways to do this. Please choose ONE": one preset Beginner hand, or Advanced flowers; a
    # player keeps 5 flowers (6 in a 2-player Advanced game)
    if len({flower_kind(f["id"]) for f in g.get("flowers", [])}) > 1 or len(g.get("flowers", [])) > 6:
        return False
    owner, seed = {}, {}
    for i, (kind, tid, cells) in enumerate(dominoes):
        cells = [tuple(c) for c in cells]
        if cells[1] not in nbrs(cells[0]):
            return False
        faces = STARTERS[tid][g["starter"]["side"]] if kind == "starter" else TILES[tid]
        for c, face in zip(cells, faces):
            if c in owner:
                return False
            owner[c], seed[c] = i, face
    # one garden: every tile reachable from the starter through touching tiles
    todo, seen = [next(iter(owner))], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo += [n for n in nbrs(c) if n in owner]
    if seen != set(owner):
        return False
    plant_at = {}
    for j, p in enumerate(g.get("plants", [])):
        a, b = (tuple(c) for c in p["cells"])
        if b not in nbrs(a) or a not in owner or b not in owner or owner[a] == owner[b]:
            return False
        if a in plant_at or b in plant_at or not allows(PLANTS[p["id"]][0], seed[a][0], seed[b][0]):
            return False
        plant_at[a] = plant_at[b] = j
    covered = set()
    for f in g.get("flowers", []):
        cells = block(tuple(f["at"]))
        if any(c in covered or c not in plant_at for c in cells):
            return False
        under = {plant_at[c] for c in cells}
        if len(under) != 2:
            return False
        ps = [g["plants"][j] for j in under]
        if any({tuple(c) for c in p["cells"]} - set(cells) for p in ps):
            return False  # the two plants fill the block exactly (parallel)
        if not allows(FLOWERS[f["id"]]["colour"], PLANTS[ps[0]["id"]][0], PLANTS[ps[1]["id"]][0]):
            return False
        covered |= set(cells)
    return True


def chart(table, n):
    got = 0
    for count, value in table:
        if n >= count:
            got = value
    return got


def holes_of(filled: set) -> list[int]:
    """Sizes of the groups of empty spaces that cannot reach the outside through empty spaces."""
    rs = [c[0] for c in filled]
    ks = [c[1] for c in filled]
    box = {(r, k) for r in range(min(rs) - 1, max(rs) + 2) for k in range(min(ks) - 1, max(ks) + 2)}
    empty = box - filled
    outside, todo = set(), [(min(rs) - 1, min(ks) - 1)]
    while todo:
        c = todo.pop()
        if c in outside or c not in empty:
            continue
        outside.add(c)
        todo += nbrs(c)
    return [len(grp) for grp in groups(empty - outside, lambda a, b: True)]


def groups(cells: set, same) -> list[set]:
    out, left = [], set(cells)
    while left:
        start = left.pop()
        grp, todo = {start}, [start]
        while todo:
            c = todo.pop()
            for n in nbrs(c):
                if n in left and same(c, n):
                    left.discard(n)
                    grp.add(n)
                    todo.append(n)
        out.append(grp)
    return out


def max_matching(cells: set, seed: dict) -> int:
    """Maximum matching of adjacent identical visible seedlings (the grid is bipartite)."""
    left = [c for c in cells if (c[0] + c[1]) % 2 == 0]
    match: dict = {}

    def augment(c, seen):
        for n in nbrs(c):
            if n in cells and seed[n] == seed[c] and n not in seen:
                seen.add(n)
                if n not in match or augment(match[n], seen):
                    match[n] = c
                    return True
        return False

    return sum(augment(c, set()) for c in left)


def rainbow(cells: set, seed: dict, colours: list) -> int:
    """Most disjoint sets of six visible seedlings, one of each colour, each set connected: every
    choice of one seedling per colour is tried, then the largest packing of the connected ones."""
    from itertools import product

    by_colour = [[c for c in cells if seed[c][0] == col] for col in colours]
    sets = []
    for pick in product(*by_colour):
        chosen = set(pick)
        if len(groups(chosen, lambda a, b: True)) == 1:
            sets.append(frozenset(chosen))

    def pack(i, taken):
        if i == len(sets):
            return 0
        best = pack(i + 1, taken)
        if not sets[i] & taken:
            best = max(best, 1 + pack(i + 1, taken | sets[i]))
        return best

    return pack(0, frozenset())


def outer_sides(filled: set) -> int:
    """Straight sides of the outer outline: runs of boundary facing one way on one line."""
    solid = set(filled)
    rs = [c[0] for c in filled]
    ks = [c[1] for c in filled]
    for r in range(min(rs), max(rs) + 1):
        for k in range(min(ks), max(ks) + 1):
            pass
    # fill the holes
    box = {(r, k) for r in range(min(rs) - 1, max(rs) + 2) for k in range(min(ks) - 1, max(ks) + 2)}
    outside, todo = set(), [(min(rs) - 1, min(ks) - 1)]
    while todo:
        c = todo.pop()
        if c in outside or c not in box or c in solid:
            continue
        outside.add(c)
        todo += nbrs(c)
    solid = box - outside
    runs = 0
    for (dr, dk) in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        edges = {c for c in solid if (c[0] + dr, c[1] + dk) not in solid}
        for c in edges:  # count the first unit edge of each run along the line
            prev = (c[0], c[1] - 1) if dr else (c[0] - 1, c[1])
            if prev not in edges:
                runs += 1
    return runs


def score(g: dict) -> tuple[int, dict]:
    """(total, {flower id: prestige}) of a legal garden. Copies sharing holes or sets are given the
    best share-out; their split between the copies may differ from the engine's (compare sums)."""
    seed, tile_of = {}, {}
    doms = [(g["starter"]["cells"], STARTERS[g["starter"]["id"]][g["starter"]["side"]])] + \
        [(t["cells"], TILES[t["id"]]) for t in g.get("seedlings", [])]
    for i, (cells, faces) in enumerate(doms):
        for c, face in zip(cells, faces):
            seed[tuple(c)] = face
            tile_of[tuple(c)] = i
    plant_cells = {tuple(c): p["id"] for p in g.get("plants", []) for c in p["cells"]}
    flower_cells = {c for f in g.get("flowers", []) for c in block(tuple(f["at"]))}
    vis_seed = {c for c in seed if c not in plant_cells}
    vis_plants = [p["id"] for p in g.get("plants", []) if not {tuple(c) for c in p["cells"]} & flower_cells]
    filled = set(seed)
    hole_sizes = holes_of(filled)
    out = {}
    for f in g.get("flowers", []):
        s = FLOWERS[f["id"]]["scoring"]
        rule = s["rule"]
        mine = block(tuple(f["at"]))
        around = {n for c in mine for n in nbrs(c)} - set(mine)
        if rule == "fixed":
            v = s["prestige"]
        elif rule == "colour_bonus":
            v = s["base"] + s["per_seedling"] * sum(seed[c][0] == s["colour"] for c in vis_seed) + \
                s["per_plant"] * sum(PLANTS[p][0] == s["colour"] for p in vis_plants)
        elif rule == "visible_plants":
            v = s["base"] + s["per_plant"] * len(vis_plants)
        elif rule == "holes":
            v = s.get("base", 0) + chart(s["table"], len(hole_sizes))
        elif rule == "largest_hole":
            v = s["base"] + s["per_space"] * max(hole_sizes, default=0)
        elif rule == "empty_adjacent":
            v = chart(s["table"], sum(c not in filled for c in around))
        elif rule == "adjacent_flowers":
            v = chart(s["table"], sum(1 for o in g["flowers"] if o is not f and set(block(tuple(o["at"]))) & around))
        elif rule == "identical_adjacent":
            faces = [seed[c] for c in around if c in vis_seed]
            v = chart(s["table"], max((faces.count(x) for x in faces), default=0))
        elif rule == "seedlings_adjacent_to_flowers":
            total = 0
            for o in g["flowers"]:
                ob = block(tuple(o["at"]))
                total += len(({n for c in ob for n in nbrs(c)} - set(ob)) & vis_seed)
            v = chart(s["table"], total)
        elif rule == "largest_rectangle":
            best = 0
            cells = list(filled)
            for (r1, k1) in cells:
                for (r2, k2) in cells:
                    if r2 >= r1 and k2 >= k1:
                        area = (r2 - r1 + 1) * (k2 - k1 + 1)
                        if area > best and all((r, k) in filled for r in range(r1, r2 + 1) for k in range(k1, k2 + 1)):
                            best = area
            v = s["per_space"] * best
        elif rule == "longest_identical_set":
            v = s["base"] + s["per_seedling"] * max(
                (len(x) for x in groups(vis_seed, lambda a, b: seed[a] == seed[b])), default=0)
        elif rule == "identical_pairs":
            v = s["base"] + s["per_pair"] * max_matching(vis_seed, seed)
        elif rule == "colour_sets":
            v = s["base"] + chart(s["table"], min(sum(seed[c][0] == col for c in vis_seed) for col in s["colours"]))
        elif rule == "rainbow_sets":
            v = s["base"] + s["per_set"] * rainbow(vis_seed, seed, s["colours"])
        elif rule == "outer_edges":
            v = min(s["max"], s["per_edge"] * outer_sides(filled))
        else:
            raise NotImplementedError(rule)
        out[f["id"]] = v
    # copies of one flower with a shared rule (decision 8) need different holes / sets: the best
    # way to share them out (every split of the holes; every order of the largest holes / sets)
    from itertools import permutations, product
    copies: dict = {}
    for f in g.get("flowers", []):
        F = FLOWERS[f["id"]]
        if F["scoring"]["rule"] in SHARED:
            copies.setdefault((F["name"], F["scoring"]["rule"]), []).append(f["id"])
    for (name, rule), ids in copies.items():
        if len(ids) < 2:
            continue
        ps = [FLOWERS[i]["scoring"] for i in ids]
        if rule == "holes":
            best = max((sum(p.get("base", 0) + chart(p["table"], k) for p, k in zip(ps, split)), split)
                       for split in product(range(len(hole_sizes) + 1), repeat=len(ids))
                       if sum(split) <= len(hole_sizes))[1]
            values = [p.get("base", 0) + chart(p["table"], k) for p, k in zip(ps, best)]
        else:
            if rule == "largest_hole":
                sizes = sorted(hole_sizes, reverse=True)
                per = [(p["base"], p["per_space"]) for p in ps]
            else:
                sizes = sorted((len(x) for x in groups(vis_seed, lambda a, b: seed[a] == seed[b])), reverse=True)
                per = [(p["base"], p["per_seedling"]) for p in ps]
            sizes += [0] * len(ids)
            values = max(([b + m * sizes[j] for (b, m), j in zip(per, order)]
                          for order in permutations(range(len(ids)))), key=sum)
        for fid, v in zip(ids, values):
            out[fid] = v
    tokens = 2 * sum(bool(v) for v in g.get("tokens", {"flower_pot": True, "watering_can": True}).values())
    total = sum(out.values()) + sum(PLANTS[p][1] for p in vis_plants) + tokens
    return total, out


PLANTS_FOR = {(a, b): [p for p in PLANTS if allows(PLANTS[p][0], a, b)] for a in REQ for b in REQ}
BED_COLOURS = {(a, b) for a in REQ for b in REQ if any(allows(FLOWERS[f]["colour"], a, b) for f in FLOWERS)}


def random_garden(rng, tiles: int, plants: int, flowers: int, rules=None, one_kind: bool = True) -> dict:
    """A random legal garden: dominoes grown next to the garden, then plants over two tiles of the
    right colours, then flowers over two parallel plants of the right colours (as many as fit; with `one_kind`
    at most 6, of one Beginner hand or all Advanced, as a player holds them)."""
    sid = rng.choice(sorted(STARTERS))
    side = rng.choice(sorted(STARTERS[sid]))
    g = {"starter": {"id": sid, "side": side, "cells": [[0, 0], [0, 1]]}, "seedlings": [], "plants": [], "flowers": [],
         "tokens": {"flower_pot": rng.random() < 0.5, "watering_can": rng.random() < 0.5}}
    owner = {(0, 0): 0, (0, 1): 0}
    seed = dict(zip([(0, 0), (0, 1)], STARTERS[sid][side]))
    strips = rng.random() < 0.5  # upright tiles side by side in row pairs: every bed crosses tiles
    for i, tid in enumerate(rng.sample(sorted(TILES), tiles), start=1):
        if strips:
            row, col = 1 + 2 * ((i - 1) // 4), (i - 1) % 4
            cells = [(row, col), (row + 1, col)] if rng.random() < 0.5 else [(row + 1, col), (row, col)]
            g["seedlings"].append({"id": tid, "cells": [list(c) for c in cells]})
            for c, face in zip(cells, TILES[tid]):
                owner[c], seed[c] = i, face
            continue
        while True:  # compact gardens (spaces with more placed neighbours first) hold more beds
            free = sorted({n for c in owner for n in nbrs(c) if n not in owner})
            a = rng.choices(free, [4 ** sum(m in owner for m in nbrs(n)) for n in free])[0]
            b = rng.choice(nbrs(a))
            if b not in owner:
                break
        cells = [a, b] if rng.random() < 0.5 else [b, a]
        g["seedlings"].append({"id": tid, "cells": [list(c) for c in cells]})
        for c, face in zip(cells, TILES[tid]):
            owner[c], seed[c] = i, face
    plant_at = {}
    taken_ids: set = set()
    for _ in range(flowers * 20):  # beds first: a seeded 2x2 block, two parallel plants across tiles
        if len(g["plants"]) + 2 > plants:
            break
        at = rng.choice(sorted(owner))
        cells = block(at)
        if any(c not in owner or c in plant_at for c in cells):
            continue
        pairs = [(cells[0], cells[1]), (cells[2], cells[3])] if rng.random() < 0.5 else \
            [(cells[0], cells[2]), (cells[1], cells[3])]
        if any(owner[a] == owner[b] for a, b in pairs):
            continue
        options = [[p for p in PLANTS_FOR[seed[a][0], seed[b][0]] if p not in taken_ids] for a, b in pairs]
        combos = [(p, q) for p in options[0] for q in options[1]
                  if p != q and (PLANTS[p][0], PLANTS[q][0]) in BED_COLOURS]
        chosen = rng.choice(combos) if combos else ()
        if len(chosen) == 2:
            for pid, (a, b) in zip(chosen, pairs):
                g["plants"].append({"id": pid, "cells": [list(a), list(b)]})
                plant_at[a] = plant_at[b] = pid
                taken_ids.add(pid)
    for _ in range(plants * 6):
        if len(g["plants"]) >= plants:
            break
        a = rng.choice(sorted(owner))
        b = rng.choice(nbrs(a))
        if b not in owner or owner[a] == owner[b] or a in plant_at or b in plant_at:
            continue
        ok = [p for p in PLANTS if allows(PLANTS[p][0], seed[a][0], seed[b][0])
              and p not in {q["id"] for q in g["plants"]}]
        if ok:
            pid = rng.choice(ok)
            g["plants"].append({"id": pid, "cells": [list(a), list(b)]})
            plant_at[a] = plant_at[b] = pid
    used, covered = set(), set()
    for at in rng.sample(sorted(plant_at), len(plant_at)):
        if len(g["flowers"]) >= (min(flowers, 6) if one_kind else flowers):  # (a player keeps 6 flowers at most)
            break
        cells = block(at)
        if any(c not in plant_at or c in covered for c in cells):
            continue
        under = {plant_at[c] for c in cells}
        if len(under) != 2:
            continue
        ps = [p for p in g["plants"] if p["id"] in under]
        if any({tuple(c) for c in p["cells"]} - set(cells) for p in ps):
            continue
        # one_kind: flowers of the first one's kind, as one player holds them (legal() refuses a mix)
        same = one_kind and g["flowers"]
        ok = [f for f in FLOWERS if allows(FLOWERS[f]["colour"], PLANTS[ps[0]["id"]][0], PLANTS[ps[1]["id"]][0])
              and (not same or flower_kind(f) == flower_kind(g["flowers"][0]["id"]))
              and (rules is None or FLOWERS[f]["scoring"]["rule"] in rules)
              and not any(FLOWERS[u]["name"] == FLOWERS[f]["name"] and FLOWERS[u]["scoring"]["rule"] == FLOWERS[f]["scoring"]["rule"]
                          and FLOWERS[f]["scoring"]["rule"] in SHARED for u in used)
              and f not in used]
        if ok:
            fid = rng.choice(ok)
            used.add(fid)
            covered |= set(cells)
            g["flowers"].append({"id": fid, "at": list(at)})
    return g


def best_garden(holding: dict) -> int:
    """The best prestige over every legal garden of a small holding (every seedling tile placed;
    plants and flowers optional), any shape. The starter lies at (0, 0)-(0, 1): every rule reads
    only adjacency, so a turned or mirrored garden scores the same."""
    st = holding["starter"]
    base = {"starter": {"id": st["id"], "side": st["side"], "cells": [[0, 0], [0, 1]]},
            "tokens": dict(holding.get("tokens", {}))}
    best = -1

    def layouts(i, garden, seen):
        if i == len(holding.get("seedlings", [])):
            yield garden
            return
        owned = {tuple(c) for t in [garden["starter"]] + garden["seedlings"] for c in t["cells"]}
        for a in sorted({n for c in owned for n in nbrs(c)} - owned):
            for b in nbrs(a):
                if b in owned:
                    continue
                for cells in ([a, b], [b, a]):
                    g = dict(garden, seedlings=garden["seedlings"] + [
                        {"id": holding["seedlings"][i], "cells": [list(c) for c in cells]}])
                    key = frozenset((tuple(c), t["id"], k) for t in g["seedlings"] for k, c in enumerate(t["cells"]))
                    if key in seen:
                        continue
                    seen.add(key)
                    yield from layouts(i + 1, g, seen)

    for layout in layouts(0, dict(base, seedlings=[]), set()):
        best = max(best, best_on_layout(layout, holding.get("plants", []), holding.get("flowers", [])))
    return best


def best_on_layout(layout: dict, plants_held: list, flowers_held: list) -> int:
    """The best prestige of a garden whose seedling tiles, plants and flowers already laid are
    `layout`'s, with any of the held plants and flowers (each optional) added legally."""
    best = -1
    owner, seed = {}, {}
    st = layout["starter"]
    for i, t in enumerate([st] + layout.get("seedlings", [])):
        faces = STARTERS[t["id"]][st["side"]] if i == 0 else TILES[t["id"]]
        for c, face in zip(t["cells"], faces):
            owner[tuple(c)], seed[tuple(c)] = i, face
    crossing = [(a, b) for a in owner for b in nbrs(a) if b in owner and a < b and owner[a] != owner[b]]
    laid_plants = list(layout.get("plants", []))
    laid_flowers = list(layout.get("flowers", []))
    plant_cells = frozenset(tuple(c) for p in laid_plants for c in p["cells"])
    flower_cells = frozenset(c for f in laid_flowers for c in block(tuple(f["at"])))

    def plants(j, placed, used):
        if j == len(plants_held):
            yield placed
            return
        yield from plants(j + 1, placed, used)
        pid = plants_held[j]
        for a, b in crossing:
            if a not in used and b not in used and allows(PLANTS[pid][0], seed[a][0], seed[b][0]):
                yield from plants(j + 1, placed + [{"id": pid, "cells": [list(a), list(b)]}], used | {a, b})

    for placed in plants(0, laid_plants, plant_cells):
        at_of = {tuple(c): p for p in placed for c in p["cells"]}
        beds = []
        for (r, k) in at_of:
            cells = block((r, k))
            if all(c in at_of for c in cells):
                under = {at_of[c]["id"]: at_of[c] for c in cells}
                if len(under) == 2 and all({tuple(c) for c in p["cells"]} <= set(cells) for p in under.values()):
                    beds.append(((r, k), [p["id"] for p in under.values()]))

        def flowers(j, chosen, covered):
            if j == len(flowers_held):
                yield chosen
                return
            yield from flowers(j + 1, chosen, covered)
            fid = flowers_held[j]
            for at, (p, q) in beds:
                cells = set(block(at))
                if not cells & covered and allows(FLOWERS[fid]["colour"], PLANTS[p][0], PLANTS[q][0]):
                    yield from flowers(j + 1, chosen + [{"id": fid, "at": list(at)}], covered | cells)

        for chosen in flowers(0, laid_flowers, flower_cells):
            best = max(best, score(dict(layout, plants=placed, flowers=chosen))[0])
    return best
