"""Tesseract OCR, isolated: availability, one page image -> text with lines and paragraphs,
and many pages in parallel with a hard time limit on every call.

Tesseract is run as a subprocess directly rather than through pytesseract because the
environment matters: with OpenMP's default thread count, concurrent Tesseract processes
oversubscribe the CPU (a 1-page scan took 25 s instead of 3 s here, and some calls stalled
for minutes). Each process is therefore pinned to one thread with OMP_THREAD_LIMIT=1 and
parallelism comes from running `ocr_workers` processes at once; pytesseract cannot set a
child's environment without mutating os.environ for the whole server.
"""

from __future__ import annotations

import functools
import math
import shutil
import struct
import subprocess
import sys
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import median

from PIL import Image, ImageOps

from casetrack import telemetry_off
from casetrack.domain import ExtractionMethod, PageWords
from casetrack.parse.ocr import margin as ocr_margin
from casetrack.parse.ocr.deskew import straightened
from casetrack.parse.ocr.margin import OcrWord, ocr_words
from casetrack.parse.options import ParseOptions
from casetrack.parse.scratch import scratch_folder

INSTALL_TESSERACT = (
    "Install Tesseract: apt install tesseract-ocr / brew install tesseract / winget install UB-Mannheim.TesseractOCR"
)
_PROBE_TIMEOUT_S = 15.0
_ATTEMPTS = 2  # a timed-out call is retried once: the stalls seen in practice did not repeat
# Tesseract's page segmentation "fully automatic, no OSD": finds columns and blocks itself.
_PAGE_SEGMENTATION = "3"
# Clean upright scans read at 85-97 mean word confidence; a page fed in sideways or upside
# down reads as garbage at 30-45. Only below this is the orientation checked (one more
# Tesseract call, --psm 0), so good pages cost nothing extra.
REORIENT_BELOW_CONFIDENCE = 60.0
# A page image is held several times over on its way to Tesseract (the renderer's bitmap, Pillow's copy, the
# contrast-stretched copy, the PNG), and Tesseract holds more: one 200 x 200-inch PDF page rendered at 200 dpi
# (1.6 billion pixels) took 4.7 GB in CaseTrack and 7.8 GB with Tesseract. Above this many pixels a page is read at
# the resolution that fits: a letter page keeps 300 dpi, an 11 x 17-inch page 200 dpi, a 24 x 36-inch trial
# exhibit 152 dpi.
MAX_PAGE_PIXELS = 20_000_000
# Tesseract refuses an image wider or taller than 32,767 pixels (it keeps coordinates in 16 bits).
MAX_PAGE_SIDE = 32_000


@dataclass(frozen=True, slots=True)
class OcrStatus:
    """Whether OCR can run, for get_status and for deciding to skip scanned pages."""

    available: bool
    version: str | None
    languages: tuple[str, ...]
    detail: str  # one sentence for a user: the version in use, or why OCR is off and how to fix it


@dataclass(frozen=True, slots=True)
class PageImage:
    image: Image.Image
    dpi: int | None  # resolution the image was scanned/rendered at, when known


@dataclass(frozen=True, slots=True)
class OcrResult:
    text: str
    method: ExtractionMethod  # OCR, or SKIPPED when Tesseract could not read the page
    confidence: float | None = None  # mean word confidence, 0-100
    warnings: tuple[str, ...] = ()
    words: PageWords | None = None  # where the words are on the page, to mark a passage on it later


def fitting_dpi(width_inches: float, height_inches: float, dpi: float) -> float:
    """The highest resolution, up to `dpi`, at which a page of this size stays within MAX_PAGE_PIXELS and
    MAX_PAGE_SIDE (any positive number: a hostile page may be miles wide)."""
    width, height = max(width_inches, 1e-3), max(height_inches, 1e-3)
    fit = min(float(dpi), math.sqrt(MAX_PAGE_PIXELS / (width * height)), MAX_PAGE_SIDE / max(width, height))
    for _ in range(100):  # a renderer rounds each side up to whole pixels: step down until that fits too
        if math.ceil(width * fit) * math.ceil(height * fit) <= MAX_PAGE_PIXELS:
            break
        fit *= 0.999
    return fit


def ocr_status(options: ParseOptions | None = None) -> OcrStatus:
    """Probe Tesseract (cached per command): version, installed languages, and whether the
    configured OCR language is among them."""
    options = options or ParseOptions()
    status = _probe(_tesseract_command(options))
    if not status.available:
        return status
    missing = [code for code in options.ocr_language.split("+") if code not in status.languages]
    if missing:
        packages = " ".join(f"tesseract-ocr-{code}" for code in missing)
        return OcrStatus(
            available=False,
            version=status.version,
            languages=status.languages,
            detail=(
                f"Tesseract {status.version} has no language data for {', '.join(missing)}. "
                f"Install it (apt install {packages} / brew install tesseract-lang) or set the OCR language to one of: "
                f"{', '.join(status.languages)}"
            ),
        )
    return status


def ocr_available(options: ParseOptions | None = None) -> bool:
    return ocr_status(options).available


def _tesseract_command(options: ParseOptions) -> str:
    return options.tesseract_cmd or shutil.which("tesseract") or "tesseract"


@functools.lru_cache(maxsize=8)
def _probe(command: str) -> OcrStatus:
    try:
        version_run = _run([command, "--version"], _PROBE_TIMEOUT_S)
        languages_run = _run([command, "--list-langs"], _PROBE_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        return OcrStatus(
            False, None, (), f"Tesseract not found ({command}: {exc.__class__.__name__}). {INSTALL_TESSERACT}"
        )
    version_lines = (version_run.stdout + version_run.stderr).decode(errors="replace").split()
    version = version_lines[1] if len(version_lines) > 1 and version_lines[0] == "tesseract" else None
    if version_run.returncode != 0 or version is None:
        return OcrStatus(False, None, (), f"{command} --version failed, so Tesseract looks broken. {INSTALL_TESSERACT}")
    listing = languages_run.stdout.decode(errors="replace").splitlines()
    languages = tuple(line.strip() for line in listing[1:] if line.strip())  # first line is a heading
    return OcrStatus(True, version, languages, f"Tesseract {version} (languages: {', '.join(languages) or 'none'})")


def _run(argv: list[str], timeout: float) -> subprocess.CompletedProcess[bytes]:
    environment = {**telemetry_off.child_environment(), "OMP_THREAD_LIMIT": "1"}
    return subprocess.run([*_dying_with_parent(), *argv], capture_output=True, timeout=timeout, env=environment,
                          check=False)


@functools.cache
def _dying_with_parent() -> tuple[str, ...]:
    """The prefix that makes a Tesseract process die with the process that started it: a server killed mid-OCR
    (a forced quit, the out-of-memory killer) otherwise leaves it reading a client's page for nobody. util-linux's
    `setpriv --pdeathsig` asks the kernel (Linux only; subprocess's preexec_fn is unsafe beside OCR's threads);
    where it is missing or refuses, Tesseract runs as it is."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or not sys.platform.startswith("linux"):
        return ()
    prefix = (setpriv, "--pdeathsig", "KILL", "--")
    try:
        works = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        works = False
    return prefix if works else ()


def skipped(reason: str) -> OcrResult:
    return OcrResult(text="", method=ExtractionMethod.SKIPPED, warnings=(reason,))


def recognize_all(images: Iterable[PageImage], options: ParseOptions) -> list[OcrResult]:
    """OCR page images in order with `ocr_workers` Tesseract processes.

    Images are pulled from `images` only as workers free up (at most two per worker wait in
    memory), so a 500-page scan never holds 500 rendered pages. The caller must have checked
    `ocr_status` first; a page that fails or times out twice comes back SKIPPED with a warning."""
    command = _tesseract_command(options)
    results: list[OcrResult] = []
    with (
        scratch_folder(options, "ocr") as scratch,
        ThreadPoolExecutor(max_workers=options.ocr_workers, thread_name_prefix="casetrack-ocr") as pool,
    ):
        pending: deque[Future[OcrResult]] = deque()
        for index, page in enumerate(images):
            image_path = Path(scratch) / f"page-{index}.png"
            pending.append(pool.submit(_recognize_file, page, image_path, command, options))
            while len(pending) >= 2 * options.ocr_workers:
                results.append(pending.popleft().result())
        results.extend(future.result() for future in pending)
    return results


def _recognize_file(page: PageImage, image_path: Path, command: str, options: ParseOptions) -> OcrResult:
    prepared, skew = straightened(prepare_image(page.image))
    dpi = page.dpi or 0
    result = _recognize(prepared, dpi, image_path, command, options)
    if result.confidence is not None and result.confidence < REORIENT_BELOW_CONFIDENCE:
        rotation = _orientation(prepared, image_path, command, options)
        if rotation:
            turned = _recognize(prepared.rotate(-rotation, expand=True), dpi, image_path, command, options)
            if (turned.confidence or 0.0) > result.confidence:
                note = f"The page was scanned turned {rotation}\u00b0 from upright; it was turned upright for OCR."
                result = replace(turned, warnings=(*turned.warnings, note),
                                 words=turned.words and replace(turned.words, turn=rotation))
    if result.words is not None and skew:
        result = replace(result, words=replace(result.words, skew=skew))
    if result.method is ExtractionMethod.OCR and not result.text:
        width, height = page.image.size
        note = (
            f"OCR found no text on this page ({width}x{height} pixels{f' at {dpi} dpi' if dpi else ''}): it is "
            "blank, or too small or faint to read. If it has text, re-scan it at 300 dpi."
        )
        result = replace(result, warnings=(*result.warnings, note))
    return result


def _orientation(image: Image.Image, image_path: Path, command: str, options: ParseOptions) -> int:
    """Degrees (90, 180, 270) to turn the page clockwise to make it upright, by Tesseract's
    orientation detection; 0 when upright, undecidable, or the osd data is not installed."""
    image.save(image_path, format="PNG", compress_level=1)
    try:
        completed = _run([command, str(image_path), "stdout", "--psm", "0"], options.ocr_timeout_s)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    finally:
        image_path.unlink(missing_ok=True)
    for line in completed.stdout.decode(errors="replace").splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "Rotate" and value.strip() in ("90", "180", "270"):
            return int(value)
    return 0


def _recognize(prepared: Image.Image, dpi: int, image_path: Path, command: str, options: ParseOptions) -> OcrResult:
    # PNG at the lowest compression: Tesseract reads it back at once, so speed beats size.
    prepared.save(image_path, format="PNG", compress_level=1, dpi=(dpi, dpi) if dpi else None)
    argv = [command, str(image_path), "stdout", "-l", options.ocr_language, "--psm", _PAGE_SEGMENTATION]
    if dpi:
        argv += ["--dpi", str(dpi)]
    argv.append("tsv")
    try:
        completed = _run_with_retry(argv, options.ocr_timeout_s)
    except subprocess.TimeoutExpired:
        return skipped(
            f"OCR timed out twice (limit {options.ocr_timeout_s:g} s per try); the page was recorded without text. "
            "Re-ingest later or raise the OCR time limit."
        )
    except OSError as exc:
        return skipped(f"Tesseract could not be started ({exc}). {INSTALL_TESSERACT}")
    finally:
        image_path.unlink(missing_ok=True)
    if completed.returncode != 0:
        error = completed.stderr.decode(errors="replace").strip().splitlines()
        return skipped(
            f"Tesseract failed on this page ({error[-1] if error else f'exit code {completed.returncode}'}); "
            "the page was recorded without text. Check the scan opens in an image viewer, then re-ingest."
        )
    words = list(ocr_words(completed.stdout.decode("utf-8", errors="replace")))
    numbered = _numbered_margin(prepared, words, dpi, image_path, command, options)
    return OcrResult(text=numbered or text_of(words), method=ExtractionMethod.OCR, confidence=mean_confidence(words),
                     words=kept_words(words, prepared.size))


def kept_words(words: list[OcrWord], size: tuple[int, int]) -> PageWords | None:
    """The words and their boxes on a picture of `size` pixels, as ingest keeps them (8 bytes a word's box:
    ~3 KB a page of 400 words); None when a box does not fit 16 bits (Tesseract reads pictures up to 32,767
    pixels a side, so only a hostile TSV)."""
    boxes = [value for w in words for value in (w.left, w.top, w.width, w.height)]
    if not all(0 <= value <= 0xFFFF for value in (*boxes, *size)):
        return None
    return PageWords(width=size[0], height=size[1], skew=0.0, turn=0, words="\n".join(w.text for w in words),
                     boxes=struct.pack(f"<{len(boxes)}H", *boxes))


def page_words(prepared: Image.Image, dpi: int, options: ParseOptions) -> list[OcrWord]:
    """Tesseract's words with their pixel boxes on one page image already prepared and straightened
    (`prepare_image`, `deskew.straightened`), read as an ingest reads it: for drawing where a passage is
    on a scan. Raises OSError or subprocess.TimeoutExpired when Tesseract cannot read it."""
    with scratch_folder(options, "ocr") as scratch:
        image_path = Path(scratch) / "page.png"
        prepared.save(image_path, format="PNG", compress_level=1, dpi=(dpi, dpi) if dpi else None)
        argv = [_tesseract_command(options), str(image_path), "stdout", "-l", options.ocr_language,
                "--psm", _PAGE_SEGMENTATION, *(["--dpi", str(dpi)] if dpi else []), "tsv"]
        completed = _run_with_retry(argv, options.ocr_timeout_s)
    if completed.returncode != 0:
        raise OSError(completed.stderr.decode(errors="replace").strip() or f"exit code {completed.returncode}")
    return list(ocr_words(completed.stdout.decode("utf-8", errors="replace")))


def _numbered_margin(prepared: Image.Image, words: list[OcrWord], dpi: int, image_path: Path, command: str,
                     options: ParseOptions) -> str | None:
    """The page's text with its printed line numbers (see parse.ocr_margin), or None when it prints none.
    The pixel check costs a few milliseconds; only a strip that looks numbered is read again."""
    edge = ocr_margin.strip_right(words, prepared.width)
    if edge is None or not words:
        return None
    strip = prepared.crop((0, 0, edge, prepared.height))
    if not ocr_margin.has_marked_rows(strip, median(w.height for w in words)):
        return None
    ocr_margin.blank_rules(strip).save(image_path, format="PNG", compress_level=1, dpi=(dpi, dpi) if dpi else None)
    argv = [command, str(image_path), "stdout", "--psm", ocr_margin.STRIP_SEGMENTATION, *ocr_margin.DIGITS_ONLY]
    try:
        completed = _run([*argv, *(["--dpi", str(dpi)] if dpi else []), "tsv"], options.ocr_timeout_s)
    except (OSError, subprocess.TimeoutExpired):
        return None  # the page keeps Tesseract's own reading; its lines are counted
    finally:
        image_path.unlink(missing_ok=True)
    rows = ocr_margin.margin_rows(ocr_margin.ocr_words(completed.stdout.decode("utf-8", errors="replace")))
    return ocr_margin.numbered_text(words, rows, edge) if rows is not None else None


def _run_with_retry(argv: list[str], timeout: float) -> subprocess.CompletedProcess[bytes]:
    for attempt in range(1, _ATTEMPTS + 1):
        try:
            return _run(argv, timeout)  # subprocess.run kills the child when the timeout expires
        except subprocess.TimeoutExpired:
            if attempt == _ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def prepare_image(image: Image.Image) -> Image.Image:
    """Grayscale with a gentle contrast stretch: measured on the dev scans it kept or slightly
    raised word recall, whereas 2x upscaling and median denoising each cost words on some scans."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        background = Image.new("RGB", image.size, "white")  # transparent areas would otherwise turn black
        background.paste(image.convert("RGBA"), mask=image.convert("RGBA").getchannel("A"))
        image = background
    return ImageOps.autocontrast(image.convert("L"), cutoff=1)


def text_from_tsv(tsv: str) -> tuple[str, float | None]:
    """Rebuild page text from Tesseract's TSV: words joined by spaces within a line, lines by
    "\\n", and paragraphs (Tesseract's block/paragraph numbers) by a blank line. Returns the
    text and the mean confidence of the recognised words (None when there are none)."""
    words = list(ocr_words(tsv))
    return text_of(words), mean_confidence(words)


def text_of(words: Iterable[OcrWord]) -> str:
    paragraphs: list[list[list[str]]] = []
    current_paragraph: tuple[str, str] | None = None
    current_line: tuple[str, str, str] | None = None
    for word in words:
        if word.line[:2] != current_paragraph:
            paragraphs.append([])
            current_paragraph, current_line = word.line[:2], None
        if word.line != current_line:
            paragraphs[-1].append([])
            current_line = word.line
        paragraphs[-1][-1].append(word.text)
    return "\n\n".join("\n".join(" ".join(words) for words in lines) for lines in paragraphs)


def mean_confidence(words: Iterable[OcrWord]) -> float | None:
    confidences = [w.confidence for w in words if w.confidence >= 0]
    return round(sum(confidences) / len(confidences), 2) if confidences else None
