"""A folder can hold links and special files; ingesting or watching it reads only what is really in it
(issue 20 "also found"): a link to a file outside the folder is not followed (an instruction planted in
one document could have a file of another matter linked in), and a named pipe or a device is not read.
Each is a "refused" outcome that says why and what to do. Real folders, stores and the bundled embedder."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.render.folders import report as report_text
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.folders import walk
from tests.stalled_files import wait_for

OTHER_MATTER = "Doe v. Acme: settlement authority is capped at $2.5 million. Privileged."
OWN = "Smith v. Jones: the lease ends on 1 May 2024."


@pytest.fixture
def setup(data_dir: Path, tmp_path: Path) -> Iterator[tuple[CaseTrack, Case, Path]]:
    data_dir.mkdir(parents=True)
    (data_dir / "config.toml").write_text("watch_debounce_s = 0.3\nwatch_schedule_check_s = 0.5\n"
                                          "watch_lock_retry_s = 0.2\n", encoding="utf-8")
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Smith v. Jones")
    other = tmp_path / "Doe v. Acme"
    other.mkdir()
    (other / "settlement.txt").write_text(OTHER_MATTER, encoding="utf-8")
    folder = tmp_path / "Smith"
    folder.mkdir()
    (folder / "lease.txt").write_text(OWN, encoding="utf-8")
    (folder / "signed").mkdir()
    (folder / "signed" / "lease.txt").symlink_to(folder / "lease.txt")  # a link inside the folder is followed
    yield app, case, folder.resolve()
    app.stop()


def names(app: CaseTrack, case: Case) -> set[str]:
    return {d.name for d in app.documents.all(app.cases.get(case.id))}


def test_a_folder_ingest_does_not_follow_a_link_out_of_the_folder_or_read_a_pipe(
        setup: tuple[CaseTrack, Case, Path], tmp_path: Path) -> None:
    app, case, folder = setup
    (folder / "exhibit 7.txt").symlink_to(tmp_path / "Doe v. Acme" / "settlement.txt")
    os.mkfifo(folder / "transcript.txt")
    (folder / "zeros.txt").symlink_to("/dev/zero")
    started = time.monotonic()
    report = app.folders.ingest_folder(case, folder, walk(folder))
    assert time.monotonic() - started < 120
    outcomes = {o.path: o for o in report.outcomes}
    assert outcomes["lease.txt"].status == "ingested"
    assert outcomes["signed/lease.txt"].status == "skipped"  # followed: the same file, already in the case
    link = outcomes["exhibit 7.txt"]
    assert link.status == "refused"
    assert f"a link to {tmp_path.resolve() / 'Doe v. Acme' / 'settlement.txt'}, outside this folder" in link.message
    assert "ingest it by its own path" in link.message
    assert outcomes["transcript.txt"].status == "refused" and "named pipe" in outcomes["transcript.txt"].message
    assert outcomes["zeros.txt"].status == "refused" and "a device" in outcomes["zeros.txt"].message
    assert names(app, case) == {"lease.txt"}
    hits = app.search.search(app.cases.get(case.id), "settlement authority", top_k=5).hits
    assert all("Doe v. Acme" not in hit.chunk.text for hit in hits)
    text = report_text(report, case.name)
    assert "Not read:   3 (links out of the folder, or not regular files)" in text
    assert "  - exhibit 7.txt: a link to" in text


def test_a_watch_does_not_follow_a_link_out_of_the_folder(setup: tuple[CaseTrack, Case, Path],
                                                          tmp_path: Path) -> None:
    app, case, folder = setup
    app.watches.start()
    started = time.time()
    app.watches.add(case, str(folder))

    def synced_after(moment: float) -> bool:
        state = app.watches.get(str(folder)).state
        return state.status == "idle" and (state.last_sync_at or 0) > moment

    wait_for(lambda: synced_after(started), "the first sync")
    (folder / "exhibit 7.txt").symlink_to(tmp_path / "Doe v. Acme" / "settlement.txt")  # a change it sees
    (folder / "notice.txt").write_text("Smith v. Jones: notice of default served on 2 April 2024.",
                                       encoding="utf-8")
    wait_for(lambda: "notice.txt" in names(app, case), "the new file")
    before = time.time()
    app.watches.sync_now(str(folder))  # a full sync sees the same
    wait_for(lambda: synced_after(before), "a full sync")
    assert names(app, case) == {"lease.txt", "notice.txt"}
    assert app.watches.get(str(folder)).state.last_counts.get("refused") == 1
