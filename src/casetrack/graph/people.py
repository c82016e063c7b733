"""People named in a document and their roles: judges, clerks, attorneys and signatories from
titles and signature lines near their keywords, panels (`Before: ... Circuit Judges`) and court
letterheads (each name stacked on its title, or two columns flattened to names then titles)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from casetrack.graph.scan import finditer_in, index_keywords, keyword_hits, near_keywords, windows_at

_WORD = r"[A-ZÀ-ÖØ-Þ][A-Za-zÀ-ÖØ-öø-ÿ\-]*(?:['’][A-Za-z]{2,}[A-Za-z\-]*)?"  # O'Hagan, Jesús, not Xiang's
# An initial may carry a doubled period, OCR noise for one ("CHRISTOPHER M.. WOLPERT").
# Two signature blocks side by side come out as one line ("/s/ Sanat K. Dutta   By: /s/ Joe Booker"):
# a name never goes on into the next block's label.
_LABEL = r"(?:By|Name|Title|Its|Date|Dated|Signature)\b"
_SUFFIX = r"(?:,?[ \t]+(?:Jr\.|Sr\.|JR\.|SR\.|II|III|IV)(?=[\s,.]))?"
# A name may open with an initial before a name ("J. PAUL OETKEN"; not "C. J.", nor a word's end, "Co. Paul").
_INITIAL = r"(?:(?<![\w.])[A-Z]\.[ \t]+(?=[A-Za-z]{2}))?"
_NAME = rf"{_INITIAL}{_WORD}(?:[ \t]+(?:[A-Z]\.\.?|(?!{_LABEL}){_WORD})){{0,3}}{_SUFFIX}"
_OFFICE = (
    r"(?:Secretary|Attorney|Governor|Lieutenant|Senator|Representative|Mayor|Commissioner|Clerk|Director|Treasurer"
    r"|Auditor|Sheriff|Member|Chair|Chairman|President|Speaker)\b"
)
_HON_NAME = rf"{_WORD}(?:[ \t]+(?:[A-Z]\.\.?|(?!{_LABEL}|{_OFFICE}){_WORD})){{0,3}}{_SUFFIX}"
_TITLE = r"(?:Chief[ \t]+|Circuit[ \t]+|District[ \t]+|Magistrate[ \t]+|Senior[ \t]+|Bankruptcy[ \t]+|Associate[ \t]+)?"
# A signature line above its title, in either case; OCR may end the name with a stray period and open the
# title line with a table rule ("Christopher M. Wolpert.\n| Clerk of Court").
_CLERK_LINE = (
    rf"^[ \t]*(?:(?:Mr|Ms|Mrs|Dr)\.[ \t]+)?(?P<name>{_NAME})[,.]?[ \t]*\n[ \t|\]]*(?:Clerk|CLERK)"
    r"(?:[ \t]+(?:of|OF)[ \t]+(?:(?:the|THE)[ \t]+)?(?:Court|COURT))?\b"
)
# A judge's signature: the name on its own line above the title ("AMY BERMAN JACKSON\nUnited States District Judge")
_JUDGE_TITLE_LINE = (
    r"[ \t]*\n[ \t]*(?:United[ \t]+States[ \t]+|U\.[ \t]?S\.[ \t]+)?(?:Chief[ \t]+|Senior[ \t]+)?(?:Circuit|District"
    r"|Magistrate|Bankruptcy)[ \t]+Judge"
)
_HON = rf"\b(?:Hon\.|Honorable)[ \t]+(?P<name>(?>{_HON_NAME}))(?![ \t,]+{_OFFICE})"
_CLOSING = (r"(?:Sincerely(?:[ \t]+yours)?|(?:Very[ \t]+)?[Tt]ruly[ \t]+yours|Yours[ \t]+(?:truly|sincerely|faithfully)"
            r"|(?:Best|Kind)[ \t]+regards)")
_COUNSEL_NEXT = r"(?=[ \t]*\n[ \t]*(?:Counsel|Attorneys?)[ \t]+for)"
# (pattern, role, keywords, needs): each pattern's "name" group is a person; the pattern runs only near its
# (lower-case) keywords. Order matters only for overlaps: the first find of a span wins. `needs`, when set, is
# what every match holds (no lookaround, no anchor): `re` tries a pattern opening with a name at every position,
# costly where it cannot match, so a window without `needs` is skipped.
PERSON_PATTERNS: tuple[tuple[re.Pattern[str], str, tuple[str, ...], re.Pattern[str] | None], ...] = tuple(
    (re.compile(p, re.MULTILINE), role, keywords, re.compile(needs) if needs else None)
    for p, role, keywords, needs in (
        # "Hon." is a courtesy of every official: one named with another office is no judge
        (_HON, "judge", ("hon",), None),
        (rf"\b{_TITLE}(?:Justice|JUSTICE)[ \t]+(?P<name>{_NAME})(?:[ \t]+(?:delivered|announced|took[ \t]+no[ \t]+part)"
         r"|,[ \t]+(?:concurring|dissenting))", "judge", ("delivered", "announced", "took no part", "concurring",
         "dissenting"), r"(?:Justice|JUSTICE)[ \t]"),
        # an opinion's author as a slip opinion heads it: "SCALIA, J., concurring", "KENNEDY, J., delivered the
        # opinion"; not "(Stevens, J., dissenting)", a parenthetical naming the author of another opinion
        (rf"(?:^[ \t]*|(?<=\. )|(?<=\band ))(?P<name>{_NAME}),[ \t]+(?:C\.[ \t]?)?J\.,[ \t\n]+(?:delivered|filed"
         r"|announced|concurring|dissenting|took[ \t]+no[ \t]+part)", "judge", ("j.,",), r",[ \t]+(?:C\.[ \t]?)?J\.,"),
        (rf"(?P<name>{_NAME}),[ \t]+{_TITLE}(?:Judge|Justice)s?\b", "judge", ("judge", "justice"),
         rf",[ \t]+{_TITLE}(?:Judge|Justice)"),
        (rf"\b{_TITLE}Judge:?[ \t]+(?P<name>{_NAME})", "judge", ("judge",), None),
        (rf"^[ \t]*(?:/s/[ \t]*)?(?P<name>{_NAME})(?={_JUDGE_TITLE_LINE}\b)", "judge", ("judge",), _JUDGE_TITLE_LINE),
        # a New York decision's head: the justice alone on a line ("Gomez, J.")
        (rf"^[ \t]*(?P<name>{_NAME}),[ \t]+J\.[ \t]*$", "judge", ("j.",), r",[ \t]+J\.[ \t]*\n"),
        (_CLERK_LINE, "clerk", ("clerk",), None),
        (rf"(?P<name>{_NAME}),[ \t]+Clerk\b", "clerk", ("clerk",), r",[ \t]+Clerk"),
        (rf"(?:^|[ \t])/?s/[ \t]*(?P<name>{_NAME}){_COUNSEL_NEXT}", "attorney", ("s/",), None),
        (rf"(?P<name>{_NAME}),?[ \t]+Esq\.?", "attorney", ("esq",), r"[ \t]Esq"),
        (rf"(?:^|[ \t])/?s/[ \t]*(?P<name>{_NAME})", "signatory", ("s/",), None),
        (rf"^[ \t]*Name:[ \t]*(?P<name>{_NAME})[ \t]*$", "signatory", ("name:",), None),
        # a letter's signature: the name alone on its line under the closing, a blank line or three (the signature
        # itself, which a scan reads as nothing) between them
        (rf"^[ \t]*{_CLOSING},?[ \t]*\n(?:[ \t]*\n){{0,3}}[ \t]*(?P<name>(?=\S+[ \t]+[A-Z]){_NAME})[ \t]*$",
         "signatory", ("sincerely", "yours", "regards"), None),
        (rf"\b(?:Mr|Ms|Mrs|Dr|Prof)\.[ \t]+(?P<name>{_NAME})", "", ("mr.", "ms.", "mrs.", "dr.", "prof."), None),
    )
)  # fmt: skip
_PERSON_REACH = 90  # a name and its title sit within this many characters of the keyword
_BEFORE_PANEL = re.compile(
    rf"\bBefore:?[ \t\n]+(?P<names>(?:{_NAME},?[ \t\n]+(?:and[ \t\n]+)?){{1,4}})(?:U\.[ \t]?S\.[ \t]+)?{_TITLE}Judges\b"
)
# The justices joining an opinion: "in which ROBERTS, C. J., and SCALIA, THOMAS, BREYER, ALITO, and SOTOMAYOR, JJ.,
# joined"; the list runs to the last justice's "J." or "JJ."
_JOINED = re.compile(r"\bin[ \t\n]+which[ \t\n]+(?P<names>[^;:()]{1,220}?,[ \t\n]+JJ?\.,[ \t\n]+joined)")
_JOINED_NEEDS = re.compile(r"J\.,[ \t\n]+joined")
_LETTERHEAD_TITLE = re.compile(
    r"^[ \t]*(CHIEF JUDGE|CLERK OF COURT|CIRCUIT EXECUTIVE|CHIEF JUSTICE|CLERK)[ \t]*$", re.MULTILINE
)
_CAPS_NAME_LINE = re.compile(r"^[ \t]*([A-Z][A-Z'’\-]+(?:[ \t]+(?:[A-Z]\.|[A-Z][A-Z'’\-]+)){1,3})[ \t]*$", re.MULTILINE)
_NOT_A_NAME = frozenset(
    [
        "court",
        "clerk",
        "judge",
        "judges",
        "district",
        "chief",
        "senior",
        "magistrate",
        "order",
        "united",
        "states",
        "circuit",
        "notice",
        "docketing",
        "appeal",
        "case",
        "page",
        "date",
        "filed",
        "document",
        "plaintiff",
        "defendant",
        "the",
        "of",
        "for",
        # sentence openers before a comma and a title: "Next, Justice Powell identified ..."
        "next",
        "first",
        "second",
        "finally",
        "however",
        "thus",
        "accordingly",
        "moreover",
        "further",
        "furthermore",
        "indeed",
        "similarly",
        "likewise",
        "nevertheless",
        "nonetheless",
        "therefore",
        # a sentence after a title's colon: "Edwards, Chief Judge:  This case involves ..."
        "this",
        "that",
        "these",
        "those",
        "it",
        "we",
        "in",
        "on",
        # bodies addressed as "Honorable": "Honorable Members of the Board", "the Honorable Board of Supervisors"
        "members",
        "member",
        "board",
        "commission",
        "commissioners",
        "council",
        "supervisors",
        "trustees",
        "committee",
    ]
)
_PANEL_KEYWORDS = ("before",)
index_keywords([*(kw for _, _, keywords, _ in PERSON_PATTERNS for kw in keywords), *_PANEL_KEYWORDS, "joined"])


def people(text: str, low: str) -> Iterator[tuple[int, int, str, str | None]]:
    """People named in `text` (`low` is its lower-cased copy): (start, end, name, role), role None when unknown."""
    for pattern, role, keywords, needs in PERSON_PATTERNS:
        windows = windows_at(keyword_hits(low, keywords), len(text), _PERSON_REACH)
        if needs is not None:  # a window holding no match of `needs` holds none of `pattern`
            windows = [(lo, hi) for lo, hi in windows if needs.search(text, lo, hi)]
        for m in finditer_in(pattern, text, windows):
            name = _clean_person(m["name"])
            if name and pattern.pattern == _HON and _holds_an_office(text, name):
                continue  # "Hon. Alison Lundergan Grimes" heads a letter to the "... Secretary of State" it names
            if name:
                s = m.start("name")
                yield s, s + _raw_length(m["name"], name), name, role or None
    for m in near_keywords(_BEFORE_PANEL, _PANEL_KEYWORDS, text, low, 200):
        for n in re.finditer(_NAME, m["names"]):
            name = _clean_person(n.group())
            if name:
                s = m.start("names") + n.start()
                yield s, s + _raw_length(n.group(), name), name, "judge"
    joined = windows_at(keyword_hits(low, ("joined",)), len(text), 240)
    for m in finditer_in(_JOINED, text, [(lo, hi) for lo, hi in joined if _JOINED_NEEDS.search(text, lo, hi)]):
        for n in re.finditer(_NAME, m["names"]):
            name = _clean_person(n.group())
            if name and len(name.rstrip(".")) > 2:  # not the "C. J." or "JJ." after a name
                s = m.start("names") + n.start()
                yield s, s + _raw_length(n.group(), name), name, "judge"
    yield from _letterhead(text)


def _holds_an_office(text: str, name: str) -> bool:
    """Whether the document names `name` with an office other than a judge's anywhere ("..., Secretary of State")."""
    return re.search(re.escape(name) + rf",?[ \t\n]+{_OFFICE}", text) is not None


def _letterhead(text: str) -> Iterator[tuple[int, int, str, str | None]]:
    """Letterheads: each name stacked on its title (`ROBERT A. KATZMANN` / `CHIEF JUDGE`, then `CATHERINE O'HAGAN
    WOLFE` / `CLERK OF COURT`), or two columns (`KATZMANN  WOLFE` above `CHIEF JUDGE  CLERK OF COURT`) flattened
    to name lines followed by title lines in the same order."""
    head = text[:1500]
    titles = list(_LETTERHEAD_TITLE.finditer(head))
    if not titles:
        return
    stacked = [(name, t) for t in titles if (name := _stacked_name(head, t))]
    if stacked:
        for name_m, title_m in stacked:
            yield name_m.start(1), name_m.end(1), name_m.group(1), _title_role(title_m)
        return
    first_title = titles[0].start()
    names = [m for m in _CAPS_NAME_LINE.finditer(head, 0, first_title) if _clean_person(m.group(1))]
    run_titles = [
        t
        for t in titles
        if not head[first_title : t.start()].strip("\n \t") or _only_titles(head, first_title, t.start())
    ]
    names = names[-len(run_titles) :] if len(names) >= len(run_titles) else []
    for name_m, title_m in zip(names, run_titles, strict=False):
        yield name_m.start(1), name_m.end(1), name_m.group(1), _title_role(title_m)


def _title_role(title: re.Match[str]) -> str:
    return "judge" if "JUDGE" in title.group(1) or "JUSTICE" in title.group(1) else "clerk"


def _stacked_name(head: str, title: re.Match[str]) -> re.Match[str] | None:
    """The name line right above a title line, when it is a pair of its own: no name line above it and no
    title line below the title (in a flattened two-column head, the last name sits above the first title)."""
    above_end = title.start() - 1
    if above_end <= 0 or head[above_end] != "\n":
        return None
    above_start = head.rfind("\n", 0, above_end) + 1
    name = _CAPS_NAME_LINE.fullmatch(head, above_start, above_end)
    if name is None or not _clean_person(name.group(1)):
        return None
    before_start = head.rfind("\n", 0, max(0, above_start - 1)) + 1
    if above_start > 0 and _CAPS_NAME_LINE.fullmatch(head, before_start, above_start - 1):
        return None
    below_end = head.find("\n", title.end() + 1)
    below = head[title.end() + 1 : below_end if below_end != -1 else len(head)]
    return None if _LETTERHEAD_TITLE.fullmatch(below) else name


def _only_titles(head: str, lo: int, hi: int) -> bool:
    return all(not line.strip() or _LETTERHEAD_TITLE.match(line) for line in head[lo:hi].split("\n"))


def _raw_length(raw: str, name: str) -> int:
    """Length in `raw` of the cleaned `name` (which may have lost trailing words)."""
    words = name.split()
    pos = 0
    for w in words:
        pos = raw.index(w, pos) + len(w)
    return pos


def _clean_person(name: str) -> str | None:
    """Whitespace collapsed, doubled periods undone (`M..`); a run in another case style cut off
    (`Brian Hayek BRIAN HAYEK` -> `Brian Hayek`)."""
    raw_words = " ".join(name.replace("..", ".").split()).rstrip(",").split()
    kept: list[str] = []
    for w in raw_words:
        caps = w.isupper() and len(w.strip(".,")) > 1
        if kept and any(not k.isupper() for k in kept if len(k.strip(".,")) > 1) and caps:
            break
        kept.append(w)
    name = " ".join(kept).rstrip(",")
    words = [w.lower().strip(".,") for w in name.split()]
    if not words or words[0] in _NOT_A_NAME or any(w in _NOT_A_NAME for w in words[-1:]):
        return None
    return name
