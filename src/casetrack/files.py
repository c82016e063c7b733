"""Facts about files on disk that several layers need."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

# A document's first read (its SHA-256) may take this long, plus a second per MiB, before it is given
# up as stalled: an online-only cloud file that never downloads, or a network share that stopped
# answering, would otherwise hold the ingest queue forever (config.toml's read_timeout_s sets the first).
READ_GRACE_S = 30.0
READ_MIN_BYTES_PER_S = 1 << 20
_BLOCK = 1 << 20
_WAIT_SLICE_S = 0.1  # how often a waiting reader looks at the deadline and at its job's cancellation


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes, read in 1 MiB blocks (documents can be hundreds of MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class NotRegularFile(OSError):
    """The path names something other than a regular file (a named pipe, a device, a socket, a folder)."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(f"{path} is {kind}")
        self.path = path
        self.kind = kind


class ReadStalled(TimeoutError):
    """A file's read did not finish within its deadline (the reading thread is left to end by itself)."""

    def __init__(self, path: str, done: int, size: int | None, waited_s: float) -> None:
        super().__init__(f"{path}: {done} of {size if size is not None else '?'} bytes read in {waited_s:.0f} s")
        self.path = path
        self.done = done
        self.size = size  # None: it was never opened (the open itself stalled)
        self.waited_s = waited_s


def kind_of(mode: int) -> str | None:
    """What a file with this st_mode is, in words, when it is not a regular file; None when it is."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), which would wait for another program to write into it"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file (reading it would never end)"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    return "not a regular file"


def open_regular(path: Path) -> BinaryIO:
    """`path` opened for reading, if it is a regular file (checked on the open file, so a file swapped
    for a pipe after an earlier check is still refused). Raises NotRegularFile or OSError."""
    handle = path.open("rb")
    try:
        kind = kind_of(os.fstat(handle.fileno()).st_mode)
    except BaseException:
        handle.close()
        raise
    if kind is not None:
        handle.close()
        raise NotRegularFile(str(path), kind)
    return handle


def read_deadline(size: int, grace_s: float = READ_GRACE_S) -> float:
    """Seconds a read of `size` bytes may take before it counts as stalled."""
    return grace_s + size / READ_MIN_BYTES_PER_S


def document_sha256(path: Path, checkpoint: Callable[[], None] | None = None,
                    grace_s: float = READ_GRACE_S) -> str:
    """Hex SHA-256 of a document, which must be a regular file, read with a deadline of
    `read_deadline(size, grace_s)`. The open and the reads happen on a daemon thread, so a stalled
    one cannot hold the caller: past the deadline this raises ReadStalled (the thread ends when its
    read returns). `checkpoint`, called while waiting, may raise to stop waiting (cancellation).
    Raises NotRegularFile, ReadStalled or OSError."""
    return stream_sha256(lambda: open_regular(path), str(path), checkpoint, grace_s)


def stream_sha256(opener: Callable[[], BinaryIO], name: str, checkpoint: Callable[[], None] | None = None,
                  grace_s: float = READ_GRACE_S) -> str:
    """Hex SHA-256 of what `opener` opens, opened and read on a daemon thread within the deadline
    `document_sha256` describes (the stream's size is its fstat size, 0 for a pipe)."""
    reader = _Reader(opener)
    started = time.monotonic()
    threading.Thread(target=reader.run, name="casetrack-read", daemon=True).start()
    try:
        while not reader.finished.wait(_WAIT_SLICE_S):
            if checkpoint is not None:
                checkpoint()
            waited = time.monotonic() - started
            if waited > read_deadline(reader.size or 0, grace_s):
                raise ReadStalled(name, reader.done, reader.size, waited)
    finally:
        reader.abandoned = not reader.finished.is_set()
    if reader.error is not None:
        raise reader.error
    return reader.digest.hexdigest()


class _Reader:
    """One file read on its own thread; the waiting side reads its progress."""

    def __init__(self, opener: Callable[[], BinaryIO]) -> None:
        self.opener = opener
        self.digest = hashlib.sha256()
        self.size: int | None = None
        self.done = 0
        self.error: BaseException | None = None
        self.abandoned = False  # the waiter gave up: stop at the next block
        self.finished = threading.Event()

    def run(self) -> None:
        try:
            with self.opener() as handle:
                self.size = os.fstat(handle.fileno()).st_size
                read = getattr(handle, "read1", handle.read)  # one system call a block: progress shows as it comes
                while not self.abandoned and (block := read(_BLOCK)):
                    self.digest.update(block)
                    self.done += len(block)
        except BaseException as exc:  # handed to the waiting thread, which raises it
            self.error = exc
        finally:
            self.finished.set()


def expand(path: str | os.PathLike[str]) -> Path:
    """`~` and $VARIABLES expanded, made absolute against the current folder."""
    return Path(os.path.expandvars(os.path.expanduser(str(path)))).absolute()


def user_path(raw: str) -> Path:
    """The file or folder a user means by `raw`, typed or pasted: one pair of surrounding quotes
    (Windows' "Copy as path" adds them), a file:// URL (%20 and all), `~` and $VARIABLES, and a
    shell-escaped name (`My\\ Case`, from dragging a file into a terminal) when the path as
    written does not exist. A relative path is taken from the current folder, as a shell would."""
    text = _as_typed(raw)
    path = expand(text)
    if not path.exists() and os.sep == "/" and "\\" in text:
        unescaped = expand(re.sub(r"\\(.)", r"\1", text))
        if unescaped.exists():
            return unescaped
    return path


def relative_note(raw: str, example: str) -> str:
    """For a not-found message: where a relative path was looked for, and what to give instead."""
    text = _as_typed(raw)
    if not text or Path(os.path.expandvars(os.path.expanduser(text))).is_absolute():
        return ""
    return (f"\n\n\"{text}\" is a relative path, so it was looked for in {Path.cwd()}, the folder CaseTrack "
            f"was started in. Give the full path, e.g. {example}")


def _as_typed(raw: str) -> str:
    """The path in `raw` without one pair of surrounding quotes, and a file:// URL as a path."""
    text = raw.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    if text[:7].lower() == "file://":
        url = urllib.parse.urlparse(text)
        text = urllib.request.url2pathname(url.path)
        if url.netloc not in ("", "localhost"):  # file://server/share/x.pdf: a network share
            text = f"//{url.netloc}{text}"
    return text
