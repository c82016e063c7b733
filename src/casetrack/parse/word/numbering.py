"""Word's automatic list numbers ("1.", "(a)", "ii.", "•"), rebuilt from numbering.xml.

The numbers are not in the paragraph text, yet legal drafting cites them ("Section 4(b)"),
so the DOCX parser puts them back in front of each numbered paragraph. Covers direct and
style-inherited numbering, multi-level labels ("%1.%2"), start values and restarts of
deeper levels; exotic formats fall back to decimal.
"""

from __future__ import annotations

from dataclasses import dataclass

from docx.oxml.ns import qn
from lxml import etree

_MAX_LEVELS = 9
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Level:
    number_format: str  # numFmt: decimal, lowerLetter, bullet, ...
    template: str  # lvlText, e.g. "%1." or "(%2)"
    start: int


def _value(element: etree._Element | None, tag: str) -> str | None:
    if element is None:
        return None
    child = element.find(qn(tag))
    return child.get(qn("w:val")) if child is not None else None


def format_number(value: int, number_format: str) -> str:
    if number_format in ("lowerLetter", "upperLetter"):
        letter = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)  # Word repeats: y, z, aa, bb
        return letter.upper() if number_format == "upperLetter" else letter
    if number_format in ("lowerRoman", "upperRoman"):
        roman, remaining = "", max(value, 1)
        for amount, symbol in _ROMAN:
            while remaining >= amount:
                roman, remaining = roman + symbol, remaining - amount
        return roman.upper() if number_format == "upperRoman" else roman
    if number_format == "decimalZero":
        return f"{value:02d}"
    return str(value)


class ListNumbering:
    """Stateful: call `label` for every body paragraph in document order."""

    def __init__(self, numbering: etree._Element | None, styles: etree._Element | None) -> None:
        self._levels: dict[str, dict[int, _Level]] = {}
        self._abstract_of: dict[str, str] = {}
        self._start_overrides: dict[tuple[str, int], int] = {}
        self._style_numbering: dict[str, tuple[str, int]] = {}
        self._counters: dict[str, list[int | None]] = {}
        if numbering is not None:
            self._read_numbering(numbering)
        if styles is not None:
            self._read_styles(styles)

    def _read_numbering(self, numbering: etree._Element) -> None:
        for abstract in numbering.iterfind(qn("w:abstractNum")):
            levels = {}
            for level in abstract.iterfind(qn("w:lvl")):
                index = int(level.get(qn("w:ilvl"), "0"))
                levels[index] = _Level(
                    number_format=_value(level, "w:numFmt") or "decimal",
                    template=_value(level, "w:lvlText") or "",
                    start=int(_value(level, "w:start") or "1"),
                )
            self._levels[abstract.get(qn("w:abstractNumId"), "")] = levels
        for num in numbering.iterfind(qn("w:num")):
            num_id = num.get(qn("w:numId"), "")
            self._abstract_of[num_id] = _value(num, "w:abstractNumId") or ""
            for override in num.iterfind(qn("w:lvlOverride")):
                start = _value(override, "w:startOverride")
                if start is not None:
                    self._start_overrides[(num_id, int(override.get(qn("w:ilvl"), "0")))] = int(start)

    def _read_styles(self, styles: etree._Element) -> None:
        direct: dict[str, tuple[str | None, int]] = {}
        based_on: dict[str, str] = {}
        for style in styles.iterfind(qn("w:style")):
            style_id = style.get(qn("w:styleId"), "")
            parent = _value(style, "w:basedOn")
            if parent:
                based_on[style_id] = parent
            num_pr = style.find(f"{qn('w:pPr')}/{qn('w:numPr')}")
            if num_pr is not None:
                direct[style_id] = (_value(num_pr, "w:numId"), int(_value(num_pr, "w:ilvl") or "0"))
        for style_id in set(direct) | set(based_on):
            seen, current = set(), style_id
            while current and current not in direct and current not in seen:  # walk basedOn, guarding cycles
                seen.add(current)
                current = based_on.get(current, "")
            found = direct.get(current) if current else None
            if found and found[0]:
                self._style_numbering[style_id] = (found[0], found[1])

    def label(self, paragraph: etree._Element) -> str:
        """The list label Word would show before this paragraph, or "" when it is not numbered."""
        properties = paragraph.find(qn("w:pPr"))
        num_pr = properties.find(qn("w:numPr")) if properties is not None else None
        style = _value(properties, "w:pStyle")
        inherited = self._style_numbering.get(style or "")
        num_id = _value(num_pr, "w:numId") or (inherited[0] if inherited else None)
        level_text = _value(num_pr, "w:ilvl")
        level = int(level_text) if level_text is not None else (inherited[1] if inherited else 0)
        if not num_id or num_id == "0" or not 0 <= level < _MAX_LEVELS:
            return ""
        abstract = self._abstract_of.get(num_id)
        levels = self._levels.get(abstract or "", {})
        if level not in levels:
            return ""
        # Lists sharing an abstract definition continue one count unless the instance restarts it.
        restarts = any(key[0] == num_id for key in self._start_overrides)
        key = f"num:{num_id}" if restarts else f"abstract:{abstract}"
        counters = self._counters.setdefault(key, [None] * _MAX_LEVELS)
        current = counters[level]
        start = self._start_overrides.get((num_id, level), levels[level].start)
        counters[level] = start if current is None else current + 1
        for deeper in range(level + 1, _MAX_LEVELS):
            counters[deeper] = None
        return self._render(levels, counters, level)

    @staticmethod
    def _render(levels: dict[int, _Level], counters: list[int | None], level: int) -> str:
        spec = levels[level]
        if spec.number_format == "bullet":
            return "•"
        if spec.number_format == "none":
            return ""
        text = spec.template
        for index in range(_MAX_LEVELS):
            placeholder = f"%{index + 1}"
            if placeholder in text:
                value = counters[index] if counters[index] is not None else levels.get(index, spec).start
                number_format = levels[index].number_format if index in levels else "decimal"
                text = text.replace(placeholder, format_number(value or 1, number_format))
        return text.strip()
