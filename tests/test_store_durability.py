"""Crashes, concurrent processes and schema versions: the store never loses or half-writes data."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio
import pytest

from casetrack.config import load_settings
from casetrack.errors import CaseBusy, FutureSchemaVersion
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import keys
from casetrack.store.migrations import CASE, REGISTRY
from casetrack.store.records import dumps, encode_u32, loads
from casetrack.store.rocks import DEFAULT_CF, open_read, open_write
from tests.mcp_helpers import TEST_TRUSTED_KEY_ENV, call_ok, mcp_session, pro_env, text_of

WRITER = textwrap.dedent(
    """
    import base64, itertools, os, sys
    from casetrack.service.distribution import licensing
    licensing.PRODUCT_PUBLIC_KEY = base64.b64decode(os.environ["CASETRACK_TEST_TRUSTED_KEY"])  # test key pair
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.store import keys
    app = CaseTrack.open(load_settings(sys.argv[1]))
    case = app.create_case("Crash Target")
    store = app.cases.store(case)
    print("ready", flush=True)
    for n in itertools.count():
        # Alternate: a new case (registry + case folder) and a 300-entry "document" batch.
        app.create_case(f"Case {n}")
        with store.writer("test batch") as db:
            batch = db.batch()
            for i in range(300):
                batch.put(keys.CHUNKS, f"batch:{n:06d}:{i:04d}".encode(), b"x" * 2000)
            batch.put(keys.CHUNKS, f"batch:{n:06d}:done".encode(), b"1")
            db.write(batch)
    """
)


def test_sigkill_mid_write_leaves_registry_and_case_stores_whole(data_dir: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    env = pro_env()
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(data_dir)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    # Let it get well into the loop (several cases made, however busy the machine), then kill it without warning.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list((data_dir / "cases").glob("*"))) < 6:
        time.sleep(0.05)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()

    trusted = base64.b64decode(env[TEST_TRUSTED_KEY_ENV])
    app = CaseTrack.open(load_settings(data_dir), licence_public_key=trusted)  # start-up repair runs here
    cases = app.list_cases("all")
    assert len(cases) > 3, "the writer should have created several cases before the kill"
    case_dirs = {p.name for p in (data_dir / "cases").iterdir() if p.is_dir()}
    assert case_dirs == {c.id for c in cases}, "every folder is a registered case and vice versa"
    for case in cases:
        info = app.cases.store(case).read_info()
        assert info is not None and info.name == case.name

    target = next(c for c in cases if c.name == "Crash Target")
    with app.cases.store(target).reader() as db:
        entries = list(db.scan(keys.CHUNKS, b"batch:"))
    batches: dict[str, int] = {}
    for key, _ in entries:
        batches[key.decode().split(":")[1]] = batches.get(key.decode().split(":")[1], 0) + 1
    assert batches, "some batches were committed before the kill"
    assert all(count == 301 for count in batches.values()), "a batch is all there or not at all"
    # And the store is writable again: no stale lock left behind.
    app.create_case("After the crash")


def test_interrupted_create_and_delete_are_repaired_at_start(data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    kept = app.create_case("Half Created")
    app.registry.remove(kept.id)  # as if killed after the case store was written, before the registry
    doomed = app.create_case("Half Deleted")
    app.cases.store(doomed).mark_deleting()  # as if killed during delete_case
    restarted = CaseTrack.open(load_settings(data_dir))
    assert [c.name for c in restarted.list_cases("all")] == ["Half Created"]
    assert not (data_dir / "cases" / doomed.id).exists()
    assert any("re-registered" in action for action in restarted.recovered)


KILLED_AFTER_COMMIT = textwrap.dedent(
    """
    import os, signal, sys
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.cases.cases import CaseService
    from casetrack.service.ingest.document import IngestRequest
    app = CaseTrack.open(load_settings(sys.argv[1]))
    case = app.switch_case("Lease Dispute")
    # Killed at the worst moment: the document is committed, the registry's counts not yet updated.
    CaseService.save_stats = lambda self, case: os.kill(os.getpid(), signal.SIGKILL)
    app.ingestor.ingest(case, IngestRequest(sys.argv[2]))
    """
)


def test_a_kill_between_commit_and_registry_leaves_the_case_list_right_at_next_start(data_dir: Path,
                                                                                      tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Lease Dispute")
    first, second = tmp_path / "lease.txt", tmp_path / "notice.txt"
    first.write_text("The lease runs for five years from 1 March 2024.\n", encoding="utf-8")
    second.write_text("Notice of termination must be given ninety days ahead.\n", encoding="utf-8")
    app.ingestor.ingest(case, IngestRequest(str(first)))
    killed = subprocess.run([sys.executable, "-c", KILLED_AFTER_COMMIT, str(data_dir), str(second)],
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    lease = data_dir / "cases" / case.id / "case.db.writer"
    assert lease.exists()  # what the killed writer left behind
    assert [c.stats.document_count for c in app.list_cases()] == [1]  # the registry lags the store

    restarted = CaseTrack.open(load_settings(data_dir))  # start-up repair runs here
    listed = restarted.list_cases()
    assert [(c.stats.document_count, c.stats.chunk_count) for c in listed] == [(2, 2)]
    assert restarted.case_info(case.id).stats.document_count == 2
    assert not lease.exists()
    assert any('recounted case "Lease Dispute" after an interrupted write: 2 documents (the case list said 1)'
               in action for action in restarted.recovered)


async def _client_sequence(data_dir: Path, label: str, rounds: int, env: dict[str, str]) -> list[str]:
    names = []
    async with mcp_session(data_dir, **env) as client:
        for n in range(rounds):
            name = f"{label} matter {n}"
            await call_ok(client, "create_case", name=name)
            await call_ok(client, "list_cases", status_filter="all")
            await call_ok(client, "switch_case", case_name=name)
            info = await call_ok(client, "get_case_info")
            assert f"Case: {name}" in text_of(info)
            names.append(name)
    return names


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_two_server_processes_share_one_data_dir(data_dir: Path) -> None:
    results: dict[str, list[str]] = {}
    env = pro_env()

    async def run(label: str) -> None:
        results[label] = await _client_sequence(data_dir, label, rounds=6, env=env)

    async with anyio.create_task_group() as group:
        group.start_soon(run, "Desktop")
        group.start_soon(run, "Code")
    app = CaseTrack.open(load_settings(data_dir))
    names = {c.name for c in app.list_cases("all")}
    assert names == set(results["Desktop"]) | set(results["Code"])
    assert len(names) == 12


def test_a_writer_that_never_lets_go_gets_a_named_busy_error(data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Busy Case")
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import time
            from pathlib import Path
            from casetrack.store import keys
            from casetrack.store.rocks import open_write
            with open_write(Path({str(data_dir / 'cases' / case.id / 'case.db')!r}), keys.CASE_COLUMN_FAMILIES,
                            "ingesting a 900-page production", 5, "x"):
                print("holding", flush=True)
                time.sleep(30)
        """)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        impatient = CaseTrack.open(load_settings(data_dir))
        store = impatient.cases.store(case)
        store._timeout = 0.5
        with pytest.raises(CaseBusy) as caught:
            store.write_info(case)
        message = caught.value.message
        assert f"pid {holder.pid}" in message and "ingesting a 900-page production" in message
        assert "try again" in message
        # Reading is never blocked by the writer.
        assert store.read_info() is not None
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout:
            holder.stdout.close()


def _write_v0_fixture(data_dir: Path) -> str:
    """A data dir as the Rust prototype wrote it: no schema_version, Rust enum spellings, int times."""
    case_id = "0b9f6c1e-7a55-4c1b-9d7e-3f3d8a2b1c00"
    old = {"id": case_id, "name": "Legacy v. Prototype", "case_number": None, "case_type": "PersonalInjury",
           "status": "Active", "created_at": 1_700_000_000, "updated_at": 1_700_000_100}
    with open_write(data_dir / "registry.db", [DEFAULT_CF], "fixture", 5, "fixture") as db:
        batch = db.batch()
        batch.put(DEFAULT_CF, keys.case(case_id), dumps(old))
        db.write(batch)
    with open_write(data_dir / "cases" / case_id / "case.db", keys.CASE_COLUMN_FAMILIES, "fixture", 5,
                    "fixture") as db:
        batch = db.batch()
        batch.put(keys.METADATA, keys.CASE_INFO, dumps(old))
        db.write(batch)
    return case_id


def test_v0_stores_are_migrated_with_a_backup(data_dir: Path) -> None:
    case_id = _write_v0_fixture(data_dir)
    app = CaseTrack.open(load_settings(data_dir))
    [case] = app.list_cases("all")
    assert case.name == "Legacy v. Prototype" and case.case_type.value == "personal_injury"
    assert case.status.value == "active" and case.updated_at == 1_700_000_100
    assert (data_dir / "registry.db.bak.v0").is_dir()
    info = app.cases.store(case).read_info()
    assert info is not None and info.case_type.value == "personal_injury"
    assert (data_dir / "cases" / case_id / "case.db.bak.v0").is_dir()
    with open_read(data_dir / "registry.db", [DEFAULT_CF]) as db:
        assert db.get(DEFAULT_CF, keys.REGISTRY_SCHEMA_VERSION) == encode_u32(REGISTRY.current)
    # The backup still holds the original record, untouched.
    with open_read(data_dir / "registry.db.bak.v0", [DEFAULT_CF]) as db:
        raw = db.get(DEFAULT_CF, keys.case(case_id))
        assert raw is not None and loads(raw)["case_type"] == "PersonalInjury"
    # Migrating again is a no-op.
    again = CaseTrack.open(load_settings(data_dir))
    assert [c.case_type.value for c in again.list_cases("all")] == ["personal_injury"]
    assert CASE.current == REGISTRY.current == 1


def test_a_store_from_a_newer_casetrack_is_refused_untouched(data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    app.create_case("Future Case")
    with open_write(data_dir / "registry.db", [DEFAULT_CF], "fixture", 5, "fixture") as db:
        batch = db.batch()
        batch.put(DEFAULT_CF, keys.REGISTRY_SCHEMA_VERSION, encode_u32(REGISTRY.current + 1))
        db.write(batch)
    with open_read(data_dir / "registry.db", [DEFAULT_CF]) as db:
        before = list(db.scan(DEFAULT_CF, b""))
    fresh = CaseTrack.open(load_settings(data_dir))
    with pytest.raises(FutureSchemaVersion) as caught:
        fresh.list_cases("all")
    assert caught.value.message == (
        f"Database schema version {REGISTRY.current + 1} is newer than supported version "
        f"{REGISTRY.current}. Update CaseTrack."
    )
    with open_read(data_dir / "registry.db", [DEFAULT_CF]) as db:
        assert list(db.scan(DEFAULT_CF, b"")) == before
    assert not list(data_dir.glob("registry.db.bak.*"))


@pytest.mark.anyio
async def test_the_server_reports_a_newer_store_as_a_tool_error(data_dir: Path) -> None:
    CaseTrack.open(load_settings(data_dir)).create_case("Future Case")
    with open_write(data_dir / "registry.db", [DEFAULT_CF], "fixture", 5, "fixture") as db:
        batch = db.batch()
        batch.put(DEFAULT_CF, keys.REGISTRY_SCHEMA_VERSION, encode_u32(REGISTRY.current + 1))
        db.write(batch)
    async with mcp_session(data_dir) as client:
        result = await client.call_tool("list_cases", {})
    assert result.is_error
    assert "is newer than supported version" in text_of(result) and "Update CaseTrack." in text_of(result)
