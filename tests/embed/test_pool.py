"""The pool: per-embedder status, licence tiers, memory modes, LRU unloading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casetrack.config import MemoryMode
from casetrack.embed import memory
from casetrack.embed.pool import EmbedderPool, State, status
from casetrack.embed.sources import import_models
from casetrack.embed.specs import LicenseTier, models_for_tier
from casetrack.errors import ModelUnavailable

from .conftest import build_graph, write_tokenizer

GIB = 1 << 30


def install(root: Path, model_id: str, dim: int) -> None:
    """Import a tiny model into root/models (the pools below use that directory)."""
    source = root / "src" / model_id
    source.mkdir(parents=True)
    build_graph(source / "model.onnx", dim=dim)
    write_tokenizer(source / "tokenizer.json")
    (outcome,) = import_models(source, root / "models")
    assert outcome.ok, outcome.message


def probe(total_gib: float, available_gib: float = 8.0):
    return lambda: (int(total_gib * GIB), int(available_gib * GIB))


def test_fresh_data_dir_without_a_hub_has_real_models_from_packages(tmp_path: Path) -> None:
    by_id = {s.model_id: s for s in status(tmp_path / "models", LicenseTier.PRO)}
    assert by_id["E7"].state is State.READY and by_id["E7"].source == "packaged"
    assert by_id["E8"].state is State.READY and by_id["E8"].source == "packaged"
    for model_id in ("E1", "E6", "E12"):
        assert by_id[model_id].state is State.NOT_DOWNLOADED
        assert by_id[model_id].fix == f"casetrack models download {model_id}"
    assert by_id["E11"].state is State.NOT_DOWNLOADED and "convert_models.py E11" in (by_id["E11"].fix or "")


def test_the_free_tier_disables_pro_models_and_says_so(tmp_path: Path) -> None:
    assert models_for_tier(LicenseTier.FREE) == ("E1", "E6", "E7")
    assert models_for_tier(LicenseTier.PRO) == ("E1", "E6", "E7", "E8", "E11", "E12")
    pool = EmbedderPool(tmp_path / "models", tier=LicenseTier.FREE, probe=probe(16))
    by_id = {s.model_id: s for s in pool.status()}
    assert {m for m, s in by_id.items() if s.state is State.DISABLED} == {"E8", "E11", "E12"}
    assert pool.available() == ("E7",)
    with pytest.raises(ModelUnavailable, match="CaseTrack Pro"):
        pool.get("E8")
    with pytest.raises(ModelUnavailable, match="casetrack models download E1"):
        pool.get("E1")


def test_ready_agrees_with_available_and_does_not_look_for_a_loaded_models_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search asks which models can embed its question; looking for a packaged model's files costs ~1 ms a
    model, so a model already loaded is ready without looking."""
    pool = EmbedderPool(tmp_path / "models", tier=LicenseTier.FREE, probe=probe(16))
    assert [m for m in ("E1", "E6", "E7", "E8", "E11", "E12") if pool.ready(m)] == list(pool.available()) == ["E7"]
    pool.get("E7").embed_query("lease")

    def looked(*_: object, **__: object) -> None:
        raise AssertionError("looked for files")

    monkeypatch.setattr("casetrack.embed.sources.find", looked)
    assert pool.ready("E7")
    with pytest.raises(AssertionError, match="looked for files"):
        pool.ready("E1")  # not loaded: found as `available` finds it


def test_a_broken_model_is_reported_failed_and_the_others_keep_working(tmp_path: Path) -> None:
    install(tmp_path, "E1", dim=16)  # a graph of the wrong width: loads, then fails its signature check
    pool = EmbedderPool(tmp_path / "models", tier=LicenseTier.FREE, probe=probe(16))
    with pytest.raises(ModelUnavailable, match="expected"):
        pool.get("E1").embed_query("lease")
    by_id = {s.model_id: s for s in pool.status()}
    assert by_id["E1"].state is State.FAILED and "expected" in by_id["E1"].detail
    assert by_id["E1"].fix == "casetrack models download E1"
    assert pool.get("E7").embed_documents(["lease"]).shape == (1, 384)


def test_a_tampered_local_model_is_failed_with_the_reason(tmp_path: Path) -> None:
    install(tmp_path, "E1", dim=384)
    manifest = json.loads((tmp_path / "models" / "E1" / "manifest.json").read_text())
    manifest["files"]["model.onnx"]["sha256"] = "0" * 64
    (tmp_path / "models" / "E1" / "manifest.json").write_text(json.dumps(manifest))
    pool = EmbedderPool(tmp_path / "models", probe=probe(16))
    with pytest.raises(ModelUnavailable, match="failed verification"):
        pool.get("E1")
    assert {s.model_id: s.state for s in pool.status()}["E1"] is State.FAILED


@pytest.mark.parametrize(
    ("total", "override", "mode"),
    [
        (32, None, MemoryMode.FULL),
        (15.5, None, MemoryMode.FULL),
        (12, None, MemoryMode.STANDARD),
        (7.6, None, MemoryMode.STANDARD),
        (6, None, MemoryMode.CONSTRAINED),
        (32, "constrained", MemoryMode.CONSTRAINED),
        (4, MemoryMode.FULL, MemoryMode.FULL),
        (12, "auto", MemoryMode.STANDARD),
    ],
)
def test_memory_mode_follows_installed_ram_unless_overridden(total, override, mode, caplog) -> None:
    caplog.set_level("INFO", logger="casetrack.embed.memory")
    plan = memory.decide(override, probe(total))
    assert plan.mode is mode
    assert f"memory mode {mode.value}" in caplog.text
    assert (plan.warning is not None) == (mode is MemoryMode.CONSTRAINED)


def test_resident_models_per_mode(tmp_path: Path) -> None:
    pro = models_for_tier(LicenseTier.PRO)
    assert EmbedderPool(tmp_path / "models", tier=LicenseTier.PRO, probe=probe(32)).resident == pro
    assert EmbedderPool(tmp_path / "models", tier=LicenseTier.PRO, probe=probe(12)).resident == ("E1", "E6", "E7")
    assert EmbedderPool(tmp_path / "models", tier=LicenseTier.PRO, probe=probe(4)).resident == ("E1",)


def test_constrained_mode_loads_non_resident_models_one_call_at_a_time(tmp_path: Path) -> None:
    install(tmp_path, "E1", dim=384)
    pool = EmbedderPool(tmp_path / "models", tier=LicenseTier.PRO, probe=probe(4))
    assert pool.mode is MemoryMode.CONSTRAINED
    e1, e7 = pool.get("E1"), pool.get("E7")
    e1.embed_query("lease")
    e7.embed_query("lease")
    loaded = {s.model_id: s.loaded for s in pool.status()}
    assert loaded["E1"] and not loaded["E7"]


def test_preload_loads_the_resident_set_and_reports_what_is_missing(tmp_path: Path) -> None:
    pool = EmbedderPool(tmp_path / "models", tier=LicenseTier.FREE, probe=probe(12))
    outcome = pool.preload()
    assert outcome["E7"] is None
    assert "casetrack models download E1" in (outcome["E1"] or "")
    assert {s.model_id: s.loaded for s in pool.status()}["E7"]


def test_memory_pressure_unloads_least_recently_used_pro_models_first(tmp_path: Path) -> None:
    install(tmp_path, "E12", dim=32)  # wrong width for E12 is irrelevant here: only E8 / E7 get loaded
    available = {"gib": 8.0}
    pool = EmbedderPool(
        tmp_path / "models",
        tier=LicenseTier.PRO,
        probe=lambda: (16 * GIB, int(available["gib"] * GIB)),
        memory_mode="full",
    )
    pool.get("E8").embed_query("first")
    pool.get("E7").embed_query("free models are never unloaded for pressure")
    assert pool.relieve_pressure() == []
    available["gib"] = 0.5
    assert pool.relieve_pressure() == ["E8"]
    loaded = {s.model_id: s.loaded for s in pool.status()}
    assert not loaded["E8"] and loaded["E7"]
    assert pool.get("E8").embed_query("loads again").shape == (384,)


def test_refresh_picks_up_a_model_imported_after_start(tmp_path: Path) -> None:
    pool = EmbedderPool(tmp_path / "models", probe=probe(16))
    with pytest.raises(ModelUnavailable):
        pool.get("E1")
    install(tmp_path, "E1", dim=384)
    pool.refresh("E1")
    assert pool.get("E1").embed_query("lease").shape == (384,)
