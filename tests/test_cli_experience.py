"""The command line as a solo practitioner meets it: real data directories, real files, the real
`casetrack` app (typer's CliRunner, or a real subprocess where a signal or a terminal matters).
Every failure must be a specific message on stderr with a documented exit code, never a traceback;
every hint must name a command the user can type, not an MCP tool."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from casetrack.cli.app import app as cli_app
from tests.conftest import EVAL_CASE_NAME, EVAL_DEV

# MCP tool names and parameters make no sense at a shell prompt.
MCP_WORDS = re.compile(r"\b(create_case|list_cases|switch_case|reopen_case|close_case|delete_case|ingest_document|"
                       r"ingest_folder|list_documents|reindex_document|reindex_case|get_status|status_filter|"
                       r"top_k|get_ingest_status|search_case)\b")


def cli(data_dir: Path, *args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli_app, ["--data-dir", str(data_dir), *args], input=input)


def ok(data_dir: Path, *args: str) -> Result:
    result = cli(data_dir, *args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


def refused(result: Result, code: int) -> str:
    """The error text, after checking it is a clean message with the expected exit code."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: "), result.stderr
    return result.stderr


def small_folder(root: Path, count: int) -> Path:
    """A folder of short, distinct plain-text letters (fast to ingest) and one unsupported file."""
    folder = root / "letters"
    folder.mkdir()
    for n in range(count):
        (folder / f"letter_{n:02d}.txt").write_text(
            f"Letter {n}. Dear Counsel, we write regarding the lease of unit {n * 7 + 3}. The tenant shall "
            f"pay rent of ${1000 + n * 50} on the first day of each month. Termination requires {30 + n} "
            "days written notice.\n", encoding="utf-8")
    (folder / "notes.json").write_text("{}", encoding="utf-8")
    return folder


# --- startup ---------------------------------------------------------------------------------


def test_a_data_dir_that_is_a_file_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "CaseTrack"
    not_a_folder.write_text("oops", encoding="utf-8")
    error = refused(cli(not_a_folder, "cases", "list"), 2)
    assert str(not_a_folder) in error and "--data-dir" in error and "CASETRACK_HOME" in error


def test_an_unknown_log_level_is_refused(data_dir: Path) -> None:
    result = CliRunner().invoke(cli_app, ["--data-dir", str(data_dir), "--log-level", "loud", "cases", "list"])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "loud" in result.stderr and "debug" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unexpected_failure_is_one_message_not_a_traceback(tmp_path: Path) -> None:
    data_dir = tmp_path / "CaseTrack"
    data_dir.mkdir()
    (data_dir / "cases").write_text("not a folder", encoding="utf-8")  # e.g. a sync client's conflict copy
    env = {**os.environ, "CASETRACK_NO_UPDATE_CHECK": "1"}
    done = subprocess.run([sys.executable, "-m", "casetrack", "--data-dir", str(data_dir), "cases", "list"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert str(data_dir / "cases") in lines[0] and "--log-level debug" in lines[0]
    verbose = subprocess.run([sys.executable, "-m", "casetrack", "--data-dir", str(data_dir), "--log-level", "debug",
                              "cases", "list"], env=env, capture_output=True, text=True, timeout=120)
    assert verbose.returncode == 1 and "Traceback" in verbose.stderr  # the details, for a bug report


# --- help ------------------------------------------------------------------------------------


def _commands() -> list[list[str]]:
    import typer.main

    root = typer.main.get_command(cli_app)
    found: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands is None:
            found.append(path)
            return
        for name, sub in subcommands.items():
            if not getattr(sub, "hidden", False):
                walk(sub, [*path, name])

    walk(root, [])
    return found


def test_every_command_help_shows_an_example(data_dir: Path) -> None:
    commands = _commands()
    assert ["docs", "delete"] in commands and ["ingest"] in commands
    missing = []
    for command in commands:
        text = " ".join(ok(data_dir, *command, "--help").stdout.split())
        example = text.split("Example", 1)[1] if "Example" in text else ""
        if f"casetrack {' '.join(command)}".strip() not in example:  # not just the Usage line
            missing.append(" ".join(command))
    assert not missing, f"--help without an example: {missing}"


def test_root_help_documents_the_exit_codes(data_dir: Path) -> None:
    text = " ".join(ok(data_dir, "--help").stdout.split())
    assert "Exit codes" in text
    for code, meaning in (("0", "success"), ("1", "failed"), ("2", "wrong"), ("3", "not found"), ("4", "busy"),
                          ("130", "interrupted")):
        assert re.search(rf"\b{code}\b[^,;.]*{meaning}", text, re.IGNORECASE), (code, meaning, text)


def _help_pages() -> list[tuple[list[str], list[str]]]:
    """Every command and group, with the option names its --help must show."""
    import typer.main

    pages: list[tuple[list[str], list[str]]] = []

    def walk(command: object, path: list[str]) -> None:
        names = [o for p in getattr(command, "params", []) for o in (*p.opts, *p.secondary_opts) if o.startswith("-")]
        pages.append((path, [*names, "--help"]))
        for name, sub in (getattr(command, "commands", None) or {}).items():
            if not getattr(sub, "hidden", False):
                walk(sub, [*path, name])

    walk(typer.main.get_command(cli_app), [])
    return pages


def test_help_at_80_columns_shows_every_option_name_whole_and_no_type_after_a_flag(data_dir: Path) -> None:
    pages = _help_pages()
    assert len(pages) > 30 and ([], ["--data-dir", "--log-level", "--memory-mode", "--version", "--licence-key",
                                     "--license-key", "--help"]) in pages
    for path, names in pages:
        text = CliRunner().invoke(cli_app, [*path, "--help"], env={"COLUMNS": "80"}).stdout
        assert text.startswith("Usage: casetrack"), (path, text)
        assert all(len(line) <= 80 for line in text.splitlines()), (path, text)
        for name in names:  # each option name whole, never "--licen…"
            assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), (path, name, text)
        assert "\u2026" not in text and "<bool>" not in text, (path, text)
        assert not re.search(r"\w\.\.\.$", text, re.MULTILINE), (path, text)  # a description cut short
    # The real command in a real 80-column terminal, as the issue saw it.
    env = {**os.environ, "COLUMNS": "80", "CASETRACK_HOME": str(data_dir)}
    shown = subprocess.run([sys.executable, "-m", "casetrack", "--help"], env=env, capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0 and "--licence-key, --license-key <str>" in shown.stdout, shown.stdout
    assert re.search(r"^  --help +Show this message and exit\.$", shown.stdout, re.MULTILINE), shown.stdout
    assert "    casetrack search \"early termination\" --case Smith\n" in shown.stdout  # an example, one a line


# --- wording: commands, not MCP tools ---------------------------------------------------------


def test_hints_name_cli_commands_not_mcp_tools(data_dir: Path, tmp_path: Path) -> None:
    letter = small_folder(tmp_path, 1) / "letter_00.txt"
    texts: list[str] = []

    def run(*args: str, code: int = 0) -> str:
        result = cli(data_dir, *args)
        assert result.exit_code == code, (args, result.stdout, result.stderr, result.exception)
        texts.append(result.stdout + result.stderr)
        return texts[-1]

    assert "casetrack cases create" in run("cases", "list")
    run("cases", "create", "Smith v. Jones")
    assert 'casetrack ingest PATH --case "Smith v. Jones"' in run("cases", "info", "Smith")
    assert "casetrack ingest" in run("search", "rent", "--case", "Smith", code=2)
    assert '--case "Smith v. Jones"' in run("cases", "create", "smith v. jones", code=2)
    assert "casetrack cases list --status all" in run("cases", "info", "Nope", code=3)
    run("ingest", str(letter), "--case", "Smith")
    assert "casetrack docs delete" in run("ingest", str(letter), "--case", "Smith", code=1)
    assert "casetrack docs list" in run("docs", "show", "nope", "--case", "Smith", code=3)
    assert "--top-k" in run("search", "rent", "--case", "Smith", "--top-k", "0", code=2)
    assert 'casetrack cases reopen "Smith v. Jones"' in run("cases", "close", "Smith")
    assert 'casetrack cases reopen "Smith v. Jones"' in run("ingest", str(letter), "--case", "Smith", code=1)
    assert "--status all" in run("cases", "list")
    assert "--status archived" in run("cases", "archive", "Smith")
    run("models", "status")
    leaks = [(text, MCP_WORDS.findall(text)) for text in texts if MCP_WORDS.search(text)]
    assert not leaks, leaks


def test_closing_a_closed_case_says_nothing_changed(data_dir: Path) -> None:
    ok(data_dir, "cases", "create", "Doe Estate")
    assert "is now closed" in ok(data_dir, "cases", "close", "Doe").stdout
    assert ok(data_dir, "cases", "close", "Doe").stdout.startswith('Case "Doe Estate" was already closed')
    assert "active again" in ok(data_dir, "cases", "reopen", "Doe").stdout
    assert "was already active" in ok(data_dir, "cases", "reopen", "Doe").stdout


# --- deleting --------------------------------------------------------------------------------


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_a_declined_or_unanswered_delete_removes_nothing_and_says_so(eval_dev_data_dir: Path) -> None:
    name = "ca2_docketing_notice_nfl_2017.pdf"
    declined = cli(eval_dev_data_dir, "docs", "delete", name, input="n\n")
    assert declined.exit_code == 1
    assert f'Remove "{name}" from case "{EVAL_CASE_NAME}"?' in declined.stdout
    assert "Nothing was removed" in declined.stderr and "--yes" in declined.stderr
    unanswered = cli(eval_dev_data_dir, "docs", "delete", name, input="")  # no terminal, e.g. a script
    assert unanswered.exit_code == 1
    assert "Nothing was removed" in unanswered.stderr and "--yes" in unanswered.stderr
    assert "Aborted" not in unanswered.stdout + unanswered.stderr
    assert name in ok(eval_dev_data_dir, "docs", "list").stdout
    kept = cli(eval_dev_data_dir, "cases", "delete", EVAL_CASE_NAME, input="n\n")
    assert kept.exit_code == 1 and "Nothing was deleted" in kept.stderr
    removed = ok(eval_dev_data_dir, "docs", "delete", name, "--yes").stdout
    assert f'Removed "{name}"' in removed
    assert name not in ok(eval_dev_data_dir, "docs", "list").stdout


# --- export / import: a folder where a file is expected ---------------------------------------


def test_export_to_a_folder_writes_the_file_inside_it(eval_dev_data_dir: Path, tmp_path: Path) -> None:
    desktop = tmp_path / "Desktop"
    desktop.mkdir()
    out = ok(eval_dev_data_dir, "export", "--case", EVAL_CASE_NAME, "--output", str(desktop)).stdout
    written = desktop / "Eval-Dev.ctcase"
    assert written.is_file(), (out, list(tmp_path.iterdir()))
    assert str(written) in out
    assert not (tmp_path / "Desktop.ctcase").exists()


def test_importing_a_folder_says_to_pick_the_ctcase_file(data_dir: Path, tmp_path: Path) -> None:
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    (downloads / "smith.ctcase").write_bytes(b"PK")
    error = refused(cli(data_dir, "import", str(downloads)), 2)
    assert "is a folder" in error and str(downloads / "smith.ctcase") in error


# --- folder ingestion: progress on stderr, a per-file summary on stdout ------------------------


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_folder_ingest_reports_progress_on_stderr_and_names_every_file(data_dir: Path, tmp_path: Path) -> None:
    folder = small_folder(tmp_path, 3)
    ok(data_dir, "cases", "create", "Lease Dispute")
    first = ok(data_dir, "ingest", str(folder))
    assert "Ingesting" not in first.stdout  # stdout carries the result only, so it can be piped or saved
    for n in range(3):
        assert f"[{n + 1}/3] letter_{n:02d}.txt" in first.stderr, first.stderr
        assert f"letter_{n:02d}.txt" in first.stdout
    assert "notes.json" in first.stdout
    # the same folder again: every file is named as skipped, none silently
    (folder / "letter_03.txt").write_text("A new letter about the deposit of $500.\n", encoding="utf-8")
    rerun = ok(data_dir, "ingest", str(folder))
    again = rerun.stdout
    skipped = again[again.index("Skipped (already in the case):"):]
    for n in range(3):
        assert f"letter_{n:02d}.txt" in skipped, again
        # while it runs too: a file the case holds unchanged is never announced as being ingested
        assert f"] letter_{n:02d}.txt: unchanged" in rerun.stderr, rerun.stderr
        assert f"Ingesting [{n + 1}/4] letter_{n:02d}.txt" not in rerun.stderr, rerun.stderr
    assert "Ingesting [4/4] letter_03.txt" in rerun.stderr, rerun.stderr
    assert "letter_03.txt (1 page, 1 chunk)" in again


def test_single_file_ingest_says_what_it_is_doing_on_stderr(data_dir: Path) -> None:
    ok(data_dir, "cases", "create", "Smith v. Jones")
    pdf = EVAL_DEV / "docs" / "ca2_docketing_notice_nfl_2017.pdf"
    done = ok(data_dir, "ingest", str(pdf))
    assert f"Ingesting {pdf.name}" in done.stderr
    assert done.stdout.startswith(f'Ingested "{pdf.name}"')


def test_ingesting_an_opinion_logs_no_citation_parser_chatter(data_dir: Path, tmp_path: Path) -> None:
    """eyecite warns about each pair of overlapping citations ("Unknown overlap case" and both citations' reprs):
    an opinion citing "556 U.S. at 678, 129 S.Ct. 1937" would fill the user's log with lines they cannot act on."""
    opinion = tmp_path / "order.txt"
    opinion.write_text("The complaint must state a plausible claim. Ashcroft v. Iqbal, 556 U.S. at 678, 129 S.Ct. "
                       "1937 (2009). Bell Atl. Corp. v. Twombly, 550 U.S. 544, 570 (2007).\n", encoding="utf-8")
    ok(data_dir, "cases", "create", "Smith v. Jones")
    done = ok(data_dir, "ingest", str(opinion))
    assert "Ingesting order.txt" in done.stderr
    assert "overlap" not in done.stderr and "Citation(" not in done.stderr


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_sync_of_a_changed_file_replaces_its_document(data_dir: Path, tmp_path: Path) -> None:
    lease = tmp_path / "lease.txt"
    lease.write_text("The lease ends on 1 May 2024. Rent is due monthly.\n", encoding="utf-8")
    ok(data_dir, "cases", "create", "Lease Dispute")
    ok(data_dir, "ingest", str(lease))
    assert "already in the case and unchanged" in ok(data_dir, "ingest", str(lease), "--sync").stdout
    lease.write_text("The lease ends on 1 June 2025. Rent is due weekly.\n", encoding="utf-8")
    assert ok(data_dir, "ingest", str(lease), "--sync").stdout.startswith('Re-ingested "lease.txt"')
    listing = ok(data_dir, "docs", "list").stdout
    assert listing.startswith("Documents (1):") and "lease.txt" in listing, listing
    found = ok(data_dir, "search", "when does the lease end", "--top-k", "1").stdout
    assert "1 June 2025" in found and "1 May 2024" not in found


def test_a_changed_file_ingested_again_without_sync_says_both_versions_are_kept(data_dir: Path,
                                                                                tmp_path: Path) -> None:
    lease = tmp_path / "lease.txt"
    lease.write_text("The lease ends on 1 May 2024.\n", encoding="utf-8")
    ok(data_dir, "cases", "create", "Lease Dispute")
    ok(data_dir, "ingest", str(lease))
    lease.write_text("The lease ends on 1 June 2025.\n", encoding="utf-8")
    again = ok(data_dir, "ingest", str(lease)).stdout
    old_id = re.search(r'"lease.txt" \(ID: (\w+)\) was ingested from this same file before it changed', again)
    assert old_id, again
    assert f'casetrack docs delete {old_id[1]} --case "Lease Dispute"' in " ".join(again.split())
    assert not MCP_WORDS.search(again)


# --- 80 columns ----------------------------------------------------------------------------------


def test_listings_fit_an_80_column_terminal(eval_dev_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    ok(eval_dev_data_dir, "cases", "create", "Acme Holdings v. Intergalactic Widgets", "--number",
       "1:24-cv-00123-ABC", "--type", "intellectual_property")
    for args in (["docs", "list", "--case", EVAL_CASE_NAME], ["cases", "list"], ["cases", "list", "--status", "all"],
                 ["cases", "info", EVAL_CASE_NAME]):
        text = ok(eval_dev_data_dir, *args).stdout
        wide = [line for line in text.splitlines() if len(line) > 80]
        assert not wide, (args, wide)
    listing = ok(eval_dev_data_dir, "docs", "list", "--case", EVAL_CASE_NAME).stdout
    assert "cuad_driven_deliveries_consulting_agreement.docx" in listing  # names are never cut


# --- Ctrl-C --------------------------------------------------------------------------------------


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_ctrl_c_during_a_folder_ingest_is_one_clean_line(data_dir: Path, tmp_path: Path) -> None:
    folder = small_folder(tmp_path, 8)
    env = {**os.environ, "CASETRACK_HOME": str(data_dir), "CASETRACK_NO_UPDATE_CHECK": "1"}
    command = [sys.executable, "-m", "casetrack"]
    subprocess.run([*command, "cases", "create", "Lease Dispute"], env=env, check=True, capture_output=True)
    # As from a terminal: a test run started in the background (`pytest &`) passes on SIGINT ignored, and the
    # ingest would then finish instead of stopping.
    proc = subprocess.Popen([*command, "ingest", str(folder)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    seen = ""
    deadline = time.monotonic() + 120
    while "[3/8]" not in seen and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen += line
    assert "[3/8]" in seen, seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, seen + err)
    assert "Traceback" not in err
    message = [line for line in err.splitlines() if line.strip() and not line.startswith("Ingesting [")]
    assert len(message) == 1 and message[0].startswith("Interrupted"), err
    assert "run the same command again" in message[0].lower()
    # no partial document: what is listed is whole, and running again finishes the rest
    listed = subprocess.run([*command, "docs", "list"], env=env, capture_output=True, text=True, check=True).stdout
    assert " 0 chunks" not in listed
    rerun = subprocess.run([*command, "ingest", str(folder)], env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert "Failed:     0" in rerun.stdout
    final = subprocess.run([*command, "docs", "list"], env=env, capture_output=True, text=True, check=True).stdout
    assert final.startswith("Documents (8):"), final
    shutil.rmtree(folder)
