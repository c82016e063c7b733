"""Which document of the case a citation's naming words mean.

Briefs name record documents by short titles and abbreviations: `Supply Agmt.`, `Compl.`, `Smith Dep.`,
`Pl.'s Opp'n`, or the file name itself. A document can be named by the words of its file name, its
title and opening words, its parties (metadata recorded at ingest) and its type. A citation word names
a document word when it is the same word, a known abbreviation of it (`Tr.` for "transcript"), its
start (`Compl.`, `Dep.`) or its contraction (`Agmt.` for "agreement": same first letter, the rest in
order). The document whose words take every citation word is the one named; among several, the one
whose file name has the fewest other words; a tie is ambiguous and reported, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.domain import Document
from casetrack.parse import SUPPORTED_EXTENSIONS

# Abbreviations that are not a word's start or contraction.
ABBREVIATIONS = {
    "tr": ("transcript",), "ex": ("exhibit",), "exh": ("exhibit",), "br": ("brief",), "op": ("opinion",),
    "ord": ("order",), "ltr": ("letter",), "hr'g": ("hearing",), "hrg": ("hearing",), "mem": ("memorandum",),
    "agt": ("agreement",), "dist": ("distributor", "distribution", "district"), "intl": ("international",),
    "nda": ("disclosure",), "am": ("amended",), "supp": ("supplemental", "support"), "co": ("company",),
    "corp": ("corporation",), "univ": ("university",), "decl": ("declaration",), "aff": ("affidavit",),
    "dep": ("deposition",), "depo": ("deposition",), "compl": ("complaint",), "mot": ("motion",),
    "opp": ("opposition",), "oppn": ("opposition",), "resp": ("response",), "reply": ("reply",),
    "vol": ("volume",),
}
# Words of a citation that name no document: parties' labels and the small words of titles.
SKIPPED = frozenset({"pl", "pls", "pltf", "def", "defs", "s", "the", "of", "to", "for", "and", "in", "on", "re",
                     "v", "vs", "a", "an", "at", "its", "mr", "ms", "dr"})
FILE_WORDS = frozenset(e.lstrip(".") for e in SUPPORTED_EXTENSIONS)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
NAMING_METADATA = ("title", "opening", "parties", "subject")


def name_words(text: str) -> list[str]:
    """The words of naming text: lower case, apostrophes inside words kept ("opp'n"), possessive 's dropped."""
    words = [w.removesuffix("'s") for w in _WORD.findall(text.lower().replace("\u2019", "'"))]
    return [w for w in words if w and w not in SKIPPED]


@dataclass(frozen=True, slots=True)
class DocumentWords:
    document: Document
    file_words: frozenset[str]  # of its file name (without the extension)
    other_words: frozenset[str]  # of its title, opening words, parties and type

    @classmethod
    def of(cls, document: Document, more: str = "") -> DocumentWords:
        """`more`: naming words read from its pages (a transcript's kind, witness and volume)."""
        stem, dot, extension = document.name.rpartition(".")
        file_name = stem if dot and extension.lower() in FILE_WORDS else document.name
        file_words = frozenset(name_words(file_name.replace("_", " ")))
        other = " ".join([*(document.metadata.get(k, "") for k in NAMING_METADATA), more])
        other_words = frozenset(name_words(other)) | {document.document_type.value.replace("_", " ")}
        return cls(document, file_words, other_words)


def word_names(cited: str, word: str) -> bool:
    """Whether the citation's word `cited` can stand for the document's word `word`."""
    if cited == word:
        return True
    plain = cited.replace("'", "")
    if word in ABBREVIATIONS.get(plain, ()) or word in ABBREVIATIONS.get(cited, ()):
        return True
    if len(plain) < 3 or not plain.isalpha() or plain[0] != word[0] or len(plain) >= len(word):
        return False
    if word.startswith(plain):
        return True
    rest = iter(word[1:])  # a contraction: every letter of the citation's word, in order
    return all(letter in rest for letter in plain[1:])


def _all_named(words: Sequence[str], names: frozenset[str]) -> bool:
    """Whether every citation word names a document word; two citation words may name one document word
    written as one ("Co-Branding" for "cobranding")."""
    i = 0
    while i < len(words):
        if any(word_names(words[i], d) for d in names):
            i += 1
        elif i + 1 < len(words) and any(word_names(words[i] + words[i + 1], d) for d in names):
            i += 2
        else:
            return False
    return True


@dataclass(frozen=True, slots=True)
class NameMatch:
    documents: tuple[Document, ...]  # one: resolved; several: ambiguous; none: nothing is named so
    reason: str = ""


def match_document(cited_name: str, documents: Sequence[DocumentWords]) -> NameMatch:
    """The document `cited_name` names."""
    wanted = cited_name.strip().casefold()
    exact = [d.document for d in documents if d.document.name.casefold() == wanted
             or d.document.name.rpartition(".")[0].casefold() == wanted]
    if len(exact) == 1:
        return NameMatch((exact[0],))
    words = name_words(cited_name)
    if not words:
        return NameMatch((), f"“{cited_name}” names no document")
    scored = []
    for doc in documents:
        names = doc.file_words | doc.other_words
        if _all_named(words, names):
            in_file = sum(1 for w in words if any(word_names(w, d) for d in doc.file_words))
            others = sum(1 for d in doc.file_words if not any(word_names(w, d) for w in words))
            scored.append((-in_file, others, doc.document))
    if not scored:
        return NameMatch((), f"no document in the case is named “{cited_name}”")
    scored.sort(key=lambda s: (s[0], s[1]))
    best = [s for s in scored if s[:2] == scored[0][:2]]
    if len(best) > 1:
        listed = ", ".join(s[2].name for s in best[:5])
        return NameMatch(tuple(s[2] for s in best), f"“{cited_name}” could be any of: {listed}")
    return NameMatch((best[0][2],))
