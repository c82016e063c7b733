"""The command line follows the active case, as the server does (issue 35 §3): `casetrack models status`
said `Active Case: Harbor v. Meridian` while `casetrack search` answered "Say which case with --case".
The real `casetrack` command, in subprocesses sharing one data folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.mcp_helpers import CASETRACK, server_env


def casetrack(data_dir: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([CASETRACK, *args], capture_output=True, text=True, timeout=600, check=False,
                          env=server_env(data_dir, CASETRACK_LOG="WARNING"))
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done


def test_commands_without_case_work_in_the_active_case_and_say_so(tmp_path: Path) -> None:
    data = tmp_path / "data"
    contract = tmp_path / "Supply Agreement.txt"
    contract.write_text("SUPPLY AGREEMENT\n\n12. Governing Law. This Agreement shall be governed by the laws of "
                        "the State of Delaware, without regard to its conflict of laws rules.\n", encoding="utf-8")
    casetrack(data, "cases", "create", "Jones v. Smith")
    casetrack(data, "cases", "create", "Harbor v. Meridian")  # chosen last: the active case
    assert "Active Case: Harbor v. Meridian" in casetrack(data, "models", "status").stdout

    ingested = casetrack(data, "ingest", str(contract))
    assert 'Case: "Harbor v. Meridian" (the active case' in ingested.stderr

    found = casetrack(data, "search", "governing law")
    assert 'Case: "Harbor v. Meridian" (the active case' in found.stderr
    assert "Supply Agreement.txt" in found.stdout and "Delaware" in found.stdout

    other = casetrack(data, "search", "governing law", "--case", "Jones v. Smith", code=2)  # --case overrides it
    assert 'Case "Jones v. Smith" has no documents' in other.stderr
    assert '"Harbor v. Meridian"' in casetrack(data, "export", "--output", str(tmp_path)).stdout
