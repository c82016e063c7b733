"""The citation that follows a quotation in a draft, read into what it names.

Record citations as briefs write them: a document by its name or title words and a place in it
(`Supply Agreement.pdf, p. 4`, `Supply Agmt. § 8.1`, `Compl. ¶ 12`, `Smith Dep. 45:3-7`), exhibits
(`Ex. 4 at 12`), docket entries (`ECF No. 23 at 5`), Bates numbers (`ACME000123`), `Id.`; and
authorities (`Fisher, 570 U.S. at 310`), which eyecite finds in the draft (drafted.py) and this
module only places after their quotation. A parenthetical (`(Compl. ¶ 12)`), signals (`See`,
`see also`, `cf.`), several citations joined by `;` and a trailing `(emphasis added)` are read as
lawyers write them. Nothing here looks at the case: resolve.py does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.verify.authorities.drafted import DraftAuthority


@dataclass(frozen=True, slots=True)
class Locator:
    """A place inside a document as cited."""

    pages: tuple[int, int] | None = None
    lines: tuple[int, int] | None = None  # with `pages`: from line pages[0]:lines[0] to pages[1]:lines[1]
    paragraphs: tuple[int, int] | None = None  # numbered paragraphs (¶ 12-14)
    section: str | None = None  # "8.1", "8.1(a)", "V"

    @property
    def empty(self) -> bool:
        return self.pages is None and self.paragraphs is None and self.section is None


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation as written (`text`, at draft offsets [start, end)) and what it names."""

    text: str
    start: int
    end: int
    kind: str  # document | exhibit | ecf | bates | id | authority
    name: str = ""  # the naming words as written: "Supply Agmt.", "Smith Dep.", "Supply Agreement.pdf"
    number: str = ""  # an exhibit's or docket entry's number
    locator: Locator = Locator()
    bates: tuple[str, str] | None = None  # first and last stamp
    authority: DraftAuthority | None = None
    tentative: bool = False  # naming words alone before more prose: a citation only if they name a document


_SIGNAL = re.compile(
    r"(?:(?:[Ss]ee|[Cc]f\.|[Aa]ccord|[Cc]ompare|[Bb]ut\s+see|[Ss]ee\s+also|[Ss]ee\s+generally|[Ss]ee,\s+e\.g\.,|"
    r"[Ee]\.g\.,)\s*,?\s*)+")
_LEAD = re.compile(r"[\s\"'\u201c\u201d\u2018\u2019,.;:!?\]]*")
_NUM = r"\d{1,5}"


def _range_end(group: str) -> str:
    return rf"\s*[-\u2013\u2014]\s*(?P<{group}>{_NUM})"



_PAGE_LINE = re.compile(
    rf"(?:at\s+)?(?:pp?\.\s*)?(?P<p1>{_NUM}):(?P<l1>{_NUM})"
    rf"(?:\s*[-\u2013\u2014]\s*(?:(?P<p2>{_NUM}):)?(?P<l2>{_NUM}))?")
_PAGES = re.compile(
    rf"(?:at\s+(?:pp?\.\s*)?|pp?\.\s*|pages?\s+|Page\s+)(?P<pg1>{_NUM})(?:{_range_end('pg2')})?"
    rf"(?:\s*[,:]?\s*(?:ll?\.|lines?)\s*(?P<ln1>{_NUM})(?:{_range_end('ln2')})?)?")
_PARAGRAPHS = re.compile(
    rf"(?:\u00b6\u00b6?|[Pp]aras?\.|[Pp]aragraphs?)\s*(?P<pa1>{_NUM})(?:{_range_end('pa2')})?")
_SECTION = re.compile(
    r"(?:\u00a7\u00a7?|[Ss]ections?|[Ss]ecs?\.|[Aa]rt\.|[Aa]rticle|ARTICLE|SECTION)\s*"
    r"(?P<sec>(?:\d+|[IVXLC]+)(?:\.\d+)*[A-Za-z]?(?:\([a-zA-Z0-9]{1,4}\))*)")
_LOCATOR_JOIN = re.compile(r"\s*,?\s*")
_ID = re.compile(r"(?:[Ii]d\.|[Ii]bid\.?)(?!\w)")
_BATES = re.compile(
    r"(?P<b1>[A-Z][A-Z0-9]{1,11}(?:[-_][A-Z][A-Z0-9]{0,7})?[ _-]?\d{4,10})(?!\w)"
    r"(?:\s*[-\u2013]\s*(?P<b2>(?:[A-Z][A-Z0-9]{1,11}(?:[-_][A-Z][A-Z0-9]{0,7})?[ _-]?)?\d{1,10})(?!\w))?")
_ECF = re.compile(
    r"(?:ECF|Dkt\.?|Doc\.?|D\.E\.|Docket(?:\s+Entry)?|Dkt\.\s+Entry)\s*(?:No\.?\s*|#\s*)?(?P<num>\d{1,5})(?!\w)"
    r"(?:-\d{1,3})?")
_EXHIBIT = re.compile(
    r"(?P<who>(?:(?:[A-Z][\w.\u2019']*|Joint|Trial)\s+){0,3})(?:Exhibit|EXHIBIT|Exhs?\.|Exs?\.|Ex\.|PX|DX|JX)\s*"
    r"(?P<num>\d{1,4}(?:[-.]\d{1,3})?[A-Z]?|[A-Z]{1,2}(?:-\d{1,3})?)(?![\w.]\w)")
# A document's naming words: a capitalised word or abbreviation (`Supply`, `Agmt.`, `Pl.'s`, `Opp'n`), a file
# name (`supply_agreement.pdf`), and the small words titles hold ("vol." of "Trial Tr. vol. II"); up to ten of them.
_NAME_WORD = r"(?:[A-Z0-9][\w\u2019'&.-]*|[\w.-]+\.(?:pdf|docx?|txt|rtf|odt|eml|msg|png|jpe?g|tiff?)\b)"
_NAME = re.compile(rf"(?P<name>{_NAME_WORD}(?:\s+(?:{_NAME_WORD}|of|to|for|the|and|in|on|re|v\.|vol\.|&|"
                   r"[-\u2013\u2014])){0,9})")
_TRAILING_PAREN = re.compile(r"\s*\((?:emphasis|alteration|internal|quotation|citation|footnote|brackets)[^()]*\)")


def citation_after(text: str, at: int, end: int, authorities: Sequence[DraftAuthority]
                   ) -> list[Citation]:
    """The citations that follow a quotation ending at `at`, before `end` (the next quotation or the paragraph's
    end). `authorities` are the draft's authority mentions as (start, end, mention), in order. Empty: it cites
    nothing."""
    m = _LEAD.match(text, at, end)
    pos = m.end() if m else at
    if pos < end and text[pos] == "(":
        close = _closing_paren(text, pos, end)
        if close is not None:
            found = _citation_list(text, pos + 1, close, authorities)
            if found:
                return found
            # "(emphasis added)" and the like, then the citation.
            pos = _LEAD.match(text, close + 1, end).end()  # type: ignore[union-attr]
            if pos < end and text[pos] == "(":
                close = _closing_paren(text, pos, end)
                return _citation_list(text, pos + 1, close, authorities) if close is not None else []
    return _citation_list(text, pos, end, authorities)


def _closing_paren(text: str, at: int, end: int) -> int | None:
    depth = 0
    for i in range(at, end):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def _citation_list(text: str, pos: int, end: int, authorities: Sequence[DraftAuthority]
                   ) -> list[Citation]:
    """Citations from `pos`, joined by semicolons."""
    out: list[Citation] = []
    while pos < end:
        sig = _SIGNAL.match(text, pos, end)
        if sig:
            pos = sig.end()
        cite = citation_at(text, pos, end, authorities)
        if cite is None:
            break
        out.append(cite)
        pos = cite.end
        trailing = _TRAILING_PAREN.match(text, pos, end)
        if trailing:
            pos = trailing.end()
        join = re.compile(r"\s*;\s*").match(text, pos, end)
        if not join:
            break
        pos = join.end()
    return out


def citation_at(text: str, pos: int, end: int, authorities: Sequence[DraftAuthority]
                ) -> Citation | None:
    """The one citation that begins at `pos`, if any."""
    for authority in authorities:
        if authority.start > pos + 2:
            break
        if pos <= authority.start <= pos + 2 and authority.end <= end:
            stop = _pin_end(text, authority.end, end)
            return Citation(text[authority.start:stop], authority.start, stop, "authority", authority=authority)
    for reader in (_id_citation, _bates_citation, _ecf_citation, _exhibit_citation, _named_citation):
        cite = reader(text, pos, end)
        if cite is not None:
            return cite
    return None


_PIN_AND_PAREN = re.compile(r"(?:,?\s*(?:at\s+)?\*?\d+(?:\s*[-\u2013]\s*\*?\d+)?(?:\s*n\.\s*\d+)?)*"
                            r"(?:\s*\([^()]{0,80}\))?")


def _pin_end(text: str, at: int, end: int) -> int:
    """Where an authority's citation ends as written: after its pin cite and its court-and-year parenthetical."""
    m = _PIN_AND_PAREN.match(text, at, end)
    return m.end() if m else at


def _id_citation(text: str, pos: int, end: int) -> Citation | None:
    m = _ID.match(text, pos, end)
    if not m:
        return None
    locator, stop = locator_at(text, m.end(), end)
    return Citation(text[pos:stop], pos, stop, "id", locator=locator)


def _bates_citation(text: str, pos: int, end: int) -> Citation | None:
    m = _BATES.match(text, pos, end)
    if not m or _EXHIBIT.match(text, pos, end) or _ECF.match(text, pos, end):
        return None
    first = m["b1"]
    last = m["b2"] or first
    if m["b2"] and not re.match(r"[A-Z]", last):  # ACME000123-25: the end's serial shares the start's prefix
        serial = re.search(r"\d+$", first).group()  # type: ignore[union-attr]
        last = first[: len(first) - len(last)] + last if len(last) < len(serial) else first[: -len(serial)] + last
    return Citation(text[pos:m.end()], pos, m.end(), "bates", bates=(first, last))


def _ecf_citation(text: str, pos: int, end: int) -> Citation | None:
    m = _ECF.match(text, pos, end)
    if not m:
        return None
    locator, stop = locator_at(text, m.end(), end)
    return Citation(text[pos:stop], pos, stop, "ecf", number=m["num"], locator=locator)


def _exhibit_citation(text: str, pos: int, end: int) -> Citation | None:
    m = _EXHIBIT.match(text, pos, end)
    if not m:
        return None
    locator, stop = locator_at(text, m.end(), end)
    return Citation(text[pos:stop], pos, stop, "exhibit", name=m["who"].strip(), number=m["num"], locator=locator)


def _named_citation(text: str, pos: int, end: int) -> Citation | None:
    """Naming words, then a place: the naming words end where the longest reading leaves a locator after them.
    Naming words alone are a citation only where nothing else could follow: the parenthetical's or the
    paragraph's end, a semicolon, or, after a closing full stop, the next sentence."""
    file_name = _FILE_NAME.match(text, pos, end)
    if file_name:  # a file name as the citation's name: it may hold anything ("Smith v. Jones (2021).pdf")
        sep = _LOCATOR_JOIN.match(text, file_name.end(), end)
        locator, stop = locator_at(text, sep.end() if sep else file_name.end(), end)
        name = file_name["name"]
        return Citation(text[pos:stop] if not locator.empty else name, pos, stop if not locator.empty else
                        file_name.end(), "document", name=name, locator=locator)
    m = _NAME.match(text, pos, end)
    if not m:
        return None
    name_words = list(re.finditer(r"\S+", m["name"]))
    for count in range(len(name_words), 0, -1):
        name_end = pos + name_words[count - 1].end()
        sep = _LOCATOR_JOIN.match(text, name_end, end)
        locator, stop = locator_at(text, sep.end() if sep else name_end, end)
        if not locator.empty:
            name = text[pos:name_end].rstrip(",")
            return Citation(text[pos:stop], pos, stop, "document", name=name, locator=locator)
    for count in range(len(name_words), 0, -1):
        name = text[pos:pos + name_words[count - 1].end()].rstrip(",")
        rest = text[pos + len(name):end]
        if _LOCATOR_HINT.search(rest, 0, 80):
            return None  # a place is cited after words this reading does not take as the name: no guessing
        sentence_end = name.endswith(".") and not _ABBREVIATION.search(name)
        ends = _NAME_ONLY_END.match(rest) or (sentence_end and _NEXT_SENTENCE.match(rest))
        if (ends or rest.startswith(",")) and re.search(r"[A-Za-z]{3}", name):
            name = name.rstrip(".")
            return Citation(name, pos, pos + len(name), "document", name=name, tentative=not ends)
    return None


_NAME_ONLY_END = re.compile(r"\.?\s*(?:[);]|$)")
_LOCATOR_HINT = re.compile(r"\bat\s+\d|\bpp?\.\s*\d|\u00a7|\u00b6|\d+:\d+")
# A last word that is an abbreviation ("v.", "Agmt.", "Inc."): its full stop ends no sentence.
_ABBREVIATION = re.compile(r"(?:\b[A-Za-z]{1,4}|\b[A-Z][a-z]*[A-Z]\w*|\b(?:Agmt|Assoc|Corp|Dept|Univ|Intl))\.$")
_FILE_NAME = re.compile(r"(?P<name>[^;\n\"\u201c\u201d]{1,160}?\.(?:pdf|docx?|txt|rtf|odt|eml|msg|png|jpe?g|tiff?))"
                        r"(?=[\s,;)]|$)", re.IGNORECASE)
_NEXT_SENTENCE = re.compile(r"\s+[A-Z\"\u201c(]")


def locator_at(text: str, pos: int, end: int) -> tuple[Locator, int]:
    """The places cited from `pos` (`at 4`, `p. 4, ll. 2-5`, `§ 8.1`, `¶¶ 12-14`, `45:3-46:2`, or several joined by
    commas), and where they end. An empty Locator ends at `pos`."""
    pages = lines = paragraphs = None
    section = None
    stop = pos
    while True:
        lead = _LOCATOR_JOIN.match(text, stop, end)
        at = lead.end() if lead else stop
        if pages is None and (m := _PAGE_LINE.match(text, at, end)):
            pages = (int(m["p1"]), int(m["p2"] or m["p1"]))
            lines = (int(m["l1"]), int(m["l2"] or m["l1"]))
        elif pages is None and (m := _PAGES.match(text, at, end)):
            pages = (int(m["pg1"]), int(m["pg2"] or m["pg1"]))
            if m["ln1"]:
                lines = (int(m["ln1"]), int(m["ln2"] or m["ln1"]))
        elif paragraphs is None and (m := _PARAGRAPHS.match(text, at, end)):
            paragraphs = (int(m["pa1"]), int(m["pa2"] or m["pa1"]))
        elif section is None and (m := _SECTION.match(text, at, end)):
            section = m["sec"]
        else:
            break
        stop = m.end()
    if pages is not None and pages[1] < pages[0] and lines is None:
        pages = (pages[0], _expand_short_range(pages[0], pages[1]))
    return Locator(pages, lines, paragraphs, section), stop


def _expand_short_range(first: int, last: int) -> int:
    """"at 123-25" means 123-125."""
    digits = len(str(last))
    return int(str(first)[:-digits] + str(last)) if digits < len(str(first)) else last
