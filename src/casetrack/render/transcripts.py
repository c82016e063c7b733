"""get_testimony and digest_transcript (issue 37): the text a person reads, every row
cited by transcript page:line."""

from __future__ import annotations

from casetrack.chunk.transcripts.errata import Correction
from casetrack.chunk.transcripts.testimony import Exchange, Turn
from casetrack.render.formats import plural
from casetrack.service.search.testimony import Digest, Testified, TestimonyPage


def errata_of(item: Testified) -> list[Correction]:
    """The errata sheet's corrections of an exchange's rows."""
    x = item.exchange
    rows = {(line.page, line.line) for turn in (x.question, x.answer, *x.objections) if turn for line in turn.lines}
    return [c for c in item.transcript.errata if (c.page, c.line) in rows]


def _exchange_lines(item: Testified) -> list[str]:
    x: Exchange = item.exchange
    asked = f" ({x.examiner}" + (f", {x.examination.lower()})" if x.examination else ")") if x.examiner else ""
    lines = ["", f"{item.transcript.facts.cite(x.pin)}{asked}", f"  Q. {_text(x.question)}"]
    lines += [f"  [{o.pin}] {o.speaker}: {_text(o, speaker=True)}" for o in x.objections]
    lines.append(f"  A. {_text(x.answer)}" if x.answer else "  (no answer follows)")
    lines += [f"  Errata sheet, {c.pin}: {c.change}" + (f" ({c.reason})" if c.reason else "") for c in errata_of(item)]
    return lines


def _text(turn: Turn | None, speaker: bool = False) -> str:
    if turn is None:
        return ""
    text = turn.text
    if speaker and ":" in text:
        return text.split(":", 1)[1].strip()
    return text[2:].strip() if text[:2] in ("Q.", "A.") else text


def testimony_text(page: TestimonyPage) -> str:
    names = "; ".join(f"{t.document.name} ({t.facts.short_name}" + (f" {t.facts.date})" if t.facts.date else ")")
                      for t in page.transcripts)
    head = [f"Testimony: {names}", f"{plural(page.total, 'question')} matching; showing {page.offset + 1}-"
            f"{page.offset + len(page.items)}" if page.items else f"{plural(page.total, 'question')} matching"]
    body = [line for item in page.items for line in _exchange_lines(item)]
    after = page.offset + len(page.items)
    tail = ["", f"More: offset={after}"] if after < page.total else []
    return "\n".join(head + body + tail)


def digest_text(d: Digest) -> str:
    facts = d.transcript.facts
    lines = [f"Digest groundwork: {d.transcript.document.name} ({facts.short_name}"
             + (f" {facts.date})" if facts.date else ")"),
             f"{plural(len(d.testimony.exchanges), 'question')} answered or asked; cite as {facts.cite('PAGE:LINE')}"]
    lines += ["", "Examinations:"] + [f"  {e.pin}  {e.heading}" + (f" by {e.examiner}" if e.examiner else "")
                                      for e in d.testimony.examinations] or ["  (no examination heading)"]
    lines += ["", "Exhibits:"]
    for x in d.exhibits:
        marked = ", ".join(m.pin for m in x.marked) or (f"p. {x.index_page} (per the index)" if x.index_page else "?")
        lines.append(f"  Exhibit {x.number}: {x.description or '(no description in the index)'} - marked {marked}")
    lines += ["", "Topics (their most frequent words):"]
    lines += [f"  {t.pin}  {', '.join(t.words)} ({plural(t.exchanges, 'question')})" for t in d.topics]
    lines += ["", "Objections:"] + [f"  {o.pin}  {o.text}" for o in d.testimony.objections]
    if d.transcript.errata:
        lines += ["", "Errata sheet:"] + [f"  {c.pin}  {c.change}" + (f" ({c.reason})" if c.reason else "")
                                          for c in d.transcript.errata]
    return "\n".join(lines)
