"""How users name things: by ID, by name, by a unique prefix of either, or by whole words of a
name ("netgear" for "cuad_netgear_distributor_agreement.pdf"), ignoring case.
A miss names the closest matches ("Did you mean ...")."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from casetrack.errors import InvalidInput, NotFound, Step
from casetrack.parse import SUPPORTED_EXTENSIONS

T = TypeVar("T")
WORD_PENALTY = 0.1
_WORD_BREAKS = re.compile(r"[\s._/-]+")
_EXTENSIONS = frozenset(e.lstrip(".") for e in SUPPORTED_EXTENSIONS)


def _alike(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio() if b else 0.0


def resolve(items: Sequence[T], ref: str, kind: str, name: Callable[[T], str], ident: Callable[[T], str],
            step: Step) -> T:
    """Raises InvalidInput for an empty reference, NotFound (with suggestions) for a miss or an ambiguity."""
    wanted = (ref or "").strip()
    if not wanted:
        raise InvalidInput(f"Give a {kind.lower()} name or ID.", [step])
    key = wanted.casefold()
    for match in (
        [i for i in items if ident(i).casefold() == key],
        [i for i in items if name(i).casefold() == key],
        [i for i in items if name(i).casefold().startswith(key)],
        [i for i in items if ident(i).casefold().startswith(key)],
        [i for i in items if _names_words(name(i), key)],
    ):
        if len(match) == 1:
            return match[0]
        if len(match) > 1:
            raise NotFound(kind, wanted, [(name(i), ident(i)[:8]) for i in match[:5]])
    raise NotFound(kind, wanted, suggestions(key, items, name, ident), step=step)


def _names_words(name: str, key: str) -> bool:
    """Whether `key` is one or more whole words of `name`, in order ("netgear" and "netgear distributor"
    in "cuad_netgear_distributor_agreement.pdf"; not "gear"): what people call a file they did not name."""
    words = " ".join(w for w in _WORD_BREAKS.split(key) if w)
    return bool(words) and f" {words} " in f" {' '.join(w for w in _WORD_BREAKS.split(name.casefold()) if w)} "


def suggestions(key: str, items: Sequence[T], name: Callable[[T], str], ident: Callable[[T], str],
                limit: int = 3) -> list[tuple[str, str]]:
    """Closest names first: whole-name, per-word and prefix similarity, so "Smth" finds "Smith v. Jones"."""

    def score(item: T) -> float:
        text = name(item).casefold()
        if key in text:
            return 1.0
        whole = max(_alike(key, text), _alike(key, text[: len(key)]))
        # A single word of a name counts a little less: short words pair too easily ("nope" and "notice"
        # share n, o, e), and a file's extension ("pdf") is no part of what anyone calls it.
        words = [w for w in _WORD_BREAKS.split(text) if w and w not in _EXTENSIONS]
        return max([whole, *(_alike(key, w) - WORD_PENALTY for w in words)])

    ranked = sorted(((score(i), n, i) for n, i in enumerate(items)), key=lambda t: (-t[0], t[1]))
    return [(name(i), ident(i)[:8]) for s, _, i in ranked[:limit] if s >= 0.6]
