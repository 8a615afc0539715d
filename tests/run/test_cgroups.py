"""cgroup v2 delegation (rootless), on a fake hierarchy: the real one here may be v1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.run import cgroups


@pytest.fixture
def fake_v2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cgroup"
    scope = root / "user.slice" / "user@1000.service" / "app.slice" / "judge.scope"
    scope.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (scope / "cgroup.controllers").write_text("cpu io memory pids\n")
    (scope / "cgroup.subtree_control").write_text("\n")
    (scope / "cgroup.procs").write_text(f"{os.getpid()}\n")
    monkeypatch.setattr(cgroups, "ROOT", str(root))
    monkeypatch.setattr(cgroups, "_v2_parent", None)
    monkeypatch.setattr(
        cgroups, "_own_paths", lambda pid=None: {"": "/user.slice/user@1000.service/app.slice/judge.scope"}
    )
    return scope


def test_a_delegated_group_is_used_after_the_judge_moves_into_a_leaf(fake_v2: Path) -> None:
    support = cgroups.detect()
    assert support.version == 2, support.reason
    leaf = fake_v2 / f"judge-leaf-{os.getpid()}"
    assert (leaf / "cgroup.procs").read_text() == str(os.getpid())
    assert set((fake_v2 / "cgroup.subtree_control").read_text().split()) == {"+memory", "+pids", "+cpu"}
    # Run groups are siblings of the leaf, in the delegated group.
    assert cgroups._v2_parent == str(fake_v2)
    # A worker forked later sees the leaf as its own group and finds the same parent.
    assert cgroups._v2_parent_of(str(leaf).removeprefix(cgroups.ROOT)) == str(fake_v2)


def test_a_group_shared_with_other_processes_is_not_taken(fake_v2: Path) -> None:
    (fake_v2 / "cgroup.procs").write_text(f"1\n{os.getpid()}\n")
    support = cgroups.detect()
    assert support.version == 0 and "holds other processes" in support.reason
    assert "systemd-run --user --scope -p Delegate=yes" in support.reason
    assert not any(p.name.startswith("judge-leaf-") for p in fake_v2.iterdir())


def test_a_group_without_the_controllers_says_which(fake_v2: Path) -> None:
    (fake_v2 / "cgroup.controllers").write_text("cpu io\n")
    support = cgroups.detect()
    assert support.version == 0 and "no memory, pids controller" in support.reason


def test_a_group_that_already_delegates_is_used_as_it_is(fake_v2: Path) -> None:
    (fake_v2 / "cgroup.subtree_control").write_text("cpu memory pids\n")
    support = cgroups.detect()
    assert support.version == 2
    assert not any(p.name.startswith("judge-leaf-") for p in fake_v2.iterdir())


def _leave_a_group_behind() -> None:
    group = cgroups.run_group(cgroups.detect().version, 64 << 20, 8)
    print(group.dirs["pids"], flush=True)
    os._exit(0)  # as a judge killed outright would: no cleanup


@pytest.mark.skipif(cgroups.detect().version == 0, reason="no cgroup here")
def test_the_groups_of_a_judge_that_is_gone_are_removed() -> None:
    import subprocess
    import sys

    from tests.conftest import REPO

    script = "from tests.run.test_cgroups import _leave_a_group_behind\n_leave_a_group_behind()"
    left = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
    directory = left.stdout.strip()
    assert os.path.isdir(directory)
    mine = cgroups.run_group(cgroups.detect().version, 64 << 20, 8)  # a live judge's group stays
    try:
        assert cgroups.remove_stale() >= 1
        assert not os.path.isdir(directory)
        assert all(os.path.isdir(d) for d in mine.dirs.values())
    finally:
        mine.remove()
