"""A query that names a document: which documents, how strongly, and which of its words only name them.

Lawyers ask about a document by its name: "the governing law clause of the NETGEAR distributor agreement",
"what does the Smith deposition say about the March meeting". The naming words ("netgear", "distributor")
say which document; they say nothing about which passage of it answers. Left in the ranking they decide it
all the same: they are rare in the case, so BM25 weighs them heavily, and the passages that repeat the name
(the preamble, the signature block) outrank the clause asked for.

So a query is matched against the words each document can be named by: its file name's, and the ones it
names itself with, recorded at ingest (its opening words, its parties, an e-mail's subject), since a
production's "PROD000123.pdf" or a scan's "IMG_0042.pdf" names nothing. A word of the query that is in the
names of few documents (at most a quarter of them; the one document of a one-document case) and not widely
used in the case's text is a naming word, weighed by how few names hold it.

Naming is evidence, not a verdict (issue 21): the search adds each document's `strength` (its naming weight
over the best document's, 0..1) to its passages' scores, beside what the passages themselves match, and ranks
passages also without the naming words (search.pipeline.UNNAMED). Generic words (a jurisdiction, a court or
tribunal, a party's role, a kind of document: "State", "Circuit", "Board", "plaintiff", "Agreement") weigh
half and cannot name a document on their own: a question about "the State Board" names none of "NC State
Board of Elections.pdf", "Alabama State Bar.pdf". Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from casetrack.graph.jurisdictions import STATES
from casetrack.graph.parties.party import ROLE_WORDS
from casetrack.index.tokenize import paragraph_terms, tokenize
from casetrack.parse import SUPPORTED_EXTENSIONS

# Words of file names that never name a document: extensions and the like.
FILE_WORDS = frozenset((*(e.lstrip(".") for e in SUPPORTED_EXTENSIONS), "copy"))
NAMING_SHARE = 0.25  # a naming word appears in the names of at most this share of the documents
STAGE_NAMED = "named"  # the search stage that ranks a named document's passages first
# Metadata a document names itself with, recorded at ingest (`opening` of page 1, the graph's parties).
SELF_NAMING_KEYS = ("opening", "parties", "subject")
# A title, a caption line or a letterhead fits here ("Exhibit 10.1 CONSULTING AGREEMENT This CONSULTING
# AGREEMENT"; "Cite as 28 I&N Dec. 437 (BIA 2022) Interim Decision #4035 Matter of"). Past it a document talks
# about its subject, and its words are what questions ask: on the held-out court set, 160 characters set aside
# "decided" and "argued" and cost MRR 0.758 -> 0.737 where the file names were telling; 80 kept 0.756.
OPENING_CHARS = 80


# Words that say what kind of thing a document is or where it comes from, not which one it is: courts and
# tribunals, kinds of documents (the file-name words of chunk.doctype's table), and with them every state's
# name and abbreviation (graph.jurisdictions) and every party role (graph.parties).
_GENERIC_TEXT = """
court courts supreme circuit district appeals appellate board bankruptcy county state states united federal
commission tribunal division department office judge justice attorney general
agreement contract amendment addendum order opinion decision judgment ruling memorandum letter notice motion
brief complaint petition answer statute code regulation rule exhibit transcript deposition email mail report
"""
GENERIC_WORDS = frozenset(tokenize(" ".join([
    _GENERIC_TEXT, *(s.name for s in STATES), *(s.abbr for s in STATES), *ROLE_WORDS])))
GENERIC_WEIGHT = 0.5  # a generic word adds half its weight to a document some specific word names
IDENTIFIER_WEIGHT = 3.0  # a document number ("opinion 2015-059") outweighs words of another name


@dataclass(frozen=True, slots=True)
class Scope:
    documents: frozenset[str]  # ids of the documents named best (strength 1.0)
    name_words: frozenset[str]  # query tokens found in the names of the documents named at all
    strength: Mapping[str, float] = field(default_factory=dict)  # document id -> 0..1, for every named one
    # Documents a number of the query names ("G.S. 163-230.2" for "NC Gen Stat 163-230.2.txt"): the document is
    # the reference the query cites, so all its passages hold it (search.evidence ranks them with those that do).
    by_identifier: frozenset[str] = frozenset()


class DocumentNames(dict[str, frozenset[str]]):
    """Document id -> the words it can be named by, with the documents each word names, so a query's words are
    looked up, not compared with every document's name (a big case has tens of thousands of documents). Built
    once and not changed after its first lookup."""

    _by_token: dict[str, list[str]] | None = None

    def holders(self, token: str) -> list[str]:
        """The documents whose names hold `token`, in the mapping's order."""
        if self._by_token is None:
            self._by_token = {}
            for doc, tokens in self.items():
                for t in tokens:
                    self._by_token.setdefault(t, []).append(doc)
        return self._by_token.get(token, [])


def name_tokens(name: str) -> frozenset[str]:
    """A document name's words as the query tokenizer gives them, without its extension and other file-name
    words: "cuad_ebix_cobranding_agreement.pdf" -> {cuad, ebix, cobranding, agreement}. Hyphens and dots stay
    for the tokenizer to read as in a query, so "AG Opinion 2015-059.pdf" holds the query's "2015-059"."""
    stem, dot, extension = name.rpartition(".")
    spaced = (stem if dot and extension.lower() in FILE_WORDS else name).replace("_", " ")
    return frozenset(t for t in tokenize(spaced) if t not in FILE_WORDS)


def document_name_tokens(name: str, metadata: Mapping[str, str]) -> frozenset[str]:
    """The words a document can be named by: its file name's, and those it names itself with (recorded at
    ingest: its opening words, its parties, an e-mail's subject). A production named "PROD000123.pdf" or a scan
    named "IMG_0042.pdf" is still "the Fonterra supply agreement" or "the Laguerre decision"."""
    own = " ".join(metadata.get(key, "") for key in SELF_NAMING_KEYS)
    return name_tokens(name) | frozenset(t for t in tokenize(own) if t not in FILE_WORDS)


def opening(first_page: str, limit: int = OPENING_CHARS) -> str:
    """A document's first words, on one line, to the last whole word within `limit` characters."""
    words: list[str] = []
    length = -1
    for match in _WORD.finditer(first_page):
        word = match.group()
        if length + 1 + len(word) > limit:
            return " ".join(words) if words else word[:limit]
        words.append(word)
        length += 1 + len(word)
    return " ".join(words)


_WORD = re.compile(r"\S+")


def named_documents(
    query_tokens: Sequence[str], names: Mapping[str, frozenset[str]],
    text_holders: Callable[[str], int] | None = None,
) -> Scope | None:
    """The documents `query_tokens` names, by their `names` (document id -> name tokens), with how strongly;
    None when the query names none, or would have no words left to rank by once the naming words are set
    aside (it is the name: "the Acme MSA").

    `text_holders(token)` (how many documents' text holds it; asked only of a word some name holds) keeps
    a word that many documents use from naming the few whose names hold it: "notice" in "the notice
    period of the lease" does not name "Notice of Deposition.pdf" where most documents say "notice"."""
    if not names:
        return None
    if not isinstance(names, DocumentNames):  # kept by the caller, so its lookup table is built once
        names = DocumentNames(names)
    most = max(1, math.floor(NAMING_SHARE * len(names)))
    weight: dict[str, float] = {}
    specific: set[str] = set()  # documents some non-generic word or number names
    numbered: set[str] = set()  # documents a number names
    paragraphs = _paragraph_numbers(query_tokens)
    for token in dict.fromkeys(query_tokens):
        if token in paragraphs:
            continue  # "¶ 12" asks for a paragraph, not for "Exhibit 12.pdf"
        holders = names.holders(token)
        if not 0 < len(holders) <= most:
            continue
        if text_holders is not None and text_holders(token) > max(len(holders), most):
            continue  # a word the case's documents use widely
        telling = math.log((len(names) + 1) / len(holders))
        if _identifier(token):
            telling *= IDENTIFIER_WEIGHT
            numbered.update(holders)
        elif token in GENERIC_WORDS:
            telling *= GENERIC_WEIGHT
        for doc in holders:
            weight[doc] = weight.get(doc, 0.0) + telling
            if token not in GENERIC_WORDS or _identifier(token):
                specific.add(doc)
    weight = {doc: w for doc, w in weight.items() if doc in specific}
    if not weight:
        return None
    best = max(weight.values())
    strength = {doc: w / best for doc, w in weight.items()}
    documents = frozenset(doc for doc, s in strength.items() if s == 1.0)
    naming = frozenset(t for t in query_tokens if any(t in names[doc] for doc in strength))
    if all(t in naming for t in query_tokens):
        return None  # the query is the name ("the Acme MSA"): rank by it as it is
    return Scope(documents, naming, strength, frozenset(numbered & documents))


def _paragraph_numbers(query_tokens: Sequence[str]) -> set[str]:
    """The bare numbers the query's paragraph references spell ("12" of "¶ 12" or "paragraph 12(b)", with "12(b)"):
    a pleading's paragraph, never a document's name. Section numbers are not among them: "§ 552" may name the
    statute that is the document."""
    out: set[str] = set()
    for term in paragraph_terms(query_tokens):
        number = term[1:]
        out.add(number)
        out.update(number[:i] for i, c in enumerate(number) if c in "(.")
    return out


def _identifier(token: str) -> bool:
    """A document number: digits, not a bare year or a short page or volume number ("2015-059", "21-1832")."""
    return any(c.isdigit() for c in token) and len(token) >= 4 and not (token.isdigit() and len(token) == 4)
