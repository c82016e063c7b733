# First, before any runtime is imported anywhere: runtime telemetry off (issue 33 §1, telemetry_off.py).
from casetrack import telemetry_off as _telemetry_off

_telemetry_off.apply()

# Then, still before numpy is imported: its BLAS on one thread (blas_threads.py says why).
from casetrack import blas_threads as _blas_threads  # noqa: E402

_blas_threads.apply()

__version__ = "0.1.0"
