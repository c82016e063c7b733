"""Downloads from the Hugging Face hub (or a mirror: `HubSettings.endpoint` / HF_ENDPOINT).

Each file is fetched at the spec's pinned revision with `hf_hub_download` (which resumes
partial files kept in models/.<id>.download/), then checked: against the digest pinned in
the spec when there is one, else against the digest the hub publishes (an LFS ETag is the
file's SHA-256; a plain git file's ETag is its git blob SHA-1). A mismatch deletes the file
and retries with exponential backoff; so does an unreachable hub. What was verified is
recorded in models/<id>/manifest.json, which later verification compares against.
Progress goes to stderr (tqdm) and to an optional callback the MCP layer can forward.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casetrack.embed.sources import Outcome, local_problems, model_dir, sha256_file, write_manifest
from casetrack.embed.specs import MODEL_FILE, TOKENIZER_FILE, ModelSpec, specs_for
from casetrack.errors import ModelUnavailable

if TYPE_CHECKING:
    from huggingface_hub.utils import tqdm as hf_tqdm

# huggingface_hub is imported where a model is fetched, not with this module: the embedders' package imports this
# one, and a search or a status never downloads (its import was a tenth of a cold `casetrack search`, issue 35 §3).

log = logging.getLogger(__name__)

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_SHA1 = re.compile(r"^[0-9a-f]{40}$")


@dataclass(frozen=True, slots=True)
class DownloadProgress:
    model_id: str
    filename: str
    done: int
    total: int | None


ProgressCallback = Callable[[DownloadProgress], None]


@dataclass(frozen=True, slots=True)
class HubSettings:
    endpoint: str | None = None  # None: huggingface_hub's default (which honours HF_ENDPOINT)
    offline: bool = False
    attempts: int = 3
    backoff_s: float = 2.0  # waits backoff_s, 2 x backoff_s, 4 x ... between attempts
    timeout_s: float = 30.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> HubSettings:
        """For the composition root: HF_ENDPOINT and HF_HUB_OFFLINE."""
        env = os.environ if environ is None else environ
        offline = env.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}
        return cls(endpoint=env.get("HF_ENDPOINT") or None, offline=offline)


def _progress_class(model_id: str, filename: str, callback: ProgressCallback | None) -> type[hf_tqdm]:
    from huggingface_hub.utils import tqdm as hf_tqdm

    class Progress(hf_tqdm):
        # tqdm skips update() bookkeeping when disabled, so the callback keeps its own count
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("desc", f"{model_id} {filename}")
            super().__init__(*args, **kwargs)
            self._done = int(kwargs.get("initial") or 0)

        def update(self, n: float | None = 1) -> bool | None:
            self._done += int(n or 0)
            if callback is not None:
                callback(DownloadProgress(model_id, filename, self._done, self.total))
            return super().update(n)

    return Progress


def _check_digest(path: Path, pinned: str | None, etag: str | None) -> str | None:
    """None if the file is what was expected; else a description of the mismatch."""
    if pinned is not None:
        actual = sha256_file(path)
        return None if actual == pinned else f"SHA-256 {actual}, expected the pinned {pinned}"
    if etag and _SHA256.match(etag):
        actual = sha256_file(path)
        return None if actual == etag else f"SHA-256 {actual}, the hub published {etag}"
    if etag and _SHA1.match(etag):
        blob = hashlib.sha1(b"blob %d\0" % path.stat().st_size)
        with path.open("rb") as handle:
            while block := handle.read(1 << 20):
                blob.update(block)
        return None if blob.hexdigest() == etag else f"git blob SHA-1 {blob.hexdigest()}, the hub published {etag}"
    log.warning("%s: the hub published no usable digest (ETag %r); recording the file's own SHA-256", path, etag)
    return None


def _fetch_file(
    spec: ModelSpec,
    remote: str,
    pinned: str | None,
    staging: Path,
    settings: HubSettings,
    progress: ProgressCallback | None,
    sleep: Callable[[float], None],
) -> Path:
    from huggingface_hub import constants as hf_constants
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url
    from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError

    no_retry = (RepositoryNotFoundError, RevisionNotFoundError, EntryNotFoundError)
    where = settings.endpoint or hf_constants.ENDPOINT
    fix = (
        f"Check the network (or HF_ENDPOINT) and run `{spec.fetch_command}` again, "
        "or copy the model from another machine with `casetrack models import PATH`."
    )
    problem = ""
    for attempt in range(1, settings.attempts + 1):
        if attempt > 1:
            wait = settings.backoff_s * 2 ** (attempt - 2)
            log.warning(
                "%s: %s (attempt %d/%d); retrying in %.1fs", spec.id, problem, attempt - 1, settings.attempts, wait
            )
            sleep(wait)
        try:
            url = hf_hub_url(spec.repo, remote, revision=spec.revision, endpoint=settings.endpoint)
            # one quick HEAD without huggingface_hub's own long retry loop: fails fast when unreachable
            meta = get_hf_file_metadata(url, timeout=settings.timeout_s, endpoint=settings.endpoint)
            path = Path(
                hf_hub_download(
                    spec.repo,
                    remote,
                    revision=spec.revision,
                    local_dir=staging,
                    endpoint=settings.endpoint,
                    etag_timeout=settings.timeout_s,
                    force_download=attempt > 1,
                    tqdm_class=_progress_class(spec.id, remote, progress),
                )
            )
        except no_retry as exc:
            raise ModelUnavailable(
                spec.id,
                f"{spec.repo} has no {remote} at revision {spec.revision} on {where} ({type(exc).__name__})",
                fix,
            ) from exc
        except Exception as exc:
            problem = f"could not download {remote} from {where}: {type(exc).__name__}: {exc}"
            continue
        mismatch = _check_digest(path, pinned, meta.etag)
        if mismatch is None:
            return path
        problem = f"downloaded {remote} failed its checksum ({mismatch})"
        path.unlink(missing_ok=True)
    raise ModelUnavailable(spec.id, f"{problem} after {settings.attempts} attempts", fix)


def fetch(
    spec: ModelSpec,
    models_dir: Path,
    settings: HubSettings,
    progress: ProgressCallback | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> Path:
    """Download one model into models/<id>/ and write its manifest. Returns that directory.

    Raises ModelUnavailable: offline mode, no ONNX upstream, hub unreachable, checksum mismatch."""
    from huggingface_hub import constants as hf_constants

    if spec.convert_from is not None or spec.revision is None:
        raise ModelUnavailable(spec.id, "it has no ONNX export on the hub", f"Convert it: `{spec.fetch_command}`.")
    if settings.offline or hf_constants.is_offline_mode():
        raise ModelUnavailable(
            spec.id,
            "offline mode is on (HF_HUB_OFFLINE), so nothing can be downloaded",
            "Unset HF_HUB_OFFLINE and retry, or use `casetrack models import PATH`.",
        )
    staging = models_dir / f".{spec.id}.download"  # kept between runs so interrupted downloads resume
    staging.mkdir(parents=True, exist_ok=True)
    pinned = spec.expected_sha256
    fetched = {
        local: _fetch_file(spec, remote, pinned.get(local), staging, settings, progress, sleep)
        for local, remote in ((MODEL_FILE, spec.model_file), (TOKENIZER_FILE, spec.tokenizer_file))
    }
    ready = models_dir / f".{spec.id}.ready"
    shutil.rmtree(ready, ignore_errors=True)
    ready.mkdir()
    for local, path in fetched.items():
        path.replace(ready / local)
    write_manifest(
        ready, spec, "hub", spec.revision, {MODEL_FILE: spec.model_file, TOKENIZER_FILE: spec.tokenizer_file}
    )
    target = model_dir(models_dir, spec.id)
    shutil.rmtree(target, ignore_errors=True)
    ready.replace(target)
    shutil.rmtree(staging, ignore_errors=True)
    log.info("%s: downloaded %s@%s into %s", spec.id, spec.repo, spec.revision, target)
    return target


def download(
    models_dir: Path,
    ids: Iterable[str] | None = None,
    settings: HubSettings | None = None,
    progress: ProgressCallback | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> list[Outcome]:
    """Download the given models (all when `ids` is empty), skipping verified local copies.

    Returns one Outcome per model; a failure never stops the others. Raises InvalidInput for an unknown id."""
    settings = settings or HubSettings()
    outcomes = []
    for spec in specs_for(ids):
        directory = model_dir(models_dir, spec.id)
        if directory.is_dir() and not local_problems(spec, directory, deep=True):
            outcomes.append(Outcome(spec.id, True, f"already downloaded and verified in {directory}"))
            continue
        try:
            target = fetch(spec, models_dir, settings, progress, sleep)
        except ModelUnavailable as exc:
            outcomes.append(Outcome(spec.id, False, exc.message))
        else:
            outcomes.append(Outcome(spec.id, True, f"downloaded {spec.repo}@{spec.revision} into {target}"))
    return outcomes
