"""Memory tiers (PRD 02 §7): how many models stay resident, decided from installed RAM.

  full         >= 15 GiB installed: every model of the licence tier stays loaded (preloaded).
  standard     7-15 GiB: the Free models (E1, E6, E7) stay loaded; Pro models load on first
               use and stay until memory runs low.
  constrained  < 7 GiB: only E1 stays loaded; any other model is loaded for one call and
               unloaded afterwards, one at a time.

Thresholds are on installed (total) RAM, a little below the nominal 16 / 8 GB because
machines report less than they have installed (firmware, integrated GPU). Whatever the
mode, when available RAM drops below 1 GiB the least recently used Pro models are unloaded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import psutil

from casetrack.config import MemoryMode
from casetrack.embed.specs import MODELS

log = logging.getLogger(__name__)

GIB = 1 << 30
FULL_MIN_BYTES = 15 * GIB
STANDARD_MIN_BYTES = 7 * GIB
PRESSURE_BYTES = 1 * GIB

MemoryProbe = Callable[[], tuple[int, int]]  # (total, available) bytes


def system_memory() -> tuple[int, int]:
    memory = psutil.virtual_memory()
    return int(memory.total), int(memory.available)


@dataclass(frozen=True, slots=True)
class MemoryPlan:
    mode: MemoryMode  # never AUTO
    total_bytes: int
    reason: str

    @property
    def warning(self) -> str | None:
        if self.mode is MemoryMode.CONSTRAINED:
            return "Low memory mode active: models load one at a time, so searches and ingestion are slower."
        return None


def decide(override: MemoryMode | str | None = None, probe: MemoryProbe = system_memory) -> MemoryPlan:
    """The memory mode: the override if given (not "auto"), else from installed RAM. Logs the decision.

    Raises ValueError for an override that is not a mode (config validates it first)."""
    total, _available = probe()
    wanted = MemoryMode(override) if override is not None else MemoryMode.AUTO
    if wanted is not MemoryMode.AUTO:
        plan = MemoryPlan(wanted, total, f"set by --memory-mode={wanted.value}")
    elif total >= FULL_MIN_BYTES:
        plan = MemoryPlan(MemoryMode.FULL, total, f"{total / GIB:.1f} GiB installed (>= 15 GiB)")
    elif total >= STANDARD_MIN_BYTES:
        plan = MemoryPlan(MemoryMode.STANDARD, total, f"{total / GIB:.1f} GiB installed (7-15 GiB)")
    else:
        plan = MemoryPlan(MemoryMode.CONSTRAINED, total, f"{total / GIB:.1f} GiB installed (< 7 GiB)")
    log.info("memory mode %s: %s", plan.mode.value, plan.reason)
    if plan.warning:
        log.warning(plan.warning)
    return plan


def resident_models(mode: MemoryMode, enabled: tuple[str, ...], free: tuple[str, ...]) -> tuple[str, ...]:
    """The models that stay loaded once used (and that `preload` loads) in `mode`."""
    if mode is MemoryMode.FULL:
        return enabled
    if mode is MemoryMode.STANDARD:
        return tuple(m for m in enabled if m in free)
    return tuple(m for m in enabled if m in MODELS and MODELS[m].resident_when_constrained)


def under_pressure(probe: MemoryProbe = system_memory) -> bool:
    return probe()[1] < PRESSURE_BYTES
