"""Handing an embedding batch's memory back to the system when the batch is done (glibc only).

ONNX Runtime runs with its memory arena off (`engine.session_options`), so each batch allocates its
activations with malloc (E7, 8 x 256 tokens: tensors of 3-25 MB) and frees them afterwards. glibc serves
a block above its mmap threshold with a mapping of its own, unmapped when freed; but the threshold starts
at 128 KB and rises to the size of every such block freed, up to 32 MB. After the first batch, the next
batches' tensors come from the heap instead, spread over a heap per ONNX thread, and a heap keeps most
of what it freed. The process then swings by hundreds of MB from batch to batch and the more batches a
document has, the higher its highest swing: measured on this machine, E7 embedding 48 chunks of a
contract peaked 379-422 MB above the loaded process, and a 300-page PDF's 586 chunks swung between +200
and +650 MB. With the threshold fixed at 4 MB: +182 MB, whatever the number of chunks.

macOS and Windows allocators map large blocks of their own and return them when freed; there, and with
a C library without `mallopt` (musl ignores it), nothing is changed.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import sys

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
# Blocks at or above this get a mapping of their own. 1 MB and 8 MB measured the same peak as 4 MB; 4 MB
# keeps the hidden-state tensors of a batch (8 x 256 x 384 floats, 3 MB) in the heap, where reuse is cheap.
LARGE_BLOCK_BYTES = 4 << 20


@functools.cache
def return_large_blocks() -> bool:
    """Fix glibc's mmap threshold at LARGE_BLOCK_BYTES for this process (once); whether it was set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError):
        return False
    done = bool(mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK_BYTES))
    log.debug("malloc mmap threshold fixed at %d bytes: %s", LARGE_BLOCK_BYTES, done)
    return done
