"""Folder watching's timing and limits, read from config.toml (`watch_*` keys)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from casetrack.config import Settings
from casetrack.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class WatchConfig:
    debounce_s: float = 2.0  # quiet time after a path's last event, and how long its size must stay put
    schedule_check_s: float = 60.0  # how often scheduled syncs are checked for being due
    lock_retry_s: float = 2.0  # how often a waiting server tries to take over running watches
    max_pending: int = 5000  # changed paths remembered per watch; beyond that, one full sync instead

    @property
    def tick_s(self) -> float:
        return max(0.02, min(0.5, self.debounce_s / 4))

    @classmethod
    def from_settings(cls, settings: Settings) -> WatchConfig:
        """`watch_debounce_s`, `watch_schedule_check_s`, `watch_lock_retry_s`, `watch_max_pending` in config.toml.

        Raises InvalidInput for a value that is not a positive number."""
        default = cls()
        return cls(debounce_s=_positive(settings, "debounce_s", float, default.debounce_s),
                   schedule_check_s=_positive(settings, "schedule_check_s", float, default.schedule_check_s),
                   lock_retry_s=_positive(settings, "lock_retry_s", float, default.lock_retry_s),
                   max_pending=_positive(settings, "max_pending", int, default.max_pending))


Number = TypeVar("Number", int, float)


def _positive(settings: Settings, name: str, kind: Callable[[str], Number], default: Number) -> Number:
    """config.toml's `watch_<name>`, else `default`. Raises InvalidInput for a value that is not a positive number."""
    raw = settings.extra.get(f"watch_{name}")
    if raw is None:
        return default
    try:
        value: Number | None = kind(str(raw))
    except (TypeError, ValueError):
        value = None
    if value is None or value <= 0:
        raise InvalidInput(f"config.toml: watch_{name} must be a positive number, not {raw!r}.")
    return value
