"""The clause classifier's artefact shipped in the package (embed/data/clauses/, built by
scripts/train_clauses.py; docs/clause_model.md): its weight arrays and its meta record, read as plain files
(`allow_pickle=False`). The model itself is pure (chunk.clause_model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

FOLDER = Path(__file__).resolve().parent / "data" / "clauses"


def read_artefact(folder: Path = FOLDER) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(arrays by name, meta). Raises OSError or ValueError when the files are missing or unreadable."""
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    if not isinstance(meta, dict):
        raise ValueError(f"{folder / 'meta.json'} is not a JSON object")
    arrays = {path.stem: np.load(path, allow_pickle=False) for path in sorted(folder.glob("*.npy"))}
    return arrays, meta
