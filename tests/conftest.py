"""Shared fixtures: an isolated data directory per test (never the user's real one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

EVAL_DEV = Path(__file__).resolve().parents[2] / "shared" / "eval-dev"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "CaseTrack"
    monkeypatch.setenv("CASETRACK_HOME", str(root))
    yield root
