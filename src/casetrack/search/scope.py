"""A query that names a document: which document, and which of its words only name it.

Lawyers ask about a document by its name: "the governing law clause of the NETGEAR distributor
agreement", "what does the Smith deposition say about the March meeting". The naming words
("netgear", "distributor") pick the document; they say nothing about which passage of it
answers. Left in the ranking they decide it all the same: they are rare in the case, so BM25
weighs them heavily, and the passages that repeat the name most (the preamble, the signature
block) outrank the clause asked for. Measured on 65 held-out CUAD queries, that was every
low rank (the answer's own document was always first).

So a query is matched against the words each document can be named by: its file name's, and the
ones it names itself with, recorded at ingest (its opening words, its parties, an e-mail's subject),
since a production's "PROD000123.pdf" or a scan's "IMG_0042.pdf" names nothing. A word of the query
that appears in the names of few documents (at most a quarter of them; the one document of a
one-document case) is a naming word; the documents whose names hold the most telling naming words are
the ones named. The search then ranks that document's passages also without the words of its name,
ahead of the rest (service.search). Pure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from casetrack.index.tokenize import tokenize
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


@dataclass(frozen=True, slots=True)
class Scope:
    documents: frozenset[str]  # ids of the documents the query names
    name_words: frozenset[str]  # query tokens found in those documents' names


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
    """The documents `query_tokens` names, by their `names` (document id -> name tokens); None when the
    query names none, or would have no words left to rank by once the naming words are set aside.

    `text_holders(token)` (how many documents' text holds it; asked only of a word some name holds) keeps
    a word that many documents use from naming the few whose names hold it: "notice" in "the notice
    period of the lease" does not name "Notice of Deposition.pdf" where most documents say "notice"."""
    if not names:
        return None
    most = max(1, math.floor(NAMING_SHARE * len(names)))
    # (identifiers, words): a number that names a document ("opinion 2015-059") decides over any words of
    # another's name ("probate judge"); words weigh by how few names hold them.
    weight: dict[str, tuple[float, float]] = {}
    for token in dict.fromkeys(query_tokens):
        holders = [doc for doc, tokens in names.items() if token in tokens]
        if not 0 < len(holders) <= most:
            continue
        if text_holders is not None and text_holders(token) > max(len(holders), most):
            continue  # a word the case's documents use widely
        telling = math.log((len(names) + 1) / len(holders))
        for doc in holders:
            ids, words = weight.get(doc, (0.0, 0.0))
            weight[doc] = (ids + telling, words) if _identifier(token) else (ids, words + telling)
    if not weight:
        return None
    best = max(weight.values())
    documents = frozenset(doc for doc, w in weight.items() if w == best)
    naming = frozenset(t for t in query_tokens if any(t in names[doc] for doc in documents))
    if all(t in naming for t in query_tokens):
        return None  # the query is the name ("the Acme MSA"): rank by it as it is
    return Scope(documents, naming)


def _identifier(token: str) -> bool:
    """A document number: digits, not a bare year or a short page or volume number ("2015-059", "21-1832")."""
    return any(c.isdigit() for c in token) and len(token) >= 4 and not (token.isdigit() and len(token) == 4)
