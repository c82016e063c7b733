"""Looking at a drawn page as a person would: which pixel rows the highlighter marked, and where a page's
words are on the picture (Tesseract run by the test itself on the picture the tool returned)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from casetrack.page_image.draw import HIGHLIGHT


def highlighted_rows(png: bytes, tolerance: int = 12) -> list[int]:
    """The picture's pixel rows holding highlighter yellow (every channel within `tolerance` of it)."""
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    yellow = (np.abs(pixels - np.array(HIGHLIGHT, dtype=np.int16)).max(axis=2) < tolerance).any(axis=1)
    return [int(y) for y in np.nonzero(yellow)[0]]


@dataclass(frozen=True)
class SeenWord:
    text: str  # letters and digits only, lower case
    left: int
    top: int
    right: int
    bottom: int

    @property
    def middle(self) -> tuple[float, float]:
        return (self.left + self.right) / 2, (self.top + self.bottom) / 2


def words_on(png: bytes, tmp_path: Path) -> list[SeenWord]:
    """The words Tesseract reads on the picture, in reading order, with their boxes in its pixels."""
    tesseract = shutil.which("tesseract")
    assert tesseract is not None
    picture = tmp_path / "seen.png"
    picture.write_bytes(png)
    tsv = subprocess.run([tesseract, str(picture), "stdout", "--psm", "3", "tsv"], capture_output=True, check=True,
                         timeout=120, env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"}).stdout.decode()
    words = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) == 12 and cells[0] == "5" and (text := re.sub(r"[\W_]+", "", cells[11]).lower()):
            left, top, width, height = (int(v) for v in cells[6:10])
            words.append(SeenWord(text, left, top, left + width, top + height))
    return words


def passage_words(seen: list[SeenWord], passage: str) -> tuple[int, int]:
    """The first and last of `seen` that are the passage's: its first two words and its last two, in order."""
    wanted = [w for w in (re.sub(r"[\W_]+", "", word).lower() for word in passage.split()) if w]
    texts = [w.text for w in seen]
    first = next(i for i in range(len(texts)) if texts[i:i + 2] == wanted[:2])
    last = next(i for i in range(first, len(texts)) if texts[i - 1:i + 1] == wanted[-2:])
    return first, last
