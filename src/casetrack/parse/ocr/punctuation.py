"""Periods Tesseract reads where a scan has a space: "the 19 day.of March", "within.20 days".

A speck or a low-contrast gap between two words is read as a period with no space around it,
and a quote copied from CaseTrack into a brief would carry it. A period between two words is
mended only where no writing puts one: after a word of two or more letters (or a number) and
before a word of two or more small letters (or a number). What stays as read: abbreviations of
single letters ("U.S.", "e.g.", "p.12"), numbers on both sides ("1.5", "§ 2.1", "10.25"), web
and e-mail addresses and file names ("www.ca10.uscourts.gov", "Agreement.pdf"). After a known
abbreviation ("No.20", "Inc.and") the period is real and only the space is missing; before a
capitalised word ("Agreement.The") the sentence ended and only the space is missing.
"""

from __future__ import annotations

import re

# A word ends in a period only in these abbreviations (lower-cased), common in legal text.
ABBREVIATIONS = frozenset({
    "al", "approx", "art", "arts", "assn", "ch", "cir", "cl", "co", "corp", "dept", "dist", "dr", "esq", "etc",
    "ex", "id", "inc", "jr", "ltd", "mr", "mrs", "ms", "no", "nos", "para", "paras", "pp", "reg", "regs", "sec",
    "secs", "seq", "sr", "st", "stat", "subd", "supp", "vol", "vs",
})
# A token that is an address or a file name keeps every period.
_ADDRESS = re.compile(
    r"@|://|^www\.|\.(?:com|org|net|gov|edu|int|mil|io|us|uk|ca|au|de|info|biz|law|pdf|docx?|txt|rtf|html?|"
    r"xlsx?|pptx?|msg|eml|jpe?g|png|tiff?|zip)\b", re.IGNORECASE)
_JOINED = re.compile(r"(?P<left>[A-Za-z]+|\d+)\.(?P<right>[a-z]{2,}|\d+|[A-Z][a-z]+)(?=[^\w]|$)")


def mend(word: str) -> str:
    """`word` as Tesseract read it, with a period it put where the scan has a space mended."""
    if "." not in word or _ADDRESS.search(word):
        return word
    return _JOINED.sub(_mended, word)


def _mended(match: re.Match[str]) -> str:
    left, right = match.group("left"), match.group("right")
    whole = match.group()
    if left.isdigit() and right.isdigit():
        return whole  # a decimal or a section number
    if left.isalpha() and len(left) < 2:
        return whole  # an abbreviation of single letters: "U.S", "e.g", "p.12"
    if left.lower() in ABBREVIATIONS or right[0].isupper():
        return f"{left}. {right}"  # the period is real; the space after it is what is missing
    if left.isalpha() and not left[-2:].islower():
        return whole  # "USA.gov"-like capitals: not a word of running text
    return f"{left} {right}"
