"""Where a new user's cases go: the folder the code picks on this platform is the one the README and
`--help` name, and `casetrack models status` (the `get_status` text) shows it and what chose it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from casetrack.cli.app import app as cli_app

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux defaults")

README = Path(__file__).resolve().parents[1] / "README.md"


def status_in_a_home(home: Path, **env: str) -> str:
    """`casetrack models status` as a user whose home folder is `home` sees it (no --data-dir)."""
    environ = {"HOME": str(home), "CASETRACK_HOME": None, "XDG_DATA_HOME": None, "XDG_CONFIG_HOME": None,
               "CASETRACK_NO_UPDATE_CHECK": "1", **env}
    result = CliRunner().invoke(cli_app, ["models", "status"], env=environ)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def storage_of(text: str) -> tuple[str, str]:
    folder = re.search(r"^Storage: (.+)$", text, re.M)
    chosen = re.search(r"^  Chosen by: (.+)$", text, re.M)
    assert folder and chosen, text
    return folder.group(1), chosen.group(1)


def test_a_linux_home_without_documents_keeps_cases_where_the_readme_says(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    folder, chosen = storage_of(status_in_a_home(home))
    assert folder == str(home / ".local" / "share" / "casetrack")
    assert "no Documents folder" in chosen
    # The README names that folder, as a user would type it.
    assert "`~/.local/share/casetrack`" in README.read_text(encoding="utf-8")

    (home / "Documents").mkdir()
    folder, chosen = storage_of(status_in_a_home(home))
    assert folder == str(home / "Documents" / "CaseTrack")
    assert "Documents folder" in chosen and "no Documents" not in chosen
    assert "`~/Documents/CaseTrack`" in README.read_text(encoding="utf-8")


def test_status_says_which_setting_chose_the_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    elsewhere = tmp_path / "elsewhere"
    assert storage_of(status_in_a_home(home, CASETRACK_HOME=str(elsewhere))) == (str(elsewhere), "CASETRACK_HOME")

    default = home / ".local" / "share" / "casetrack"
    default.mkdir(parents=True)
    moved = tmp_path / "moved"
    (default / "config.toml").write_text(f'data_dir = "{moved}"\n', encoding="utf-8")
    folder, chosen = storage_of(status_in_a_home(home))
    assert folder == str(moved) and chosen == f"data_dir in {default / 'config.toml'}"
