"""Legal concepts, causes of action and clause topics as data, shared by entities and issues."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from casetrack.graph.scan import (
    finditer_in,
    finditer_in_at,
    folds_beyond_lowered,
    index_keywords,
    keyword_hits,
    windows_at,
)


@dataclass(frozen=True, slots=True)
class Concept:
    label: str  # canonical: "Breach of Contract"
    pattern: re.Pattern[str]
    keywords: tuple[str, ...]  # lower-case words every match contains: the pattern runs only near them
    cause_of_action: bool = False  # a claim a party can plead (an issue wherever it appears)
    openers: tuple[str, ...] = ()  # lower-case words every match opens with (after `\b`); () when unknown


def _c(label: str, pattern: str, cause: bool = False, keywords: tuple[str, ...] = ()) -> Concept:
    """A concept row; `keywords` overrides the derived ones when those are common words ("agreement")."""
    keywords = keywords or _keywords(pattern)
    openers = [_opener(alternative, keywords) for alternative in _top_level_alternatives(pattern)]
    found = tuple(dict.fromkeys(o for o in openers if o)) if all(openers) else ()
    return Concept(label, re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE), keywords, cause, found)


def _opener(alternative: str, keywords: tuple[str, ...]) -> str | None:
    """The word the regex `alternative` always opens with: one of `keywords` when it opens with one, else its
    leading plain letters (>= 3; a last letter made optional dropped); None when it opens with a group."""
    for kw in keywords:
        if alternative.lower().startswith(kw) and alternative[len(kw) : len(kw) + 1] not in ("?", "*", "{"):
            return kw
    lead = re.match(r"[a-z]+", alternative)
    if lead is None:
        return None
    word = lead.group()
    if alternative[len(word) : len(word) + 1] in ("?", "*", "{"):
        word = word[:-1]
    return word if len(word) >= 3 else None


def _keywords(pattern: str) -> tuple[str, ...]:
    """Per alternative, the longest run of plain letters (>= 3) that every match holds at the start of a word
    (`scan.keyword_hits` counts a plain-word keyword only where it begins a word), lower-cased."""
    words = []
    for alternative in _top_level_alternatives(pattern):
        reduced = re.sub(r"^\(\?:[^()]*\)\??", " ", alternative)  # a group opening the alternative
        while (shorter := re.sub(r"\(\?:[^()]*\)[?*+]?", "~", reduced)) != reduced:
            reduced = shorter  # other groups glue on: what follows them may be mid-word
        reduced = re.sub(r"\\s[?*+]?|\\b|\[- \]", " ", reduced)
        reduced = re.sub(r"\[[^\]]*\][?*+]?|\\w[?*+]?|.\?", "~", reduced)
        heads = [w.split("~")[0] for w in reduced.split(" ")]
        runs = [h.lower() for h in heads if len(h) >= 3 and re.fullmatch(r"[A-Za-z]+", h)]
        if not runs:
            raise ValueError(f"concept pattern alternative without a word-start keyword: {alternative!r}")
        words.append(max(reversed(runs), key=len))  # longest; on a tie the later, usually rarer, word
    return tuple(dict.fromkeys(words))


def _top_level_alternatives(pattern: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(pattern):
        if ch == "(" and pattern[i - 1 : i] != "\\":
            depth += 1
        elif ch == ")" and pattern[i - 1 : i] != "\\":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


CONCEPTS: tuple[Concept, ...] = (
    _c("Breach of Contract", r"breach(?:es|ed)?\s+(?:of\s+(?:the\s+|this\s+)?)?(?:contract|agreement)", True),
    _c("Breach of Fiduciary Duty", r"breach(?:es)?\s+of\s+(?:its\s+|his\s+|her\s+|their\s+)?fiduciary\s+dut(?:y"
        r"|ies)", True),
    _c("Breach of Warranty", r"breach(?:es)?\s+of\s+(?:express\s+|implied\s+)?warrant(?:y|ies)", True),
    _c("Negligence", r"(?:gross\s+)?negligen(?:ce|t)", True),
    _c("Fraud", r"fraud(?:ulent\s+(?:inducement|misrepresentation|concealment))?", True),
    _c("Negligent Misrepresentation", r"negligent\s+misrepresentation", True),
    _c("Unjust Enrichment", r"unjust(?:ly)?\s+enrich(?:ment|ed)", True),
    _c("Promissory Estoppel", r"promissory\s+estoppel", True),
    _c("Tortious Interference", r"tortious(?:ly)?\s+interfer(?:ence|ed)", True),
    _c("Defamation", r"defamation|libel|slander", True),
    _c("Conversion", r"conversion\s+of", True),
    _c("Trade Secret Misappropriation", r"misappropriat\w*\s+(?:of\s+)?(?:a\s+|the\s+)?trade\s+secrets?"
        r"|theft\s+of\s+trade\s+secrets?", True),
    _c("Copyright Infringement", r"copyright\s+infringement|infring\w*\s+(?:the\s+|its\s+)?copyrights?", True),
    _c("Trademark Infringement", r"trademark\s+infringement|infring\w*\s+(?:the\s+|its\s+)?trademarks?", True),
    _c("Patent Infringement", r"patent\s+infringement|infring\w*\s+(?:the\s+|its\s+)?patents?", True),
    _c("Discrimination", r"(?:race|sex|age|gender|disability|employment)\s+discrimination|discriminat(?:ed"
        r"|ion)\s+against", True),
    _c("Retaliation", r"retaliat(?:ion|ed|ory)", True),
    _c("Wrongful Termination", r"wrongful(?:ly)?\s+(?:termination|discharge|terminated|discharged)", True),
    _c("Civil Rights Violation", r"civil\s+rights\s+violations?|deprivation\s+of\s+(?:constitutional\s+"
        r"|civil\s+)?rights", True),
    _c("Declaratory Judgment", r"declaratory\s+(?:judgment|relief)", True),
    _c("Injunctive Relief", r"injunctive\s+relief|preliminary\s+injunction|temporary\s+restraining\s+order"),
    _c("Damages", r"(?:compensatory|punitive|consequential|liquidated|incidental|special|exemplary|treble)\s+damages"),
    _c("Attorneys' Fees", r"attorneys?['’]?\s+fees"),
    _c("Indemnification", r"indemnif(?:y|ied|ies|ication)|hold\s+harmless"),
    _c("Limitation of Liability", r"limitation\s+of\s+liability|in\s+no\s+event\s+shall\s+\w+\s+be\s+liable"),
    _c("Confidentiality", r"confidential\s+information|confidentiality|non-?disclosure"),
    _c("Non-Competition", r"non-?compet(?:e|ition)|covenant\s+not\s+to\s+compete"),
    _c("Non-Solicitation", r"non-?solicitation|shall\s+not\s+solicit"),
    _c("Force Majeure", r"force\s+majeure|acts?\s+of\s+god"),
    _c("Governing Law", r"governing\s+law"
        r"|governed\s+by\s+(?:and\s+construed\s+in\s+accordance\s+with\s+)?the\s+laws\s+of"),
    _c("Arbitration", r"arbitrat(?:ion|or|e)"),
    _c("Jurisdiction and Venue", r"exclusive\s+jurisdiction|personal\s+jurisdiction|subject[- ]matter\s+jurisdiction"
        r"|venue"),
    _c("Termination", r"terminat(?:e|ion)\s+(?:this|the)\s+agreement|right\s+to\s+terminate"
        r"|termination\s+for\s+(?:cause|convenience)", keywords=("terminat",)),
    _c("Assignment", r"(?:may\s+not|shall\s+not)\s+assign|assignment\s+of\s+(?:this|the)\s+agreement"),
    _c("Exclusivity", r"exclusive\s+(?:distributor|license|right|territory)"),
    _c("Warranty", r"warrant(?:y|ies)"),
    _c("Intellectual Property", r"intellectual\s+property"),
    _c("Trade Secret", r"trade\s+secrets?"),
    _c("Due Process", r"due\s+process"),
    _c("Reasonable Suspicion", r"reasonable\s+suspicion"),
    _c("Probable Cause", r"probable\s+cause"),
    _c("Border Search", r"border\s+search(?:es)?(?:\s+exception|\s+doctrine)?"),
    _c("Summary Judgment", r"summary\s+judgment"),
    _c("Motion to Dismiss", r"motion\s+to\s+dismiss|failure\s+to\s+state\s+a\s+claim"),
    _c("Standing", r"lack\s+of\s+standing|article\s+iii\s+standing"),
    _c("Qualified Immunity", r"qualified\s+immunity"),
    _c("Statute of Limitations", r"statute\s+of\s+limitations?|time[- ]barred"),
    _c("Attorney Discipline", r"reciprocal\s+discipline|suspended\s+from\s+the\s+practice\s+of\s+law"
        r"|disciplinary\s+enforcement"),
    _c("Consolidation of Appeals", r"consolidat(?:ed|ion)\s+(?:with\s+)?appeals?|appeal\s+should\s+be\s+consolidated"),
)  # fmt: skip

index_keywords(kw for c in CONCEPTS for kw in (*c.keywords, *c.openers))
_CONCEPT_REACH = 80


def find_concepts(text: str, low: str, causes_only: bool = False) -> Iterator[tuple[Concept, re.Match[str]]]:
    """Every concept named in `text` (`low` is its length-preserving lower case), each with its match."""
    folds = folds_beyond_lowered(low)  # then a keyword may open a match where `low` does not show it
    for concept in CONCEPTS:
        if causes_only and not concept.cause_of_action:
            continue
        hits = keyword_hits(low, concept.keywords)
        windows = windows_at(hits, len(text), _CONCEPT_REACH)
        if concept.openers and not folds:
            # Matches open at an opener, so the pattern is tried there alone: the matches the windows hold.
            at = hits if concept.openers == concept.keywords else keyword_hits(low, concept.openers)
            matches = finditer_in_at(concept.pattern, text, windows, list(dict.fromkeys(s for s, _ in at)))
        else:
            matches = finditer_in(concept.pattern, text, windows)
        for m in matches:
            yield concept, m


# Clause headings -> the issue they raise. A heading that matches nothing is structure, not an issue.
CLAUSE_ISSUES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"\b(?:{p})\b", re.IGNORECASE), label)
    for p, label in (
        (r"terminat\w*|term\s+and\s+termination", "Termination"),
        (r"indemni\w*|hold\s+harmless", "Indemnification"),
        (r"governing\s+law|choice\s+of\s+law|applicable\s+law", "Governing Law"),
        (r"confidential\w*|non-?disclosure", "Confidentiality"),
        (r"limitation\s+of\s+liability|limitation\s+on\s+liability|liability", "Limitation of Liability"),
        (r"warrant\w*|representations", "Representations and Warranties"),
        (r"intellectual\s+property|proprietary\s+rights|trademarks?|licen[cs]e\s+grant", "Intellectual Property"),
        (r"payment|compensation|fees|pricing|prices|royalt\w*|commissions?", "Payment and Compensation"),
        (r"assignment|assign", "Assignment"),
        (r"force\s+majeure", "Force Majeure"),
        (r"arbitration|dispute\s+resolution|disputes", "Dispute Resolution"),
        (r"jurisdiction|venue", "Jurisdiction and Venue"),
        (r"non-?compet\w*|covenant\s+not\s+to\s+compete", "Non-Competition"),
        (r"non-?solicit\w*", "Non-Solicitation"),
        (r"insurance", "Insurance"),
        (r"exclusiv\w*", "Exclusivity"),
        (r"audit|records", "Audit Rights"),
        (r"damages|remedies", "Damages and Remedies"),
        (r"injunct\w*|equitable\s+relief", "Injunctive Relief"),
        (r"non-?compliance|breach|default", "Breach and Default"),
        (r"term|duration|renewal", "Term and Renewal"),
    )
)
