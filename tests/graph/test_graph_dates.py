"""Dates: formats, rejections, event types, and every eval-dev date query's answer on its page."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EventType, find_dates
from tests.graph.graph_evaldev import jsonl, pages_of


def dates(text: str) -> list[tuple[str, str]]:
    return [(d.iso, d.text) for d in find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)])]


FORMATS = [
    ("January 15, 2022", "2022-01-15"),
    ("Jan. 15, 2022", "2022-01-15"),
    ("Jan 15 2022", "2022-01-15"),
    ("Sept. 9, 2019", "2019-09-09"),
    ("January 15th, 2022", "2022-01-15"),
    ("1/15/22", "2022-01-15"),
    ("01/15/2022", "2022-01-15"),
    ("1-15-2022", "2022-01-15"),
    ("01.15.2022", "2022-01-15"),
    ("2022-01-15", "2022-01-15"),
    ("15 January 2022", "2022-01-15"),
    ("15th January, 2022", "2022-01-15"),
    ("the 15th day of January, 2022", "2022-01-15"),
    ("this 15th day of January 2022", "2022-01-15"),
    ("this 19 day of March, 2004", "2004-03-19"),
    ("as of the 19 day.of March, 2004", "2004-03-19"),  # OCR noise: a period for the space
    ("the 1st day of\nMarch, 2004", "2004-03-01"),
    ("Dated: March 3, 2021", "2021-03-03"),
    ("Filed: 04/05/2019", "2019-04-05"),
    ("11/5/96", "1996-11-05"),  # two-digit years: 69-99 -> 1900s
    ("3/1/05", "2005-03-01"),  # 00-68 -> 2000s
    ("15/01/2022", "2022-01-15"),  # day first only when the first number cannot be a month
    ("February 29, 2024", "2024-02-29"),
    ("JANUARY 11, 2021", "2021-01-11"),
    # as unseen CUAD contracts print them
    ("made as of July 11 , 2006", "2006-07-11"),  # a space before the comma
    ("on the 20t h day of November, 2018", "2018-11-20"),  # the ordinal split by a stray space
    ("the 22n d day of August 2005", "2005-08-22"),
]


RANGES = [
    ("A jury trial was held on April 25 and 26, 1996.", "April 25 and 26, 1996", "1996-04-25"),
    ("Trial is set for March 3-5, 2021 in Courtroom 4.", "March 3-5, 2021", "2021-03-03"),
    ("The depositions run June 1 through 5, 2020.", "June 1 through 5, 2020", "2020-06-01"),
]


@pytest.mark.parametrize(("text", "written", "iso"), RANGES, ids=[w for _, w, _ in RANGES])
def test_a_range_of_days_is_one_date_of_its_first_day(text: str, written: str, iso: str) -> None:
    [date] = find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)])
    assert (date.text, date.iso) == (written, iso)


@pytest.mark.parametrize(("text", "iso"), FORMATS, ids=[t for t, _ in FORMATS])
def test_common_legal_date_formats_normalise_to_iso(text: str, iso: str) -> None:
    found = dates(f"Something happened {text} as recorded.")
    assert [d[0] for d in found] == [iso]
    assert found[0][1] in text


NOT_DATES = [
    "13/45/2020",
    "February 30, 2021",
    "February 29, 2023",
    "Section 1.15 of the Agreement",
    "$1,500.00",
    "$1/15/22",
    "Call 212-857-8528 today",
    "Case 17-3510, Document 1-1",
    "version 1.2.2022x",
    "3.14.15",
    "Chapter 12/31",
    "pages 28-40 and 7-12",
    "No. 3:05-cv-00595-RLM-MGG",
    "0/0/2020",
    "January 45, 2020",
]


@pytest.mark.parametrize("text", NOT_DATES)
def test_impossible_dates_and_date_shaped_numbers_are_rejected(text: str) -> None:
    assert dates(f"Here: {text}.") == []


EVENTS = [
    ("Date Filed: 01/19/2023 Entry ID: 5237514", EventType.FILED),
    ("The complaint was filed on March 1, 2023.", EventType.FILED),
    ("This Agreement is made as of November 5, 1996, by and between A and B.", EventType.SIGNED),
    ("IN WITNESS WHEREOF, executed this 19 day of March, 2004.", EventType.SIGNED),
    ("Dated: June 2, 2020", EventType.SIGNED),
    ('This Agreement (the "Agreement"), dated this 19th day of January, 2001', EventType.SIGNED),
    ("This Lease dated as of June 2, 2020 is between A and B.", EventType.SIGNED),
    # a date of an instrument the document refers to is not when this one was signed
    ("the Council of European Communities Directive dated 14 May 1991 will apply", EventType.OTHER),
    ("We refer to your letter dated March 3, 2020 about the shipment.", EventType.OTHER),
    ("EXHIBIT 10.43 Dated 29/3/18", EventType.SIGNED),  # a "Dated" label, capitalised, after no word
    ("the Amendment to the Supply Agreement Dated March 3, 2020 stays in force", EventType.OTHER),
    ("This Agreement shall be effective on January 1, 2020.", EventType.EFFECTIVE),
    ("Effective Date: March 1, 1996", EventType.EFFECTIVE),
    # "effective as of" is when it takes effect, though "as of" alone is when an agreement is made
    ("This Agreement is effective as of August 1, 2019.", EventType.EFFECTIVE),
    ("Effective as of 1st August 2019, the parties agree as follows.", EventType.EFFECTIVE),
    ("A hearing is set for April 4, 2024 at 10:00 a.m.", EventType.HEARING),
    ("(Arg. & Sub. – Jan. 12, 2023—Smith Wollman and Loken)", EventType.HEARING),
    ("The parties’ Statements are due on or before July 21, 2017.", EventType.DEADLINE),
    ("Discovery shall close no later than January 10, 2024.", EventType.DEADLINE),
    # the end of a period, though "Effective Date" is in the same sentence
    ("Commencing on the Effective Date and continuing until March 15, 2001, About shall deliver",
        EventType.DEADLINE),
    ("Commencing on or about March 20, 2001 and continuing until the end of the Term", EventType.EFFECTIVE),
    ("The opinion was decided June 5, 2019 by the panel.", EventType.DECIDED),
    ("Judgment was entered on May 1, 2018.", EventType.DECIDED),
    ("The meeting occurred on May 1, 2018 in Chicago.", EventType.OTHER),
]


@pytest.mark.parametrize(("sentence", "event"), EVENTS, ids=[s[:40] for s, _ in EVENTS])
def test_event_type_comes_from_the_words_near_the_date(sentence: str, event: EventType) -> None:
    (d,) = find_dates([ParsedPage(1, sentence, ExtractionMethod.NATIVE)])
    assert d.event is event


def test_the_event_description_is_the_sentence_around_the_date() -> None:
    text = "Background first. The parties’ Statements are due on or before\nJuly 21, 2017. Nothing else."
    (d,) = find_dates([ParsedPage(3, text, ExtractionMethod.NATIVE)])
    assert d.sentence == "The parties’ Statements are due on or before July 21, 2017."
    assert (d.page, text[d.char_start : d.char_end]) == (3, d.text)


# --- month-and-year dates ----------------------------------------------------------------------

MONTH_YEAR = [
    ("The parties entered into the agreement in March 2017.", [("2017-03", "March 2017")]),
    ("Liebowitz was first sanctioned in June of 2019.", [("2019-06", "June of 2019")]),
    ("Revised Sept. 2017", [("2017-09", "Sept. 2017")]),
    ("made as of this ___ day of March, 2004", [("2004-03", "March, 2004")]),  # a form's blank day
    ("decided March 15, 2017, and argued in\nFebruary 2017", [("2017-03-15", "March 15, 2017"),
                                                             ("2017-02", "February 2017")]),
    # no month, or not a month name: no date
    ("pursuant to Rule 2017 and Local Rule 31.2", []),
    ("Case 17-3510, Document 1-1, Page 2017 of 3010", []),
    ("the attorney may 2019 be admitted", []),  # "may" the verb
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), MONTH_YEAR, ids=[t[:40] for t, _ in MONTH_YEAR])
def test_month_and_year_dates_have_month_precision(text: str, expected: list) -> None:
    assert [(d.iso, d.text) for d in find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)])] == expected


def test_a_month_sorts_after_the_month_before_and_before_its_own_days() -> None:
    text = (
        "On March 1, 2017 the motion was filed. In March 2017 the court heard it. On February 28, 2017 it was served."
    )
    isos = sorted(d.iso for d in find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)]))
    assert isos == ["2017-02-28", "2017-03", "2017-03-01"]


# --- eval-dev -------------------------------------------------------------------------------

_MONTH_DAY_YEAR = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b")


def _expected_iso(query: dict) -> str | None:
    """The answer date: parsed from the answer texts, else from normalized_answer (M/D/YY)."""
    texts = [str(t) for t in (query.get("all_answer_texts") or [query["answer_text"]])]
    for t in texts:
        found = dates(t)
        if found:
            return found[0][0]
    norm = query.get("normalized_answer")
    if isinstance(norm, str) and _MONTH_DAY_YEAR.search(norm):
        m, d, y = (int(x) for x in _MONTH_DAY_YEAR.search(norm).group().split("/"))  # type: ignore[union-attr]
        return dt.date(y + (1900 if y >= 69 else 2000) if y < 100 else y, m, d).isoformat()
    return None


DATE_QUERIES = [q for q in jsonl("queries.jsonl") if q["kind"] == "date"]
DATED = [q for q in DATE_QUERIES if _expected_iso(q) is not None]


def test_one_evaldev_date_question_is_answered_by_a_term_not_a_date() -> None:
    # d009 asks for the initial term ("three (3) calendar years"): nothing for find_dates to find.
    assert [q["id"] for q in DATE_QUERIES if q not in DATED] == ["d009"]


@pytest.mark.parametrize("query", DATED, ids=[str(q["id"]) for q in DATED])
def test_every_evaldev_date_answer_is_found_on_its_page(query: dict) -> None:
    iso = _expected_iso(query)
    doc = str(query["doc"])
    found = find_dates(pages_of(doc))
    page = query.get("page") or 1  # TXT/DOCX references are one page
    assert (iso, page) in {(d.iso, d.page) for d in found}
