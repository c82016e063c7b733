"""A query that names a document: which document, and which of its words only name it.

Lawyers ask about a document by its name: "the governing law clause of the NETGEAR distributor
agreement", "what does the Smith deposition say about the March meeting". The naming words
("netgear", "distributor") pick the document; they say nothing about which passage of it
answers. Left in the ranking they decide it all the same: they are rare in the case, so BM25
weighs them heavily, and the passages that repeat the name most (the preamble, the signature
block) outrank the clause asked for. Measured on 65 held-out CUAD queries, that was every
low rank (the answer's own document was always first).

So a query is matched against the documents' names. A word of the query that appears in the
names of few documents (at most a quarter of them; the one document of a one-document case)
is a naming word; the documents whose names hold the most telling naming words are the ones
named. The search then ranks that document's passages also without the words of its name, ahead
of the rest (service.search). Pure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from casetrack.domain import FILE_EXTENSIONS
from casetrack.index.tokenize import tokenize

# Words of file names that never name a document: extensions and the like.
FILE_WORDS = frozenset((*FILE_EXTENSIONS, "copy"))
NAMING_SHARE = 0.25  # a naming word appears in the names of at most this share of the documents
STAGE_NAMED = "named"  # the search stage that ranks a named document's passages first


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
