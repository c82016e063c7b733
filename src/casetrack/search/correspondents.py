"""Who a question says wrote to whom: "What did Bob Williams tell Jim Steffes", "when did X reply to Y".

E-mail passages are indexed with their message's sender and recipients as `from:` and `to:` terms
(service.ingest.mail_context). A question that names a writer before a verb of writing or telling, and
perhaps a reader after it, asks for that direction: the passages of messages from the one to the other,
not those the other sent back. `asked_terms` gives those terms for the MAIL signal (search.pipeline);
none for a question naming no correspondent, so other searches are unchanged. Pure.
"""

from __future__ import annotations

import re

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


def _name(written: str) -> str:
    return " ".join(w for w in written.split() if w.lower() not in _NOT_NAMES)


def _words(text: str) -> list[str]:
    """A header's names as query words: addresses without their domain ("c..williams@enron.com" -> williams)."""
    return [t for t in tokenize(re.sub(r"@[\w.-]+", " ", text)) if not t.isdigit()]
