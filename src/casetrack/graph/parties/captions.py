"""Parties of court documents, from their captions: `X v. Y` (also a docket notice's
`Short Title:` field, wrapped or cut by the docket system), vertical captions with
`Plaintiffs-Appellants,` lines, `In re: X`, and `notice of appeal filed by X`. Offsets index
the joined text, as in parties.py."""

from __future__ import annotations

import re
from dataclasses import replace

from casetrack.graph.names import looks_like_person
from casetrack.graph.parties.caption_blocks import block_parties
from casetrack.graph.parties.party import ROLE_WORDS, RawParty
from casetrack.graph.parties.truncation import SHORT_TITLE_WIDTH, complete_truncated, maybe_cut
from casetrack.graph.scan import lowered

_ROLE_LINE = re.compile(
    r"^[ \t\]|]*(?P<role>(?:Plaintiffs?|Defendants?|Petitioners?|Respondents?|Appellants?|Appellees?|Intervenors?"
    r"|Counter-?(?:Plaintiffs?|Defendants?)|Debtors?)(?:[-–/](?:Appellants?|Appellees?|Petitioners?|Respondents?"
    r"|Cross-Appellants?|Cross-Appellees?))*)[ \t]*[,.]?[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
_CAPTION_STOP = re.compile(r"^\s*(?:v\.?|vs\.?|and|IN\s+RE:?|No\.|Case\b|.*LITIGATION\s*$)", re.IGNORECASE)
_VERSUS = re.compile(
    r"^(?P<label>[ \t]*(?:Re|RE|Short\s+Title|Caption|Case\s+Name):?[ \t]*)?(?P<a>[A-Z][^\n]{1,80}?)[ \t]+v\.[ \t]+"
    r"(?P<b>[A-Z][^\n,(]{1,80})",
    re.MULTILINE,
)
# A docket field's caption wraps: the next line continues the second name when it holds only capitalised
# words (and connectors), no label ("DC Docket #:"), no number ("No. 17-3510").
_WRAPPED_NAME = re.compile(
    r"\n[ \t]*[A-Z][\w.&'’\-]*"  # a capitalised word opens the line, only such words and connectors follow
    r"(?:[ \t]+(?:[A-Z][\w.&'’\-]*|of|and|the|&|de|for))*[ \t]*(?=\n|$)"
)
_CITATION_AFTER = re.compile(r"^[^\n]{0,40}?(?:\d+\s+(?:WL|U\.S\.|F\.|S\.\s?Ct\.)|__)")
_IN_RE = re.compile(  # `Inre:` too: OCR often drops the space
    r"\bIn\s*re\b:?[ \t]*\n?[ \t]*(?P<name>[A-Z][^\n]{2,80}(?:\n(?![ \t]*(?:No\.|Case|\n))[^\n]{1,80}){0,2})",
    re.IGNORECASE,
)
_APPEAL_BY = re.compile(
    r"notice\s+of\s+appeal\s+(?:was\s+)?filed\s+by\s+(?:the\s+)?(?P<name>[A-Z][\w.&'’\-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w.&'’\-]*){0,8})"
)
_ET_AL = re.compile(r",?\s+et\s+al\.?,?\s*$", re.IGNORECASE)


def caption_parties(text: str, caption_reach: int = 3000) -> list[RawParty]:
    """Parties from the caption area (the first `caption_reach` characters) of a court document."""
    area = text[:caption_reach]
    out: list[RawParty] = []
    blocks = block_parties(text)  # read first: a `X, PETITIONER v. Y` line is theirs, not a `X v. Y` caption's
    for m in _VERSUS.finditer(area):
        if not _caption_line(area, m) or _CITATION_AFTER.match(area, m.end("b")):
            continue
        label = m["label"].split()[0] if m["label"] else ""  # Short, Caption, Case: a docket field
        b_end = m.end("b")
        if label[:1] in ("S", "C") and (wrapped := _WRAPPED_NAME.match(area, b_end)) and _wraps(m, wrapped.group()):
            b_end = wrapped.end()
        a, b = m["a"].rstrip(" ,"), area[m.start("b") : b_end].rstrip(" ,.")
        for name, role, start in ((a, "plaintiff", m.start("a")), (b, "defendant", m.start("b"))):
            name_ = _caption_name(name)
            cut = label == "Short" and maybe_cut(name_)
            out.append(RawParty(name_, role, None, start, start + len(name), truncated=cut))
    for m in _IN_RE.finditer(area):
        if re.search(r"\bLITIGATION\b|\bPRACTICES\b", m["name"], re.IGNORECASE):  # a matter's name, not a party
            continue
        # The docket number often shares the line: `In re: RICHARD P. LIEBOWITZ   No. 21-800`.
        name = re.split(r"\s+No\.\s*\d|\s{3,}", m["name"].split("\n")[0])[0].strip().rstrip(",")
        if not looks_like_person(name.title()):
            continue
        out.append(RawParty(_caption_name(name), "respondent", None, m.start("name"), m.start("name") + len(name)))
    for m in _APPEAL_BY.finditer(text) if "notice of appeal" in lowered(text) else ():
        out.append(RawParty(m["name"], "appellant", None, m.start("name"), m.end("name")))
    return complete_truncated(_named(_dedupe(out, blocks)))


_WRAP_WIDTH = 40  # a caption line shorter than this did not wrap: what follows it is another line


def _wraps(m: re.Match[str], line: str) -> bool:
    """Whether `line` is the rest of the caption's second name: after a long line, in the name's case style
    (a `DOCKETING NOTICE` heading does not continue `Acme Corp`), within the docket system's width for a short
    title."""
    b = m["b"].rstrip()
    if m.end("b") - m.start() < _WRAP_WIDTH or line.isupper() != b.isupper():
        return False
    return not m["label"].lstrip().startswith("Short") or len(b) + len(" ".join(line.split())) + 1 <= SHORT_TITLE_WIDTH


def _caption_line(area: str, m: re.Match[str]) -> bool:
    """`X v. Y` is a caption when it opens its line after a label, a blank line or the start of the text."""
    if m["label"]:
        return True
    before = area[: m.start()].rstrip(" \t")
    return (
        not before
        or before.endswith("\n\n")
        or before.endswith(":")
        or (before[-1] == "\n" and before[:-1].rstrip(" \t").endswith(":"))
    )


def _name_lines_before(area: str, pos: int) -> tuple[int, int] | None:
    """The (at most three) name lines just above a role line, stopping at blank lines, `v.` or `In re`."""
    end = pos - 1 if pos > 0 else 0
    start = end
    for _ in range(3):
        line_start = area.rfind("\n", 0, start) + 1 if start > 0 else 0
        line = area[line_start:start]
        if not line.strip() or _CAPTION_STOP.match(line) or _ROLE_LINE.match(line):
            break
        start = line_start
        if line_start == 0:
            break
        start = line_start - 1 if line_start > 0 else 0
    s = start + 1 if start < end and area[start] == "\n" else start
    s = s + len(area[s:end]) - len(area[s:end].lstrip())
    return (s, end) if s < end else None


def _caption_name(name: str) -> str:
    name = _ET_AL.sub("", " ".join(name.split()).lstrip("] |")).strip(" ,.")
    return name


def _role(word: str) -> str:
    """`Plaintiffs-Appellants` -> `plaintiff-appellant`."""
    parts = [p[:-1] if p.endswith("s") and p[:-1] in ROLE_WORDS else p for p in re.split(r"[-–/]", word.lower())]
    return "-".join(parts)


# Words that say what side someone is on in a lawsuit, never who: a caption's "Defendant, Appellee." and a
# notice's "appeal filed by Defendant" name no party. (Not a contract's roles: "Owner Operator Independent
# Drivers Association" is a name.)
_GENERIC = frozenset({"plaintiff", "defendant", "petitioner", "respondent", "appellant", "appellee", "intervenor",
                      "claimant", "relator", "movant", "debtor", "cross", "counter", "the", "et", "al", "party",
                      "parties", "said"})


def _generic(word: str) -> bool:
    bare = word.strip(",.;:()").lower()
    return bare in _GENERIC or (bare.endswith("s") and bare[:-1] in _GENERIC)


def _named(parties: list[RawParty]) -> list[RawParty]:
    """The parties that have a name: a role word before a name is dropped ("Plaintiff Acme Corp." is Acme
    Corp.), and a "name" made of role words alone ("Defendant", "THE DEFENDANTS") is no party."""
    out = []
    for p in parties:
        words = p.name.split()
        lead = 0
        while lead < len(words) and all(_generic(part) for part in re.split(r"[-–/]", words[lead]) if part):
            lead += 1
        if lead == len(words):
            continue
        if lead:
            start = p.name.index(words[lead])
            p = replace(p, name=p.name[start:], start=p.start + start)
        out.append(p)
    return out


def _dedupe(parties: list[RawParty], first: list[RawParty]) -> list[RawParty]:
    """`parties` that overlap no earlier one, after `first`, in reading order."""
    out: list[RawParty] = list(first)
    for p in sorted(parties, key=lambda p: (p.start, -p.end)):
        if any(p.start < q.end and q.start < p.end for q in out):
            continue
        out.append(p)
    return sorted(out, key=lambda p: p.start)
