"""How a citing passage treats the authority it cites, from signals and verbs as data.

Each rule says which words, on which side of the citation, mean which treatment; the
highest-priority rule that matches wins, and `cited` is the default. "Before" text runs
from the end of the previous citation (or the sentence start) to the citation; "after"
text from the citation to the next citation (or the sentence end). So in
`Smith, 1 U.S. 1, overruled by Jones, 2 U.S. 2` Smith is overruled and Jones only cited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Treatment(StrEnum):
    CITED = "cited"
    FOLLOWED = "followed"
    DISTINGUISHED = "distinguished"
    OVERRULED = "overruled"
    DISCUSSED = "discussed"


@dataclass(frozen=True, slots=True)
class TreatmentRule:
    pattern: re.Pattern[str]
    treatment: Treatment
    priority: int
    side: str  # "before" | "after" | "either"


def _rule(pattern: str, treatment: Treatment, priority: int, side: str = "before") -> TreatmentRule:
    return TreatmentRule(re.compile(pattern, re.IGNORECASE), treatment, priority, side)


T = Treatment
TREATMENT_RULES: tuple[TreatmentRule, ...] = (
    # a judge who would overrule it, or a party asking the court to, is discussing it: it stands
    _rule(r"\b(?:would|should|could|might|ask(?:s|ed)?\s+(?:us|the\s+Court)\s+to|urg(?:e|es|ed)\s+(?:us|the\s+Court)"
        r"\s+to|declin(?:e|es|ed|ing)\s+to|not)\s+overrule\b", T.DISCUSSED, 101),
    # overruled: the authority named after "overruling", or before "overruled by"
    _rule(r"\boverrul(?:e|es|ed|ing)\b(?!\s+(?:by|in|on))", T.OVERRULED, 100),
    _rule(r"\babrogat(?:e|ed|ing)\b(?!\s+by)", T.OVERRULED, 100),
    _rule(r"\b(?:overruled|abrogated|superseded)(?:\s+on\s+other\s+grounds)?(?:\s+by"
        r"|\s+in)\b", T.OVERRULED, 100, "after"),
    _rule(r"\b(?:is|was|has\s+been|have\s+been|been)\s+(?:expressly\s+"
        r"|implicitly\s+)?overruled\b", T.OVERRULED, 100, "after"),
    _rule(r"\bno\s+longer\s+good\s+law\b", T.OVERRULED, 95, "after"),
    # declining to follow is a distinction, and outranks "follow"
    _rule(r"\b(?:declin(?:e|es|ed|ing)|refus(?:e|es|ed|ing)|not)\s+to\s+(?:follow|adopt|apply"
        r"|extend)\b", T.DISTINGUISHED, 90),
    _rule(r"\b(?:do|does|did)\s+not\s+(?:follow|apply|control|govern)\b", T.DISTINGUISHED, 90, "either"),
    _rule(r"\bdistinguish(?:es|ed|ing|able)?\b", T.DISTINGUISHED, 80, "either"),
    _rule(r"\b(?:unlike|contra|inapposite|inapplicable)\b", T.DISTINGUISHED, 80, "either"),
    _rule(r"\bbut\s+(?:see|cf\.)", T.DISTINGUISHED, 75),
    _rule(r"\b(?:is|are)\s+(?:not\s+controlling|different|not\s+on\s+point)\b", T.DISTINGUISHED, 75, "after"),
    # followed
    _rule(r"\b(?:follow(?:s|ed|ing)?|we\s+follow|adopt(?:s|ed|ing)?|appl(?:y|ies|ied|ying)"
        r"|accord(?:ing)?\s+with)\b", T.FOLLOWED, 70),
    _rule(r"\b(?:relying\s+on|relied\s+(?:up)?on|consistent\s+with|in\s+line\s+with|as\s+(?:held|required)\s+(?:in"
        r"|by))\b", T.FOLLOWED, 65),
    _rule(r"^\W*accord\b", T.FOLLOWED, 60),
    _rule(r"\bcontrols?\b|\bis\s+controlling\b|\bgoverns\b", T.FOLLOWED, 60, "after"),
    # discussed
    _rule(r"\b(?:discuss(?:es|ed|ing)?|explain(?:s|ed|ing)?|analy[sz](?:es|ed|ing)|examin(?:es|ed|ing)|addressed"
        r"|considered|noted)\b", T.DISCUSSED, 50, "either"),
    _rule(r"\b(?:held|holds|holding|reasoned|observed|concluded|found|ruled|articulated)\b(?:\s+that)?", T.DISCUSSED,
        45, "either"),
    _rule(r"(?-i:^\W*In\s+[A-Z])", T.DISCUSSED, 40),  # "In Grutter, the Court ...", not "In addition"
    # plain signals: cited
    _rule(r"\b(?:see(?:\s+also|\s+generally)?|cf\.|e\.g\.|compare)\b", T.CITED, 10),
)  # fmt: skip


# A signal opening the citation ("...no right to vote absentee, see Democracy N.C., 476 F. Supp. 3d 158") says how
# the authority is used; the words before it belong to the proposition it supports.
_SIGNAL = re.compile(r"(?:\bbut\s+)?\b(?:see(?:\s+also|\s+generally)?|cf\.|e\.g\.)(?=[\s,])", re.IGNORECASE)


def classify(before: str, after: str, rules: tuple[TreatmentRule, ...] = TREATMENT_RULES) -> Treatment:
    """The treatment the text around one citation gives it; `cited` when nothing matches."""
    signals = list(_SIGNAL.finditer(before))
    if signals:
        before = before[signals[-1].start() :]
    best: TreatmentRule | None = None
    for rule in rules:
        if best is not None and rule.priority <= best.priority:
            continue
        texts = (before,) if rule.side == "before" else (after,) if rule.side == "after" else (before, after)
        if any(rule.pattern.search(t) for t in texts):
            best = rule
    return best.treatment if best else Treatment.CITED
