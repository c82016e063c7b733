"""`casetrack show`: a search hit's page written as a PNG with the passage highlighted, or opened."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from casetrack.page_image.draw import HIGHLIGHT
from tests.page_image.documents import lease_pdf_bytes


def _cli(data_dir: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASETRACK_")}
    env["CASETRACK_NO_UPDATE_CHECK"] = "1"
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "casetrack", "--data-dir", str(data_dir), *args], env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def _ok(data_dir: Path, *args: str, path: str | None = None) -> str:
    done = _cli(data_dir, *args, path=path)
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done.stdout


def _marked_rows(png: bytes) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    pixels = image.load()
    assert pixels is not None
    return sum(1 for y in range(image.height)
               if any(max(abs(a - b) for a, b in zip(pixels[x, y], HIGHLIGHT, strict=True)) < 12
                      for x in range(0, image.width, 3)))


@pytest.mark.slow  # four CLI processes, each loading the models: CI runs it with -m slow
def test_show_writes_the_hits_page_highlighted_or_opens_it(data_dir: Path, tmp_path: Path) -> None:
    lease = tmp_path / "lease.pdf"
    lease.write_bytes(lease_pdf_bytes())
    _ok(data_dir, "cases", "create", "Show")
    _ok(data_dir, "ingest", str(lease), "--case", "Show")
    found = _ok(data_dir, "search", "tenant indemnify landlord flood damage", "--case", "Show", "--top-k", "1")
    chunk = re.search(r"\[chunk ([0-9a-f-]{36})", found)
    assert chunk, found

    out = tmp_path / "hit.png"
    said = _ok(data_dir, "show", chunk.group(1), "--case", "Show", "--output", str(out))
    assert "lease.pdf, p. 2" in said and str(out) in said
    with Image.open(out) as image:
        height = image.height
    assert height >= 800 and 0 < _marked_rows(out.read_bytes()) < height / 2

    other = tmp_path / "p3.png"
    _ok(data_dir, "show", "lease.pdf", "--page", "3", "--case", "Show", "-o", str(other))
    assert _marked_rows(other.read_bytes()) == 0

    # The system viewer (xdg-open on Linux) is a stand-in that records what it was asked to open.
    viewer = tmp_path / "bin"
    viewer.mkdir()
    (viewer / "xdg-open").write_text(f'#!/bin/sh\necho "$1" >> "{tmp_path / "opened.txt"}"\n')
    (viewer / "xdg-open").chmod(0o755)
    said = _ok(data_dir, "show", chunk.group(1), "--case", "Show", path=f"{viewer}{os.pathsep}{os.environ['PATH']}")
    [opened] = (tmp_path / "opened.txt").read_text().split()
    assert opened.endswith("casetrack-lease.pdf-p2.png") and opened in said
    assert Path(opened).read_bytes() == out.read_bytes()

    missing = _cli(data_dir, "show", "lease.pdf", "--page", "9", "--case", "Show", "-o", str(tmp_path / "none.png"))
    assert missing.returncode != 0 and "pages 1-3" in missing.stderr and not (tmp_path / "none.png").exists()
