"""The Horticulture tests' oracle answers, shared by the workers of one pytest-xdist run (helpers._shared)."""
from __future__ import annotations

import os

import pytest

from . import helpers


@pytest.fixture(scope="session", autouse=True)
def _shared_oracle(tmp_path_factory):
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the workers' base temporary directories sit in the run's one
        helpers.SHARED = tmp_path_factory.getbasetemp().parent / "horticulture-oracle"
        helpers.SHARED.mkdir(exist_ok=True)
    yield
    helpers.SHARED = None
