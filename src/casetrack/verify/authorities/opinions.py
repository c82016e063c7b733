"""Authorities the draft cites that the case itself holds: opinions, statutes, rules, and their pages.

An opinion in the case is known by its own citation on its first page ("590 F.Supp.3d 850" on a line
of its own, or a slip opinion's "Cite as: 570 U. S. ____"), and its reporter pages by the page markers
a reporter's copy carries ("[590 F.Supp.3d 857]", "*857"). A pin cite then names the stretch from
its page's marker to the next, and whether it falls inside the opinion at all. A copy without markers
(a slip opinion) cannot show a reporter page: a pin into it is reported as not checked, never
verified. A statute or rule is in the case when a document names its section in its file name or
opening words, with the words of its code. Everything else cited cannot be checked locally, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from casetrack.domain import Document
from casetrack.graph.citations.authorities import AuthorityKind, AuthorityMention
from casetrack.verify.authorities.drafted import DraftAuthority, by_authority, case_name_words
from casetrack.verify.case_view import CaseView, Region, Resolution, place_of
from casetrack.verify.citing.citations import Citation
from casetrack.verify.citing.naming import DocumentWords
from casetrack.verify.keys import key_of
from casetrack.verify.model import AuthorityCheck, Cited, PinCheck, Place
from casetrack.verify.window import join

OWN_CITE_LINES = 40  # lines at the top of an opinion's first page that may hold its own citation
CITE_AS_PAGES = 3  # pages read for a slip opinion's "Cite as:" running head
_REPORTER = r"(?P<reporter>[A-Z][A-Za-z0-9.&' ]{0,24}?)"
_OWN_CITE = re.compile(rf"^\s*(?P<volume>\d{{1,4}})\s+{_REPORTER}\s+(?P<page>\d{{1,5}})\s*$", re.MULTILINE)
_CITE_AS = re.compile(rf"Cite\s+as:?\s*(?P<volume>\d{{1,4}})\s+{_REPORTER}\s+(?P<page>\d{{1,5}}|_+)")
_MARKER = re.compile(rf"\[(?P<volume>\d{{1,4}})\s+{_REPORTER}\s+(?P<page>\d{{1,5}})\]")
_STAR = re.compile(r"(?<![\w*])\*(?P<page>\d{2,5})\b")
_NUMBER = re.compile(r"\d+")
_PIN_WORDS = re.compile(r"^[\s,]*(?:at\s+)?")


@dataclass(frozen=True, slots=True)
class OwnCitation:
    """An opinion's own citation (first page None for a slip opinion) and its reporter page markers, each as
    (reporter page, page of the document, offset there), in order."""

    volume: str
    reporter: str  # as a match key: "fsupp3d", "us"
    first_page: int | None
    markers: tuple[tuple[int, int, int], ...]


class OpinionIndex:
    def __init__(self, view: CaseView, authorities: Sequence[DraftAuthority] = ()) -> None:
        self.view = view
        self._own: dict[str, OwnCitation | None] = {}
        self._names = {d.id: DocumentWords.of(d) for d in view.documents.values()}
        # The case name each authority is first cited with in full, for its short forms and Id.s.
        self._case_names: dict[str, str] = {}
        for a in authorities:
            if a.name and a.mention.form == "full":
                self._case_names.setdefault(a.mention.key, a.name)

    # --- which document -----------------------------------------------------------------------------

    def own_citation(self, document: Document) -> OwnCitation | None:
        if document.id not in self._own:
            self._own[document.id] = self._read_own(document)
        return self._own[document.id]

    def _read_own(self, document: Document) -> OwnCitation | None:
        first = self.view.page(document.id, 1)
        if first is None:
            return None
        head = "\n".join(first.text.split("\n")[:OWN_CITE_LINES])
        m = _OWN_CITE.search(head)
        for number in range(1, min(document.page_count, CITE_AS_PAGES) + 1):
            if m is not None:
                break
            stored = self.view.page(document.id, number)  # a slip opinion's running head, from its second page
            m = _CITE_AS.search(stored.text) if stored is not None else None
        if m is None:
            return None
        volume, reporter = m["volume"], key_of(m["reporter"]).decode("ascii")
        if not reporter or not any(c.isalpha() for c in reporter):
            return None
        page = int(m["page"]) if m["page"].isdigit() else None
        return OwnCitation(volume, reporter, page, tuple(self._markers(document, volume, reporter)))

    def _markers(self, document: Document, volume: str, reporter: str) -> list[tuple[int, int, int]]:
        found = []
        for number in range(1, document.page_count + 1):
            page = self.view.page(document.id, number)
            if page is None:
                continue
            for m in _MARKER.finditer(page.text):
                if m["volume"] == volume and key_of(m["reporter"]).decode("ascii") == reporter:
                    found.append((int(m["page"]), number, m.start()))
        return found

    def document_for(self, mention: AuthorityMention, name: str = "") -> Document | None:
        """The document of the case that is the authority `mention` cites, if the case holds it."""
        if mention.kind is AuthorityKind.CASE_LAW:
            return self._opinion(mention.key, self._case_names.get(mention.key, name))
        return self._law(mention.key)

    def _opinion(self, key: str, name: str) -> Document | None:
        parts = key.split()
        if len(parts) < 3 or not parts[0].isdigit() or not parts[-1].isdigit():
            return None
        volume, reporter, page = parts[0], key_of(" ".join(parts[1:-1])).decode("ascii"), int(parts[-1])
        words = case_name_words(name)
        for document in self.view.documents.values():
            own = self.own_citation(document)
            if own is None or own.volume != volume or own.reporter != reporter:
                continue
            if own.first_page == page:
                return document
            named = bool(words) and words[0] in (self._names[document.id].file_words |
                                                 self._names[document.id].other_words)
            if own.first_page is None and named:
                return document
        return None

    def _law(self, key: str) -> Document | None:
        """The document that is the statute or rule `key` names: its section in the document's file name, title or
        opening words, and every word of its code among the document's words ("N.C. Gen. Stat. § 163-230.2" is
        "NC Gen Stat 163-230.2 absentee ballot requests.txt"; "42 U.S.C. § 1983" needs "USC" there too)."""
        code_part, _, section = key.rpartition(" ")
        # "U.S.C." is one word, "usc": a code of initials alone must still be named, or any "(1983)" would do.
        code = {w.replace(".", "").lower() for w in re.findall(r"[A-Za-z][A-Za-z.]*", code_part)} - {"and"}
        if not code or not any(c.isdigit() for c in section):
            return None
        for document in self.view.documents.values():
            words = self._names[document.id]
            named = f"{document.name} {document.metadata.get('opening', '')} {document.metadata.get('title', '')}"
            names = words.file_words | words.other_words | set(re.findall(r"[a-z]+", named.lower().replace(".", "")))
            if re.search(rf"(?<![\w.]){re.escape(section)}(?![\w]|\.\d)", named) and code <= names:
                return document
        return None

    # --- pin cites -------------------------------------------------------------------------------------

    def pin_region(self, document: Document, pin: int) -> tuple[Region | None, bool | None, str]:
        """The stretch of `document` a pin cite names, whether the pin falls inside the opinion (None: the copy
        shows no reporter pages), and what could not be checked."""
        own = self.own_citation(document)
        if own is None or not own.markers:
            return None, None, (f"{document.name} does not show the reporter's page numbers, so the pin cite "
                                f"{pin} could not be located in it")
        pages = [m[0] for m in own.markers]
        start_page = own.first_page or pages[0] - 1
        if pin < start_page or pin > pages[-1]:
            return None, False, f"the opinion runs from p. {start_page} to p. {pages[-1]}; {pin} is not one of them"
        if pin < pages[0]:
            _, stored, offset = own.markers[0]
            return Region(document, 1, stored, 0, offset), True, ""
        i = pages.index(pin) if pin in pages else max(j for j, p in enumerate(pages) if p < pin)
        _, stored, offset = own.markers[i]
        if i + 1 < len(own.markers):
            _, end_page, end_offset = own.markers[i + 1]
            return Region(document, stored, end_page, offset, end_offset), True, ""
        return Region(document, stored, document.page_count, offset), True, ""

    def resolve(self, cite: Citation, view: CaseView) -> Resolution:
        assert cite.authority is not None
        mention = cite.authority.mention
        document = self.document_for(mention, cite.authority.name)
        label = mention.display or mention.key
        if document is None:
            reason = f"{label} is not in this case, so the quotation cannot be checked against it locally"
            return Resolution(Cited(cite.text, "authority", None, reason=reason))
        pin = _pin_number(mention.pin_cite, cite)
        base = Cited(cite.text, "authority", document.name, document.id, document.name)
        if pin is None:
            reason = "the citation gives no pin cite; the whole opinion was searched"
            return Resolution(replace(base, reason=reason), (Region(document, 1, document.page_count),), located=False)
        region, inside, reason = self.pin_region(document, pin)
        if region is None:
            whole = (Region(document, 1, document.page_count),) if inside is None else ()
            return Resolution(replace(base, reason=reason), whole, located=False)
        where = f"p. {region.first_page}" if region.first_page == region.last_page else \
            f"pp. {region.first_page}-{region.last_page}"
        return Resolution(replace(base, resolved=f"{document.name}, {where} (reporter p. {pin})",
                                  pages=(region.first_page, region.last_page)), (region,))

    # --- the draft's authorities --------------------------------------------------------------------------

    def check(self, authorities: Sequence[DraftAuthority]) -> list[AuthorityCheck]:
        """Each authority the draft cites, once, in the order first cited: in the case or not, with its pin cites."""
        out = []
        for cited in by_authority(authorities):
            key, cites, first = cited.key, cited.cites, cited.first
            name = next((c.name for c in cites if c.name and c.mention.form == "full"), first.name)
            document = self.document_for(first.mention, name)
            display, pages = cited.display, cited.pages
            if document is None:
                out.append(AuthorityCheck(key, display, first.mention.kind.value, pages, False,
                                          note="not in this case: it cannot be checked locally"))
                continue
            pins = tuple(self._pin_check(document, c.mention) for c in cites if _pin_number(c.mention.pin_cite))
            out.append(AuthorityCheck(key, display, first.mention.kind.value, pages, True, document.id,
                                      document.name, self._opening(document), _unique(pins)))
        return out

    def _pin_check(self, document: Document, mention: AuthorityMention) -> PinCheck:
        pin = _pin_number(mention.pin_cite)
        assert pin is not None
        region, inside, _ = self.pin_region(document, pin) if mention.kind is AuthorityKind.CASE_LAW else \
            (None, None, "")
        passage = self._passage(region) if region is not None else None
        return PinCheck(_PIN_WORDS.sub("", mention.pin_cite or "") or str(pin), inside, passage)

    def _passage(self, region: Region) -> Place | None:
        window = self.view.window(region.document, region.first_page, region.first_page)
        if not window.parts:
            return None
        start = window.offset_of(region.first_page, region.start)
        end = min(len(window.text), start + 300)
        return place_of(window, region.document, start, end)

    def _opening(self, document: Document) -> Place | None:
        first = self.view.page(document.id, 1)
        if first is None or not first.text:
            return None
        window = join([first])
        return place_of(window, document, 0, min(len(first.text), 300))


def _pin_number(pin: str | None, cite: Citation | None = None) -> int | None:
    if cite is not None and cite.locator.pages is not None:
        return cite.locator.pages[0]
    m = _NUMBER.search(pin or "")
    return int(m.group()) if m else None


def _unique(pins: tuple[PinCheck, ...]) -> tuple[PinCheck, ...]:
    seen: dict[str, PinCheck] = {}
    for pin in pins:
        seen.setdefault(pin.pin, pin)
    return tuple(seen.values())
