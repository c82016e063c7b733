"""Peak memory of `casetrack ingest`, as a user's machine sees it.

    uv run python benchmarks/ingest_memory.py                      # every row
    uv run python benchmarks/ingest_memory.py --only giant scan    # some rows (giant, text, scan)
    uv run python benchmarks/ingest_memory.py --text-pages 500 1500 3000

Each row builds its PDF, creates a fresh data directory with one case (not measured), then runs
`python -m casetrack --data-dir ... ingest FILE --case Bench` as a child process and measures:
  * peak RSS of the casetrack process itself (the kernel's own high-water mark, from wait4);
  * peak RSS of its whole process tree (casetrack + the helper process + Tesseract), sampled
    every 20 ms with psutil: what an 8 GB laptop has to hold at once.
Rows:
  giant page   one 200 x 200-inch page of vector shapes, no text (~11 KB): read by OCR
  text PDF     the eval-dev native PDFs concatenated to N pages (real legal text), embedded with
               every embedder installed (the bundled E7 at least)
  scan         100 pages rendered at 200 dpi from the same text, as pictures only: all OCR
The baseline row is `casetrack --version` in the same run: the interpreter alone.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pypdfium2 as pdfium
from PIL import Image
from pypdf import PdfReader, PdfWriter

ROOT = Path(__file__).resolve().parents[1]
EVAL_DOCS = ROOT / "benchmarks" / "eval_dev" / "docs"
NATIVE = ["cuad_ebix_cobranding_agreement.pdf", "cuad_netgear_distributor_agreement.pdf",
          "cuad_lucid_distributor_agreement.pdf", "ca8_rule_28j_letter_us_v_xiang_2023.pdf",
          "ca2_docketing_notice_nfl_2017.pdf"]
SAMPLE_S = 0.02


def _badfiles():  # type: ignore[no-untyped-def]
    """tests/badfiles.py (its PDF writer), loaded by path: `tests` is not an installed package."""
    spec = importlib.util.spec_from_file_location("badfiles", ROOT / "tests" / "badfiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["badfiles"] = module
    spec.loader.exec_module(module)
    return module


def build_text_pdf(target: Path, pages: int) -> None:
    writer = PdfWriter()
    sources = [PdfReader(EVAL_DOCS / name) for name in NATIVE]
    while len(writer.pages) < pages:
        for reader in sources:
            for page in reader.pages:
                if len(writer.pages) < pages:
                    writer.add_page(page)
    with target.open("wb") as handle:
        writer.write(handle)


def build_scan_pdf(target: Path, pages: int, dpi: int = 200) -> None:
    """`pages` pictures of text pages (JPEG, as a scanner stores them), no text layer."""
    source = pdfium.PdfDocument(EVAL_DOCS / NATIVE[0])

    def images() -> Iterator[Image.Image]:
        for n in range(pages):
            page = source[n % len(source)]
            image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            page.close()
            buffer = io.BytesIO()
            image.save(buffer, format="JPEG", quality=80)
            yield Image.open(io.BytesIO(buffer.getvalue()))

    first, *rest = list(images())
    first.save(target, format="PDF", save_all=True, append_images=rest, resolution=dpi)
    source.close()


@dataclass(frozen=True)
class Measured:
    seconds: float
    own_peak_mb: float
    tree_peak_mb: float
    output: str


def measure(argv: list[str], env: dict[str, str]) -> Measured:
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    tree_peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal tree_peak
        root = psutil.Process(process.pid)
        while not done.is_set():
            try:
                members = [root, *root.children(recursive=True)]
                total = 0
                for member in members:
                    with contextlib.suppress(psutil.Error):  # it ended between listing and reading
                        total += member.memory_info().rss
                tree_peak = max(tree_peak, total)
            except psutil.Error:
                return
            time.sleep(SAMPLE_S)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stdout is not None
    output = process.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    sampler.join()
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{output}")
    return Measured(seconds, usage.ru_maxrss / 1024, tree_peak / 2**20, output)


def casetrack(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "casetrack", "--data-dir", str(data_dir), *args]


def ingest_row(folder: Path, pdf: Path, env: dict[str, str]) -> Measured:
    data_dir = folder / f"data-{pdf.stem}"
    subprocess.run(casetrack(data_dir, "cases", "create", "Bench"), env=env, check=True, capture_output=True)
    return measure(casetrack(data_dir, "ingest", str(pdf), "--case", "Bench"), env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=["giant", "text", "scan"], default=["giant", "text", "scan"])
    parser.add_argument("--text-pages", nargs="*", type=int, default=[500, 1500, 3000])
    parser.add_argument("--scan-pages", type=int, default=100)
    parser.add_argument("-v", "--verbose", action="store_true", help="print each ingest's own output")
    args = parser.parse_args()
    env = {**os.environ, "CASETRACK_LOG": "warn"}
    rows: list[tuple[str, Measured]] = []
    with tempfile.TemporaryDirectory(prefix="casetrack-memory-bench-") as tmp:
        folder = Path(tmp)
        rows.append(("baseline: casetrack --version", measure(casetrack(folder / "none", "--version"), env)))
        if "giant" in args.only:
            pdf = folder / "giant-page.pdf"
            pdf.write_bytes(_badfiles().giant_page_pdf_bytes())
            label = f"giant page (200 x 200 in, {pdf.stat().st_size / 1024:.0f} KB)"
            rows.append((label, ingest_row(folder, pdf, env)))
        if "text" in args.only:
            for pages in args.text_pages:
                pdf = folder / f"text-{pages}.pdf"
                build_text_pdf(pdf, pages)
                rows.append((f"text PDF, {pages:,} pages", ingest_row(folder, pdf, env)))
        if "scan" in args.only:
            pdf = folder / f"scan-{args.scan_pages}.pdf"
            build_scan_pdf(pdf, args.scan_pages)
            rows.append((f"scan, {args.scan_pages} pages (200 dpi)", ingest_row(folder, pdf, env)))
    print(f"{platform.node()}: {psutil.cpu_count()} CPU, {psutil.virtual_memory().total / 2**30:.0f} GiB, "
          f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"{'row':<44}{'casetrack MB':>13}{'tree MB':>10}{'seconds':>9}")
    for label, measured in rows:
        print(f"{label:<44}{measured.own_peak_mb:>13,.0f}{measured.tree_peak_mb:>10,.0f}{measured.seconds:>9.1f}")
        if args.verbose:
            print("    " + measured.output.strip().replace("\n", "\n    "))


if __name__ == "__main__":
    main()
