"""The page cache is one cache for the whole machine: what a run reads, a later run can time
(docs/sandbox.md, "The page cache"). The calls that would evict a page, or tell whether one is
cached without a clock, are refused in every sandbox (sandbox.filters)."""

from __future__ import annotations

import platform

import pytest

from judge.run import build, sandbox
from judge.run.sandbox import filters
from tests.conftest import REPO
from tests.run.conftest import needs_bwrap

PROGRAMS = REPO / "tests" / "programs" / "pagecache"
LIMITS = sandbox.RunLimits(cpu_s=2, wall_s=5, memory_mib=64, output_bytes=1 << 20)
pytestmark = needs_bwrap


def test_calls_that_evict_or_probe_the_page_cache_are_refused(case_path: str) -> None:
    if not filters.support().active:
        pytest.skip(filters.support().detail)
    with build.box() as where:
        compiled = build.compile_submission(build.load_submission(PROGRAMS / "evict.c"), where)
        assert compiled.ok, compiled.message
        with sandbox.cases(where) as runner:
            run = runner.run(["./main"], limits=LIMITS)
    assert run.ok, run
    said = dict(line.split() for line in run.stdout.decode().splitlines())
    eperm, unsupported = str(1), str(95)  # EPERM, EOPNOTSUPP
    refused = [
        "fadvise_dontneed",
        "fadvise_dontneed_high",
        "madvise_cold",
        "madvise_pageout",
        "madvise_pageout_high",
        "mincore",
        "cachestat",
        "io_uring_setup",
    ]
    assert {call: said[call] for call in refused} == dict.fromkeys(refused, eperm)
    assert said["preadv2_nowait"] == unsupported
    allowed = ["fadvise_sequential", "fadvise_willneed", "madvise_willneed", "madvise_dontneed", "preadv2", "readahead"]
    assert {call: said[call] for call in allowed} == dict.fromkeys(allowed, "0")
    if platform.machine() == "x86_64":  # the i386 ABI's fadvise64_64, through int 0x80
        assert said["i386_fadvise64_64"] == eperm
