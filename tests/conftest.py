"""Shared fixtures: an isolated data directory per test (never the user's real one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import casetrack  # noqa: F401  first: runtime telemetry off in every test process and what it starts
from tests.datasets import EVAL_DEV

__all__ = ["EVAL_DEV"]  # many tests import it from here


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "CaseTrack"
    monkeypatch.setenv("CASETRACK_HOME", str(root))
    yield root


EVAL_CASE_NAME = "Eval Dev"


@pytest.fixture(scope="session")
def _eval_dev_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir holding one case with every eval-dev document, ingested once per test session
    through the real service (parse, OCR, chunk, embed, graph, store)."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest

    root = tmp_path_factory.mktemp("eval-template") / "CaseTrack"
    app = CaseTrack.open(load_settings(root))
    case = app.create_case(EVAL_CASE_NAME, case_type="contract")
    for path in sorted((EVAL_DEV / "docs").iterdir()):
        if path.suffix != ".json":
            app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(path)))
    app.jobs.shutdown()
    return root


@pytest.fixture
def eval_dev_data_dir(_eval_dev_template: Path, tmp_path: Path) -> Path:
    """A private copy of the eval-dev data dir: tests may change it freely."""
    import shutil

    target = tmp_path / "CaseTrack"
    shutil.copytree(_eval_dev_template, target)
    return target
