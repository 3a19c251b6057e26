"""Random instances shared by the refutation tests: small two-scoring sequences and a greedy garden
of each (a legal garden, so every loss it meets is a witness no sound rule may refute)."""
from __future__ import annotations

import dataclasses
import random

from solver.games.versailles.data import default_catalog
from solver.games.versailles.heuristic import greedy_garden

CAT = default_catalog()
IDS = sorted(CAT.tiles)
# stages of 3 tiles: the 2 largest areas score after tile 3, the 3 largest after the last
STAGE3 = dataclasses.replace(CAT, setup=dataclasses.replace(CAT.setup, rounds_per_stage=3))


def stage3_instance(base: int, seed: int):
    """(tiles, greedy garden) of 5 or 6 random tiles (5 for even seeds) under STAGE3: the tiles
    drawn with random.Random(base + seed), the garden with random.Random(seed), one restart."""
    rng = random.Random(base + seed)
    tiles = [STAGE3.tiles[i] for i in rng.sample(IDS, 5 + seed % 2)]
    garden, _ = greedy_garden(tiles, STAGE3, random.Random(seed), None, 1)
    return tiles, garden
