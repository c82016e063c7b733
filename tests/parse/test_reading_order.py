"""Running headers and footers drawn out of reading order are put where they are printed."""

from __future__ import annotations

from casetrack.parse.layout import PageLines, furniture_in_place, join_columns

_HEIGHT = 12.0


def _page(*rows: tuple[str, float] | tuple[str, float, float]) -> PageLines:
    """Lines in drawing order, each (text, baseline) or (text, baseline, left); y grows upward."""
    lines = PageLines()
    for row in rows:
        text, baseline, left = (*row, 72.0) if len(row) == 2 else row
        lines.append(text, left, baseline, _HEIGHT)
    return lines


def _body(top: float = 700.0, count: int = 20) -> list[tuple[str, float]]:
    return [(f"Body line {n}.", top - 15.0 * n) for n in range(count)]


def test_a_footer_drawn_first_goes_to_the_foot_of_the_page() -> None:
    lines = furniture_in_place(_page(("Page 1 of 2", 52.0), *_body()))
    assert lines.texts[0] == "Body line 0."
    assert lines.texts[-1] == "Page 1 of 2"


def test_a_footer_drawn_first_stays_above_a_stamp_printed_below_it() -> None:
    lines = furniture_in_place(_page(("Page 1 of 2", 52.0), *_body(), ("Appellate Case: 22-1801 Page: 1", 14.0)))
    assert lines.texts[-2:] == ["Page 1 of 2", "Appellate Case: 22-1801 Page: 1"]


def test_a_header_stamp_drawn_last_goes_to_the_top() -> None:
    lines = furniture_in_place(_page(*_body(), ("Case 17-3510, Document 1-1, 10/31/2017, Page1 of 2", 760.0)))
    assert lines.texts[0].startswith("Case 17-3510")
    assert lines.texts[1] == "Body line 0."
    # The stamp ends a paragraph of its own: the body still starts on a new paragraph.
    assert join_columns(lines).startswith("Case 17-3510, Document 1-1, 10/31/2017, Page1 of 2\n\nBody line 0.")


def test_two_columns_keep_their_order() -> None:
    left = [(f"Left {n}.", 700.0 - 15.0 * n, 72.0) for n in range(20)]
    right = [(f"Right {n}.", 700.0 - 15.0 * n, 320.0) for n in range(20)]
    lines = _page(*left, *right)
    assert furniture_in_place(lines) is lines


def test_a_drop_cap_near_the_top_stays_where_it_was_drawn() -> None:
    lines = _page(("T", 680.0), ("his Agreement is made", 700.0), *_body(685.0))
    assert furniture_in_place(lines) is lines


def test_a_long_line_is_body_text_not_furniture() -> None:
    long_line = "A closing paragraph drawn first by an unusual producer, " * 3
    lines = _page((long_line, 52.0), *_body())
    assert furniture_in_place(lines) is lines


def test_a_page_in_reading_order_is_returned_unchanged() -> None:
    lines = _page(("Case 1:24-cv-00123", 760.0), *_body(), ("Page 3", 40.0))
    assert furniture_in_place(lines) is lines
