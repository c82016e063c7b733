"""`casetrack verify` and `casetrack toa` on the command line: a report a person reads, and an exit code a
script can act on (0 only when every quotation is verified)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from casetrack.cli.app import app as cli_app
from tests.conftest import EVAL_CASE_NAME, EVAL_DEV

ORDER = "No order will be effective until accepted by delivery of NETGEAR's order acknowledgment."


def test_verify_exits_zero_only_when_every_quotation_is_verified(eval_dev_data_dir: Path, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text(f'> {ORDER}\n\nNETGEAR Distributor Agreement at 2.\n', encoding="utf-8")
    bad.write_text(f'"{ORDER.replace("No order", "Every order")}" NETGEAR Distributor Agreement at 2.\n',
                   encoding="utf-8")
    runner = CliRunner()
    passed = runner.invoke(cli_app, ["--data-dir", str(eval_dev_data_dir), "verify", str(good),
                                     "--case", EVAL_CASE_NAME])
    failed = runner.invoke(cli_app, ["--data-dir", str(eval_dev_data_dir), "verify", str(bad),
                                     "--case", EVAL_CASE_NAME])
    assert passed.exit_code == 0, passed.stdout
    assert "Every quotation is verified." in passed.stdout and "block quotation" in passed.stdout
    assert failed.exit_code == 1
    assert "1. DIFFERS (draft p. 1)" in failed.stdout
    assert "Differences: “Every” → source: “No”" in failed.stdout
    assert "Closest passage: cuad_netgear_distributor_agreement.pdf, p. 2" in failed.stdout


def test_toa_prints_the_table_and_refuses_a_missing_draft(tmp_path: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(cli_app, ["--data-dir", str(tmp_path / "CT"), "toa",
                                      str(EVAL_DEV / "docs" / "ca8_rule_28j_letter_us_v_xiang_2023.pdf")])
    assert printed.exit_code == 0, printed.stdout
    assert printed.stdout.startswith("TABLE OF AUTHORITIES")
    assert "United States v. Qin, 2023 WL 128600 (1st Cir. Jan. 9, 2023) ............ 1, 2" in printed.stdout
    missing = runner.invoke(cli_app, ["--data-dir", str(tmp_path / "CT"), "toa", str(tmp_path / "nope.pdf")])
    assert missing.exit_code == 3 and missing.stderr.startswith("Error: File not found:")
