"""Facts about files on disk that several layers need."""

from __future__ import annotations

import hashlib
import os
import re
import urllib.parse
import urllib.request
from pathlib import Path


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes, read in 1 MiB blocks (documents can be hundreds of MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


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
