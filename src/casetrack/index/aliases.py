"""One written form for things legal text writes many ways, applied to documents and queries alike.

`tokenize` (index.tokenize) runs these after its own rules, so a passage and a question that write the
same reference differently still share a BM25 term:

  dashes      an en dash, minus sign or non-breaking hyphen is a hyphen ("No. 21–1234" is "21-1234"); an
              em dash is a space (it separates words); curly quotes are straight
  dockets     "8:23-cr-00025-VMC", "8:23-cr-25" and "1:20CV457" also give the number without its leading
              zeros and with the type set off by hyphens: "23-cr-25", "8:23-cr-25", "20-cv-457"
  dates       "March 10, 2022", "10 March 2022", "Mar. 10, 2022", "3/10/2022" and "2022-03-10" also give
              "2022-03-10"
  amounts     "$1.5 million" also gives "$1500000" and "1500000", as "$1,500,000" does
  Bates       "ABC 000123" and "ABC-000123" also give "abc000123" (a prefix of letters, then 5+ digits)
  case names  an abbreviation of the Bluebook's case-name list, as eyecite's reporters_db holds it ("Mfg.",
              "Serv.", "Ass'n", "Dep't"), also gives the words it stands for ("manufacturing", "service")

Reporter citations, statutes, regulations and rules are folded by what they cite, not how they are spelled:
see index.references. Pure; each alias is an extra term, never a replacement, so every term an earlier
version produced is still produced.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache

import reporters_db

# Written as hyphens: the dashes that join numbers and words. An em dash or a horizontal bar separates
# words ("Texas—one on Saratoga Drive"), so it becomes a space.
DASH_FOLD = str.maketrans({
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-", "\ufe63": "-", "\uff0d": "-",
    "\u2014": " ", "\u2015": " ",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
})

_MONTHS: Mapping[str, int] = {
    name: number
    for number, names in enumerate((
        ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
        ("july", "jul"), ("august", "aug"), ("september", "sept", "sep"), ("october", "oct"),
        ("november", "nov"), ("december", "dec")), start=1)
    for name in names
}
_SCALES: Mapping[str, int] = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD_TRIGGERS = frozenset(_MONTHS) | frozenset(_SCALES)  # made once, not per call
_DOCKET = re.compile(r"(?:(?P<office>\d{1,2}):)?(?P<year>\d{2})-?(?P<type>[a-z]{1,5})-?(?P<number>\d{1,6})")
_SLASH_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})")
_BATES_WORD = re.compile(r"([a-z]{2,8})-(\d{5,10})")


_FOLDS = tuple((c, str(r)) for c, r in ((chr(k), v) for k, v in DASH_FOLD.items()))


def fold(text: str) -> str:
    """`text` with dashes and quotes written one way (see DASH_FOLD); the same length. One `in` per folded
    character (a C scan) and a replace only for those present: `str.translate` with a table costs ~20 ns a
    character, which on a long document is more than the whole tokenizer."""
    for char, replacement in _FOLDS:
        if char in text:
            text = text.replace(char, replacement)
    return text


def docket_aliases(raw: str) -> Iterator[str]:
    """Canonical forms of a docket number ("8:23-cr-00025-vmc", "1:20cv457", "19-cv-01234"): without leading
    zeros and judge initials, with and without the office number. Without an office number the type must be
    set off by hyphens, so "10b-5" (a rule) is no docket."""
    m = _DOCKET.match(raw)
    if m is None or (m.end() < len(raw) and raw[m.end()] != "-"):
        return
    if not m["office"] and not (raw[m.start("type") - 1] == "-" and raw[m.end("type")] == "-"):
        return
    core = f"{m['year']}-{m['type']}-{int(m['number'])}"
    yield core
    if m["office"]:
        yield f"{int(m['office'])}:{core}"


def date_alias(year: int, month: int, day: int) -> str | None:
    if not (1 <= month <= 12 and 1 <= day <= 31 and 1000 <= year <= 2999):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def slash_date_alias(raw: str) -> str | None:
    """"3/10/2022" -> "2022-03-10" (US order; a two-digit year below 50 is 20xx)."""
    m = _SLASH_DATE.fullmatch(raw)
    if m is None:
        return None
    year = int(m[3])
    if len(m[3]) == 2:
        year += 2000 if year < 50 else 1900
    return date_alias(year, int(m[1]), int(m[2]))


def bates_word_alias(raw: str) -> str | None:
    """"abc-000123" -> "abc000123"."""
    m = _BATES_WORD.fullmatch(raw)
    return m[1] + m[2] if m else None


def with_aliases(terms: list[str]) -> list[str]:
    """`terms` with the aliases that take more than one term to see (dates, amounts with a scale, Bates
    numbers split by a space) inserted after the terms they come from. Most texts hold few of the terms that
    start one: one set of the terms says which, and only their positions are looked at."""
    if len(terms) < 2:
        return terms
    present = set(terms)
    triggers = set(_WORD_TRIGGERS.intersection(present))
    # `filter(str.isdigit)` tests every distinct term in C; only the few numbers reach the length test.
    triggers.update(t for t in filter(str.isdigit, present) if len(t) >= 5)
    if not triggers:
        return terms
    inserts: dict[int, list[str]] = {}
    n = len(terms)
    for i in [i for i, t in enumerate(terms) if t in triggers]:
        term = terms[i]
        if term in _MONTHS:
            alias = _month_first(_MONTHS[term], *terms[i + 1:i + 3]) if i + 2 < n else None
            if alias:
                inserts.setdefault(i, []).append(alias)
            if i >= 1 and i + 1 < n:  # "10 March 2022"
                day, year = terms[i - 1], terms[i + 1]
                if day.isdigit() and len(day) <= 2 and year.isdigit() and len(year) == 4:
                    alias = date_alias(int(year), _MONTHS[term], int(day))
                    if alias:
                        inserts.setdefault(i - 1, []).append(alias)
        elif term in _SCALES:
            if i >= 2 and terms[i - 2].startswith("$"):  # "$1.5 million": "$1.5", "1.5", "million"
                scaled = _scaled(terms[i - 2][1:], _SCALES[term])
                if scaled:
                    inserts.setdefault(i - 2, []).extend(("$" + scaled, scaled))
        elif i >= 1 and 2 <= len(terms[i - 1]) <= 8 and terms[i - 1].isalpha():  # "abc 000123"
            inserts.setdefault(i - 1, []).append(terms[i - 1] + term)
    if not inserts:
        return terms
    out: list[str] = []
    for i, term in enumerate(terms):
        out.append(term)
        out += inserts.get(i, ())
    return out


def _month_first(month: int, day: str = "", year: str = "") -> str | None:
    if day.isdigit() and len(day) <= 2 and year.isdigit() and len(year) == 4:
        return date_alias(int(year), month, int(day))
    return None


def _scaled(amount: str, scale: int) -> str | None:
    try:
        value = round(float(amount) * scale)
    except ValueError:
        return None
    return str(value) if value > 0 else None


# Abbreviations on that list that are also everyday English words: "all." ending a sentence is not about
# an alliance, nor "found." about a foundation.
_ENGLISH_TEXT = """
all am auto broad bus cent coal comp def det dig disc enter equal exp fin found gen imp lab mar nat no op
par pres prob prod prop pub ref rest sec sol st sur temp us"""
_ENGLISH_WORDS = frozenset(_ENGLISH_TEXT.split())


@lru_cache(maxsize=1)
def case_name_expansions() -> Mapping[str, tuple[str, ...]]:
    """Abbreviation (lowercased, without its dot or apostrophe) -> the lowercased words it stands for, from
    the Bluebook case-name list in eyecite's reporters_db ("mfg" -> ("manufacturing",))."""
    out: dict[str, tuple[str, ...]] = {}
    for abbreviation, words in reporters_db.CASE_NAME_ABBREVIATIONS.items():
        key = re.sub(r"[.'’]", "", abbreviation).lower()
        expansions = tuple(dict.fromkeys(w.lower() for w in words if w.isalpha()))
        if key.isalpha() and len(key) > 1 and key not in _ENGLISH_WORDS and expansions:
            out[key] = expansions
    return out
