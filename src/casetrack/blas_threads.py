"""numpy's BLAS (the OpenBLAS its wheels bundle) on one thread unless the user says otherwise.

CaseTrack's matrix products are small (a question against a few thousand candidate rows, a document's few
hundred passages), where OpenBLAS's thread pool costs more than it gives: a call wakes the pool, and its
threads then spin on the other cores, which ONNX runtime's own pool (the question's embedding) and the
search itself need. On the 2-core benchmark machine (docs/benchmarks.md, "BLAS on one thread"): search p95
at 100,000 chunks 98-99 -> 63-76 ms, and one product at ingest had cost ~0.5 ms of CPU a page.

OpenBLAS reads the variable when numpy is first imported, so the package's __init__ applies it before
anything else is imported; processes CaseTrack starts inherit it. A default, not forced (unlike
telemetry_off): a user's own OPENBLAS_NUM_THREADS stands.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

DEFAULTS = {"OPENBLAS_NUM_THREADS": "1"}


def apply(environ: MutableMapping[str, str] = os.environ) -> None:
    """Set each default in `environ` (this process's environment by default) where the user has not."""
    for name, value in DEFAULTS.items():
        environ.setdefault(name, value)
