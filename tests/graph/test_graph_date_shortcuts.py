"""The date finder's shortcuts give exactly what the regex scans they replace give."""

from __future__ import annotations

import random

from casetrack.graph.dates import events as date_events
from casetrack.graph.dates import mentions as dates
from casetrack.graph.dates.events import EVENT_RULES, EventType
from casetrack.graph.dates.mentions import _NUMERIC_TRIGGER, _YEAR_TRIGGER
from casetrack.graph.dates.openings import numeric_hits, pattern_starts, year_hits
from casetrack.graph.scan import digit_runs, finditer_at


def test_trigger_hits_read_off_digit_runs_equal_the_trigger_scans() -> None:
    rng = random.Random(11)
    pieces = ["1", "2", "7", "9", "0", "17", "2021", "1899", "2200", "٣", "/", ".", "-", " ", "a", "\n", "12/3/4"]
    texts = ["", "2020", "1/2/3", "1/22/3", "9.9.9.9", "x1/2y"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 25))) for _ in range(5000)]
    for text in texts:
        runs = digit_runs(text)
        year = [m.span() for m in finditer_at(_YEAR_TRIGGER, text, [b - 4 for a, b in runs if b - a >= 4])]
        numeric = [m.span() for m in finditer_at(_NUMERIC_TRIGGER, text, [b - 1 for _, b in runs])]
        assert year_hits(text, runs) == year, repr(text)
        assert numeric_hits(text, runs) == numeric, repr(text)
        assert year == [m.span() for m in _YEAR_TRIGGER.finditer(text)], repr(text)
        assert numeric == [m.span() for m in _NUMERIC_TRIGGER.finditer(text)], repr(text)


def _event_plain(text: str, start: int, end: int, lo: int, hi: int) -> EventType:
    """`event_of`'s rule loop over [lo, hi) without skipping rules (signature-block test left out: it is shared)."""
    best: tuple[int, int, EventType] | None = None
    for pattern, event, prio in EVENT_RULES:
        for m in pattern.finditer(text, lo, hi):
            if m.end() <= start:
                cand = (start - m.end(), -prio, event)
            elif m.start() >= end:
                cand = (m.start() - end + 10, -prio, event)
            else:
                continue
            if best is None or cand < best:
                best = cand
    return best[2] if best else EventType.OTHER


EXAMPLES = [
    "date filed", "Filing", "docketed", "SUBMITTED", "dated", "signed", "executed", "entered into", "made as of",
    "made and entered into on", "is made", "as of", "effective", "commencing", "Beginning", "start date", "hearing",
    "argued", "Argument", "Arg.", "trial", "conference", "heard", "Sub.", "due", "on or before", "no later than",
    "deadline", "not later than", "expiration", "by no", "decided", "entered", "ordered", "judgment", "issued",
    "opinion", "decision", "ſigned", "fİled", "arıument", "the", "was", "ha", "sub", "x", ",", "\n",
]  # fmt: skip


def test_event_rules_skipped_by_their_words_give_the_plain_event() -> None:
    rng = random.Random(13)
    for _ in range(4000):
        words = [rng.choice(EXAMPLES) for _ in range(rng.randint(0, 12))]
        at = rng.randint(0, len(words))
        text = " ".join([*words[:at], "January 5, 2020", *words[at:]])
        start = text.index("January 5, 2020")
        end = start + len("January 5, 2020")
        got = date_events.event_of(text, start, end, 0, len(text))
        line_start = text.rfind("\n", 0, start) + 1
        lo = max(0, start - date_events._EVENT_REACH)
        lo = min(lo, line_start) if start - line_start < 40 else lo
        hi = min(len(text), end + date_events._EVENT_REACH)
        assert got == _event_plain(text, start, end, lo, hi), text


def test_date_patterns_tried_only_where_they_can_open_find_every_match() -> None:
    """Every position where a date pattern matches is one of the starts `pattern_starts` keeps for it (month and
    year alone are looked for only at capitalised month names, as before)."""
    rng = random.Random(17)
    pieces = ["1", "15", "3", "٣", "2022", "1999", "99", "123", "15th", " ", "\t", "\n", "-", "/", ".", ",", "a",
              "_", "$", "day", " of ", "Jan", "january", "MAR", "Summary", "May", "ſep", "2020-01-05"]  # fmt: skip
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 30))) for _ in range(6000)]
    texts += ["the 15th day of January, 2022", "15 January 2022", "x1/15/22", "(2022-01-15)", "March 2017", "1/15/22"]
    for text in texts:
        runs = digit_runs(text)
        starts = pattern_starts(text, runs, runs, dates._month_starts(text))
        for name, pattern in dates.DATE_PATTERNS:
            for i in range(len(text)):
                if pattern.match(text, i) and (name != "month-year" or text[i].isupper()):
                    assert i in starts[name], (name, text, i)
