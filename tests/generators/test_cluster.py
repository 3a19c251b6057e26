"""Ray back end (optional extra): a local Ray instance stores the same bytes as the local pool for 3 days."""
from __future__ import annotations

import datetime as dt

import pytest

ray = pytest.importorskip("ray")

from generators import batch  # noqa: E402
from tests.generators.test_batch import rows  # noqa: E402


def test_ray_and_local_pool_store_byte_identical_puzzles(tmp_path):
    from generators.cluster import generate_range_ray
    start, end = dt.date(2027, 1, 1), dt.date(2027, 1, 3)
    local, clustered = str(tmp_path / "local.sqlite"), str(tmp_path / "ray.sqlite")
    batch.generate_range(local, start, end, ["gardeners"], workers=2, variants=["decree"], difficulties=["easy"])
    try:
        generate_range_ray("local", clustered, start, end, ["gardeners"], ["decree"], ["easy"])
    finally:
        ray.shutdown()
    assert rows(local) == rows(clustered) and len(rows(local)) == 3
