"""Document type from the filename and the opening text, by weighted indicators.

The indicator table follows the peer design's "Document Type Detection" table,
mapped onto the PRD's types: witness statements count as depositions, court
filings split into motions (filed by a party) and case law (orders, opinions and
judgments issued by a court), disclosure bundles count as exhibits. Each indicator
adds its weight for every hit, up to `cap` hits; the best-scoring type wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from casetrack.domain import DocumentType as T

SCAN_CHARS = 10_000  # the opening pages say what a document is; the rest costs time
MIN_SCORE = 2.0  # below this no type is believable: OTHER


@dataclass(frozen=True, slots=True)
class Indicator:
    type: T
    pattern: re.Pattern[str]
    weight: float
    in_filename: bool = False
    cap: int = 1  # hits counted at most


def _ind(
    doc_type: T, pattern: str, weight: float, *, filename: bool = False, cap: int = 1, flags: int = 0
) -> Indicator:
    return Indicator(doc_type, re.compile(pattern, flags | (re.IGNORECASE if filename else 0)), weight, filename, cap)


_I = re.IGNORECASE
_M = re.MULTILINE

INDICATORS: tuple[Indicator, ...] = (
    # Contracts
    _ind(
        T.CONTRACT, r"agreement|contract|\bnda\b|lease|licen[cs]e|\bdeed\b|\bmou\b|addendum|amendment", 3, filename=True
    ),
    _ind(T.CONTRACT, r"\bthis\s+(?:[\w\-“”\"]+\s+){0,4}agreement\b", 2.5, flags=_I, cap=2),
    _ind(T.CONTRACT, r"\bparties\s+(?:hereby\s+|hereto\s+)?agree|\bagree\s+as\s+follows", 2, flags=_I),
    _ind(
        T.CONTRACT, r"^\s*WHEREAS\b|\bin\s+witness\s+whereof\b|\bW\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H\b", 2, flags=_M
    ),
    _ind(T.CONTRACT, r"\bnon-?disclosure\s+agreement\b|\bconfidential\s+information\b", 1.5, flags=_I),
    _ind(T.CONTRACT, r"\b(?:governing\s+law|indemnif\w+|terminat\w+|effective\s+date)\b", 0.5, flags=_I, cap=4),
    _ind(T.CONTRACT, r"\((?:the\s+)?[\"“][A-Z][^\"”\n]{0,40}[\"”]\)", 0.5, cap=4),  # ("Licensee")
    # Pleadings
    _ind(T.PLEADING, r"complaint|petition|answer|counterclaim|particulars|defen[cs]e|\bpoc\b", 3, filename=True),
    _ind(
        T.PLEADING,
        r"\b(?:verified\s+)?complaint\s+for\b|\bparticulars\s+of\s+claim\b|\bjury\s+trial\s+demanded\b"
        r"|\bdemand\s+for\s+(?:a\s+)?jury\s+trial\b",
        3,
        flags=_I,
    ),
    # The caption's title line: "COMPLAINT", "FIRST AMENDED COMPLAINT AND DEMAND FOR JURY TRIAL"
    _ind(
        T.PLEADING,
        r"^[ \t]*(?:(?:FIRST|SECOND|THIRD)\s+)?(?:AMENDED\s+)?(?:VERIFIED\s+)?(?:CLASS\s+ACTION\s+)?COMPLAINT\b",
        3,
        flags=_M,
    ),
    _ind(
        T.PLEADING,
        r"\bprayer\s+for\s+relief\b|^\s*WHEREFORE\b|\bcauses?\s+of\s+action\b|\bcomes\s+now\b",
        1.5,
        flags=_I | _M,
    ),
    _ind(T.PLEADING, r"\bplaintiffs?\s+(?:allege|brings?|complains?)\b|\bin\s+the\s+high\s+court\b", 1.5, flags=_I),
    _ind(T.PLEADING, r"\balleges?,?\s+(?:as\s+follows|upon\s+information\s+and\s+belief)\b", 1.5, flags=_I),
    # Motions
    _ind(T.MOTION, r"motion|\bmtd\b|\bmsj\b", 3, filename=True),
    _ind(
        T.MOTION,
        r"\b(?:notice\s+of\s+)?motion\s+(?:to|for)\b|\bhereby\s+moves?\b|\bmoves?\s+(?:this|the)\s+court\b",
        2.5,
        flags=_I,
    ),
    _ind(T.MOTION, r"\bmemorandum\s+(?:of\s+points\s+and\s+authorities|of\s+law\s+)?in\s+support\b", 2, flags=_I),
    # Briefs
    _ind(T.BRIEF, r"brief|memorandum|opposition|\breply\b", 3, filename=True),
    _ind(T.BRIEF, r"\btable\s+of\s+(?:authorities|contents)\b|\bsummary\s+of\s+(?:the\s+)?argument\b", 2, flags=_I),
    _ind(T.BRIEF, r"\bstatement\s+of\s+(?:the\s+)?(?:issues|case|facts)\b|\bstandard\s+of\s+review\b", 1.5, flags=_I),
    _ind(
        T.BRIEF,
        r"\bbrief\s+(?:of|for)\s+(?:the\s+)?(?:[\w-]+-)?(?:appellants?|appellees?|petitioners?|respondents?)\b",
        3,
        flags=_I,
    ),
    # Correspondence: letters, e-mails, notices the clerk sends to counsel
    _ind(T.CORRESPONDENCE, r"letter|e-?mail|correspondence|\bltr\b|\.eml$|\.msg$|notice", 3, filename=True),
    _ind(T.CORRESPONDENCE, r"^(?:From|To|Subject|Sent|Cc|Date):", 1, flags=_M, cap=4),
    _ind(T.CORRESPONDENCE, r"^\s*Dear\s+\S", 2.5, flags=_M),
    _ind(
        T.CORRESPONDENCE, r"\b(?:sincerely|very\s+truly\s+yours|respectfully\s+yours|best\s+regards)\b", 1.5, flags=_I
    ),
    _ind(
        T.CORRESPONDENCE,
        r"^\s*Re:|\bVia\s+(?:ECF|e-?mail|fax|facsimile|overnight|hand)\b|\bRule\s+28\(j\)",
        1.5,
        flags=_M,
        cap=2,
    ),
    _ind(
        T.CORRESPONDENCE,
        r"\b(?:docketing|filing)\s+notice\b|\binquiries\s+regarding\s+this\s+case\b",
        2.5,
        flags=_I,
        cap=2,
    ),
    # Depositions and witness statements
    _ind(T.DEPOSITION, r"depo|transcript|witness|\bws\b|statement", 3, filename=True),
    _ind(
        T.DEPOSITION,
        r"\b(?:oral\s+|videotaped\s+)?deposition\s+of\b|\bwitness\s+statement\b|\bstatement\s+of\s+truth\b",
        3,
        flags=_I,
    ),
    _ind(T.DEPOSITION, r"^\s*(?:\d{1,2}\s+)?Q\.?\s+\S", 0.5, flags=_M, cap=6),
    _ind(T.DEPOSITION, r"\bI\s+make\s+this\s+statement\b|\bcourt\s+reporter\b|\bexamination\s+by\b", 1.5, flags=_I),
    # Discovery
    _ind(T.DISCOVERY, r"interrogator|\brfp\b|\brfa\b|discovery|subpoena|production|admission", 3, filename=True),
    _ind(T.DISCOVERY, r"\binterrogatory\s+no\b|\brequests?\s+for\s+(?:production|admission)\b", 2.5, flags=_I),
    _ind(T.DISCOVERY, r"\b(?:responding|propounding)\s+party\b|\bsubpoena\s+(?:to|duces)\b", 2, flags=_I),
    # Statutes and regulations
    _ind(T.STATUTE, r"\bact\b|statute|regulation|legislation|\busc\b|\bcfr\b|\bcode\b", 3, filename=True),
    _ind(T.STATUTE, r"\bbe\s+it\s+enacted\b|^\s*an\s+act\s+to\b|\bpublic\s+law\s+\d", 3, flags=_I | _M),
    _ind(T.STATUTE, r"^\s*(?:§|Sec\.|SECTION)\s*\d+", 0.5, flags=_M, cap=6),
    _ind(T.STATUTE, r"\bsubsection\s+\(\w\)", 0.5, flags=_I, cap=4),
    # A code's own apparatus: "TITLE 15—COMMERCE AND TRADE", the source note "48 Stat. 891; Pub. L. 111-203"
    _ind(T.STATUTE, r"^[ \t]*(?:TITLE|CHAPTER|SUBCHAPTER)\s+[\dIVXLC]+[A-Z]?\b(?!:)", 1, flags=_M, cap=2),
    _ind(T.STATUTE, r"\bPub\.\s*L\.\s*(?:No\.\s*)?\d|\b\d+\s+Stat\.\s+\d", 1.5, cap=2),
    _ind(T.STATUTE, r"\bit\s+shall\s+be\s+unlawful\b", 1.5, flags=_I),
    # Case law: orders, opinions, judgments
    _ind(T.CASE_LAW, r"order|opinion|judgment|decision|ruling", 3, filename=True),
    # The court's title line: "OPINION", "MEMORANDUM OPINION"; the paired titles ("MEMORANDUM OPINION AND ORDER",
    # "DECISION AND ORDER", "ORDER AND JUDGMENT") head nothing but a court's decision, so outweigh a motion it recites
    _ind(T.CASE_LAW, r"^\s*(?:MEMORANDUM\s+)?(?:OPINION|ORDER|DECISION|JUDGMENT)\s*$", 2.5, flags=_M),
    _ind(
        T.CASE_LAW,
        r"^\s*(?:MEMORANDUM\s+)?(?:OPINION|ORDER|DECISION|JUDGMENT)"
        r"\s+(?:AND|&)\s+(?:MEMORANDUM\s+)?(?:ORDER|OPINION|JUDGMENT|DECISION|RECOMMENDATION)\s*$",
        3.5,
        flags=_M,
    ),
    # "ORDER GRANTING MOTION TO DISMISS" is the court's, though it names a motion ("[PROPOSED] ORDER" is not)
    _ind(T.CASE_LAW, r"^[ \t]*ORDER\s+(?:GRANTING|DENYING|ON|REGARDING|ADOPTING|DISMISSING|REMANDING)\b", 3, flags=_M),
    _ind(T.CASE_LAW, r"\bdelivered\s+the\s+opinion\s+of\s+the\s+court\b|\bopinion\s+of\s+the\s+court\b", 3, flags=_I),
    # A reported opinion as a research database exports it: star pages "[590 F.Supp.3d 855]", "Decided May 3, 2021"
    _ind(T.CASE_LAW, r"\[\*?\d{1,4}\s+[A-Z][\w.]*(?:\s?[\w.]+){0,3}\s+\*?\d{1,5}\]", 1.5, cap=2),
    _ind(T.CASE_LAW, r"^\s*(?:Signed|Decided|Argued)\s+(?:on\s+)?[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4}", 1.5, flags=_M),
    _ind(
        T.CASE_LAW,
        r"\bit\s+is\s+(?:hereby\s+|further\s+)?ordered\b|\bso\s+ordered\b|\bby\s+the\s+court\b",
        2,
        flags=_I,
        cap=2,
    ),
    _ind(T.CASE_LAW, r"\bORDERS\s+(?:the|that)\b", 2),  # "The court ... ORDERS the parties"
    _ind(
        T.CASE_LAW,
        r"\bcircuit\s+judges?\b|\bper\s+curiam\b|\b(?:affirmed|reversed|remanded)\b|\bshow\s+cause\b",
        1,
        flags=_I,
        cap=2,
    ),
    # An agency's adjudicators and its reporter's apparatus (a BIA, BVA or ALJ decision has no "court"): "Interim
    # Decision #4035", "Board Panel", "Appellate Immigration Judge", "Administrative Law Judge"
    _ind(
        T.CASE_LAW,
        r"\binterim\s+decision\b|\bboard\s+(?:panel|members?)\b|\b(?:appellate\s+)?immigration\s+judges?\b"
        r"|\b(?:administrative|veterans)\s+law\s+judges?\b",
        1.5,
        flags=_I,
        cap=2,
    ),
    _ind(
        T.CASE_LAW,
        r"\bcourt\s+of\s+appeals\b|\bdistrict\s+court\b|\bbefore\s+the\s+honou?rable\b",
        0.5,
        flags=_I,
        cap=2,
    ),
    # Exhibits and disclosure bundles
    _ind(T.EXHIBIT, r"exhibit|\bexh?\b|bundle|disclosure|attachment", 3, filename=True),
    _ind(T.EXHIBIT, r"\A\s*EXHIBIT\s+[A-Z0-9]", 1),  # SEC filings label contracts "EXHIBIT 10.3" too
)


# A court's own title under the caption ("MEMORANDUM OPINION AND ORDER", "ORDER ON DEFENDANT'S MOTION TO
# DISMISS"), and the titles a party's filing opens with; whichever the document prints first says whose it is.
_COURT_TITLE = re.compile(
    r"^[ \t]*(?:(?:MEMORANDUM\s+)?(?:OPINION|ORDER|DECISION|JUDGMENT)(?:\s+(?:AND|&)\s+(?:MEMORANDUM\s+)?"
    r"(?:ORDER|OPINION|JUDGMENT|DECISION|RECOMMENDATION))?[ \t]*$"
    r"|ORDER\s+(?:GRANTING|DENYING|ON|REGARDING|ADOPTING|DISMISSING|REMANDING)\b)",
    re.MULTILINE,
)
_FILING_TITLE = re.compile(
    r"^[ \t]*(?:(?:NOTICE\s+OF\s+)?MOTION\b|(?:[A-Z][\w'’.-]*\s+){0,5}(?:BRIEF|MEMORANDUM\s+OF\s+(?:LAW|POINTS))\b"
    r"|(?:(?:FIRST|SECOND|THIRD)\s+)?(?:AMENDED\s+)?(?:VERIFIED\s+)?COMPLAINT\b)",
    re.MULTILINE,
)


def infer_document_type(filename: str, text: str) -> tuple[T, float]:
    """The likeliest type and a confidence in 0..1 (share of the evidence, damped
    when the evidence is thin). OTHER when nothing scores enough. Never raises."""
    stem = PurePath(filename).name.replace("_", " ").replace("-", " ")
    head = text[:SCAN_CHARS]
    scores = score_types(stem, head)
    if _titled_by_court(head) and scores.get(T.CASE_LAW, 0.0) < max(scores.values(), default=0.0):
        # An order on a motion recites the motion (and its file is often named for it): the caption's own
        # title decides.
        scores[T.CASE_LAW] = max(scores.values()) + 1.0
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    best_type, best = ranked[0] if ranked else (T.OTHER, 0.0)
    if best < MIN_SCORE:
        return T.OTHER, round(0.5 * (1 - best / MIN_SCORE), 3)  # weaker stray hits, surer OTHER
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    share = best / (best + runner_up)
    strength = best / (best + 3.0)  # a single weak hit is not certainty
    return best_type, round(min(1.0, share * strength * 1.2), 3)


def _titled_by_court(head: str) -> bool:
    court = _COURT_TITLE.search(head)
    if court is None:
        return False
    filing = _FILING_TITLE.search(head, 0, court.start())
    return filing is None


def score_types(filename: str, text: str) -> dict[T, float]:
    """Summed indicator weights per type (only types with a hit)."""
    scores: dict[T, float] = {}
    for ind in INDICATORS:
        target = filename if ind.in_filename else text
        hits = 0
        for _ in ind.pattern.finditer(target):
            hits += 1
            if hits >= ind.cap:
                break
        if hits:
            scores[ind.type] = scores.get(ind.type, 0.0) + ind.weight * hits
    return scores
