"""The server's standard input, read so that Ctrl-C stops the server.

The MCP SDK's stdio transport reads stdin with a blocking readline on an AnyIO worker thread
(`anyio.wrap_file`). Ctrl-C in a terminal makes asyncio cancel the server's tasks, but a thread
blocked in read() cannot be cancelled: the transport's task group waited for it, and at exit
Python waits for that non-daemon thread too, so `casetrack serve` ran on until a line or the end
of input arrived (a second Ctrl-C did not help; python-sdk issue #3551). Here a daemon thread
reads the wire and hands each line to the event loop; cancelling the consumer ends the server at
once, and the reading thread, blocked or not, ends with the process.

The wire is claimed, and its first line read, by `casetrack.mcp.handshake`: that line is read again
here first (`first`)."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import AsyncIterator

import anyio
import anyio.from_thread
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectSendStream

_READ_SIZE = 1 << 16


class StdinLines:
    """What the SDK's `stdio_server(stdin=...)` iterates: the wire's lines as text, read by a daemon thread."""

    def __init__(self, fd: int, first: bytes = b"") -> None:
        self._fd = fd
        self._first = first

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        send, receive = anyio.create_memory_object_stream[str](0)
        token = anyio.lowlevel.current_token()
        threading.Thread(target=_pump, args=(self._fd, send, token, self._first), name="casetrack-stdin",
                         daemon=True).start()
        async with receive:
            async for line in receive:
                yield line


def _pump(fd: int, send: MemoryObjectSendStream[str], token: anyio.lowlevel.EventLoopToken, first: bytes) -> None:
    """Read `fd` to its end (after `first`, already read from it), sending each line (with its newline) to the
    event loop, then close `send`."""
    pending = b""
    try:
        while chunk := (first or os.read(fd, _READ_SIZE)):
            first = b""
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
