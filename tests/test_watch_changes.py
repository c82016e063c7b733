"""The debounce of a watch's changed paths, driven by an explicit clock (no threads, no sleeps)."""

from __future__ import annotations

from pathlib import Path

from casetrack.service.watch.changes import Changes, accepts
from casetrack.service.watch.store import Watch

DEBOUNCE = 2.0


def settle_all(changes: Changes, stats: dict[str, tuple[int, int] | None], now: float) -> None:
    for path, entry in list(changes.pending.items()):
        changes.settle(path, entry, stats.get(path), now, DEBOUNCE)


def test_a_path_is_ready_only_after_it_is_quiet_and_its_size_stays_put() -> None:
    changes = Changes(max_pending=10)
    changes.note("/f/a.pdf", False, now=0.0)
    settle_all(changes, {"/f/a.pdf": (100, 1)}, now=0.5)  # first look
    settle_all(changes, {"/f/a.pdf": (200, 2)}, now=2.4)  # still growing: the clock restarts
    settle_all(changes, {"/f/a.pdf": (200, 2)}, now=4.3)  # quiet for 4.3 s but stable for only 1.9 s
    assert changes.ready == set()
    settle_all(changes, {"/f/a.pdf": (200, 2)}, now=4.4)
    assert changes.ready == {"/f/a.pdf"} and not changes.pending
    assert changes.take_ready() == {"/f/a.pdf"} and changes.waiting == 0


def test_a_new_event_restarts_the_quiet_time() -> None:
    changes = Changes(max_pending=10)
    changes.note("/f/a.pdf", False, now=0.0)
    settle_all(changes, {"/f/a.pdf": (1, 1)}, now=0.1)
    changes.note("/f/a.pdf", False, now=1.9)
    settle_all(changes, {"/f/a.pdf": (1, 1)}, now=3.0)
    assert changes.ready == set()
    settle_all(changes, {"/f/a.pdf": (1, 1)}, now=3.9)
    assert changes.ready == {"/f/a.pdf"}


def test_both_halves_of_a_rename_become_ready_together() -> None:
    changes = Changes(max_pending=10)
    changes.note("/f/old.pdf", False, now=0.0)
    changes.note("/f/new.pdf", False, now=0.0)
    stats = {"/f/old.pdf": None, "/f/new.pdf": (5, 5)}  # the old name is gone from the first look
    settle_all(changes, stats, now=0.1)
    settle_all(changes, stats, now=1.0)
    assert changes.ready == set()  # the deleted half does not run ahead of the created one
    settle_all(changes, stats, now=2.1)
    assert changes.ready == {"/f/old.pdf", "/f/new.pdf"}


def test_too_many_changes_become_one_full_sync_once_they_stop() -> None:
    changes = Changes(max_pending=3)
    overflowed = [changes.note(f"/f/{n}.pdf", False, now=float(n) / 10) for n in range(5)]
    assert overflowed == [False, False, False, True, False]
    assert changes.waiting == 0  # the paths are dropped: the full sync finds them again
    assert not changes.overflow_settled(now=2.3, debounce_s=DEBOUNCE)  # the last event was at 0.4
    assert changes.overflow_settled(now=2.4, debounce_s=DEBOUNCE)
    assert not changes.overflow_settled(now=9.0, debounce_s=DEBOUNCE)  # once
    changes.note("/f/later.pdf", False, now=9.0)
    assert changes.waiting == 1


def test_a_path_dropped_while_it_was_looked_at_stays_dropped() -> None:
    changes = Changes(max_pending=1)
    changes.note("/f/a.pdf", False, now=0.0)
    entry = changes.pending["/f/a.pdf"]
    changes.note("/f/b.pdf", False, now=0.1)  # overflow: a.pdf is dropped
    changes.settle("/f/a.pdf", entry, (1, 1), now=5.0, debounce_s=DEBOUNCE)
    assert changes.ready == set() and not changes.pending


def test_retried_paths_respect_the_bound() -> None:
    changes = Changes(max_pending=2)
    changes.retry({"/f/a.pdf", "/f/b.pdf", "/f/c.pdf"}, now=0.0)
    assert len(changes.pending) == 2


def test_only_events_that_can_change_the_case_are_accepted(tmp_path: Path) -> None:
    folder, data = tmp_path / "Smith", tmp_path / "data"
    watch = Watch(id="w", case_id="c", folder=str(folder), schedule="on_change")
    assert accepts(watch, str(folder / "Complaint.pdf"), False, data)
    assert accepts(watch, str(folder / "Exhibits"), True, data)
    assert not accepts(watch, str(folder / "notes.xyz"), False, data)  # not a format CaseTrack reads
    assert not accepts(watch, str(folder / "~$Draft.docx"), False, data)  # Word's lock file
    assert not accepts(watch, str(folder / ".git" / "index"), False, data)
    assert not accepts(watch, str(tmp_path / "Other" / "a.pdf"), False, data)  # outside the folder
    assert not accepts(watch, str(folder), True, data)
    only_pdf = Watch(id="w", case_id="c", folder=str(folder), schedule="on_change", extensions=(".pdf",))
    assert not accepts(only_pdf, str(folder / "Letter.docx"), False, data)
    # the data folder lies inside the watched folder
    inside = Watch(id="w", case_id="c", folder=str(tmp_path), schedule="on_change")
    assert not accepts(inside, str(data / "cases" / "x" / "case.db" / "000012.sst"), False, data)
