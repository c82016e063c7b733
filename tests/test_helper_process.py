"""The helper process: a second core reads half of a long PDF and extracts the context graph,
giving exactly what one process gives, and never costing the user a document when it fails."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from pypdf import PdfReader, PdfWriter

from casetrack import helper_process
from casetrack.chunk import chunk_pages, extract_structure
from casetrack.domain import DocumentType
from casetrack.parse import parse_file
from casetrack.parse.pdf.document import SPLIT_MIN_PAGES
from casetrack.service.app import HELPER_MODULES
from casetrack.service.ingest.graph_extract import PendingExtract, build_extract
from tests.conftest import EVAL_DEV

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def helper() -> Iterator[None]:
    helper_process.enable(HELPER_MODULES)
    if not helper_process.enabled():
        pytest.skip("the helper process needs two cores")
    assert helper_process.wait_ready(60)
    yield
    helper_process.stop()


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 pages of the eval-dev contracts and court papers, one after another."""
    writer = PdfWriter()
    names = ["cuad_ebix_cobranding_agreement.pdf", "ca8_rule_28j_letter_us_v_xiang_2023.pdf",
             "cuad_netgear_distributor_agreement.pdf", "cuad_lucid_distributor_agreement.pdf"]
    while len(writer.pages) < 40:
        for name in names:
            for page in PdfReader(EVAL_DEV / "docs" / name).pages:
                writer.add_page(page)
    target = tmp_path_factory.mktemp("long") / "bundle.pdf"
    with target.open("wb") as handle:
        writer.write(handle)
    assert len(writer.pages) >= 2 * SPLIT_MIN_PAGES
    return target


def _gone(pid: int | None) -> bool:
    """The process has ended (a zombie has ended too: only its exit status is left to collect)."""
    try:
        return pid is not None and psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _one_process(fn):  # type: ignore[no-untyped-def]
    helper_process.enable(HELPER_MODULES, on=False)
    try:
        return fn()
    finally:
        helper_process.enable(HELPER_MODULES)


def test_a_long_pdf_read_with_the_helper_is_page_for_page_what_one_process_reads(helper: None, long_pdf: Path) -> None:
    alone = _one_process(lambda: parse_file(long_pdf))
    served = helper_process.calls_served()
    shared = parse_file(long_pdf)
    assert helper_process.calls_served() == served + 1  # the second half really was read by the helper
    assert shared == alone
    assert [p.number for p in shared.pages] == list(range(1, len(alone.pages) + 1))


def test_the_graph_extracted_in_the_helper_is_the_one_extracted_here(helper: None, long_pdf: Path) -> None:
    pages = parse_file(long_pdf).pages
    headings = extract_structure(pages)
    chunks = [(str(n), span) for n, span in enumerate(chunk_pages(pages, DocumentType.CONTRACT))]
    here = build_extract(pages, headings, chunks)
    served = helper_process.calls_served()
    with PendingExtract(pages) as pending:
        there = pending.records(headings, chunks)
    assert helper_process.calls_served() == served + 1
    assert there == here
    assert len(here.entities) > 100 and here.issues and here.error is None


def test_a_helper_that_dies_mid_call_leaves_the_work_to_the_caller_and_is_replaced(helper: None) -> None:
    first = helper_process.pid()
    call = helper_process.try_submit(os._exit, 3)
    assert call is not None
    with pytest.raises(helper_process.HelperFailed):
        call.result(timeout_s=30)
    assert _gone(first)
    assert helper_process.try_submit(os.getpid) is None  # a new helper is starting: do the work here
    assert helper_process.wait_ready(60)
    call = helper_process.try_submit(os.getpid)
    assert call is not None and call.result(timeout_s=30) not in (first, os.getpid())


def test_a_helper_that_hangs_is_stopped_at_the_callers_deadline(helper: None) -> None:
    stuck = helper_process.pid()
    call = helper_process.try_submit(time.sleep, 60)
    assert call is not None
    started = time.monotonic()
    with pytest.raises(helper_process.HelperFailed, match="no answer within"):
        call.result(timeout_s=0.5)
    assert time.monotonic() - started < 10
    assert _gone(stuck)


def test_a_busy_helper_turns_a_second_caller_away_at_once(helper: None) -> None:
    call = helper_process.try_submit(time.sleep, 0.5)
    assert call is not None
    assert helper_process.try_submit(os.getpid) is None
    call.result(timeout_s=30)
    again = helper_process.try_submit(os.getpid)
    assert again is not None and again.result(timeout_s=30) == helper_process.pid()


def test_an_error_in_the_helper_is_reported_to_the_caller_and_the_helper_lives_on(helper: None) -> None:
    before = helper_process.pid()
    call = helper_process.try_submit(int, "not a number")
    assert call is not None
    with pytest.raises(helper_process.HelperFailed, match="ValueError"):
        call.result(timeout_s=30)
    assert helper_process.pid() == before


def test_an_uncollected_call_is_drained_so_the_next_caller_can_use_the_helper(helper: None) -> None:
    with pytest.raises(RuntimeError), helper_process.try_submit(time.sleep, 0.2) or pytest.fail("no helper"):
        raise RuntimeError("the caller failed before it collected the call")
    call = helper_process.try_submit(os.getpid)
    assert call is not None and call.result(timeout_s=30) == helper_process.pid()


def _script(body: str) -> list[str]:
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SRC)!r})\n{body}"]


HELPER_SCRIPT = """
from casetrack import helper_process
if __name__ == "__main__":
    helper_process.enable(())
    assert helper_process.wait_ready(60)
"""


@pytest.mark.skipif(helper_process.usable_cores() < 2, reason="the helper process needs two cores")
def test_the_helper_never_writes_to_stdout_which_is_the_mcp_wire() -> None:
    body = HELPER_SCRIPT + "    helper_process.try_submit(print, 'printed in the helper').result(30)\n"
    done = subprocess.run(_script(body), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "printed in the helper" in done.stderr


@pytest.mark.skipif(helper_process.usable_cores() < 2, reason="the helper process needs two cores")
def test_the_helper_ends_when_its_parent_is_killed() -> None:
    body = HELPER_SCRIPT + "    print(helper_process.pid(), flush=True)\n    import time; time.sleep(60)\n"
    parent = subprocess.Popen(_script(body), stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert psutil.pid_exists(child)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
        if parent.stdout is not None:
            parent.stdout.close()
    deadline = time.monotonic() + 20
    while not _gone(child):
        assert time.monotonic() < deadline, "the helper outlived its parent"
        time.sleep(0.1)


def test_an_idle_helper_exits_and_the_next_long_document_starts_another(helper: None) -> None:
    helper_process.stop()
    helper_process.configure_idle_exit(0.5)
    try:
        assert helper_process.wait_ready(60)
        idle = helper_process.pid()
        deadline = time.monotonic() + 20
        while helper_process.pid() is not None:
            assert time.monotonic() < deadline, "the idle helper did not exit"
            time.sleep(0.1)
        assert _gone(idle)
    finally:
        helper_process.configure_idle_exit(helper_process.IDLE_EXIT_S)
    assert helper_process.wait_ready(60)
    assert helper_process.pid() not in (None, idle)


def test_one_core_means_no_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helper_process, "usable_cores", lambda: 1)
    helper_process.enable(HELPER_MODULES)
    try:
        assert not helper_process.enabled()
        assert helper_process.try_submit(os.getpid) is None
    finally:
        monkeypatch.undo()
        helper_process.enable(HELPER_MODULES)


def test_constrained_memory_mode_keeps_everything_in_one_process(data_dir: Path) -> None:
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack

    try:
        CaseTrack.open(load_settings(data_dir, memory_mode="constrained"))
        assert not helper_process.enabled()
        CaseTrack.open(load_settings(data_dir))
        assert helper_process.enabled() == (helper_process.usable_cores() >= 2)
    finally:
        helper_process.enable(HELPER_MODULES)


def _until_given_up(why_not: str) -> None:
    """Ask for the helper as long documents would, until CaseTrack gives it up; each answer is "do it here"."""
    deadline = time.monotonic() + 240  # three failed starts of a Python process: ~1 s idle, minutes under load
    while helper_process.enabled():
        assert time.monotonic() < deadline, why_not
        assert helper_process.try_submit(os.getpid) is None
        time.sleep(0.05)


def test_a_helper_that_cannot_start_is_given_up_and_everything_runs_here() -> None:
    helper_process.stop()
    helper_process.enable(("casetrack.no_such_module",))
    try:
        _until_given_up("the broken helper was started again and again")
        assert helper_process.try_submit(os.getpid) is None
    finally:
        helper_process.stop()
        helper_process.enable(HELPER_MODULES)


def test_a_helper_running_another_version_of_casetrack_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """CaseTrack upgraded on disk while the server runs: the helper would import the new code."""
    import casetrack

    helper_process.stop()
    monkeypatch.setattr(casetrack, "__version__", "0.0.0-this-process")
    helper_process.enable(HELPER_MODULES)
    try:
        _until_given_up("the helper of another version was not turned away")
        assert helper_process.pid() is None
    finally:
        monkeypatch.undo()
        helper_process.enable(HELPER_MODULES)


def test_a_helper_that_dies_mid_document_leaves_the_same_pages_and_graph(
    helper: None, long_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the helper was asked (half the pages, the graph's mentions), it dies instead: the caller
    does that work itself and the document comes out exactly as one process makes it."""
    alone = _one_process(lambda: parse_file(long_pdf))
    headings = extract_structure(alone.pages)
    chunks = [(str(n), span) for n, span in enumerate(chunk_pages(alone.pages, DocumentType.CONTRACT))]
    here = build_extract(alone.pages, headings, chunks)
    submit = helper_process.try_submit
    died = []

    def dying(fn, *args):  # type: ignore[no-untyped-def]
        assert helper_process.wait_ready(60)  # the helper killed by the last call is replaced first
        died.append(fn.__name__)
        return submit(os._exit, 3)

    monkeypatch.setattr(helper_process, "try_submit", dying)
    assert parse_file(long_pdf) == alone
    with PendingExtract(alone.pages) as pending:
        assert pending.records(headings, chunks) == here
    assert died == ["scan_pages", "mention_records"]
