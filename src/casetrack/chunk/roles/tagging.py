"""Tagging passages with their legal role at ingest: the clause type of a contract passage (governing law,
cap on liability, non-compete, ...) and the part of a decision (syllabus, holding, disposition, author line,
concurrence, dissent, recusal, standard of review). The roles are data (chunk.role_taxonomy).

CUAD's 41 contract clause types come from the classifier learned from expert labels (chunk.clause_model,
issue 34); `chunk_roles` joins them with what the keyword tagger below finds for the roles it still owns
(role_taxonomy.KEPT: the clause types CUAD has no category for, the parts of a decision), each only on its
own kind of document. The keyword tagger (`tag_passage`, `role_hits`) still knows its old CUAD-like roles,
so that benchmarks/clauses.py can score it beside the classifier.

The keyword tagger: a passage has a role when its heading path names it (a clause titled "Governing Law") or
its text uses the drafting language of it ("shall be governed by the laws of"). One Aho-Corasick pass over the
lower-cased passage finds each role's anchors (chunk.role_taxonomy.ANCHORS); a role's pattern then runs only
in the few hundred characters around its anchors, so a passage costs a pass and a few short searches, not one
scan per role. Pure.

At ingest the text is read page by page with the context graph (`role_hits`, in the helper process for a long
document) and each hit goes to the chunk holding it (`chunk_roles`). Stored per chunk (the chunk record's
`roles`; a `role:<id>` BM25 term finds a role's passages), used by search
as one more ranking signal for questions that ask for a role, and by `search_case(clause_type=...)` and
`list_clauses`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache

import ahocorasick

from casetrack.chunk.roles.clause_types import RENAMED, SPLIT
from casetrack.chunk.roles.taxonomy import BY_ID, DECISION, KEPT, KEYWORD_BY_ID, KEYWORD_ROLES, ROLES, Role
from casetrack.domain import Chunk
from casetrack.errors import InvalidInput, quoted

TERM_PREFIX = "role:"
# An anchor's length, and each role it opens with the role's compiled pattern (None when the anchor decides).
AnchorValue = tuple[int, tuple[tuple[str, re.Pattern[str] | None], ...]]
ANCHORS = frozenset(keyword for role in KEYWORD_ROLES for keyword in role.anchors)  # lower case, no line break


def role_term(role_id: str) -> str:
    """The BM25 term a role's passages hold (the tokenizer never makes a term with this prefix)."""
    return TERM_PREFIX + role_id


def tag_passage(text: str, heading_path: str = "") -> tuple[str, ...]:
    """The roles of one passage, in taxonomy order. `heading_path` is the path of headings in force where it
    starts ("13 TERMINATION > 13.2 Effect of Termination")."""
    worded = {role_id for role_id, _ in role_hits(text)}
    titled = set(heading_roles(heading_path))
    return tuple(role.id for role in KEYWORD_ROLES if role.id in worded or role.id in titled)


@lru_cache(maxsize=1024)
def heading_roles(heading_path: str) -> tuple[str, ...]:
    """The roles a passage's heading path names by its innermost title ("12 GOVERNING LAW"). Kept per path: a
    document's passages share a few dozen paths, and each path costs a search per role with a heading."""
    title = _last_heading(heading_path.lower()) if heading_path else ""
    return tuple(role.id for role in KEYWORD_ROLES if title and role.heading and _compiled(role.id)[1].search(title))


def role_hits(text: str, roles: Collection[str] | None = None,
              anchors: Iterable[tuple[int, AnchorValue]] | None = None) -> list[tuple[str, int]]:
    """(role id, offset) for each anchor in `text` whose role's drafting language it opens: the text-worded
    roles of a page or passage, located so that ingest can give each to the chunk holding it. `roles`, when
    given, limits the hits to those roles (a passage's clause places want only its own roles): the other
    roles' patterns are then not run. `anchors`, when given, are the anchors of `text` already found, as the
    automaton's own pass gives them (`ANCHORS`, `anchor_value`): ingest finds them in its graph's keyword pass.

    Hits come grouped by role, roles in the order their first anchor occurs (whether or not it opens the role's
    language), each role's hits in the order their anchors end: the order the stored graph record keeps."""
    low = text.lower()
    size = len(low)
    if anchors is None or size != len(text):  # (a character whose lower case is longer moves the offsets: read again)
        anchors = _automaton().iter(low)
    found: dict[str, list[int]] = {}
    for end, (length, tagged) in anchors:
        end += 1
        for role_id, pattern in tagged:
            if roles is not None and role_id not in roles:
                continue
            starts = found.setdefault(role_id, [])  # the role's place in the order is its first anchor's
            # A role without a pattern is decided by its anchor; one with a pattern needs it near the anchor.
            if pattern is None or pattern.search(low, end - WINDOW if end > WINDOW else 0,
                                                 end + WINDOW if end + WINDOW < size else size):
                starts.append(end - length)
    return [(role_id, start) for role_id, starts in found.items() for start in starts]


def anchor_value(keyword: str) -> AnchorValue:
    """What the automaton holds for an anchor (one of `ANCHORS`): its length and the roles it opens, with their
    patterns."""
    value: AnchorValue = _automaton().get(keyword)
    return value


def chunk_roles(chunk_ids: Sequence[str], heading_paths: Sequence[str],
                located: Iterable[tuple[str, str | None]], family: str | None,
                learned: Sequence[Mapping[str, float]]) -> list[dict[str, float | None]]:
    """Per chunk, its roles in taxonomy order, each with its confidence (the classifier's probability; None for
    a role the keyword tagger found). `located` are the keyword hits ((role id, chunk id), from
    ingest's graph extract); `learned` per chunk the clause types the classifier tagged; `family`
    the kind of document (role_taxonomy.CONTRACT, DECISION or None for any other): a decision's passages take
    only decision parts, an agreement's only clause types, any other document only the learned clause types
    it quotes (`learned` holds only those sure enough, see service.ingest.clauses)."""
    worded: dict[str, set[str]] = {}
    for role_id, chunk_id in located:
        if chunk_id is not None:
            worded.setdefault(chunk_id, set()).add(role_id)
    out = []
    for chunk_id, path, types in zip(chunk_ids, heading_paths, learned, strict=True):
        found: dict[str, float | None] = dict(types) if family != DECISION else {}
        if family is not None:
            for role_id in worded.get(chunk_id, set()) | set(heading_roles(path)):
                role = BY_ID.get(role_id)
                if role is not None and role.family == family and role_id in KEPT:
                    found.setdefault(role_id, None)
        out.append({role.id: found[role.id] for role in ROLES if role.id in found})
    return out


def known_roles(values: Sequence[object]) -> tuple[str, ...]:
    """The role ids among stored values (a record read from disk may hold anything; a name from before issue
    34 that names one type now is read as that type)."""
    named = (RENAMED.get(v, v) for v in values if isinstance(v, str))
    return tuple(dict.fromkeys(v for v in named if v in BY_ID))


def resolve_role(name: str) -> Role:
    """The role a user names by its id or label, ignoring case, spaces and hyphens ("governing_law", "Governing
    law", "non-compete"), or by a name from before issue 34 that names one type now ("first_refusal").
    Raises InvalidInput listing the roles when none matches, naming the new types of an old name that split."""
    wanted = _plain(name or "")
    for old, new in RENAMED.items():
        if wanted == _plain(old):
            return BY_ID[new]
    for role in ROLES:
        if wanted in (_plain(role.id), _plain(role.label)):
            return role
    for old, parts in SPLIT.items():
        if wanted == _plain(old):
            raise InvalidInput(f"Clause type {name!r} is now {len(parts)} types: use one of {', '.join(parts)}.")
    raise InvalidInput(f"Unknown clause type {quoted(repr(name))}. Use one of: {', '.join(r.id for r in ROLES)}.")


def _plain(name: str) -> str:
    return re.sub(r"[\s_/-]+", "", name).lower()


def by_role(chunks: Sequence[Chunk]) -> list[tuple[Role, list[Chunk]]]:
    """A document's tagged passages grouped by role, roles in taxonomy order, passages in reading order."""
    groups: dict[str, list[Chunk]] = {}
    for chunk in sorted(chunks, key=lambda c: c.span.sequence):
        for role_id in chunk.roles:
            groups.setdefault(role_id, []).append(chunk)
    return [(role, groups[role.id]) for role in ROLES if role.id in groups]


def _last_heading(path: str) -> str:
    """The innermost heading of a path: a clause's own title decides its role, not its article's."""
    return path.rsplit(" > ", 1)[-1].strip()


WINDOW = 300  # characters either side of an anchor a role's pattern may reach (its longest span is ~250)


@lru_cache(maxsize=1)
def _automaton() -> ahocorasick.Automaton:
    """Every role's anchors in one Aho-Corasick automaton: an anchor's value is its length and, for each role it
    opens (in role id order), the role's id and its compiled pattern (None when the anchor decides), so that a
    hit needs no lookup of its role."""
    by_keyword: dict[str, set[str]] = {}
    for role in KEYWORD_ROLES:
        for keyword in role.anchors:
            by_keyword.setdefault(keyword, set()).add(role.id)
    automaton = ahocorasick.Automaton()
    for keyword, ids in by_keyword.items():
        tagged = tuple((role_id, _compiled(role_id)[0] if KEYWORD_BY_ID[role_id].pattern else None)
                       for role_id in sorted(ids))
        automaton.add_word(keyword, (len(keyword), tagged))
    automaton.make_automaton()
    return automaton


@lru_cache(maxsize=len(KEYWORD_ROLES))
def _compiled(role_id: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    role: Role = KEYWORD_BY_ID[role_id]
    return re.compile(role.pattern or r"(?!)", re.MULTILINE | re.DOTALL), re.compile(role.heading or r"(?!)")
