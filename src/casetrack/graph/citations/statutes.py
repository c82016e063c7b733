"""Statutes, rules and regulations eyecite misses or spells many ways, as a table of patterns.

Each `LawPattern` finds one family (`42 USC 1983`, `Fed. R. Civ. P. 12(b)(6)`,
`N.C.G.S. § 14-306.4`, `Rule 29.12(c)`...) and builds its canonical key, which is also
the display form: `42 U.S.C. § 1983`, `Fed. R. Civ. P. 12(b)(6)`, `N.C. Gen. Stat. § 14-306.4`.
Statutes and regulations are keyed by section (the subsection goes to the pin cite);
rules keep their subdivision, since `Rule 12(b)(6)` and `Rule 12(c)` are different motions.
Lists continue one citation: `FRAP 15(a) or 21(a)`, `28 U.S.C. §§ 1331, 1332`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from casetrack.graph.jurisdictions import STATES, alternation
from casetrack.graph.scan import finditer_in, index_keywords, keyword_hits, lowered, windows_at


class AuthorityKind(StrEnum):
    FEDERAL_STATUTE = "federal_statute"
    STATE_STATUTE = "state_statute"
    FEDERAL_RULE = "federal_rule"
    STATE_RULE = "state_rule"
    CASE_LAW = "case_law"
    REGULATION = "regulation"
    SECONDARY = "secondary"  # law-review and journal articles (eyecite's journal citations)


@dataclass(frozen=True, slots=True)
class LawMatch:
    key: str
    kind: AuthorityKind
    start: int
    end: int
    pin_cite: str | None


K = AuthorityKind
_SUB = r"(?P<sub>(?:\([a-zA-Z0-9]{1,4}\))*)"
_SECTION = r"(?P<sec>\d+[A-Za-z]?(?:[-–.:]\d+[A-Za-z]?)*)"
_RULE_NUMBER = r"(?P<num>\d+(?:\.\d+)*[A-Za-z]?(?:\([a-zA-Z0-9]{1,4}\))*)"
_SEC_SIGN = r"(?:§§?|[Ss]ections?|[Ss]ecs?\.)"
_STATE_ABBRS = alternation(
    [s.abbr for s in STATES if s.abbr.endswith(".")] + ["Alaska", "Idaho", "Iowa", "Ohio", "Utah"]
)
_STATE_NAMES = alternation([s.name for s in STATES])
_STATE_BY_ANY = {**{s.abbr.replace(" ", "").lower(): s for s in STATES}, **{s.name.lower(): s for s in STATES}}


def _state_abbr(word: str) -> str:
    st = _STATE_BY_ANY.get(word.replace(" ", "").lower()) or _STATE_BY_ANY.get(word.lower())
    return st.abbr if st else word


Builder = Callable[[re.Match[str]], tuple[str, str | None]]  # -> (key, pin cite)


@dataclass(frozen=True, slots=True)
class LawPattern:
    name: str
    regex: re.Pattern[str]
    kind: AuthorityKind
    build: Builder
    keywords: tuple[str, ...]  # lower-case; the pattern runs only near places the text holds one
    continues: bool = False  # may be followed by ", 1332" / "or 21(a)": more of the same family
    needs: tuple[str, ...] = ()  # strings (case as written) of which every match holds one; () to skip the check


def _clean(section: str) -> str:
    return section.replace("–", "-").rstrip(".")


def _usc(m: re.Match[str]) -> tuple[str, str | None]:
    return f"{m['title']} U.S.C. § {_clean(m['sec'])}", m["sub"] or None


def _cfr(m: re.Match[str]) -> tuple[str, str | None]:
    return f"{m['title']} C.F.R. § {_clean(m['sec'])}", m["sub"] or None


_FEDERAL_RULE_SETS = {
    "civ": "Fed. R. Civ. P.",
    "civil": "Fed. R. Civ. P.",
    "frcp": "Fed. R. Civ. P.",
    "crim": "Fed. R. Crim. P.",
    "criminal": "Fed. R. Crim. P.",
    "frcrp": "Fed. R. Crim. P.",
    "app": "Fed. R. App. P.",
    "appellate": "Fed. R. App. P.",
    "frap": "Fed. R. App. P.",
    "evid": "Fed. R. Evid.",
    "evidence": "Fed. R. Evid.",
    "fre": "Fed. R. Evid.",
    "bankr": "Fed. R. Bankr. P.",
    "bankruptcy": "Fed. R. Bankr. P.",
}


def _federal_rule(m: re.Match[str]) -> tuple[str, str | None]:
    which = re.sub(r"[^a-z]", "", m["set"].lower())
    return f"{_FEDERAL_RULE_SETS[which]} {m['num']}", None


def _state_rule(m: re.Match[str]) -> tuple[str, str | None]:
    state = _state_abbr(m["state"]) if m["state"] else ""
    which = (m["set"] or "").lower()
    family = {"civ": "Civ. P.", "civil": "Civ. P.", "crim": "Crim. P.", "criminal": "Crim. P.", "app": "App. P.",
              "appellate": "App. P.", "evid": "Evid.", "evidence": "Evid."}.get(which)  # fmt: skip
    if family:
        return f"{state} R. {family} {m['num']}".strip(), None
    return (f"{state} Sup. Ct. R. {m['num']}" if state else f"Rule {m['num']}"), None


def _state_code(m: re.Match[str]) -> tuple[str, str | None]:
    code = " ".join(m["code"].split())
    return f"{code} § {_clean(m['sec'])}", m["sub"] or None


_COMPACT_STATE_CODES = {  # compact spellings -> the Bluebook code name eyecite also uses
    "N.C.G.S.": "N.C. Gen. Stat.",
    "NCGS": "N.C. Gen. Stat.",
    "G.S.": "N.C. Gen. Stat.",
    "RSMo": "Mo. Rev. Stat.",
    "R.S.Mo.": "Mo. Rev. Stat.",
    "O.C.G.A.": "Ga. Code Ann.",
    "M.G.L.": "Mass. Gen. Laws",
    "A.R.S.": "Ariz. Rev. Stat.",
    "C.R.S.": "Colo. Rev. Stat.",
    "K.S.A.": "Kan. Stat. Ann.",
    "MCL": "Mich. Comp. Laws",
    "M.C.L.": "Mich. Comp. Laws",
    "NRS": "Nev. Rev. Stat.",
    "RCW": "Wash. Rev. Code",
    "KRS": "Ky. Rev. Stat.",
    "K.R.S.": "Ky. Rev. Stat.",
    "HRS": "Haw. Rev. Stat.",
    "NDCC": "N.D. Cent. Code",
    "N.D.C.C.": "N.D. Cent. Code",
    "SDCL": "S.D. Codified Laws",
}


def _compact_code(m: re.Match[str]) -> tuple[str, str | None]:
    return f"{_COMPACT_STATE_CODES[m['code']]} § {_clean(m['sec'])}", m["sub"] or None


def _trailing_code(m: re.Match[str]) -> tuple[str, str | None]:  # "Section 537.065, RSMo"
    return f"{_COMPACT_STATE_CODES[m['code']]} § {_clean(m['sec'])}", m["sub"] or None


def _ilcs(m: re.Match[str]) -> tuple[str, str | None]:
    return f"{m['ch']} ILCS {m['act']}/{m['sec']}", m["sub"] or None


_COMPACT = alternation(list(_COMPACT_STATE_CODES))
_FED_RULE_ABBR = (
    rf"\b(?:Fed\.\s?R\.\s?(?P<set>Civ|Crim|App|Evid|Bankr)\.(?:\s?P\.)?|(?P<set2>FRCP|FRCrP|FRAP|FRE|F\.R\.C\.P\.))"
    rf"\s*(?:[Rr]ule\s*)?{_RULE_NUMBER}"
)
_FED_RULE_LONG = (
    rf"\bFederal\s+Rules?\s+of\s+(?P<set>Civil|Criminal|Appellate|Bankruptcy)\s+Procedure\s+(?:[Rr]ule\s+)?"
    rf"{_RULE_NUMBER}"
)
_RULE_OF_FED_RULES = (
    rf"\bRules?\s+{_RULE_NUMBER}\s+of\s+the\s+Federal\s+Rules\s+of\s+"
    rf"(?P<set>Civil|Criminal|Appellate|Bankruptcy)\s+Procedure"
)
_CIRCUIT_RULE = (
    r"\b(?P<court>(?:\d{1,2}(?:st|d|nd|rd|th)\s+Cir\.\s+R\.|(?:[A-Z][a-z]+\s+)?Circuit\s+Rule"
    rf"|Local\s+(?:Civil\s+|Criminal\s+)?Rule|L\.\s?R\.))\s*{_RULE_NUMBER}"
)
_STATE_RULE_ABBR = (
    rf"\b(?P<state>{_STATE_ABBRS})\s?(?:Sup\.\s?Ct\.\s?)?R\.\s?(?:(?P<set>Civ|Crim|App|Evid)\.\s?(?:P\.)?\s?)?"
    rf"{_RULE_NUMBER}"
)
_STATE_RULE_LONG = (
    rf"\b(?P<state>{_STATE_NAMES})\s+(?:Supreme\s+Court\s+)?Rules?\s+"
    rf"(?:of\s+(?P<set>Civil|Criminal|Appellate)\s+Procedure\s+)?{_RULE_NUMBER}"
)
_STATE_CODE = (
    rf"\b(?P<code>(?:{_STATE_ABBRS})\s+(?:(?:[A-Z][A-Za-z.&]*|&)\s+){{0,5}}?(?:Code|Stat\.|Stats\.|Laws|Law)"
    rf"(?:\s+Ann\.)?)\s*(?:{_SEC_SIGN})\s*{_SECTION}{_SUB}"
)
_USC = rf"\b(?P<title>\d{{1,2}})\s*U\.?\s?S\.?\s?C\.?(?:\s?A\.?)?\s*(?:{_SEC_SIGN}\s*)?{_SECTION}{_SUB}"
_CFR = rf"\b(?P<title>\d{{1,2}})\s*C\.?\s?F\.?\s?R\.?\s*(?:{_SEC_SIGN}\s*|[Pp]art\s+|pt\.\s*)?{_SECTION}{_SUB}"
_RULE_WORD = ("rule",)


def _law(name: str, pattern: str, kind: AuthorityKind, build: Builder, keywords: tuple[str, ...],
         continues: bool = True, needs: tuple[str, ...] = ()) -> LawPattern:  # fmt: skip
    return LawPattern(name, re.compile(pattern), kind, build, keywords, continues, needs)


# Earlier rows win overlaps: specific forms before generic ones, bare "Rule N" last.
LAW_PATTERNS: tuple[LawPattern, ...] = (
    _law("usc", _USC, K.FEDERAL_STATUTE, _usc, ("usc", "u.s.c", "u. s. c", "u.s. c", "u. s.c")),
    _law("cfr", _CFR, K.REGULATION, _cfr, ("cfr", "c.f.r", "c. f. r")),
    _law("federal-rule-abbr", _FED_RULE_ABBR, K.FEDERAL_RULE, lambda m: _federal_rule_any(m),
         ("fed. r", "fed.r", "frcp", "frcrp", "frap", "fre", "f.r.c.p")),
    _law("federal-rule-long", _FED_RULE_LONG, K.FEDERAL_RULE, _federal_rule, ("federal",)),
    _law("federal-rule-evidence", rf"\bFederal\s+Rules?\s+of\s+(?P<set>Evidence)\s+(?:[Rr]ule\s+)?{_RULE_NUMBER}",
         K.FEDERAL_RULE, _federal_rule, ("federal",)),
    _law("rule-of-federal-rules", _RULE_OF_FED_RULES, K.FEDERAL_RULE, _federal_rule, ("federal",), continues=False),
    _law("circuit-rule", _CIRCUIT_RULE, K.FEDERAL_RULE, lambda m: (f"{' '.join(m['court'].split())} {m['num']}", None),
         ("cir. r", "circuit rule", "local", "l.r.", "l. r.")),
    _law("state-rule-abbr", _STATE_RULE_ABBR, K.STATE_RULE, _state_rule,
         ("r. civ", "r.civ", "r. crim", "r.crim", "r. app", "r.app", "r. evid", "r.evid", "ct. r", "ct.r")),
    _law("state-rule-long", _STATE_RULE_LONG, K.STATE_RULE, _state_rule, _RULE_WORD),
    _law("compact-state-code", rf"(?<![\w.])(?P<code>{_COMPACT})\s*(?:{_SEC_SIGN}\s*)?{_SECTION}{_SUB}",
         K.STATE_STATUTE, _compact_code, tuple(k.lower() for k in _COMPACT_STATE_CODES)),
    _law("section-then-code", rf"\b[Ss]ections?\s+{_SECTION}{_SUB},?\s+(?P<code>RSMo|R\.S\.Mo\.)",
         K.STATE_STATUTE, _trailing_code, ("rsmo", "r.s.mo"), continues=False),
    _law("ilcs", rf"\b(?P<ch>\d{{1,3}})\s+ILCS\s+(?P<act>\d+)/{_SECTION}{_SUB}", K.STATE_STATUTE, _ilcs, ("ilcs",),
         continues=False),
    _law("state-code", _STATE_CODE, K.STATE_STATUTE, _state_code, ("§", "sec"), needs=("Code", "Stat", "Law")),
    # A bare "Rule 29.12(c)" with a decimal number is a state rule (federal rules are not numbered so);
    # a bare "Rule 56" is resolved against the rule sets the document names (see authorities.py).
    _law("bare-decimal-rule", r"\bRules?\s+(?P<num>\d+\.\d+(?:\.\d+)*[A-Za-z]?(?:\([a-zA-Z0-9]{1,4}\))*)",
         K.STATE_RULE, lambda m: (f"Rule {m['num']}", None), _RULE_WORD),
    _law("bare-rule", r"\bRules?\s+(?P<num>\d{1,3}[A-Za-z]?(?:\([a-zA-Z0-9]{1,4}\))*)(?![\d.]\d)",
         K.FEDERAL_RULE, lambda m: (f"Rule {m['num']}", None), _RULE_WORD),
)  # fmt: skip


index_keywords(kw for lp in LAW_PATTERNS for kw in lp.keywords)


def _federal_rule_any(m: re.Match[str]) -> tuple[str, str | None]:
    which = re.sub(r"[^a-z]", "", (m["set"] or m["set2"]).lower())
    return f"{_FEDERAL_RULE_SETS[which]} {m['num']}", None


_CONTINUATION = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:§\s*)?(?P<num>\d+(?:[.\-]\d+)*[A-Za-z]?)(?P<sub>(?:\([a-zA-Z0-9]{1,4}\))*)(?![\w(]|\s+[A-Z])"
)


def find_laws(text: str) -> list[LawMatch]:
    """Statute, rule and regulation citations in `text`, non-overlapping (longest wins), in order."""
    found: list[LawMatch] = []
    taken: list[tuple[int, int]] = []
    low = lowered(text)
    for lp in LAW_PATTERNS:
        for match in _matches(lp, text, low):
            if any(match.start < e and s < match.end for s, e in taken):
                continue
            found.append(match)
            taken.append((match.start, match.end))
    return sorted(found, key=lambda m: m.start)


_REACH = 160  # characters a citation may extend either side of its keyword


def _matches(lp: LawPattern, text: str, low: str) -> Iterator[LawMatch]:
    for m in _windowed(lp, text, low):
        yield from _build(lp, text, m)


def _windowed(lp: LawPattern, text: str, low: str) -> Iterator[re.Match[str]]:
    """The matches of `lp` within `_REACH` of its keywords."""
    windows = windows_at(keyword_hits(low, lp.keywords), len(text), _REACH)
    if lp.needs:  # a window holding none of them holds no match: most "§" windows name no state code
        windows = [(lo, hi) for lo, hi in windows if any(text.find(n, lo, hi) != -1 for n in lp.needs)]
    return finditer_in(lp.regex, text, windows)


def _build(lp: LawPattern, text: str, m: re.Match[str]) -> Iterator[LawMatch]:
    key, pin = lp.build(m)
    yield LawMatch(key, lp.kind, m.start(), m.end(), pin)
    if lp.continues:
        yield from continuation(text, m.end(), key, lp.kind, rule=lp.kind in (K.FEDERAL_RULE, K.STATE_RULE))


def continuation(text: str, pos: int, key: str, kind: AuthorityKind, rule: bool) -> Iterator[LawMatch]:
    """`, 1332` / `or 21(a)` after a citation: the same code or rule set, another section or rule."""
    stem = _stem(key, rule)
    while (m := _CONTINUATION.match(text, pos)) is not None:
        if rule:
            yield LawMatch(f"{stem}{m['num']}{m['sub']}", kind, m.start("num"), m.end(), None)
        else:
            yield LawMatch(f"{stem}{_clean(m['num'])}", kind, m.start("num"), m.end(), m["sub"] or None)
        pos = m.end()


def _stem(key: str, rule: bool) -> str:
    """`28 U.S.C. § 1331` -> `28 U.S.C. § `; `Fed. R. App. P. 15(a)` -> `Fed. R. App. P. `."""
    if not rule and "§ " in key:
        return key[: key.rindex("§ ") + 2]
    return key[: key.rindex(" ") + 1]
