"""The server's standard input, read so that Ctrl-C stops the server.

The MCP SDK's stdio transport reads stdin with a blocking readline on an AnyIO worker thread
(`anyio.wrap_file`). Ctrl-C in a terminal makes asyncio cancel the server's tasks, but a thread
blocked in read() cannot be cancelled: the transport's task group waited for it, and at exit
Python waits for that non-daemon thread too, so `casetrack serve` ran on until a line or the end
of input arrived (a second Ctrl-C did not help; python-sdk issue #3551). Here a daemon thread
reads the wire and hands each line to the event loop; cancelling the consumer ends the server at
once, and the reading thread, blocked or not, ends with the process.

While the server runs, fd 0 points at the null device (as the SDK's own transport arranges), so
no child process (Tesseract, LibreOffice) can read protocol bytes meant for the server."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import AsyncIterator, Iterator

import anyio
import anyio.from_thread
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectSendStream

_READ_SIZE = 1 << 16


@contextlib.contextmanager
def claimed_stdin() -> Iterator[int]:
    """A private descriptor of the wire (stdin), with fd 0 pointed at the null device meanwhile.
    Raises OSError when there is no stdin to claim (fd 0 closed)."""
    wire = os.dup(0)  # not inherited by child processes (PEP 446)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        yield wire
    finally:
        # The reading thread may still be blocked on `wire`, so it is never closed (a closed descriptor
        # number could be reused for a case file under that read); the process's exit closes it.
        with contextlib.suppress(OSError):
            os.dup2(wire, 0)


class StdinLines:
    """What the SDK's `stdio_server(stdin=...)` iterates: the wire's lines as text, read by a daemon thread."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        send, receive = anyio.create_memory_object_stream[str](0)
        token = anyio.lowlevel.current_token()
        threading.Thread(target=_pump, args=(self._fd, send, token), name="casetrack-stdin", daemon=True).start()
        async with receive:
            async for line in receive:
                yield line


def _pump(fd: int, send: MemoryObjectSendStream[str], token: anyio.lowlevel.EventLoopToken) -> None:
    """Read `fd` to its end, sending each line (with its newline) to the event loop, then close `send`."""
    pending = b""
    try:
        while chunk := os.read(fd, _READ_SIZE):
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:  # UTF-8 never has a newline byte inside a character: decoding per line is exact
                anyio.from_thread.run(send.send, line.decode("utf-8", errors="replace") + "\n", token=token)
        if pending:
            anyio.from_thread.run(send.send, pending.decode("utf-8", errors="replace"), token=token)
    except (OSError, RuntimeError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        return  # the server stopped (its loop is gone or stopped listening), or stdin broke: nothing to hand on
    finally:
        with contextlib.suppress(RuntimeError):
            anyio.from_thread.run_sync(send.close, token=token)
