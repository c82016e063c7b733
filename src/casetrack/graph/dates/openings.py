"""Where the date patterns (`dates.DATE_PATTERNS`) and their triggers can match, read off the digit runs and
month-name starts the finders share, so `re` is called only where a match can be: every shortcut here leaves
out only positions where the pattern it stands for fails (tests/graph/test_graph_date_shortcuts.py)."""

from __future__ import annotations

from itertools import pairwise


def pattern_starts(
    text: str, year_runs: list[tuple[int, int]], numeric_runs: list[tuple[int, int]], months: list[int]
) -> dict[str, list[int]]:
    """Where each date pattern can open: month-name patterns at `months`, day-first ones at `year_runs`, numeric
    ones at `numeric_runs`, each kept only if it has what the pattern's first characters ask for (a start failing
    that would fail the pattern: leaving it out changes no match, and saves a `match` call)."""
    word_months = [i for i in months if i == 0 or not _is_word(text[i - 1])]  # `\b` before a letter
    # `\b[0-3]?\d` then st/nd/rd/th, space or a letter: the whole run is the day, after no word character
    days = [a for a, b in year_runs if _day_sized(text, a, b) and (a == 0 or not _is_word(text[a - 1]))]
    return {
        "day-of": days,
        "month-days-year": word_months,
        "month-day-year": word_months,
        "day-month-year": days,
        "iso": [a for a, b in numeric_runs if b - a == 4 and text[b : b + 1] == "-"],  # a four-digit year, then "-"
        "numeric": [a for a, b in numeric_runs if b - a <= 2 and text[b : b + 1] in ("/", "-", ".")],  # [0-3]?\d
        "month-year": [i for i in word_months if text[i].isupper()],  # "may 2019" in running text is rarely a date
    }


def _day_sized(text: str, a: int, b: int) -> bool:
    """Whether the run text[a:b] can be all of `[0-3]?\\d`."""
    return b - a == 1 or (b - a == 2 and text[a] in "0123")


def _is_word(c: str) -> bool:
    """`re`'s `\\w` for one character of a str pattern."""
    return c.isalnum() or c == "_"


_YEAR_HEADS = frozenset({"17", "18", "19", "20", "21"})


def year_hits(text: str, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of the matches of `dates._YEAR_TRIGGER`, `(?:1[7-9]|2[01])\\d\\d(?!\\d)`: the last four digits of
    a run, when they open with 17-21."""
    return [(b - 4, b) for a, b in runs if b - a >= 4 and text[b - 4 : b - 2] in _YEAR_HEADS]


def numeric_hits(text: str, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of the matches of `dates._NUMERIC_TRIGGER`, `\\d[/.-]\\d`, as `finditer` gives them (none
    overlapping): a run's last digit, one of / . - and the next run opening right after it."""
    out: list[tuple[int, int]] = []
    pos = 0
    for (_, b), (next_start, _) in pairwise(runs):
        if next_start == b + 1 and b - 1 >= pos and text[b] in "/.-":
            out.append((b - 1, b + 2))
            pos = b + 2
    return out
