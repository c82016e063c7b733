"""Courts named in legal text, normalised to one key per court.

`United States Court of Appeals for the Eighth Circuit`, `Eighth Circuit` and `8th Cir.`
are one court (`ca8`); `U.S. District Court for the Southern District of New York`,
`S.D.N.Y.` and `SDNY` are one (`nysd`, CourtListener's ids where they exist).
Whitespace in patterns also accepts the column rules (`]`, `|`) that scanned captions leave.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from casetrack.graph.jurisdictions import (
    CIRCUIT_NUMBER,
    ORDINALS,
    STATE_BY_ABBR,
    STATE_BY_NAME,
    STATE_BY_POSTAL,
    STATES,
    alternation,
)
from casetrack.graph.scan import index_keywords, lowered, near_keywords, near_trigger


@dataclass(frozen=True, slots=True)
class CourtMatch:
    key: str  # "ca8", "scotus", "nysd", "state:mo:supreme"
    name: str  # display: "U.S. Court of Appeals for the Eighth Circuit"
    start: int
    end: int


_W = r"(?:[\s\]|]+)"  # whitespace, possibly across a scanned caption's column rule
_CIRCUIT_WORDS = alternation([*CIRCUIT_NUMBER, "D.C.", "District of Columbia", "Federal"])
_DISTRICT_DIRECTION = {"northern": "n", "southern": "s", "eastern": "e", "western": "w", "central": "c", "middle": "m"}
_STATE_NAMES = alternation([s.name for s in STATES] + ["Columbia"])
_STATE_ABBRS = alternation([s.abbr for s in STATES] + [s.abbr.replace(" ", "") for s in STATES])


def _ordinal_name(n: int) -> str:
    return ORDINALS[n - 1].title()


def _circuit(word: str) -> tuple[str, str] | None:
    w = word.lower().replace(" ", "")
    if w in ("d.c.", "districtofcolumbia"):
        return "cadc", "U.S. Court of Appeals for the D.C. Circuit"
    if w == "federal":
        return "cafc", "U.S. Court of Appeals for the Federal Circuit"
    n = CIRCUIT_NUMBER.get(w)
    if n is None:
        return None
    return f"ca{n}", f"U.S. Court of Appeals for the {_ordinal_name(n)} Circuit"


def _district(direction: str | None, state_word: str, bankruptcy: bool = False) -> tuple[str, str] | None:
    word = state_word.replace(" ", "").lower()
    if word == "columbia":  # "District of Columbia" after the pattern's own "District of"
        state_word = "District of Columbia"
    st = STATE_BY_NAME.get(state_word.lower()) or STATE_BY_ABBR.get(word) or STATE_BY_POSTAL.get(word)
    if st is None:
        return None
    d = _DISTRICT_DIRECTION.get((direction or "").lower(), (direction or "")[:1].lower())
    key = f"{st.postal.lower()}{d}{'b' if bankruptcy else 'd'}"
    where = f"{direction.title()} District of {st.name}" if direction and len(direction) > 1 else None
    if where is None:
        where = f"{_DIRECTION_NAME[d]} District of {st.name}" if d else f"District of {st.name}"
    return key, f"U.S. {'Bankruptcy' if bankruptcy else 'District'} Court for the {where}"


_DIRECTION_NAME = {v: k.title() for k, v in _DISTRICT_DIRECTION.items()}

# (pattern, builder) pairs, tried in order; earlier (longer) matches win overlaps.
_APPEALS_LONG = re.compile(
    rf"United{_W}States{_W}Court{_W}of{_W}Appeals{_W}(?:for{_W}the{_W})?"
    rf"(?P<c>{_CIRCUIT_WORDS}){_W}Circuit",
    re.IGNORECASE,
)
_APPEALS_BARE = re.compile(rf"United{_W}States{_W}Court{_W}of{_W}Appeals", re.IGNORECASE)
_CIRCUIT_NAME = re.compile(rf"\b(?P<c>{alternation(list(ORDINALS))}|D\.C\.|Federal){_W}Circuit\b", re.IGNORECASE)
_ORDINAL_ABBR = r"1st|2d|2nd|3d|3rd|[4-9]th|1[0-1]th"
# "(9th \n\n\nCir. 1966)": a citation's court may run across a page break
_CIRCUIT_ABBR = re.compile(rf"\b(?P<c>{_ORDINAL_ABBR}|D\.C\.|Fed\.)\s{{0,12}}Cir\.")
_VETERANS = re.compile(rf"(?:United{_W}States{_W})?Court{_W}of{_W}Appeals{_W}for{_W}Veterans{_W}Claims", re.IGNORECASE)
# "Bankruptcy Appellate Panel for the First Circuit", "(B.A.P. 1st Cir. 2001)", "(1st Cir. BAP 2001)"
_BAP = re.compile(
    rf"Bankruptcy{_W}Appellate{_W}Panel{_W}(?:for|of){_W}the{_W}(?P<c>{_CIRCUIT_WORDS}){_W}Circuit"
    rf"|\bB\.\s?A\.\s?P\.\s(?P<a>{_ORDINAL_ABBR})\s?Cir\.|\b(?P<b>{_ORDINAL_ABBR})\s?Cir\.\s?B\.?A\.?P\b",
    re.IGNORECASE,
)
_BANKR_ABBR = re.compile(rf"\bBankr\.\s?(?:(?P<dir>[NSEWCM])\.\s?)?D\.\s?(?P<st>{_STATE_ABBRS})(?=[\s,;)])")
_SOFT = r"(?:-[ \t]*\n[ \t]*)?"  # a word hyphenated across a line break ("Dis-\ntrict")
_DISTRICT_LONG = re.compile(
    rf"(?:United{_W}States|U\.\s?S\.){_W}(?P<bk>Dis{_SOFT}trict|Bank{_SOFT}ruptcy){_W}Court"
    rf"(?:{_W}|[ \t]*[—–,][ \t]*)(?:for{_W}|of{_W})?(?:the{_W})?"
    rf"(?:(?P<dir>Northern|Southern|Eastern|Western|Central|Middle){_W})?District{_W}of{_W}(?P<st>{_STATE_NAMES})",
    re.IGNORECASE,
)
_DISTRICT_ABBR = re.compile(
    rf"\b(?P<dir>[NSEWCM])\.\s?D\.\s?(?P<st>{_STATE_ABBRS})|\bD\.\s?(?P<st2>{_STATE_ABBRS})(?=[\s,;)])"
)
_DISTRICT_CAPS = re.compile(r"\b(?P<dir>[NSEWC])D(?P<st>NY|CA|IL|TX|FL|PA|OH)\b")
_SCOTUS = re.compile(
    r"\b(?:Supreme\s+Court\s+of\s+the\s+United\s+States|(?:United\s+States|U\.\s?S\.)\s+Supreme\s+Court)\b",
    re.IGNORECASE,
)
_STATE_COURT = re.compile(
    rf"\b(?:(?P<kind1>Supreme|Superior|Circuit|District|Chancery)\s+Court\s+of\s+(?:the\s+State\s+of\s+)?(?P<st1>{_STATE_NAMES})"
    rf"|(?P<st2>{_STATE_NAMES})\s+(?P<kind2>Supreme\s+Court|Court\s+of\s+Appeals?|Superior\s+Court|Court\s+of\s+Chancery))\b"
)
# A court header over two lines: "IN THE SUPREME COURT\n STATE OF NORTH DAKOTA"
_STATE_COURT_HEAD = re.compile(
    rf"\b(?P<kind>Supreme|Superior|Circuit|District)[ \t]+Court[ \t]*\n[ \t]*(?:(?:the[ \t]+)?State|Commonwealth)"
    rf"[ \t]+of[ \t]+(?P<st>{_STATE_NAMES})\b",
    re.IGNORECASE,
)
# New York's trial court sits in each county: "Supreme Court, Bronx County", "Sup Ct, Kings County"
_NY_SUPREME = re.compile(r"\b(?:Supreme[ \t]+Court|Sup\.?[ \t]+Ct\.?),[ \t]+(?:[A-Z][a-z]+[ \t]+){1,2}County\b")
_COUNTY_COURT = re.compile(
    r"\b(?P<kind>Circuit|District|Superior|Chancery|Probate|County)\s+Court\s+(?:of|for)\s+(?:the\s+)?"
    r"(?P<county>(?:[A-Z][a-z]+\s+){1,3})County\b"
)


def find_courts(text: str) -> list[CourtMatch]:
    """Courts named in `text`, non-overlapping (earlier table rows win), in order. Never raises."""
    low = lowered(text)
    found: list[CourtMatch] = []
    for pattern, gate, build in COURT_PATTERNS:
        if isinstance(gate, Trigger):
            matches = near_trigger(pattern, gate.pattern, text, _REACH, gate.literal, gate.lead)
        else:
            matches = near_keywords(pattern, gate, text, low, _REACH)
        for m in matches:
            built = build(m)
            if built is None or any(m.start() < f.end and f.start < m.end() for f in found):
                continue
            found.append(CourtMatch(built[0], built[1], m.start(), m.end()))
    found.extend(_bare_supreme_court(text, low, found))
    return sorted(found, key=lambda c: c.start)


# A document's own court is named at its top (a caption, a notice's letterhead, after a docket header line).
OWN_COURT_REACH = 1000
# The court a case came from, as dockets and captions name it: "DC Court: SDNY", "Appeal from the United States
# District Court for ...", "ON APPEAL FROM THE ...".
_COURT_BELOW = re.compile(
    r"(?:\b(?:DC|District|Lower|Originating|Trial)[ \t]+Court:|\bappeals?[ \t\n]+from(?:[ \t\n]+the)?)[ \t\n]*$",
    re.IGNORECASE,
)
FORUM, COURT_BELOW = "forum", "court below"  # the roles of a document's own court and of the court it came from


def court_role(text: str, court: CourtMatch, courts: list[CourtMatch]) -> str | None:
    """FORUM for the first court a document names at its top, COURT_BELOW for one named as the court a
    case came from, else None: a court named only in passing or in a citation ("(1st Cir. 2021)" in a letter
    to the Eighth Circuit) is not the case's court."""
    if court is min(courts, key=lambda c: c.start) and court.start <= OWN_COURT_REACH:
        return FORUM
    return COURT_BELOW if _COURT_BELOW.search(text, max(0, court.start - 40), court.start) else None


_BARE_SUPREME = re.compile(r"\b[Tt]he[ \t\n]+(?P<c>Supreme[ \t\n]+Court)\b(?![ \t\n]+of\b|,[ \t]+\w+[ \t]+County)")
_HEAD = 2000  # the document's own court is named in its first characters


def _bare_supreme_court(text: str, low: str, found: list[CourtMatch]) -> Iterator[CourtMatch]:
    """A bare "the Supreme Court" in a federal court's document is the U.S. Supreme Court; in any other
    document (a state court's, a letter) it stays unresolved."""
    own = min(found, key=lambda c: c.start, default=None)
    if own is None or own.start > _HEAD or own.key.startswith(("state:", "county:")):
        return
    for m in near_keywords(_BARE_SUPREME, ("supreme",), text, low, 20):
        if not any(m.start("c") < f.end and f.start < m.end("c") for f in found):
            yield CourtMatch("scotus", "Supreme Court of the United States", m.start("c"), m.end("c"))


Built = tuple[str, str] | None  # (key, display name)


def _state_court(m: re.Match[str]) -> Built:
    st = STATE_BY_NAME[(m["st1"] or m["st2"]).lower()]
    if m["kind1"]:
        kind, name = m["kind1"].lower(), f"{m['kind1']} Court of {st.name}"
    else:
        kind, name = " ".join(m["kind2"].split()).lower(), f"{st.name} {' '.join(m['kind2'].split())}"
    return f"state:{st.postal.lower()}:{kind.removesuffix(' court').replace(' ', '_')}", name


def _state_court_head(m: re.Match[str]) -> Built:
    st, kind = STATE_BY_NAME[" ".join(m["st"].split()).lower()], m["kind"].title()
    return f"state:{st.postal.lower()}:{kind.lower()}", f"{kind} Court of {st.name}"


def _bap(m: re.Match[str]) -> Built:
    circuit = _circuit(m["c"] or m["a"] or m["b"])
    if circuit is None or not circuit[0][2:].isdigit():
        return None
    n = circuit[0][2:]
    return f"bap{n}", f"U.S. Bankruptcy Appellate Panel for the {_ordinal_name(int(n))} Circuit"


def _county_court(m: re.Match[str]) -> Built:
    county = " ".join(m["county"].split())
    return f"county:{county.lower()}:{m['kind'].lower()}", f"{m['kind']} Court of {county} County"


_REACH = 120
_CAPS_DISTRICTS = tuple(f"{d}d{st}" for d in "nsewc" for st in ("ny", "ca", "il", "tx", "fl", "pa", "oh"))


@dataclass(frozen=True, slots=True)
class Trigger:
    """A pattern gating another, each of whose matches holds `literal` within `lead` characters of its start."""

    pattern: re.Pattern[str]
    literal: str
    lead: int


_DISTRICT_ABBR_TRIGGER = Trigger(re.compile(r"[NSEWCM]\.\s?D\.|D\.\s?[A-Z]"), "D.", 3)
# (pattern, gate: lower-case keywords or a trigger, builder). Longer names first.
Gate = tuple[str, ...] | Trigger
COURT_PATTERNS: tuple[tuple[re.Pattern[str], Gate, Callable[[re.Match[str]], Built]], ...] = (
    (_VETERANS, ("veterans",), lambda m: ("cavc", "U.S. Court of Appeals for Veterans Claims")),
    (_BAP, ("panel", "b.a.p", "bap"), _bap),
    (_APPEALS_LONG, ("appeals",), lambda m: _circuit(m["c"])),
    (_DISTRICT_LONG, ("district", "bankruptcy", "bank-"),
     lambda m: _district(m["dir"], m["st"], m["bk"].lower().startswith("bank"))),
    (_BANKR_ABBR, ("bankr.",), lambda m: _district(m["dir"], m["st"], bankruptcy=True)),
    (_SCOTUS, ("supreme",), lambda m: ("scotus", "Supreme Court of the United States")),
    (_STATE_COURT, ("court",), _state_court),
    (_STATE_COURT_HEAD, ("state of", "commonwealth of"), _state_court_head),
    (_NY_SUPREME, ("county",), lambda m: ("state:ny:supreme", "Supreme Court of New York")),
    (_COUNTY_COURT, ("county",), _county_court),
    (_CIRCUIT_ABBR, ("cir.",), lambda m: _circuit(m["c"].replace("Fed.", "Federal"))),
    (_CIRCUIT_NAME, ("circuit",), lambda m: _circuit(m["c"])),
    (_DISTRICT_ABBR, _DISTRICT_ABBR_TRIGGER, lambda m: _district(m["dir"], m["st"] or m["st2"])),
    (_DISTRICT_CAPS, _CAPS_DISTRICTS, lambda m: _district(m["dir"], m["st"])),
    (_APPEALS_BARE, ("appeals",), lambda m: ("ca", "U.S. Court of Appeals")),
)  # fmt: skip
index_keywords(kw for _, gate, _ in COURT_PATTERNS if isinstance(gate, tuple) for kw in gate)
