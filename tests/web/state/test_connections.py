"""A thread takes its idle connection to the database again instead of opening one (an open
costs about 1 ms, five a polled page): never one in use, never one to a file replaced since,
never one left in a transaction, and a durable write is flushed whatever the one before was."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from judge.web.state.database import close_idle
from judge.web.state.store import Store


def test_a_thread_takes_its_idle_connection_again_and_a_nested_use_gets_its_own(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.connect() as first:
        pass
    with store.connect() as again:
        assert again is first
        with store.connect() as nested:
            assert nested is not again
            assert nested.execute("SELECT 1").fetchone()[0] == 1


def test_a_nested_read_does_not_see_an_outer_transaction_s_uncommitted_write(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.transaction() as outer:
        outer.execute("CREATE TABLE scratch (x INTEGER)")
        outer.execute("INSERT INTO scratch VALUES (1)")
        with store.connect() as inner:
            assert inner is not outer
            found = inner.execute("SELECT name FROM sqlite_master WHERE name = 'scratch'").fetchall()
            assert found == []  # the outer write is not committed: a connection of its own sees none of it
    with store.connect() as after:
        assert after is outer  # given back once the transaction committed
        assert after.execute("SELECT x FROM scratch").fetchall()[0][0] == 1


def test_a_durable_write_after_a_light_one_on_the_same_connection_is_flushed(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.transaction(durable=False) as light:
        assert light.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    with store.transaction() as durable:
        assert durable is light
        assert durable.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_connection_left_in_a_transaction_or_that_failed_is_not_kept(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.connect() as left:
        left.execute("BEGIN")
    with store.connect() as fresh:
        assert fresh is not left
        assert not fresh.in_transaction
    try:
        with store.connect() as failed:
            raise KeyError("a bug of a caller")
    except KeyError:
        pass
    with store.connect() as other:
        assert other is not failed


def test_a_database_file_replaced_since_is_opened_afresh(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store(data)
    with store.connect() as before:
        before.execute("CREATE TABLE marker (x INTEGER)")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store.path}{suffix}").unlink(missing_ok=True)
    renewed = Store(data)  # a new file at the same path (a restore, a test's fresh folder)
    with renewed.connect() as after:
        assert after is not before
        assert after.execute("SELECT name FROM sqlite_master WHERE name = 'marker'").fetchall() == []


def test_threads_never_share_a_connection(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    taken: list[set[int]] = [set() for _ in range(4)]
    errors: list[BaseException] = []
    together = threading.Barrier(len(taken))  # all alive at once: no thread's id is reused

    def use(mine: set[int]) -> None:
        try:
            together.wait()
            for _ in range(20):
                with store.connect() as db:
                    db.execute("SELECT COUNT(*) FROM submissions").fetchone()
                    mine.add(id(db))
            together.wait()
        except BaseException as err:  # sqlite3 refuses a connection of another thread
            errors.append(err)

    threads = [threading.Thread(target=use, args=(mine,)) for mine in taken]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(len(mine) == 1 for mine in taken)  # each thread took its own again and again
    assert len(set().union(*taken)) == len(taken)  # and no two the same


def test_a_forked_child_opens_its_own_connection(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.connect() as parent:
        parent_id = id(parent)
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: says whether it was handed the parent's connection
        try:
            with store.connect() as child:
                same = id(child) == parent_id
                child.execute("SELECT COUNT(*) FROM submissions").fetchone()
            os.write(writer, b"same" if same else b"own")
        finally:
            os._exit(0)
    os.close(writer)
    said = os.read(reader, 16)
    os.waitpid(pid, 0)
    assert said == b"own"
    with store.connect() as after:
        assert id(after) == parent_id  # the parent's is still its own


def test_a_thread_keeps_idle_connections_to_its_last_few_files_only(tmp_path: Path) -> None:
    stores = [Store(tmp_path / f"data{i}") for i in range(6)]
    used = []
    for store in stores:
        with store.connect() as db:
            used.append(db)
    with stores[-1].connect() as last:
        assert last is used[-1]  # a file used lately: its connection again
    with stores[0].connect() as first:
        assert first is not used[0]  # one used long ago: closed since, opened afresh
    with pytest.raises(sqlite3.ProgrammingError):
        used[0].execute("SELECT 1")


def _descriptors_of(path: Path) -> int:
    """How many of this process's descriptors are open on `path` (its connections hold them)."""
    found = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            found += os.readlink(f"/proc/self/fd/{fd}") == str(path)
        except OSError:  # the listing's own descriptor, gone
            pass
    return found


def test_a_thread_s_idle_connections_are_closed_when_it_ends(tmp_path: Path) -> None:
    path: list[Path] = []

    def use() -> None:  # every connection to this file is this thread's
        store = Store(tmp_path / "data")
        with store.connect() as db:
            db.execute("SELECT COUNT(*) FROM submissions").fetchone()
        path.append(store.path)
        assert _descriptors_of(store.path) == 1  # kept idle while the thread lives

    thread = threading.Thread(target=use)
    thread.start()
    thread.join()
    assert _descriptors_of(path[0]) == 0


def test_close_idle_closes_the_calling_thread_s_connections(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.connect() as kept:
        pass
    close_idle()
    with pytest.raises(sqlite3.ProgrammingError):
        kept.execute("SELECT 1")  # closed
    with store.connect() as fresh:
        assert fresh is not kept
