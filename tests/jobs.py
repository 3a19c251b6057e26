"""How many processes `make test` runs the suite on (its TEST_JOBS): the cores this process may use, lowered to
the container's CPU quota when it has one (cgroup v2 `cpu.max`; `nproc` does not see a quota), at most MOST.
More processes than cores would slow the tests that keep wall-clock limits (the ones marked `serial` run alone
anyway). Run with any Python 3: `python3 tests/jobs.py`."""
from __future__ import annotations

import math
import os
import sys

MOST = 4


def jobs(quota_file: str = "/sys/fs/cgroup/cpu.max") -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        cores = os.cpu_count() or 1
    try:
        with open(quota_file) as f:
            quota, period = f.read().split()[:2]
        if quota != "max":
            cores = min(cores, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass
    return max(1, min(MOST, cores))


if __name__ == "__main__":
    print(jobs(*sys.argv[1:2]))
