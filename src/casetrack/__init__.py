# First, before any runtime is imported anywhere: runtime telemetry off (issue 33 §1, telemetry_off.py).
from casetrack import telemetry_off as _telemetry_off

_telemetry_off.apply()

__version__ = "0.1.0"
