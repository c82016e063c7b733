"""What `get_status` reports: version, where data lives, what is loaded, what it costs."""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from casetrack import __version__


@dataclass(frozen=True, slots=True)
class EmbedderState:
    id: str  # "E1".."E13"
    label: str  # "E1-Legal (bge-small-en-v1.5)"
    state: str  # ready | loaded | not downloaded | failed | disabled by tier | algorithmic
    detail: str = ""  # the reason, or the command that fixes it


@dataclass(frozen=True, slots=True)
class StatusReport:
    version: str
    data_dir: str
    data_dir_source: str  # what chose the data folder: "--data-dir", "CASETRACK_HOME", the default, ...
    active_case: str | None
    tier: str
    memory_mode: str
    memory_mode_reason: str
    embedders: tuple[EmbedderState, ...]
    models_bytes: int
    case_count: int
    cases_bytes: int
    process_rss_bytes: int
    system_total_bytes: int
    system_available_bytes: int
    os: str
    ocr: str
    recovered: tuple[str, ...] = field(default_factory=tuple)


def directory_bytes(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def os_description() -> str:
    system = platform.system()
    if system == "Darwin":
        return f"macOS {platform.mac_ver()[0]} ({platform.machine()})"
    if system == "Windows":
        return f"Windows {platform.release()} ({platform.machine()})"
    return f"{system} {platform.release()} ({platform.machine()})"


def process_memory() -> tuple[int, int, int]:
    vm = psutil.virtual_memory()
    return psutil.Process().memory_info().rss, vm.total, vm.available


def version() -> str:
    return __version__
