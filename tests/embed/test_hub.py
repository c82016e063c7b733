"""Downloads against a local stand-in for the Hugging Face hub (never the real one)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import numpy as np
import pytest

from casetrack.embed import hub
from casetrack.embed.hub import DownloadProgress, HubSettings
from casetrack.embed.pool import EmbedderPool, State
from casetrack.embed.sources import sha256_file, verify
from casetrack.embed.specs import MODELS, LicenseTier

from .conftest import build_graph, write_tokenizer
from .hubserver import FakeHub, serve

E1 = MODELS["E1"]
assert E1.revision is not None


@pytest.fixture
def fake_hub(tmp_path: Path) -> FakeHub:
    build_graph(tmp_path / "model.onnx", dim=384)
    write_tokenizer(tmp_path / "tokenizer.json")
    fake = FakeHub()
    fake.add(E1.repo, E1.revision, E1.model_file, (tmp_path / "model.onnx").read_bytes(), lfs=True)
    fake.add(E1.repo, E1.revision, "tokenizer.json", (tmp_path / "tokenizer.json").read_bytes(), lfs=False)
    return fake


def settings(endpoint: str, **changes) -> HubSettings:
    return HubSettings(endpoint=endpoint, backoff_s=0.01, timeout_s=5, **changes)


def test_a_download_lands_verified_with_a_manifest_and_the_model_then_works(tmp_path, fake_hub, monkeypatch) -> None:
    models = tmp_path / "data" / "models"
    seen: list[DownloadProgress] = []
    with serve(fake_hub) as endpoint:
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        (outcome,) = hub.download(models, ["E1"], settings(endpoint), progress=seen.append)
    assert outcome.ok, outcome.message
    manifest = json.loads((models / "E1" / "manifest.json").read_text())
    assert manifest["revision"] == E1.revision and manifest["source"] == "hub"
    assert manifest["files"]["model.onnx"]["sha256"] == fake_hub.etag(
        f"{E1.repo}/resolve/{E1.revision}/onnx/model.onnx"
    )
    assert manifest["files"]["tokenizer.json"]["sha256"] == sha256_file(models / "E1" / "tokenizer.json")
    assert manifest["files"]["model.onnx"]["upstream"] == "onnx/model.onnx"
    assert not list(models.glob(".E1.*")), "staging directories are cleaned up"
    assert seen and seen[-1].done == seen[-1].total and {p.model_id for p in seen} == {"E1"}
    assert all(f"/resolve/{E1.revision}/" in path for _m, path, _r in fake_hub.requests), "the pinned revision is used"
    pool = EmbedderPool(models, tier=LicenseTier.FREE, memory_mode="standard")
    assert {s.model_id: s.state for s in pool.status()}["E1"] is State.READY
    vector = pool.get("E1").embed_query("breach of duty")
    assert vector.shape == (384,) and np.isclose(np.linalg.norm(vector), 1.0)
    assert all(o.ok for o in verify(models, ["E1"]))


def test_a_corrupted_transfer_is_retried_and_then_succeeds(tmp_path, fake_hub) -> None:
    key = f"{E1.repo}/resolve/{E1.revision}/{E1.model_file}"
    fake_hub.corrupt_times[key] = 1
    with serve(fake_hub) as endpoint:
        (outcome,) = hub.download(tmp_path, ["E1"], settings(endpoint))
    assert outcome.ok, outcome.message
    assert sum(1 for m, p, _ in fake_hub.requests if m == "GET" and p.endswith("model.onnx")) == 2
    assert sha256_file(tmp_path / "E1" / "model.onnx") == fake_hub.etag(key)


def test_a_file_that_never_matches_its_checksum_gives_a_clear_error_and_leaves_no_model(tmp_path, fake_hub) -> None:
    key = f"{E1.repo}/resolve/{E1.revision}/{E1.model_file}"
    fake_hub.corrupt_times[key] = 99
    waits: list[float] = []
    with serve(fake_hub) as endpoint:
        (outcome,) = hub.download(tmp_path, ["E1"], settings(endpoint, attempts=3), sleep=waits.append)
    assert not outcome.ok
    assert "failed its checksum" in outcome.message and "after 3 attempts" in outcome.message
    assert "casetrack models download E1" in outcome.message
    assert waits == [0.01, 0.02], "exponential backoff between attempts"
    assert not (tmp_path / "E1").exists()


def test_a_pinned_digest_wins_over_what_the_hub_says(tmp_path, fake_hub) -> None:
    e7 = MODELS["E7"]
    assert e7.revision is not None
    fake_hub.add(e7.repo, e7.revision, e7.model_file, b"a different graph")
    fake_hub.add(e7.repo, e7.revision, "tokenizer.json", b"{}", lfs=False)
    with serve(fake_hub) as endpoint:
        (outcome,) = hub.download(tmp_path, ["E7"], settings(endpoint, attempts=2))
    assert not outcome.ok and "expected the pinned 6fd5d72f" in outcome.message


def test_an_interrupted_transfer_resumes_with_a_range_request(tmp_path, fake_hub) -> None:
    # big enough that huggingface_hub has written a 10 MB block before the connection drops
    blob = np.random.default_rng(0).bytes(24 << 20)
    key = fake_hub.add(E1.repo, E1.revision, E1.model_file, blob)
    fake_hub.truncate_times[key] = 1
    with serve(fake_hub) as endpoint:
        (outcome,) = hub.download(tmp_path, ["E1"], settings(endpoint))
    assert outcome.ok, outcome.message
    ranges = [r for m, p, r in fake_hub.requests if m == "GET" and p.endswith("model.onnx")]
    assert ranges[0] is None and ranges[1] is not None and ranges[1].startswith("bytes=")
    assert sha256_file(tmp_path / "E1" / "model.onnx") == fake_hub.etag(key)


def test_an_unreachable_hub_gives_a_clear_error_and_the_pool_keeps_running(tmp_path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    outcomes = hub.download(tmp_path, ["E1", "E6"], settings(f"http://127.0.0.1:{port}", attempts=2))
    assert [o.ok for o in outcomes] == [False, False]
    assert "could not download onnx/model.onnx" in outcomes[0].message
    assert "casetrack models import" in outcomes[0].message
    pool = EmbedderPool(tmp_path, tier=LicenseTier.FREE, memory_mode="standard")
    states = {s.model_id: s.state for s in pool.status()}
    assert states["E1"] is State.NOT_DOWNLOADED and states["E7"] is State.READY
    assert pool.get("E7").embed_query("still works").shape == (384,)


def test_offline_mode_refuses_before_touching_the_network(tmp_path, fake_hub) -> None:
    with serve(fake_hub) as endpoint:
        (outcome,) = hub.download(tmp_path, ["E1"], settings(endpoint, offline=True))
    assert not outcome.ok and "HF_HUB_OFFLINE" in outcome.message
    assert fake_hub.requests == []
    assert HubSettings.from_env({"HF_HUB_OFFLINE": "1", "HF_ENDPOINT": "http://mirror"}) == HubSettings(
        endpoint="http://mirror", offline=True
    )


def test_a_converted_only_model_explains_how_to_get_it(tmp_path) -> None:
    (outcome,) = hub.download(tmp_path, ["E11"], HubSettings(endpoint="http://127.0.0.1:9", backoff_s=0))
    assert not outcome.ok and "convert_models.py E11" in outcome.message


def test_the_pool_can_fetch_a_missing_model_on_first_use(tmp_path, fake_hub) -> None:
    with serve(fake_hub) as endpoint:
        pool = EmbedderPool(tmp_path, memory_mode="standard", hub_settings=settings(endpoint), auto_download=True)
        assert pool.get("E1").embed_query("lease").shape == (384,)
    assert (tmp_path / "E1" / "manifest.json").is_file()
