"""Drafts that quote a set of documents, rightly and wrongly, with the status each quotation must get.

Used by tests/verify (eval-dev) and benchmarks/verify_heldout.py (documents nobody looked at while
building verify_draft). From each document's reference text (`text/<file>.txt`, pages split by form
feeds) it takes sentences that occur once in the whole set, and plants them in a brief-like draft:

  correct        the sentence, cited to its document and page             -> verified
  ellipsis       its start and end with `. . .` between                   -> verified
  bracket        `[t]he ...` (a capital lowered) or a word as `[the X]`  -> verified
  wrong_page     cited to another page of the same document              -> wrong_location
  wrong_document cited to another document                               -> wrong_location
  shall_may      one `shall` made `may`                                  -> differs
  number         one number changed                                       -> differs
  negation       one `not` left out                                       -> differs
  invented       a sentence no document holds                             -> not_found

A change is planted only when the changed words occur nowhere in the set, so the expectation is
certain. Citations take the forms briefs use (`Name, p. 4`, `Name at 4`, the file name, `Supply Agmt.
at 4`); documents without fixed pages (Word, text) are cited by CaseTrack's estimated page when the
caller can say which (`locate`), else without a page.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from casetrack.verify.keys import key_of

MIN_WORDS, MAX_WORDS = 10, 40
INVENTED = (
    "The Supplier shall indemnify the Purchaser against every loss arising from a solar eclipse.",
    "Neither party may assign its rights to any person residing on the planet Mars.",
    "All disputes shall be resolved by a panel of three retired astronauts sitting in Reykjavik.",
    "The Court finds that the appellant's brief was written entirely in invisible ink.",
    "Payment of the annual fee shall be made in gold bullion delivered by carrier pigeon.",
    "The licensee agrees to paint every warehouse purple within ten days of the effective date.",
)


@dataclass(frozen=True, slots=True)
class SourceDoc:
    file: str  # the file's name in the case
    cite_name: str  # how the draft names it
    pages: tuple[str, ...]  # reference text of each page
    paged: bool  # whether its pages are fixed (PDF, image) and cited by number
    scanned: bool = False  # its reference text is the ground truth of a scan, which OCR reads with errors
    estimated: bool = False  # not paged, but cited by CaseTrack's estimated page numbers


@dataclass(frozen=True, slots=True)
class Planted:
    kind: str
    quote: str  # as the draft writes it
    cite: str  # as the draft writes it
    expected: str  # the status it must get
    source: str  # the document it came from
    scanned: bool = False  # from a scan's ground truth, which its OCR may misread: `differs` is right there too

    def right(self, status: str) -> bool:
        """Whether a check's status is the one this quotation must get. A true quotation of a scan's ground truth
        may meet a page the OCR misread ("acquiescence" read "eee"): `differs` is then right, never `verified`."""
        if status == self.expected:
            return True
        return self.scanned and self.expected in ("verified", "wrong_location") and status == "differs"


def sentences(page: str) -> list[str]:
    flat = " ".join(page.split())
    parts = re.split(r"(?<=[a-z0-9)][.;])\s+(?=[A-Z(])", flat)
    return [s for s in parts if MIN_WORDS <= len(s.split()) <= MAX_WORDS and not _UNQUOTABLE.search(s)
            and sum(c.isalpha() for c in s) > 0.6 * len(s)]


# Quotation marks and brackets (a draft's own marks), an ellipsis, and page furniture a reference text runs
# through a sentence ("Page 1 of 2 Appellate Case: 22-1801", a text file's "-5-" between two pages): no
# sentence a brief would quote.
_UNQUOTABLE = re.compile(r"[\"“”\[\]]|\.\s*\.|\bPage:? ?\d|\bCase:|Source:|\bDocument:? \d"
                         r"|(?<!\S)[-\u2013\u2014] ?\d{1,4} ?[-\u2013\u2014](?!\S)")


# A transcript's (or pleading paper's) margin: a row number opening a line, the rows of a page numbered up from 1-3.
_ROW_NUMBER = re.compile(r"[ \t]*(\d{1,2})(?=[ \t]|$)[ \t]*")
MIN_ROWS = 5  # fewer numbered lines in a run are a list's numbers, not a margin's


def as_quoted(page: str) -> str:
    """A page's text as a brief quotes it: without the line numbers printed down its margin ("19 underage
    activities with Jeffrey ever. 20 Q. I'm not asking ..." is quoted "underage activities with Jeffrey ever. Q.
    I'm not asking ..."). A margin is a run of at least MIN_ROWS lines each numbered one up from the last (unnumbered
    lines between them: a filed copy's wrapped lines; a page of the file may begin mid-page, at row 21); its
    numbers are taken out and nothing else.
    Read here, not by CaseTrack's own row reader, so that the expectation does not repeat what is measured."""
    lines = page.split("\n")
    out = list(lines)
    run: list[int] = []  # indices of the numbered lines of the current run
    last = 0  # the number of its last line

    def close() -> None:
        if len(run) >= MIN_ROWS:
            for i in run:
                out[i] = _ROW_NUMBER.sub("", lines[i], count=1)

    for i, line in enumerate(lines):
        row = _ROW_NUMBER.match(line)
        if row is None:
            continue
        number = int(row.group(1))
        if not (run and number == last + 1):
            close()
            run = []
        run.append(i)
        last = number
    close()
    return "\n".join(out)


def load_set(eval_dir: Path, names: dict[str, str] | None = None, skip: Sequence[str] = ()) -> list[SourceDoc]:
    """The documents of an eval-dev-style set (docs/ and text/), each with its reference pages."""
    import json

    manifest = json.loads((eval_dir / "docs" / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest.get("documents", manifest) if isinstance(manifest, dict) else manifest
    scanned = {e.get("file") or e.get("name"): bool(e.get("scanned")) for e in entries if isinstance(e, dict)}
    docs = []
    for text_file in sorted((eval_dir / "text").glob("*.txt")):
        file = text_file.name.removesuffix(".txt")
        if file in skip:
            continue
        text = text_file.read_text(encoding="utf-8")
        paged = Path(file).suffix.lower() in (".pdf", ".png", ".tif", ".tiff", ".jpg")
        pages = tuple(as_quoted(page) for page in (text.split("\f") if paged else [text]))
        docs.append(SourceDoc(file, (names or {}).get(file) or cite_name(file), pages, paged, scanned.get(file, False)))
    return docs


def cite_name(file: str) -> str:
    """A short title for a file, as a brief would call it: its name's first words."""
    stem = Path(file).stem
    words = [w for w in re.sub(r"^(?:cuad|scan)_", "", stem).replace("_", " ").split() if any(c.isalnum() for c in w)]
    return " ".join(w if w[:1].isupper() or w == "v." else w.capitalize() for w in words[:4])


Locate = Callable[[str, str], "int | None"]  # (file, sentence) -> the page CaseTrack shows it on, if known


def plant(docs: Sequence[SourceDoc], seed: int = 7, per_kind: int = 1, locate: Locate | None = None
          ) -> list[Planted]:
    """Quotations of `docs`, per_kind of each kind per document where the document allows it. Documents without
    fixed pages are cited by the page `locate` gives (CaseTrack's estimate, as its search results show it), or
    without a page when there is no `locate`."""
    rng = random.Random(seed)
    whole = b"\n".join(key_of(p) for d in docs for p in d.pages)
    out: list[Planted] = []
    for i, doc in enumerate(docs):
        pool = [(n, s) for n, page in enumerate(doc.pages, start=1) for s in sentences(page)
                if whole.count(key_of(s)) == 1]
        if not doc.paged and locate is not None:
            located = [(locate(doc.file, s), s) for _, s in pool]
            pool = [(n, s) for n, s in located if n is not None]
            doc = replace(doc, estimated=True)
        rng.shuffle(pool)
        other = docs[(i + 1) % len(docs)]
        for _kind, make in _KINDS:
            made = 0
            for page, sentence in list(pool):
                planted = make(doc, other, page, sentence, whole, rng)
                if planted is not None:
                    out.append(replace(planted, scanned=doc.scanned))
                    pool.remove((page, sentence))
                    made += 1
                    if made == per_kind:
                        break
        out.append(Planted("invented", INVENTED[i % len(INVENTED)], _cite(doc, 1), "not_found", doc.file))
    return out


_ABBREVIATED = {"Agreement": "Agmt.", "Deposition": "Dep.", "Complaint": "Compl.", "Declaration": "Decl.",
                "Distributor": "Dist.", "Consulting": "Consulting", "Opinion": "Op."}


def _cite(doc: SourceDoc, page: int, style: int = 0) -> str:
    """A citation of a page of `doc` in one of the forms briefs use: `Name, p. 4`, `Name at 4`, the file name,
    or the name abbreviated (`Supply Agmt. at 4`)."""
    if not doc.paged and not doc.estimated:
        return doc.cite_name
    if style == 1:
        return f"{doc.cite_name} at {page}"
    if style == 2:
        return f"{doc.file}, p. {page}"
    if style == 3:
        return " ".join(_ABBREVIATED.get(w, w) for w in doc.cite_name.split()) + f" at {page}"
    return f"{doc.cite_name}, p. {page}"


def _correct(doc: SourceDoc, other: SourceDoc, page: int, s: str, whole: bytes, rng: random.Random) -> Planted:
    return Planted("correct", s, _cite(doc, page, rng.randrange(4)), "verified", doc.file)


def _ellipsis(doc: SourceDoc, other: SourceDoc, page: int, s: str, whole: bytes, rng: random.Random
              ) -> Planted | None:
    words = s.split()
    if len(words) < 16:
        return None
    mark = rng.choice((" . . . ", " ... ", " \u2026 ", " [. . .] "))
    return Planted("ellipsis", " ".join(words[:5]) + mark + " ".join(words[-6:]), _cite(doc, page, rng.randrange(4)),
                   "verified", doc.file)


def _bracket(doc: SourceDoc, other: SourceDoc, page: int, s: str, whole: bytes, rng: random.Random
             ) -> Planted | None:
    words = s.split()
    if words[0][:1].isupper() and words[0][1:].islower() and words[0].isalpha():
        quote = f"[{words[0][0].lower()}]{words[0][1:]} " + " ".join(words[1:])
    else:
        at = next((i for i in range(2, len(words) - 2) if words[i].isalpha() and words[i][:1].isupper()), None)
        if at is None:
            return None
        quote = " ".join([*words[:at], f"[the {words[at]}]", *words[at + 1:]])
    return Planted("bracket", quote, _cite(doc, page, rng.randrange(4)), "verified", doc.file)


def _wrong_page(doc: SourceDoc, other: SourceDoc, page: int, s: str, whole: bytes, rng: random.Random
                ) -> Planted | None:
    if doc.estimated:  # an estimated page counts a page either side: cite one further away
        wrong = page - 3 if page > 3 else page + 3
    elif not doc.paged or len(doc.pages) < 2:
        return None
    else:
        wrong = page + 1 if page < len(doc.pages) else page - 1
    return Planted("wrong_page", s, _cite(doc, wrong, rng.randrange(4)), "wrong_location", doc.file)


def _wrong_document(doc: SourceDoc, other: SourceDoc, page: int, s: str, whole: bytes, rng: random.Random
                    ) -> Planted | None:
    if other.file == doc.file:
        return None
    return Planted("wrong_document", s, _cite(other, 1, rng.randrange(4)), "wrong_location", doc.file)


def _changed(kind: str, pattern: str, replace: object) -> object:
    def make(doc: SourceDoc, other: SourceDoc, page: int, s: str, whole: bytes, rng: random.Random
             ) -> Planted | None:
        m = re.search(pattern, s)
        if m is None:
            return None
        new = s[:m.start()] + (replace(m) if callable(replace) else str(replace)) + s[m.end():]
        new = " ".join(new.split())
        if new == s or key_of(new) in whole:
            return None
        return Planted(kind, new, _cite(doc, page, rng.randrange(4)), "differs", doc.file)
    return make


def _other_number(m: re.Match[str]) -> str:
    digits = m.group()
    return str(int(digits) + 7) if len(digits) < 4 else digits[:-1] + str((int(digits[-1]) + 3) % 10)


_KINDS = (
    ("correct", _correct),
    ("correct", _correct),
    ("ellipsis", _ellipsis),
    ("bracket", _bracket),
    ("wrong_page", _wrong_page),
    ("wrong_document", _wrong_document),
    ("shall_may", _changed("shall_may", r"\bshall\b", "may")),
    ("number", _changed("number", r"(?<![\d.,])\d{1,4}(?![\d.,]\d)", _other_number)),
    ("negation", _changed("negation", r"\bnot\s+", "")),
)


def draft_text(planted: Sequence[Planted], seed: int = 7) -> str:
    """A brief-like text quoting each planted quotation in one of the ways briefs do."""
    rng = random.Random(seed)
    paragraphs = ["MEMORANDUM IN SUPPORT OF MOTION", "The record establishes the following."]
    for n, p in enumerate(planted):
        style = rng.randrange(4) if len(p.quote.split()) < 30 else 4
        if style == 0:
            paragraphs.append(f'The record provides that "{p.quote}" ({p.cite}).')
        elif style == 1:
            paragraphs.append(f"As it states, \u201c{p.quote}\u201d {p.cite}.")
        elif style == 2:
            paragraphs.append(f'Point {n + 1}. "{p.quote}," {p.cite}, which matters here.')
        elif style == 3:
            paragraphs.append(f"It is undisputed that \u201c{p.quote}.\u201d See {p.cite}.")
        else:
            paragraphs += ["The text reads:", "    " + p.quote, f"{p.cite}."]
    return "\n\n".join(paragraphs) + "\n"
