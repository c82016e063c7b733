"""Small formatting rules used across every rendered text."""

from __future__ import annotations

import time


def date(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(ts))


def size(num_bytes: int) -> str:
    value = float(num_bytes)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"  # pragma: no cover - loop always returns


def plural(count: int, word: str, plural_form: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else (plural_form or word + 's')}"


def duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} seconds"
    minutes, secs = divmod(round(seconds), 60)
    return f"{plural(minutes, 'minute')} {plural(secs, 'second')}"
