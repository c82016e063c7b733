"""Party names cut short by a court's docket system, completed from the same document.

Appellate docketing notices print a `Short Title:` whose sides the docket system cuts to a
fixed width (`National Football League Manag v. National Football League Playe`: 30
characters a side in the Second Circuit notice we have; other courts' widths are not known
here). A side that long is taken as possibly cut, so a complete name of 30 or more characters
in a short title with nothing to complete it is shown with a `…` too: a cautious mark, never
an invented completion. When exactly one fuller party
name in the document continues it (`National Football League Players Association`, the
appellant named in the notice's text) the side becomes that party; otherwise it keeps its
text with a trailing ellipsis, so it is never shown as if it were the whole name.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from casetrack.graph.names import organization_key

if TYPE_CHECKING:
    from casetrack.graph.parties.party import RawParty

SHORT_TITLE_WIDTH = 30  # as observed in a Second Circuit notice: a side this long may be cut
ELLIPSIS = "…"


def maybe_cut(name: str) -> bool:
    """Whether a short-title side may have been cut by the docket system."""
    return len(name) >= SHORT_TITLE_WIDTH


def complete_truncated(parties: list[RawParty]) -> list[RawParty]:
    """Each possibly-cut party renamed to the one fuller party name that continues it, else marked with `…`."""
    out = []
    for p in parties:
        if not p.truncated:
            out.append(p)
            continue
        fuller = {q.name for q in parties if not q.truncated and continues(p.name, q.name)}
        name = fuller.pop() if len(fuller) == 1 else p.name + ELLIPSIS
        out.append(replace(p, name=name, truncated=False))
    return out


def continues(cut: str, full: str) -> bool:
    """`full` starts with `cut`, word for word, its last word possibly cut (`... League Playe` -> `... Players ...`).
    Two words at least: a lone `National` continues too many names to say which."""
    short, long = organization_key(cut).split(), organization_key(full).split()
    if len(short) < 2 or len(long) <= len(short):
        return False
    return short[:-1] == long[: len(short) - 1] and long[len(short) - 1].startswith(short[-1])
