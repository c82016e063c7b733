"""Files that never finish reading, built here without FUSE, standing in for an online-only cloud
file that never downloads or a network share that stopped answering.

* `held_file`: a regular file whose opening blocks. Another process holds a write lease on it
  (Linux `F_SETLEASE`, what Samba uses for oplocks) and ignores the break, so the kernel holds
  every other open of the file for `/proc/sys/fs/lease-break-time` (45 s by default).
* `silent_fifo`: a named pipe opened by a writer that never writes: an open that succeeds and a
  read that never returns.
* `trickling_fifo`: a named pipe fed one byte every few tenths of a second: a read that progresses,
  too slowly.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

LEASE_HOLDER = textwrap.dedent(
    """
    import fcntl, os, signal, sys, time
    signal.signal(signal.SIGIO, signal.SIG_IGN)  # told to let go: does not
    fd = os.open(sys.argv[1], os.O_WRONLY)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
    print("holding", flush=True)
    time.sleep(600)
    """
)


@contextlib.contextmanager
def held_file(path: Path, text: str) -> Iterator[Path]:
    """`path`, a regular file holding `text`, whose every open by another process blocks while this
    context lasts (or until the kernel's lease-break time passes)."""
    if sys.platform != "linux":
        pytest.skip("file leases (F_SETLEASE) are Linux-only")
    path.write_text(text, encoding="utf-8")
    holder = subprocess.Popen([sys.executable, "-c", LEASE_HOLDER, str(path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        if holder.stdout.readline().strip() != "holding":
            pytest.skip(f"this system refuses file leases: {holder.communicate(timeout=10)[1].strip()}")
        yield path
    finally:
        holder.kill()
        holder.communicate(timeout=10)  # reaps it and closes its pipes


@contextlib.contextmanager
def silent_fifo(path: Path) -> Iterator[Path]:
    """A named pipe with a writer attached that never writes (until the context ends)."""
    os.mkfifo(path)
    writer = os.open(path, os.O_RDWR)  # opening read-write never blocks, and keeps a writer attached
    try:
        yield path
    finally:
        os.close(writer)


@contextlib.contextmanager
def trickling_fifo(path: Path, every_s: float = 0.3) -> Iterator[Path]:
    """A named pipe fed one byte every `every_s` seconds while the context lasts."""
    os.mkfifo(path)
    writer = os.open(path, os.O_RDWR)
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(every_s):
            os.write(writer, b"x")

    feeder = threading.Thread(target=trickle, daemon=True)
    feeder.start()
    try:
        yield path
    finally:
        stop.set()
        feeder.join()
        os.close(writer)


def long_text(path: Path, paragraphs: int = 3000) -> Path:
    """A plain-text file long enough to take a minute to embed (hundreds of chunks): a long job."""
    words = ["lease", "tenant", "landlord", "premises", "rent", "notice", "termination", "breach", "covenant",
             "default", "remedy", "damages", "indemnify", "assignment", "sublet", "term", "renewal", "option",
             "deposit", "repair", "maintenance", "insurance"]
    lines = [f"{n}. " + " ".join(words[(n * 7 + i * 3) % len(words)] for i in range(60)) + "."
             for n in range(1, paragraphs + 1)]
    path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    return path


def wait_for(check: object, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
