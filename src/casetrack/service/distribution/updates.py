"""Updates (PRD 03 §7): CaseTrack is a Python package, so updating means upgrading the
installed package (a uv tool, or pip) to the newest release on PyPI - no binary swapping.

* `check_latest` asks PyPI's JSON API for the newest version (short timeout, never raises).
* `start_background_check` runs that at server start on a daemon thread, only when the user asked
  for it (`update_check = true` in config.toml or CASETRACK_UPDATE_CHECK=1): a connection off the
  machine nobody asked for breaks the promise that nothing leaves it (issue 33 §1). When on, it
  never delays or fails start-up, logs one line when an update exists, is silent offline and runs
  at most once a day; CASETRACK_NO_UPDATE_CHECK=1 still turns it off whatever else says.
* `upgrade` runs `uv tool upgrade casetrack` (or pip) and reports the version now installed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from casetrack import __version__, telemetry_off
from casetrack.config import Settings
from casetrack.errors import CaseTrackError

log = logging.getLogger(__name__)

PACKAGE = "casetrack"
PYPI_URL = f"https://pypi.org/pypi/{PACKAGE}/json"
URL_ENV = "CASETRACK_UPDATE_URL"  # another index's JSON endpoint (mirrors, tests)
ENABLE_ENV = "CASETRACK_UPDATE_CHECK"
DISABLE_ENV = "CASETRACK_NO_UPDATE_CHECK"
_YES, _NO = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")
STAMP_FILE = "update-check.json"
CHECK_INTERVAL_S = 24 * 3600


class UpdateFailed(CaseTrackError):
    pass


@dataclass(frozen=True, slots=True)
class Latest:
    version: str | None  # None: PyPI could not be reached or answered nonsense
    error: str | None = None

    def newer_than(self, current: str) -> bool:
        return self.version is not None and version_key(self.version) > version_key(current)


def version_key(version: str) -> tuple[int, ...]:
    """Release numbers only ("1.10.0rc1" -> (1, 10, 0)); enough to order final releases."""
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", version)
    return tuple(int(p) for p in match.group(1).split(".")) if match else ()


def update_url(environ: Mapping[str, str] | None = None) -> str:
    return (os.environ if environ is None else environ).get(URL_ENV) or PYPI_URL


def check_latest(url: str = PYPI_URL, timeout_s: float = 3.0) -> Latest:
    """The newest release on PyPI. Never raises; offline gives Latest(None, reason)."""
    request = urllib.request.Request(url, headers={"Accept": "application/json",
                                                   "User-Agent": f"casetrack/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            payload = json.loads(response.read(1 << 22))
        version = payload["info"]["version"]
        if not isinstance(version, str) or not version_key(version):
            return Latest(None, f"PyPI answered an unexpected version {version!r}")
        return Latest(version)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # URLError and timeouts are OSErrors
        return Latest(None, str(getattr(exc, "reason", exc)) or type(exc).__name__)


def check_enabled(settings: Settings, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the start-up check runs: off unless the environment or config.toml turns it on."""
    env = os.environ if environ is None else environ
    if env.get(DISABLE_ENV, "").strip().lower() in _YES:
        return False
    asked = env.get(ENABLE_ENV)
    if asked is not None and asked.strip().lower() in (*_YES, *_NO):
        return asked.strip().lower() in _YES
    setting = settings.extra.get("update_check", False)
    return setting is True or str(setting).strip().lower() in _YES


def start_background_check(settings: Settings, environ: Mapping[str, str] | None = None,
                           timeout_s: float = 3.0) -> threading.Thread | None:
    """Check PyPI on a daemon thread (at most once a day). Returns the thread, or None when disabled."""
    if not check_enabled(settings, environ):
        log.debug("Update check disabled")
        return None
    url = update_url(environ)
    thread = threading.Thread(target=_background_check, args=(settings.data_dir / STAMP_FILE, url, timeout_s),
                              name="casetrack-update-check", daemon=True)
    thread.start()
    return thread


def _background_check(stamp: Path, url: str, timeout_s: float) -> None:
    try:
        with contextlib.suppress(OSError, ValueError):
            last = json.loads(stamp.read_text(encoding="utf-8"))
            if last.get("url") == url and time.time() - float(last.get("checked_at", 0)) < CHECK_INTERVAL_S:
                _announce(str(last.get("latest") or ""))
                return
        latest = check_latest(url, timeout_s)
        if latest.version is None:
            log.debug("Update check failed (offline?): %s", latest.error)
            return
        with contextlib.suppress(OSError):
            stamp.write_text(json.dumps({"checked_at": time.time(), "latest": latest.version, "url": url}),
                             encoding="utf-8")
        _announce(latest.version)
    except Exception as exc:  # a background nicety must never disturb the server
        log.debug("Update check failed: %s", exc)


def _announce(latest: str) -> None:
    if latest and Latest(latest).newer_than(__version__):
        log.info("Update available: v%s -> v%s. Run 'casetrack update' to upgrade.", __version__, latest)


# --- upgrading -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Installation:
    method: str  # "uv-tool", "pip" or "checkout"
    detail: str

    def upgrade_command(self) -> list[str]:
        if self.method == "uv-tool":
            return ["uv", "tool", "upgrade", PACKAGE]
        return [sys.executable, "-m", "pip", "install", "--upgrade", PACKAGE]

    def uninstall_command(self) -> list[str]:
        if self.method == "uv-tool":
            return ["uv", "tool", "uninstall", PACKAGE]
        return [sys.executable, "-m", "pip", "uninstall", "-y", PACKAGE]


def installation(prefix: str | None = None) -> Installation:
    """How this CaseTrack was installed, judged from its environment's location."""
    root = Path(prefix or sys.prefix)
    receipt = root / "uv-receipt.toml"  # uv writes this into every tool environment
    if receipt.is_file() or (root.parent.name == "tools" and root.name == PACKAGE):
        return Installation("uv-tool", str(root))
    package_dir = Path(__file__).resolve().parents[1]
    if not str(package_dir).startswith(str(root.resolve())):  # imported from a source tree
        return Installation("checkout", str(package_dir.parents[1]))
    if (package_dir.parents[1] / "pyproject.toml").is_file():  # an editable install of a checkout
        return Installation("checkout", str(package_dir.parents[1]))
    return Installation("pip", str(root))


@dataclass(frozen=True, slots=True)
class UpgradeResult:
    before: str
    after: str
    latest: str | None
    command: list[str]
    output: str


def upgrade(latest: Latest, install: Installation, executable: str | None, timeout_s: float = 600) -> UpgradeResult:
    """Upgrade the installed package, then ask the (new) executable its version.

    Raises UpdateFailed when CaseTrack runs from a source checkout or the installer fails."""
    if install.method == "checkout":
        raise UpdateFailed(f"This CaseTrack runs from a source checkout ({install.detail}). Update it with "
                           "'git pull && uv sync', or install a release with 'uv tool install casetrack'.")
    command = install.upgrade_command()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, check=False,
                              env=telemetry_off.child_environment())
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UpdateFailed(f"Could not run {' '.join(command)}: {exc}. Nothing was changed.") from exc
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        raise UpdateFailed(f"{' '.join(command)} failed (exit {done.returncode}):\n{output}\n"
                           "CaseTrack is unchanged. If you are offline, try again when connected.")
    return UpgradeResult(__version__, installed_version(executable) or "unknown", latest.version, command, output)


def installed_version(executable: str | None) -> str | None:
    """What `casetrack --version` says now (the upgrade replaced the files this process runs from)."""
    if not executable:
        return None
    try:
        done = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=60, check=False,
                              env=telemetry_off.child_environment())
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"(\d+(?:\.\d+)+\S*)", done.stdout)
    return match.group(1) if match else None


OFFLINE_HELP = (
    "CaseTrack keeps working offline; only updating needs the internet. Run 'casetrack update' again when "
    "connected. On a machine that is never online, copy a release wheel over and run: "
    "uv tool install --force ./casetrack-VERSION-py3-none-any.whl"
)
