"""The switches that keep the runtimes CaseTrack loads from reporting home.

onnxruntime 1.29 and later sends 1DS telemetry on Linux and macOS: seconds after the first
InferenceSession the process resolves mobile.events.data.microsoft.com and opens TLS to it.
`onnxruntime.disable_telemetry_events()` does not stop it; ORT_DISABLE_TELEMETRY=1 in the
environment before onnxruntime is first imported does (issue 33 §1). huggingface_hub reads
HF_HUB_DISABLE_TELEMETRY before it would send usage pings (it contacts the hub only for
`casetrack models download`). tokenizers, Tesseract and the model files send nothing; LibreOffice's
own update check and fetches are off in its profile (parse/word/libreoffice.py).

The package's __init__ applies these to os.environ before anything else is imported, so every
entry point (server, CLI, helper process, tests, benchmarks) and every process started from one
inherits them; `child_environment` passes them explicitly too. The values are forced, not defaults:
a user's stray ORT_DISABLE_TELEMETRY=0, set for another program, must not make CaseTrack send
anything, since nothing leaving the machine is the promise, and telemetry is no feature of ours.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping

SWITCHES: Mapping[str, str] = {
    "ORT_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
}


def apply(environ: MutableMapping[str, str] = os.environ) -> None:
    """Force every switch on in `environ` (this process's environment by default)."""
    environ.update(SWITCHES)


def child_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """An environment for a process CaseTrack starts: `base` (else this process's) with every switch on."""
    return {**(os.environ if base is None else base), **SWITCHES}
