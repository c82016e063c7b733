"""Name normalisation: one key per organisation or person, however it is written.

`SMITH CORP.`, `Smith Corp` and `Smith Corporation` share a key (case, punctuation and
corporate-suffix spelling are ignored); `John Smith` and `Jane Smith` never do, and
neither do `Smith Corp.` and `Smith Inc.` (a different suffix is a different company).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

# Spelling of a corporate-form word -> its canonical token. Matched on the name with
# punctuation removed and lower-cased, so "L.L.C." arrives as "llc", "Inc." as "inc".
CORPORATE_SUFFIXES: dict[str, str] = {
    "inc": "inc",
    "incorporated": "inc",
    "corp": "corp",
    "corporation": "corp",
    "co": "co",
    "company": "co",
    "llc": "llc",
    "ltd": "ltd",
    "limited": "ltd",
    "llp": "llp",
    "lp": "lp",
    "plc": "plc",
    "gmbh": "gmbh",
    "ag": "ag",
    "sa": "sa",
    "nv": "nv",
    "bv": "bv",
    "pc": "pc",
}
HONORIFICS = frozenset(
    ["mr", "mrs", "ms", "miss", "dr", "hon", "honorable", "the", "judge", "justice", "chief", "esq", "esquire", "prof"]
)
_DOTTED_ABBREVIATION = re.compile(r"\b(?:[A-Za-z]\.){2,}")  # L.L.C., U.S.A.
_NON_WORD = re.compile(r"[^\w\s]+")


def _fold(text: str) -> str:
    text = text.replace("™", "").replace("®", "")  # a trade-mark sign is no part of the name (NFKD makes it "TM")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("&", " and ").replace("’", "'")
    text = _DOTTED_ABBREVIATION.sub(lambda m: m.group().replace(".", ""), text)
    return _NON_WORD.sub(" ", text.casefold().replace("'", ""))


def organization_key(name: str) -> str:
    """`Smith Corporation` -> `smith corp`; a leading "the" and a trailing ", et al." are dropped."""
    tokens = _fold(name).split()
    if tokens and tokens[0] == "the":
        tokens = tokens[1:]
    while len(tokens) > 1 and tokens[-2:] == ["et", "al"]:
        tokens = tokens[:-2]
    out = [CORPORATE_SUFFIXES.get(t, t) if i > 0 else t for i, t in enumerate(tokens)]
    return " ".join(out)


def person_key(name: str) -> str:
    """`Hon. Robert L. Miller, Jr.` -> `robert l miller jr`. Initials are kept: J. Smith is not John Smith."""
    tokens = [t for t in _fold(name).split() if t not in HONORIFICS]
    return " ".join(tokens)


@lru_cache(maxsize=4096)
def entity_key(name: str, kind: str) -> str:
    """The merge key for an entity of `kind` ("person" or anything organisation-like)."""
    return f"{kind}:{person_key(name) if kind == 'person' else organization_key(name)}"


def same_entity(a: str, b: str, kind: str = "organization") -> bool:
    return entity_key(a, kind) == entity_key(b, kind)


def display_name(variants: Iterable[str]) -> str:
    """The form to show for a merged entity: mixed case over capitals, then the fullest, then the most frequent."""
    counts = Counter(" ".join(v.split()) for v in variants)
    if not counts:
        return ""
    return max(counts, key=lambda v: (not v.isupper(), len(v.split()), counts[v], len(v)))


def fuller_names(keys: Iterable[str]) -> dict[str, str]:
    """Person keys to merge into a fuller one of the same document: `person:conrad rostvet` ->
    `person:conrad keith rostvet` when that is the only longer name with its first and last name that holds all
    its words in order. Different first names stay apart (`john smith`, `jane smith`), and so does a name two
    fuller ones could complete (`john a smith`, `john b smith`)."""
    by_ends: dict[tuple[str, str], list[tuple[str, list[str]]]] = {}
    for k in set(keys):
        if k.startswith("person:") and (words := k[7:].split()) and len(words) >= 2:
            by_ends.setdefault((words[0], words[-1]), []).append((k, words))
    out: dict[str, str] = {}
    for group in by_ends.values():
        if len(group) < 2:
            continue
        for key, words in group:
            fuller = [k for k, w in group if len(w) > len(words) and _in_order(words, w)]
            if len(fuller) == 1:
                out[key] = fuller[0]
    return out


def suffixed_forms(keys: Iterable[str]) -> dict[str, str]:
    """Organisation keys printed without a corporate suffix -> the one key of the same kind that adds one:
    a caption's `MERIDIAN FREIGHT SYSTEMS` is the contract's `Meridian Freight Systems, Inc.`. A bare name
    that two suffixes complete (`Smith Corp.`, `Smith Inc.`: two companies) stays apart."""
    keys = set(keys)
    completing: dict[str, list[str]] = {}
    for key in keys:
        kind, _, name = key.partition(":")
        words = name.split()
        if kind != "person" and len(words) >= 2 and words[-1] in _SUFFIX_TOKENS:
            completing.setdefault(f"{kind}:{' '.join(words[:-1])}", []).append(key)
    return {bare: full[0] for bare, full in completing.items() if bare in keys and len(full) == 1}


_SUFFIX_TOKENS = frozenset(CORPORATE_SUFFIXES.values())


def _in_order(short: list[str], long: list[str]) -> bool:
    rest = iter(long)
    return all(w in rest for w in short)


ORGANIZATION_WORDS = frozenset(
    [
        "league",
        "association",
        "department",
        "university",
        "college",
        "school",
        "bank",
        "group",
        "company",
        "corporation",
        "states",
        "state",
        "board",
        "commission",
        "authority",
        "agency",
        "services",
        "systems",
        "technologies",
        "technology",
        "network",
        "networks",
        "holdings",
        "partners",
        "trust",
        "fund",
        "union",
        "council",
        "committee",
        "city",
        "county",
        "government",
        "republic",
        "office",
        "bureau",
        "institute",
        "foundation",
        "hospital",
        "church",
        "society",
        "club",
        "capital",
        "ventures",
        "industries",
        "international",
        "national",
        "global",
        "america",
        "american",
        "products",
        "solutions",
        "enterprises",
        "labs",
        "laboratories",
        "media",
        "communications",
        "energy",
        "pharmaceuticals",
        "insurance",
        "micro",
    ]
)


def looks_like_person(name: str) -> bool:
    """Two to five capitalised words, no corporate suffix or organisation word, no digits: `Richard P. Liebowitz`."""
    tokens = _fold(name).split()
    words = name.replace(",", " ").split()
    if not 2 <= len(words) <= 5 or any(ch.isdigit() for ch in name):
        return False
    if any(t in CORPORATE_SUFFIXES for t in tokens[1:]) or any(t in ORGANIZATION_WORDS for t in tokens):
        return False
    return all(w[0].isupper() for w in words if w.lower() not in ("de", "van", "von", "der", "la", "jr.", "jr"))
