"""The legal roles' description vectors are embedded once per data folder, not once per process (issue 35 §3): a
cold `casetrack search` spent ~1 s of E7 on them every time. Real packaged E7, real files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from casetrack.config import load_settings
from casetrack.embed.pool import PooledEmbedder
from casetrack.service.app import CaseTrack
from casetrack.service.search.asked_roles import CACHE_FOLDER, AskedRoles

QUESTION = "Which state's law governs the agreement?"


def test_a_second_process_reads_the_role_vectors_instead_of_embedding_them(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = CaseTrack.open(load_settings(data_dir))
    if "E7" not in first.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    question = {"e7": np.asarray(first.pool.get("E7").embed_query(QUESTION), dtype=np.float32)}
    asked = AskedRoles(first.pool).asked(QUESTION, question, None)
    assert "governing_law" in asked
    kept = list((first.pool.models_dir / CACHE_FOLDER).glob("role-vectors-*.npy"))
    assert len(kept) == 1

    embedded: list[int] = []
    original = PooledEmbedder.embed_documents

    def counting(self: PooledEmbedder, texts: Sequence[str]) -> object:
        embedded.append(len(texts))
        return original(self, texts)

    monkeypatch.setattr(PooledEmbedder, "embed_documents", counting)
    later = CaseTrack.open(load_settings(data_dir))  # another process on the same data folder
    assert AskedRoles(later.pool).asked(QUESTION, question, None) == asked
    assert embedded == []

    kept[0].write_bytes(b"not an array")  # a damaged file is made again, not trusted
    assert AskedRoles(later.pool).asked(QUESTION, question, None) == asked
    assert embedded and np.load(kept[0]).ndim == 2
