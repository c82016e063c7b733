"""Caption blocks of court documents: each side's names, then its role, for every caption layout.

    SUSAN JANE HOGARTH, Plaintiff, v. KAREN BRINSON BELL, in her official capacity as ...; ALAN HIRSCH, ...
    ..., Defendants, and Philip E. Berger, ..., Defendant-Intervenors.
    Ronald Wayne Wootan,                      Petitioner and Appellant
    HAMPTON DELLINGER  )                      (column rules; names above a `Plaintiff,` line)
    ABIGAIL NOEL FISHER, PETITIONER v. UNIVERSITY OF TEXAS AT AUSTIN ET AL.   (the other side: respondents)

A role marker is a capitalised role word closing its line (or followed by `v.`) after a name and its comma, on
the same line or alone on the next. The names are what precedes it back to the previous marker, a
`v.`/`against`/`and` line, a heading or a blank line; they split at semicolons, commas and `and`, and drop
capacities ("in his official capacity as ..."), offices ("SECRETARY OF VETERANS AFFAIRS"), "et al." and
"Esq.". A lower-case `for appellants.` is counsel's line, never a marker. Offsets index the text given.
"""

from __future__ import annotations

import re

from casetrack.graph.names import looks_like_person
from casetrack.graph.parties.party import ROLE_WORDS, RawParty
from casetrack.graph.scan import find_all

_ROLE = (r"(?:Plaintiffs?|Defendants?|Petitioners?|Respondents?|Appellants?|Appellees?|Intervenors?|Claimants?"
         r"|Debtors?|Relators?|Movants?|Counter-?(?:Plaintiffs?|Defendants?))(?:\(s\))?")  # fmt: skip
_ROLE_RUN = rf"{_ROLE}(?:(?:[-–/]|[ \t]+and[ \t]+)(?:Cross-)?{_ROLE})*"
# A role run where a role keyword starts, closing its line (past a column rule) or followed by `v.`.
_MARKER = re.compile(rf"(?P<role>{_ROLE_RUN})[ \t]*[,.]?[ \t]*(?:[)§|\]][ \t]*)?(?=\n|$|v\.[ \t])", re.IGNORECASE)
_ROLE_ONLY = re.compile(rf"[ \t]*{_ROLE_RUN}[ \t]*[,.]?[ \t]*", re.IGNORECASE)
_ROLE_KEYWORDS = ("plaintiff", "defendant", "petitioner", "respondent", "appellant", "appellee", "intervenor",
                  "claimant", "debtor", "relator", "movant", "counter")  # fmt: skip
_RULES = re.compile(r"[ \t]+[)§|\]][ \t]*$|^[ \t]*[)§|\]](?=[ \t]|$)", re.MULTILINE)  # scanned or typed column rules
_SEPARATOR = re.compile(r"[ \t]*(?:v\.?|vs\.?|V\.|against|and|AND)[ \t]*$")
_HEADING = re.compile(
    r"[ \t]*(?:No\b|Nos\b|Case\b|Docket\b|Index\b|Civil\b|Appeal\b|On\b|ON\b|Before\b|BEFORE\b|\d+[ \t]*$|_{3,}|\[|.*"
    r"(?:COURT|Court\b|DISTRICT|LITIGATION|Description|:[ \t]*$))"
)
_IN_RE = re.compile(r"[ \t]*In[ \t]*re\b:?[ \t]*", re.IGNORECASE)
_CAPACITY = re.compile(
    r"\b(?:individually|in[ \t\n]+(?:his|her|their|its)[ \t\n]+(?:\w+[ \t\n]+)?capacit|as[ \t\n]+(?:next[ \t\n]+friend"
    r"|trustee|executor|administrat|guardian|parent))",
    re.IGNORECASE,
)
_ET_AL = re.compile(r"\bet[ \t]+al\b\.?", re.IGNORECASE)
_SUFFIXES = r"(?:Inc|INC|Corp|CORP|Co|CO|Ltd|LTD|LLC|L\.L\.C|LLP|L\.P|LP|P\.C|PC|N\.A|Jr|JR|Sr|SR|II|III|IV)\.?"
_SUFFIX = re.compile(rf"{_SUFFIXES}$")
_SUFFIX_LINE = re.compile(rf"{_SUFFIXES}[ \t]*\n")  # `INC.\n INDIAN MOTOCYCLE MANUF CO.`: a name closes, the next opens
_DROP = re.compile(r"(?:Esq|ESQ|Esquire|et[ \t]+al)\.?$")
_OFFICE = re.compile(
    r"\b(?:secretary|receiver|trustee|director|chair\w*|commissioner|attorney[ \t]+general|warden|governor|sheriff"
    r"|mayor|superintendent|administrat\w*|executor|executrix|guardian|president|members?|clerk|treasurer"
    r"|comptroller|auditor|officer|chief|acting|deceased)\b",
    re.IGNORECASE,
)
_OTHER_SIDE = {"petitioner": "respondent", "appellant": "appellee", "plaintiff": "defendant"}
_SIDE_END = re.compile(r"\bET[ \t]+AL\.?|\n[ \t]*\n|\n[ \t]*(?:ON|On|No\.|CERTIORARI|APPEAL|Appeal|\[)")
_REACH, _SUPREME_REACH = 3000, 12000


def block_parties(text: str) -> list[RawParty]:
    """Caption parties with roles from the role markers near the start of `text`."""
    area = text[:_REACH]
    markers = _markers(area, 0, len(area))
    if not markers:
        return _supreme_court_caption(text)
    area = _RULES.sub(lambda m: " " * len(m.group()), area)  # same length: offsets hold
    out: list[RawParty] = []
    boundary = 0
    for m in markers:
        if m.start() < boundary:
            continue
        role = _role(m["role"])
        s = _side_start(area, m.start("role"), boundary)
        out.extend(_names(area, s, m.start("role"), role))
        boundary = m.end()
        if (other := _other_side(area, m, role)) is not None:
            out.extend(_names(area, *other))
            boundary = other[1]
    if not out:
        out = _supreme_court_caption(text)
    return out


def _other_side(area: str, m: re.Match[str], role: str) -> tuple[int, int, str] | None:
    """`FISHER, PETITIONER v. UNIVERSITY OF TEXAS ET AL.`: the side after `v.` that has no role of its own."""
    v = re.compile(r"[ \t]*v\.[ \t]+").match(area, m.end())
    if v is None or role.split("-")[0] not in _OTHER_SIDE:
        return None
    end = _SIDE_END.search(area, v.end())
    stop = end.start() if end else min(len(area), v.end() + 200)
    if _markers(area, v.end(), stop):
        return None
    return v.end(), stop, _OTHER_SIDE[role.split("-")[0]]


def _markers(area: str, lo: int, hi: int) -> list[re.Match[str]]:
    """Role markers in area[lo:hi], found from their keywords (cheap `str.find`s) and read there.
    A marker is capitalised and follows a name's comma: "for appellants." and "on brief for the\\n Appellees."
    are counsel's lines."""
    low = area[lo:hi].lower()
    starts = sorted({lo + i for kw in _ROLE_KEYWORDS for i in find_all(low, kw)})
    out: list[re.Match[str]] = []
    for i in starts:
        if (out and i < out[-1].end()) or (i > 0 and (area[i - 1].isalpha() or area[i - 1] in "-/")):
            continue
        m = _MARKER.match(area, i, hi)
        if m and area[i].isupper() and area[:i].rstrip(" \t\n\"”')§|]").endswith(","):
            out.append(m)
    return out


def _supreme_court_caption(text: str) -> list[RawParty]:
    """`ABIGAIL NOEL FISHER, PETITIONER v. UNIVERSITY\\n OF TEXAS AT AUSTIN ET AL.` after a slip opinion's syllabus."""
    head = text[:_SUPREME_REACH]
    for word in ("PETITIONER", "APPELLANT"):
        i = head.find(f", {word}")
        if i == -1:
            continue
        m = re.compile(rf", (?P<role>{word}S?) v\.[ \t]+").match(head, i)
        if m is None:
            continue
        role = _role(m["role"])
        line_start = head.rfind("\n", 0, i) + 1
        end = _SIDE_END.search(head, m.end())
        other_end = end.start() if end else min(len(head), m.end() + 200)
        return [*_names(text, line_start, i, role), *_names(text, m.end(), other_end, _OTHER_SIDE[role])]
    return []


def _side_start(area: str, marker: int, boundary: int) -> int:
    """Where the names before a role marker begin: back over their lines to a separator, heading or blank line."""
    line_start = area.rfind("\n", boundary, marker) + 1 or boundary
    start, found = marker, bool(area[max(line_start, boundary) : marker].strip(" \t,"))
    if found:
        start = max(line_start, boundary)
    pos = start
    for _ in range(8):
        if pos <= boundary:
            break
        prev_start = area.rfind("\n", boundary, pos - 1) + 1 or boundary
        line = area[prev_start : pos - 1] if area[pos - 1] == "\n" else area[prev_start:pos]
        if not line.strip():
            if found:
                break
            pos = prev_start
            continue
        if _SEPARATOR.fullmatch(line) or _ROLE_ONLY.fullmatch(line):
            break
        if m := _IN_RE.match(line):
            return prev_start + m.end()
        if _HEADING.match(line):
            break
        start, pos, found = prev_start, prev_start, True
    if (m := _IN_RE.match(area, start)) and m.end() < marker:
        return m.end()
    return start


def _names(text: str, start: int, end: int, role: str) -> list[RawParty]:
    """The parties named in text[start:end], split at semicolons, commas and `and`, without capacities."""
    out: list[RawParty] = []
    for p in re.finditer(r"[^,;]+", text[start:end]):
        s, e = start + p.start(), start + p.end()
        s, e = _strip(text, s, e)
        if s >= e:
            continue
        piece = text[s:e]
        if (c := _CAPACITY.search(piece)) is not None:
            e = s + c.start()
            s, e = _strip(text, s, e)
            if s >= e:
                continue
            piece = text[s:e]
        if _SUFFIX.fullmatch(piece) or _SUFFIX_LINE.match(piece):
            nl = piece.find("\n")
            if out and (nl == -1 or _SUFFIX.fullmatch(piece[:nl].strip())):
                last = out[-1]
                stop = e if nl == -1 else s + nl
                out[-1] = RawParty(_display(text[last.start : stop]), last.role, None, last.start, stop)
            if nl == -1:
                continue
            s, e = _strip(text, s + nl, e)
            piece = text[s:e]
        if _DROP.fullmatch(piece) or not piece[:1].isalnum():
            continue
        for ns, ne in _and_split(text, s, e):
            name = text[ns:ne]
            if not name[:1].isupper() and not name[:1].isdigit():
                continue
            if len(name.split()) > 12 or _an_office(name):
                continue
            out.append(RawParty(_display(name), role, None, ns, ne))
    return out


def _an_office(name: str) -> bool:
    """`SECRETARY OF VETERANS AFFAIRS`, `COLORADO RECEIVER`, `CHAPTER 7 TRUSTEE`: an office held, not a party."""
    words = name.split()
    return bool(_OFFICE.fullmatch(words[-1]) or (len(words) > 1 and _OFFICE.fullmatch(words[0])
                                                 and words[1].lower() == "of"))  # fmt: skip


def _and_split(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """`COLORADO RECEIVER and STEVEN M. RODOLAKIS` is two names; `Apparel and Accessories` is one."""
    piece = text[s:e]
    m = re.search(r"[ \t\n]+(?:and|AND|&)[ \t\n]+", piece)
    if m is None or not looks_like_person(_display(piece[m.end() :]).title()):
        return [(s, e)]
    return [_strip(text, s, s + m.start()), _strip(text, s + m.end(), e)]


def _strip(text: str, s: int, e: int) -> tuple[int, int]:
    """Trim spaces, quotes, a leading `and`/`the` and a trailing `et al.` from text[s:e]."""
    while s < e and text[s] in " \t\n\"“”'":
        s += 1
    while e > s and text[e - 1] in " \t\n\"“”'.,":  # `ACME CORP.,` -> `ACME CORP`, as the other finders write it
        e -= 1
    if m := re.match(r"(?:and|AND|the|The|&)[ \t\n]+", text[s:e]):
        s += m.end()
    if m := _ET_AL.search(text, s, e):
        return _strip(text, s, m.start()) if m.start() > s else (s, s)
    return s, e


def _display(name: str) -> str:
    return " ".join(name.split()).strip(" ,")


def _role(word: str) -> str:
    """`Petitioner and Appellant` -> `petitioner-appellant`, `Plaintiff(s)` -> `plaintiff`."""
    word = word.lower().replace("(s)", "")
    parts = [p[:-1] if p.endswith("s") and p[:-1] in ROLE_WORDS else p for p in re.split(r"[-–/]|\s+and\s+", word)]
    return "-".join(p for p in parts if p)
