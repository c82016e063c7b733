"""Shortcuts in the scan helpers and finders give exactly what the plain loops and full scans give."""

from __future__ import annotations

import random
import re
import string

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import people as people_module
from casetrack.graph.citations.statutes import LAW_PATTERNS, _windowed
from casetrack.graph.concepts import _CONCEPT_REACH, CONCEPTS, find_concepts
from casetrack.graph.issues import _COUNT, _counts
from casetrack.graph.pagetext import _END, MAX_SENTENCE, _is_end, sentence_bounds
from casetrack.graph.people import _PERSON_REACH, PERSON_PATTERNS, people
from casetrack.graph.scan import (
    CASE_FOLD_EXTRAS,
    digit_runs,
    finditer_in,
    keyword_hits,
    lowered,
    near_keywords,
    windows_at,
)


def _windows_plain(hits: list[tuple[int, int]], length: int, reach: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in hits:
        lo, hi = max(0, s - reach), min(length, e + reach)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return out


def test_windows_at_equals_the_plain_merge() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        length = rng.randint(0, 300)
        hits = sorted((s, s + rng.randint(0, 8)) for s in (rng.randint(0, length) for _ in range(rng.randint(0, 12))))
        hits = [(s, min(e, length)) for s, e in hits]
        reach = rng.choice([0, 1, 5, 40, 400])
        assert windows_at(hits, length, reach) == _windows_plain(hits, length, reach)


@pytest.mark.parametrize(
    "text",
    [
        "COUNT I - BREACH OF CONTRACT\nfacts",
        "Preamble line\n  Count 2: Negligence (against Smith)\nmore\nCLAIM III\nFraud",
        "A Claim arises mid-line.\nCOUNT IV. Conversion",
        "Claims are released.\nNo counts here",
        "COUNT",
        "",
    ],
)
def test_counts_start_at_the_first_count_words_line(text: str) -> None:
    page = ParsedPage(1, text, ExtractionMethod.NATIVE)
    spans = [(i.char_start, i.label) for i in _counts(page)]
    assert len(spans) == sum(1 for _ in _COUNT.finditer(text))


def test_digit_runs_equal_re_digit_runs() -> None:
    rng = random.Random(5)
    alphabet = "0123456789 a.§²¹½٣３߀\ud800\u2019é\u1040"  # ASCII, Latin-1 and other digits, look-alikes, a surrogate
    texts = ["", "7", "a", "12ab3", "x٣٤y"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    for text in texts:
        assert digit_runs(text) == [m.span() for m in re.finditer(r"\d+", text)], repr(text)


def _sentence_start_plain(text: str, start: int) -> int:
    s = max(0, start - MAX_SENTENCE)
    for m in _END.finditer(text, s, min(len(text), start + 2)):
        if m.end() <= start and _is_end(text, m):
            s = m.end()
    return s


def test_sentence_bounds_start_at_the_last_end_before_the_span() -> None:
    rng = random.Random(7)
    words = ["Id.", "v.", "Inc.", "Smith.", "The", "court", "held", "J.", "see", "Fed.", "It", "A.", "\n\n", "?", "2."]
    for _ in range(1500):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 60)))
        start = rng.randint(0, len(text))
        s, _ = sentence_bounds(text, start, start)
        plain = _sentence_start_plain(text, start)
        while plain < start and text[plain].isspace():
            plain += 1
        assert s == plain, (text, start)


def test_case_fold_extras_are_every_character_ignorecase_equates_with_a_letter_lowered_does_not() -> None:
    every = "".join(map(chr, range(0x80, 0x110000)))
    for c in re.findall("[a-z]", every, re.IGNORECASE):
        letter = next(x for x in string.ascii_lowercase if re.fullmatch(x, c, re.IGNORECASE))
        assert lowered(c) == letter or c in CASE_FOLD_EXTRAS, c


def _concepts_plain(text: str) -> list[tuple[str, tuple[int, int]]]:
    low = lowered(text)
    return [
        (c.label, m.span())
        for c in CONCEPTS
        for m in finditer_in(c.pattern, text, windows_at(keyword_hits(low, c.keywords), len(text), _CONCEPT_REACH))
    ]


def test_concepts_tried_at_their_openers_equal_the_window_scan() -> None:
    rng = random.Random(11)
    words = [
        "breach of the contract", "BREACH  OF\nCONTRACT", "negligent misrepresentation", "gross negligence",
        "non-disclosure", "nondisclosure", "confidential information", "right to terminate", "Acts of God",
        "act of god", "attorneys' fees", "attorney’s fees", "hold harmless", "unjustly enriched", "time-barred",
        "subject matter jurisdiction", "theft of trade secrets", "trade secret", "Due Process", "un", "the", ",",
        "ſummary judgment", "conſidential information", "\u0130ntellectual property", "breach",
    ]  # fmt: skip
    for _ in range(600):
        chosen = [rng.choice(words) for _ in range(rng.randint(0, 25))]
        if rng.random() < 0.7:  # most texts without the characters that send find_concepts to the window scan
            chosen = [w for w in chosen if not any(c in w for c in CASE_FOLD_EXTRAS)]
        text = rng.choice([" ", "\n", "x", "-"]).join(chosen)
        got = [(c.label, m.span()) for c, m in find_concepts(text, lowered(text))]
        assert sorted(got) == sorted(_concepts_plain(text)), text


def test_law_patterns_skip_only_windows_without_what_every_match_holds() -> None:
    rng = random.Random(13)
    words = [
        "N.C. Gen. Stat. § 14-306.4", "Cal. Civ. Code § 1542", "Tex. Bus. & Com. Code Ann. § 17.46", "§ 5", "sec.",
        "Mass. Gen. Laws ch. 93A", "N.Y. Gen. Bus. Law § 349(h)", "Stat.", "Code", "Law", "Fla. Stat. §§ 501.201",
        "Rule 29.12(c)", "Fed. R. Civ. P. 12(b)(6)", "the", "Section 5", "Ohio Rev. Code Ann. § 2305.10", ",",
    ]  # fmt: skip
    for _ in range(500):
        text = rng.choice([" ", "\n", "; "]).join(rng.choice(words) for _ in range(rng.randint(0, 20)))
        plain = [
            (lp.name, m.span())
            for lp in LAW_PATTERNS
            for m in near_keywords(lp.regex, lp.keywords, text, lowered(text), 160)
        ]
        got = [(lp.name, m.span()) for lp in LAW_PATTERNS for m in _windowed(lp, text, lowered(text))]
        assert got == plain, text


def test_person_patterns_skip_only_windows_without_what_every_match_holds() -> None:
    rng = random.Random(17)
    words = [
        "Jane Q. Roe, Circuit Judge", "ROE, Judge", "John Smith,\tChief Justice", "Justice Alito delivered",
        "Justice  Kagan  delivered", "Mary Major, Clerk", "Mary Major,  Clerk of Court", "Paul Poe, Esq.",
        "Paul Poe Esq", "judge", "the Clerk", "Judges", ",", "Hon. Amy Berman", "\n", "Justice",
    ]  # fmt: skip
    for _ in range(500):
        text = rng.choice([" ", "\n", "  "]).join(rng.choice(words) for _ in range(rng.randint(0, 20)))
        low = lowered(text)
        for pattern, _, keywords, needs in PERSON_PATTERNS:
            plain = [m.span() for m in near_keywords(pattern, keywords, text, low, _PERSON_REACH)]
            if needs is None:
                continue
            assert all(needs.search(text, s, e) for s, e in plain), (pattern.pattern, text)
        assert [s[:2] for s in people(text, low)] == [s[:2] for s in _people_plain(text, low)], text


def _people_plain(text: str, low: str) -> list[tuple[int, int, str, object]]:
    saved = people_module.PERSON_PATTERNS
    people_module.PERSON_PATTERNS = tuple((p, role, kws, None) for p, role, kws, _ in saved)
    try:
        return list(people(text, low))
    finally:
        people_module.PERSON_PATTERNS = saved
