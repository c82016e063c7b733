"""A reused read-only handle must never show a store older than its last commit, whoever
made that commit: this process, a thread of it, or another process."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from casetrack.errors import StoreCorrupt
from casetrack.store import rocks, shared_reads
from casetrack.store.rocks import open_write
from casetrack.store.shared_reads import shared_read

FAMILIES = ["documents", "chunks"]


def commit(path: Path, key: bytes, value: bytes, cf: str = "documents") -> None:
    with open_write(path, FAMILIES, "test", 5, "test") as db:
        batch = db.batch()
        batch.put(cf, key, value)
        db.write(batch)


def read(path: Path, key: bytes, cf: str = "documents") -> bytes | None:
    with shared_read(path, FAMILIES) as db:
        return db.get(cf, key)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_every_read_sees_the_commit_before_it_across_hundreds_of_commits(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rocks, "COMPACT_AT_FILES", 20)  # flushes and compactions happen in between too
    path = tmp_path / "case.db"
    for n in range(120):
        commit(path, b"generation", str(n).encode())
        commit(path, f"doc{n}".encode(), b"x", cf="chunks")
        assert read(path, b"generation") == str(n).encode()
        assert read(path, f"doc{n}".encode(), cf="chunks") == b"x"


def test_an_unchanged_store_reuses_its_handle_and_a_changed_one_does_not(tmp_path: Path) -> None:
    path = tmp_path / "case.db"
    commit(path, b"k", b"1")
    with shared_read(path, FAMILIES) as first:
        pass
    with shared_read(path, FAMILIES) as second:
        assert second is first
    commit(path, b"k", b"2")
    with shared_read(path, FAMILIES) as third:
        assert third is not first
        assert third.get("documents", b"k") == b"2"


def test_a_commit_by_another_process_is_seen_by_the_next_read(tmp_path: Path) -> None:
    path = tmp_path / "case.db"
    commit(path, b"k", b"mine")
    assert read(path, b"k") == b"mine"
    script = (
        "import sys; from pathlib import Path; from casetrack.store.rocks import open_write\n"
        "with open_write(Path(sys.argv[1]), ['documents', 'chunks'], 't', 5, 't') as db:\n"
        "    b = db.batch(); b.put('documents', b'k', b'theirs'); db.write(b)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True, timeout=60)
    assert read(path, b"k") == b"theirs"


def test_a_session_in_use_keeps_its_view_while_the_store_changes(tmp_path: Path) -> None:
    path = tmp_path / "case.db"
    commit(path, b"k", b"old")
    with shared_read(path, FAMILIES) as long_reader:
        commit(path, b"k", b"new")
        assert read(path, b"k") == b"new"  # a new session reopens ...
        assert long_reader.get("documents", b"k") == b"old"  # ... the open one is not closed under it
    assert read(path, b"k") == b"new"


def test_threads_reading_while_another_commits_always_see_a_whole_commit(tmp_path: Path) -> None:
    path = tmp_path / "case.db"
    commit(path, b"pair", b"0:0")
    errors: list[str] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            value = read(path, b"pair")
            left, right = (value or b"?:!").split(b":")
            if left != right:
                errors.append(repr(value))

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        for n in range(1, 60):
            commit(path, b"pair", f"{n}:{n}".encode())
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert not errors
    assert read(path, b"pair") == b"59:59"


def test_released_stores_are_closed_and_a_deleted_store_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "case" / "case.db"
    commit(path, b"k", b"v")
    assert read(path, b"k") == b"v"
    shared_reads.release(tmp_path / "case")
    assert path not in shared_reads._handles
    shutil.rmtree(tmp_path / "case")
    with pytest.raises(StoreCorrupt):
        read(path, b"k")


def test_at_most_a_few_handles_stay_open(tmp_path: Path) -> None:
    paths = [tmp_path / f"case{n}.db" for n in range(shared_reads.MAX_SHARED_HANDLES + 3)]
    for path in paths:
        commit(path, b"k", path.name.encode())
        assert read(path, b"k") == path.name.encode()
    assert sum(1 for p in paths if p in shared_reads._handles) == shared_reads.MAX_SHARED_HANDLES
    assert read(paths[0], b"k") == paths[0].name.encode()  # evicted ones simply reopen


def test_commits_inside_one_write_session_are_seen_too(tmp_path: Path) -> None:
    # No table file appears between these commits: only the write-ahead log grows.
    path = tmp_path / "case.db"
    commit(path, b"k", b"0")
    with open_write(path, FAMILIES, "test", 5, "test") as db:
        for n in range(1, 4):
            batch = db.batch()
            batch.put("documents", b"k", str(n).encode())
            db.write(batch)
            assert read(path, b"k") == str(n).encode()


def test_idle_handles_are_closed_and_handles_in_use_are_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_reads, "IDLE_CLOSE_S", 0.2)
    idle, busy = tmp_path / "idle.db", tmp_path / "busy.db"
    commit(idle, b"k", b"1")
    commit(busy, b"k", b"2")
    assert read(idle, b"k") == b"1"
    with shared_read(busy, FAMILIES) as in_use:
        deadline = time.monotonic() + 10
        while idle in shared_reads._handles and time.monotonic() < deadline:  # the reaper thread's work
            time.sleep(0.05)
        assert idle not in shared_reads._handles
        assert busy in shared_reads._handles and in_use.get("documents", b"k") == b"2"
    assert read(idle, b"k") == b"1"  # a closed handle simply reopens


def test_a_read_handle_keeps_reading_after_a_writer_compacts_its_table_files_away(tmp_path: Path) -> None:
    """A search holds a read handle while a background ingest commits and compacts: the table files
    the handle saw at open are deleted under it. It must keep reading them (it holds them open), not
    fail with "IO error: No such file or directory" (it did for every file beyond the 16 RocksDB
    opens at once when table files are opened on first use)."""
    from rocksdict import BottommostLevelCompaction, CompactOptions

    families = ["documents", "chunks", "pages", "terms"]
    path = tmp_path / "case.db"
    for n in range(12):  # twelve write sessions, each flushing one table file per family: 48
        with open_write(path, families, "test", 5, "test") as db:
            batch = db.batch()
            for cf in families:
                batch.put(cf, f"doc-{n}".encode(), f"value {n}".encode() * 50)
            db.write(batch)
    assert len(list(path.glob("*.sst"))) > 16
    with rocks.open_read(path, families) as held:
        with open_write(path, families, "test", 5, "test") as db:
            merge_all = CompactOptions()
            merge_all.set_bottommost_level_compaction(BottommostLevelCompaction.force())
            for view in db._views.values():
                view.compact_range(None, None, merge_all)
        assert len(list(path.glob("*.sst"))) <= len(families)  # the files the handle opened are gone
        for cf in families:
            for n in range(12):
                assert held.get(cf, f"doc-{n}".encode()) == f"value {n}".encode() * 50, (cf, n)


def test_a_batched_read_gives_each_key_its_own_value_in_order_and_none_for_a_missing_one(tmp_path: Path) -> None:
    """Search reads a hundred passages' records in one multi-get (store.rocks.get_many): a value given to the
    wrong key would lift the wrong passage."""
    path = tmp_path / "case.db"
    with open_write(path, FAMILIES, "test", 5, "test") as db:
        batch = db.batch()
        for n in range(50):
            batch.put("chunks", f"c{n:03d}".encode(), f"value {n}".encode())
        db.write(batch)
    wanted = [b"c049", b"missing", b"c000", b"c017", b"c017", b"c050"]
    with shared_read(path, FAMILIES) as db:
        assert db.get_many("chunks", wanted) == [db.get("chunks", key) for key in wanted]
        assert db.get_many("chunks", wanted) == [b"value 49", None, b"value 0", b"value 17", b"value 17", None]
        assert db.get_many("chunks", []) == []
