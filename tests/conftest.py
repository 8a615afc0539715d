"""Shared fixtures: a private table cache per test session, never the user's."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import needs

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = REPO / "problems"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{needs.MARK}(*things, because=''): skip unless each is here (tests/needs.py)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked by needs.mark skips before its fixtures are made, naming what to install."""
    for marked in item.iter_markers(needs.MARK):
        needs.require(*marked.args, because=marked.kwargs.get("because", ""))


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    cache = tmp_path_factory.mktemp("judge-cache")
    old = os.environ.get("JUDGE_CACHE_DIR")
    os.environ["JUDGE_CACHE_DIR"] = str(cache)
    yield cache
    if old is None:
        os.environ.pop("JUDGE_CACHE_DIR", None)
    else:
        os.environ["JUDGE_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def store(_private_cache: Path):  # type: ignore[no-untyped-def]
    from judge.problem.tables import TableStore

    return TableStore(_private_cache)


@pytest.fixture
def problems_copy(tmp_path: Path) -> Path:
    """A scratch copy of the bundled problems, safe to break."""
    target = tmp_path / "problems"
    shutil.copytree(PROBLEMS, target)
    return target
