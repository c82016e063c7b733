"""Who a question says wrote to whom: "What did Bob Williams tell Jim Steffes", "when did X reply to Y".

E-mail passages are indexed with their message's sender and recipients as `from:` and `to:` terms
(service.ingest.mail_context). A question that names a writer before a verb of writing or telling, and
perhaps a reader after it, asks for that direction: the passages of messages from the one to the other,
not those the other sent back. `asked_terms` gives those terms (none for a question naming no correspondent, so
other searches are unchanged) and `mail_scores` ranks the messages by them, for the MAIL signal (search.pipeline).
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from casetrack.index.bm25 import Bm25Index
from casetrack.index.postings import Key
from casetrack.index.segmented import SegmentedBm25
from casetrack.index.tokenize import tokenize

FROM, TO = "from:", "to:"
_NAME = r"(?:[A-Z][\w'.-]*\.?[ \t]+){0,3}[A-Z][\w'-]+"
_VERBS = (r"(?:tell|told|ask|asked|write|wrote|written|send|sent|say|said|answer|answered|reply|replied|respond|"
          r"responded|inform|informed|advise|advised|email|e-mail|e-mailed|emailed|forward|forwarded|warn|warned|"
          r"propose|proposed|promise|promised|offer|offered|suggest|suggested|explain|explained|report|reported)")
_ASKED = re.compile(rf"(?P<sender>{_NAME})[ \t]+(?:(?:first|later|then|ever|also|not)[ \t]+)?{_VERBS}\b"
                    rf"(?:[ \t]+(?:to|back[ \t]+to))?(?:[ \t]+(?P<recipient>{_NAME}))?")
_NOT_NAMES = frozenset({"what", "when", "who", "whom", "whose", "why", "how", "did", "does", "do", "which", "where",
                        "the"})


def sender_terms(text: str) -> list[str]:
    return [FROM + t for t in _words(text)]


def recipient_terms(text: str) -> list[str]:
    return [TO + t for t in _words(text)]


def asked_terms(query: str) -> list[str]:
    """`from:` terms of the writer and `to:` terms of the reader a question names, in order; [] when none."""
    out: list[str] = []
    for m in _ASKED.finditer(query):
        out += sender_terms(_name(m["sender"]))
        if m["recipient"]:
            out += recipient_terms(_name(m["recipient"]))
    return list(dict.fromkeys(out))


def mail_scores(bm25: Bm25Index | SegmentedBm25, terms: Sequence[str], keys: Sequence[Key]) -> np.ndarray | None:
    """BM25 of `keys` over a question's correspondents' terms, for the messages in the direction asked only: from
    the writer it names (a `from:` term) and to the reader it names (a `to:` term), each side it names; NaN for
    the rest. "What did Bob Williams tell Jim Steffes" asks for Williams's message to Steffes, not another writer's
    message to Steffes listing Williams among its readers. BM25 adds over terms, so such a message scores as over
    all the terms at once. None when no key is such a message (a case without e-mail)."""
    if not len(bm25) or not terms:
        return None
    total = np.zeros(len(keys), dtype=np.float64)
    for prefix in (FROM, TO):
        side = [term for term in terms if term.startswith(prefix)]
        if side:
            scores = bm25.score_keys(side, keys)
            total += np.where(scores > 0, scores, np.nan)  # a side not matched leaves the message unranked
    return total if np.isfinite(total).any() else None


def _name(written: str) -> str:
    return " ".join(w for w in written.split() if w.lower() not in _NOT_NAMES)


def _words(text: str) -> list[str]:
    """A header's names as query words: addresses without their domain ("c..williams@enron.com" -> williams)."""
    return [t for t in tokenize(re.sub(r"@[\w.-]+", " ", text)) if not t.isdigit()]
