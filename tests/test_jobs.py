"""`make test`'s process count (tests/jobs.py): the usable cores, lowered to a container's CPU quota, at most 4."""
import os

from tests import jobs


def test_the_process_count_follows_the_cores_and_the_cpu_quota(tmp_path):
    cores = len(os.sched_getaffinity(0))
    quota = tmp_path / "cpu.max"
    assert jobs.jobs(str(tmp_path / "absent")) == min(jobs.MOST, cores)  # no cgroup v2 quota file
    quota.write_text("max 100000\n")
    assert jobs.jobs(str(quota)) == min(jobs.MOST, cores)  # no quota
    quota.write_text("150000 100000\n")  # one and a half cores: two processes
    assert jobs.jobs(str(quota)) == min(2, cores)
    quota.write_text("50000 100000\n")  # half a core: still one
    assert jobs.jobs(str(quota)) == 1
    quota.write_text("1600000 100000\n")  # sixteen cores' quota: never more than the cores, nor than MOST
    assert jobs.jobs(str(quota)) == min(jobs.MOST, cores)
    quota.write_text("garbled\n")
    assert jobs.jobs(str(quota)) == min(jobs.MOST, cores)
