"""Many small commits must not leave a store fragmented into ever more table files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from casetrack.store import rocks
from casetrack.store.rocks import open_read, open_write

FAMILIES = ["documents", "chunks", "embeddings"]


def test_many_short_write_sessions_keep_the_store_compact_and_whole(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rocks, "COMPACT_AT_FILES", 30)
    path = tmp_path / "case.db"
    for n in range(40):  # each session flushes one table file per family it wrote
        with open_write(path, FAMILIES, "test", 5, "test") as db:
            batch = db.batch()
            for i in range(50):
                for cf in FAMILIES:
                    batch.put(cf, f"doc{n:03d}:{i:03d}".encode(), os.urandom(200))
            db.write(batch)
    with open_write(path, FAMILIES, "inspect", 5, "test") as db:
        live = len(db._db.live_files())
    # At most the threshold plus one session's files (without compaction: 40 x 3 = 120).
    assert live <= 30 + len(FAMILIES), f"{live} live table files after 40 commits"
    with open_read(path, FAMILIES) as db:
        for cf in FAMILIES:
            assert db.count(cf, b"doc") == 40 * 50


def test_many_write_sessions_keep_only_a_few_info_logs(tmp_path: Path) -> None:
    path = tmp_path / "case.db"
    for n in range(12):  # each open of a store starts a new RocksDB info LOG of ~100 KB
        with open_write(path, FAMILIES, "test", 5, "test") as db:
            batch = db.batch()
            batch.put("documents", f"doc{n}".encode(), b"x")
            db.write(batch)
        with open_read(path, FAMILIES):
            pass
    logs = [name for name in os.listdir(path) if name.startswith("LOG")]
    assert len(logs) <= 3, logs  # the current one and two old ones (RocksDB keeps 1,000 by default)
