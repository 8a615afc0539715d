"""The on-disk cache: made once, checked on load, rebuilt when damaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.problem.tables import TableStore, build


def test_cache_round_trip_and_reuse(tmp_path: Path) -> None:
    messages: list[str] = []
    first = TableStore(tmp_path, notify=messages.append)
    data = first("rotations")
    assert len(data) == 362880 and Path(first.path("rotations")).is_file()
    assert any("building" in m for m in messages)
    messages.clear()
    again = TableStore(tmp_path, notify=messages.append)
    assert again("rotations") == data
    assert messages == []  # loaded, not rebuilt


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "empty"])
def test_damaged_file_is_rebuilt(tmp_path: Path, damage: str) -> None:
    good = TableStore(tmp_path)("rotations")
    path = Path(TableStore(tmp_path).path("rotations"))
    blob = bytearray(path.read_bytes())
    if damage == "flip":
        blob[-100] ^= 0x01
    elif damage == "truncate":
        del blob[-10:]
    elif damage == "header":
        blob[:11] = b"not-a-table"
    else:
        blob = bytearray()
    path.write_bytes(bytes(blob))
    messages: list[str] = []
    assert TableStore(tmp_path, notify=messages.append)("rotations") == good
    if damage != "empty":
        assert any("damaged" in m for m in messages), messages
    assert TableStore(tmp_path)("rotations") == good  # and the file is sound again


def test_unwritable_cache_still_answers(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    messages: list[str] = []
    store = TableStore(blocker / "cache", notify=messages.append)
    assert len(store("sliding-goal8")) == 362880
    assert any("kept in memory only" in m for m in messages)


def test_unknown_table() -> None:
    with pytest.raises(KeyError):
        build(["sliding-goal9"])
