"""An .eml read without the bodies of the attachments CaseTrack will not read.

The email package holds a whole message in memory several times over while it parses (the file, each line
of it as a string, each part's body joined, then decoded): a 67 MB message carrying a 50 MB .zip peaked at
705 MB in an ingest, for a file whose only use is its name in a warning (issue 33 §4). So the file is first
read line by line, and the body of each part that is explicitly an attachment (Content-Disposition:
attachment) of a kind no parser reads is left out: its headers stay, so the message still lists it and
says why it was not read, and its body is never held. Everything else is kept byte for byte, so the email
package parses the rest exactly as before. A message this cannot follow (a boundary never closed, no
boundary given) loses nothing more: lines are left out only between a skipped part's blank line and the
next boundary of a multipart that encloses it.
"""

from __future__ import annotations

import email.errors
import email.policy
from collections.abc import Callable
from email.message import Message
from email.parser import BytesHeaderParser
from enum import Enum
from typing import BinaryIO

Reads = Callable[[str, str], bool]  # (file name, content type) -> whether CaseTrack reads such a file

_HEADERS = BytesHeaderParser(policy=email.policy.default)


class _In(Enum):
    HEADERS = "headers"  # a message's, a part's or an attached message's header block
    BODY = "body"  # copied
    SKIP = "skip"  # an unread attachment's body: left out


def skimmed(handle: BinaryIO, reads: Reads) -> bytes:
    """The message in `handle` with the bodies of unread attachments left out (see the module)."""
    out: list[bytes] = []
    boundaries: list[bytes] = []  # "--" + the boundary of each multipart enclosing the line, innermost last
    state: _In = _In.HEADERS
    block: list[bytes] = []
    for line in handle:
        if state is not _In.HEADERS and boundaries and line.startswith(b"--"):
            closes = _boundary(line, boundaries)
            if closes is not None:
                out.append(line)
                state, block = (_In.BODY, []) if closes else (_In.HEADERS, [])
                continue
        if state is _In.SKIP:
            continue
        out.append(line)
        if state is _In.HEADERS:
            if line.strip():
                block.append(line)
                continue
            state, block = _after_headers(_HEADERS.parsebytes(b"".join(block)), boundaries, reads), []
    return b"".join(out)


def _boundary(line: bytes, boundaries: list[bytes]) -> bool | None:
    """None when `line` is no boundary of an enclosing multipart; else whether it closes one (popped, with
    any inner multipart left unclosed: the email package ends those there too)."""
    marker = line.rstrip()
    for depth in range(len(boundaries) - 1, -1, -1):
        if marker in (boundaries[depth], boundaries[depth] + b"--"):
            closes = marker != boundaries[depth]
            del boundaries[depth if closes else depth + 1:]
            return closes
    return None


def _after_headers(part: Message, boundaries: list[bytes], reads: Reads) -> _In:
    try:
        return _next(part, boundaries, reads)
    except (ValueError, IndexError, email.errors.MessageError):  # a header the default policy cannot parse
        return _In.BODY  # kept: the email package says what it makes of it, as before


def _next(part: Message, boundaries: list[bytes], reads: Reads) -> _In:
    if part.get_content_maintype() == "multipart":
        boundary = part.get_param("boundary")
        if isinstance(boundary, str) and boundary:
            boundaries.append(b"--" + boundary.encode("utf-8", "surrogateescape"))
        return _In.BODY
    if part.get_content_type() == "message/rfc822":
        return _In.HEADERS  # the attached message's own headers follow
    if boundaries and part.get_content_disposition() == "attachment" \
            and not reads(str(part.get_filename() or ""), part.get_content_type()):
        return _In.SKIP
    return _In.BODY
