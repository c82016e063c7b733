"""numpy's BLAS runs on one thread in every CaseTrack process unless the user set its thread count
(casetrack/blas_threads.py): the variable must be in the environment before numpy loads OpenBLAS."""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = ("import casetrack, os, numpy; "
         "from casetrack.service.ingest.clauses import clause_model; "  # numpy and the clause model loaded after
         "print(os.environ.get('OPENBLAS_NUM_THREADS'))")


def _run(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120,
                          check=True)
    return done.stdout.strip()


def test_casetrack_runs_numpy_blas_on_one_thread_by_default() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _run(env) == "1"


def test_a_users_own_blas_thread_count_stands() -> None:
    assert _run({**os.environ, "OPENBLAS_NUM_THREADS": "3"}) == "3"
