"""Stopping work that was asked to stop: a background job cancelled with cancel_ingest, or every
job when the server is stopped with Ctrl-C.

A job's worker thread runs its work inside `running(token)`; long loops call `checkpoint()`
(reading a file, each PDF page, each page sent to OCR, each embedding batch, each file of a
folder, and once more under the write lock just before a document is committed), which raises
`Cancelled` once that job's token is cancelled. Elsewhere (the CLI, where Ctrl-C raises
KeyboardInterrupt by itself, or any thread without a job) it does nothing. The thread-local
token spares every layer between the job and those loops a parameter it would only pass on."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from casetrack.errors import Cancelled


class CancelToken:
    """Set once; whoever holds it stops at its next checkpoint."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reason = ""

    def cancel(self, reason: str) -> None:
        if not self._event.is_set():
            self.reason = reason
            self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled(self.reason)


_local = threading.local()


@contextlib.contextmanager
def running(token: CancelToken) -> Iterator[CancelToken]:
    """Run the body as the work `token` can stop (on this thread)."""
    outer = getattr(_local, "token", None)
    _local.token = token
    try:
        yield token
    finally:
        _local.token = outer


def current() -> CancelToken | None:
    """The token of the job running on this thread, if any."""
    return getattr(_local, "token", None)


def checkpoint() -> None:
    """Raise Cancelled if the job running on this thread was cancelled; otherwise nothing."""
    token = getattr(_local, "token", None)
    if token is not None:
        token.raise_if_cancelled()
