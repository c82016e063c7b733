"""Logging goes to stderr only: on stdio, stdout is the MCP wire and carries nothing else."""

from __future__ import annotations

import logging
import sys

LEVELS = {"TRACE": logging.DEBUG, "DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARN": logging.WARNING,
           "WARNING": logging.WARNING, "ERROR": logging.ERROR, "CRITICAL": logging.CRITICAL}


def configure(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(LEVELS.get(level.upper(), logging.INFO))
    # Third-party libraries are chatty at INFO; keep their detail for DEBUG.
    for noisy in ("httpx", "mcp", "huggingface_hub", "pdfminer", "PIL"):
        logging.getLogger(noisy).setLevel(max(root.level, logging.WARNING))
    # eyecite warns about every pair of overlapping citations it meets in an opinion ("Unknown overlap case",
    # with both citations' full reprs): dozens of lines a document about its own parsing, nothing a user can act on.
    logging.getLogger("eyecite").setLevel(root.level if root.level <= logging.DEBUG else logging.ERROR)
