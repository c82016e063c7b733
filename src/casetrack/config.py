"""Settings. Only the entry points (CLI, server start) call `load_settings`; everything
else receives a `Settings` value. Precedence: explicit argument, then environment
(CASETRACK_HOME, CASETRACK_LOG, CASETRACK_MEMORY_MODE), then `config.toml` in the data
directory, then defaults."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

import platformdirs

from casetrack.errors import InvalidInput
from casetrack.files import READ_GRACE_S, expand

CONFIG_FILE = "config.toml"


class MemoryMode(StrEnum):
    AUTO = "auto"  # decided from installed RAM at start-up
    FULL = "full"
    STANDARD = "standard"
    CONSTRAINED = "constrained"


@dataclass(frozen=True, slots=True)
class Settings:
    data_dir: Path
    log_level: str = "INFO"
    memory_mode: MemoryMode = MemoryMode.AUTO
    license_key: str | None = None
    ocr_language: str = "eng"
    copy_originals: bool = False
    inference_threads: int | None = None
    lock_timeout_s: float = 10.0  # how long a write waits for another process's lock
    read_timeout_s: float = READ_GRACE_S  # a document's first read may take this, plus 1 s per MiB
    data_dir_source: str = ""  # what chose data_dir, as get_status says it ("CASETRACK_HOME", ...)
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def registry_path(self) -> Path:
        return self.data_dir / "registry.db"

    @property
    def cases_dir(self) -> Path:
        return self.data_dir / "cases"

    @property
    def models_dir(self) -> Path:
        return self.data_dir / "models"

    @property
    def scratch_dir(self) -> Path:
        """Temporary copies of client content while a document is read (parse/scratch.py)."""
        return self.data_dir / "tmp"

    def case_dir(self, case_id: str) -> Path:
        return self.cases_dir / case_id


def default_data_dir() -> Path:
    """`CaseTrack` in the Documents folder (PRD 10 §7.2); where there is none (a Linux server or a
    minimal desktop), the system's folder for application data: `~/.local/share/casetrack` on Linux."""
    documents = _documents_dir()
    return documents / "CaseTrack" if documents else Path(platformdirs.user_data_dir("casetrack", appauthor=False))


def _documents_dir() -> Path | None:
    documents = Path(platformdirs.user_documents_dir())
    return documents if documents.is_dir() and documents != Path.home() else None


def _default_source() -> str:
    if _documents_dir():
        return "the default, CaseTrack in your Documents folder"
    return "the default where there is no Documents folder (the system's application-data folder)"


def load_settings(
    data_dir: str | os.PathLike[str] | None = None,
    log_level: str | None = None,
    memory_mode: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Resolve settings for an entry point. Raises InvalidInput for a malformed config.toml."""
    env = os.environ if environ is None else environ
    if data_dir is not None:
        root, source = expand(data_dir), "--data-dir"
    elif env.get("CASETRACK_HOME"):
        root, source = expand(env["CASETRACK_HOME"]), "CASETRACK_HOME"
    else:
        root, source = default_data_dir(), _default_source()
    file_values = _read_config_file(root / CONFIG_FILE)
    # A config file may relocate the data directory (PRD 10 §5) unless a flag or env var chose it.
    if data_dir is None and not env.get("CASETRACK_HOME") and file_values.get("data_dir"):
        root, source = expand(str(file_values["data_dir"])), f"data_dir in {root / CONFIG_FILE}"

    settings = Settings(data_dir=root, data_dir_source=source)
    mode = memory_mode or env.get("CASETRACK_MEMORY_MODE") or file_values.get("memory_mode")
    level = log_level or env.get("CASETRACK_LOG") or file_values.get("log_level")
    try:
        settings = replace(
            settings,
            log_level=str(level or "INFO").upper(),
            memory_mode=MemoryMode(str(mode).lower()) if mode else MemoryMode.AUTO,
            license_key=_opt_str(env.get("CASETRACK_LICENSE_KEY") or file_values.get("license_key")),
            ocr_language=str(file_values.get("ocr_language", "eng")),
            copy_originals=bool(file_values.get("copy_originals", False)),
            inference_threads=_opt_int(file_values.get("inference_threads")),
            read_timeout_s=_positive_seconds(file_values.get("read_timeout_s", READ_GRACE_S), "read_timeout_s"),
            extra={k: v for k, v in file_values.items() if k not in _KNOWN_KEYS},
        )
    except ValueError as exc:
        choices = ", ".join(m.value for m in MemoryMode)
        raise InvalidInput(f"Invalid memory mode {mode!r}: choose one of {choices}.") from exc
    return settings


_KNOWN_KEYS = {"data_dir", "memory_mode", "log_level", "license_key", "ocr_language", "copy_originals",
               "inference_threads", "read_timeout_s"}


def _read_config_file(path: Path) -> dict[str, object]:
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path} is not valid TOML ({exc}). Fix or delete the file and start again.") from exc


def _opt_str(value: object) -> str | None:
    return str(value) if value else None


def _opt_int(value: object) -> int | None:
    if value is None:
        return None
    try:
        return int(str(value))
    except ValueError as exc:
        raise InvalidInput(f"inference_threads must be a whole number, got {value!r} in config.toml.") from exc


def _positive_seconds(value: object, key: str) -> float:
    try:
        seconds = float(str(value))
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise InvalidInput(f"{key} must be a number of seconds above 0, got {value!r} in config.toml.")
    return seconds
