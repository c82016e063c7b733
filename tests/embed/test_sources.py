"""Local and packaged sources, verify, and import from a directory or a zip."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from casetrack.embed.packaged import PACKAGED_TOKENIZER
from casetrack.embed.sources import (
    Source,
    find,
    import_models,
    sha256_file,
    verify,
)
from casetrack.embed.specs import MODELS
from casetrack.errors import FileNotFound, InvalidInput, ModelUnavailable

from .conftest import build_graph, write_tokenizer


def model_folder(root: Path, name: str, dim: int = 384, manifest_id: str | None = None) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    build_graph(folder / "model.onnx", dim=dim)
    write_tokenizer(folder / "tokenizer.json")
    if manifest_id:
        files = {
            n: {"sha256": sha256_file(folder / n), "size": (folder / n).stat().st_size}
            for n in ("model.onnx", "tokenizer.json")
        }
        (folder / "manifest.json").write_text(json.dumps({"model_id": manifest_id, "revision": "abc", "files": files}))
    return folder


def test_packaged_weights_and_tokenizer_are_installed_and_match_their_pinned_digests() -> None:
    for entry in (*(m.packaged for m in MODELS.values() if m.packaged), PACKAGED_TOKENIZER):
        path = entry.locate()
        assert path is not None, entry
        assert sha256_file(path) == entry.sha256
    assert (PACKAGED_TOKENIZER.locate().parent / "LICENSE-Apache-2.0.txt").is_file()  # type: ignore[union-attr]


def test_on_a_fresh_data_dir_e7_and_e8_come_from_packages_and_the_rest_are_missing(tmp_path: Path) -> None:
    for model_id in ("E7", "E8"):
        found = find(MODELS[model_id], tmp_path)
        assert found is not None and found.source is Source.PACKAGED
    for model_id in ("E1", "E6", "E11", "E12"):
        assert find(MODELS[model_id], tmp_path) is None


def test_import_from_a_directory_verifies_copies_and_writes_a_manifest(tmp_path: Path) -> None:
    source = tmp_path / "bundle"
    model_folder(source, "E1")
    model_folder(source, "e12-extra")  # not an embedder id: reported, not imported
    models = tmp_path / "models"
    outcomes = {o.model_id: o for o in import_models(source, models)}
    assert outcomes["E1"].ok and not outcomes["e12-extra"].ok
    manifest = json.loads((models / "E1" / "manifest.json").read_text())
    assert manifest["source"] == "import"
    assert manifest["files"]["model.onnx"]["sha256"] == sha256_file(source / "E1" / "model.onnx")
    found = find(MODELS["E1"], models)
    assert found is not None and found.source is Source.LOCAL


def test_import_from_a_zip_with_a_manifest_naming_the_model(tmp_path: Path) -> None:
    source = tmp_path / "export"
    model_folder(source / "models", "anything", dim=96, manifest_id="E12")
    archive = tmp_path / "models.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in source.rglob("*"):
            zf.write(path, path.relative_to(source))
    models = tmp_path / "data" / "models"
    (outcome,) = import_models(archive, models)
    assert outcome.ok and outcome.model_id == "E12", outcome.message
    found = find(MODELS["E12"], models)
    assert found is not None and found.source is Source.LOCAL
    assert json.loads((models / "E12" / "manifest.json").read_text())["revision"] == "abc"
    assert not list(models.glob(".import-*")), "scratch space is removed"


def test_import_refuses_a_model_whose_digest_casetrack_pins_when_it_differs(tmp_path: Path) -> None:
    model_folder(tmp_path / "src", "E7")  # E7's fp32 graph and tokenizer have pinned digests
    (outcome,) = import_models(tmp_path / "src", tmp_path / "models")
    assert not outcome.ok and "pinned SHA-256 6fd5d72f" in outcome.message
    found = find(MODELS["E7"], tmp_path / "models")
    assert found is not None and found.source is Source.PACKAGED


def test_import_refuses_files_that_do_not_match_their_manifest(tmp_path: Path) -> None:
    folder = model_folder(tmp_path / "src", "x", manifest_id="E1")
    with (folder / "model.onnx").open("ab") as handle:
        handle.write(b"tampered")
    (outcome,) = import_models(tmp_path / "src", tmp_path / "models")
    assert not outcome.ok and "bytes" in outcome.message
    assert not (tmp_path / "models" / "E1").exists()


def test_import_refuses_an_unsafe_zip_and_bad_paths(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("../../escape/model.onnx", b"x")
    with pytest.raises(InvalidInput, match="unsafe"):
        import_models(archive, tmp_path / "models")
    with pytest.raises(FileNotFound):
        import_models(tmp_path / "nope", tmp_path / "models")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidInput, match="No model found"):
        import_models(tmp_path / "empty", tmp_path / "models")


def test_verify_detects_a_tampered_file_of_the_same_size(tmp_path: Path) -> None:
    models = tmp_path / "models"
    model_folder(tmp_path / "src", "E1")
    import_models(tmp_path / "src", models)
    assert {o.model_id: o.ok for o in verify(models)}["E1"]
    path = models / "E1" / "model.onnx"
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x01
    path.write_bytes(bytes(data))
    results = {o.model_id: o for o in verify(models)}
    assert not results["E1"].ok and "SHA-256" in results["E1"].message
    assert results["E7"].ok and "package" in results["E7"].message
    assert results["E6"].ok and "not downloaded" in results["E6"].message
    with pytest.raises(ModelUnavailable, match="failed verification"):
        find(MODELS["E1"], models)


def test_a_broken_local_e7_falls_back_to_the_packaged_weights(tmp_path: Path) -> None:
    models = tmp_path / "models"
    (models / "E7").mkdir(parents=True)
    (models / "E7" / "model.onnx").write_bytes(b"half a download")
    found = find(MODELS["E7"], models)
    assert found is not None and found.source is Source.PACKAGED and "unusable" in found.detail


def test_unknown_ids_list_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"E1 \(bge-small-en-v1.5\)"):
        verify(tmp_path, ["E99"])
