"""Caption blocks: long district-court captions with capacities, Supreme Court and state appellate forms."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import find_parties


def parties(text: str) -> set[tuple[str, str]]:
    return {(p.name, p.role) for p in find_parties([ParsedPage(1, text, ExtractionMethod.NATIVE)])}


CAPTIONS = [
    ("SUSAN JANE HOGARTH, Plaintiff,\nv.\nKAREN BRINSON BELL, in her official capacity as Executive Director of the "
     "State Board of Elections; STACY EGGERS IV, KEVIN N. LEWIS, and SIOBHAN O'DUFFY MILLEN, in their official "
     "capacities as Members of the State Board of Elections; and JEFF JACKSON, in his official capacity as Attorney "
     "General, Defendants.\n\nNo. 5:24-CV-481-FL\n\nORDER\n",
     {("SUSAN JANE HOGARTH", "plaintiff"), ("KAREN BRINSON BELL", "defendant"), ("STACY EGGERS IV", "defendant"),
      ("KEVIN N. LEWIS", "defendant"), ("SIOBHAN O'DUFFY MILLEN", "defendant"), ("JEFF JACKSON", "defendant")}),
    ("DEMOCRACY NORTH CAROLINA, the League of Women Voters of North Carolina, and Walter Hutchins, Plaintiffs,\nv.\n"
     "The NORTH CAROLINA STATE BOARD OF ELECTIONS, Damon Circosta, in his official capacity as Chair of the State "
     "Board of Elections, Defendants,\nand\nPhilip E. Berger, in his official capacity as President Pro Tempore of "
     "the Senate, Defendant-Intervenors.\n",
     {("DEMOCRACY NORTH CAROLINA", "plaintiff"), ("League of Women Voters of North Carolina", "plaintiff"),
      ("Walter Hutchins", "plaintiff"), ("NORTH CAROLINA STATE BOARD OF ELECTIONS", "defendant"),
      ("Damon Circosta", "defendant"), ("Philip E. Berger", "defendant-intervenor")}),
    ("                 Syllabus\n\nABIGAIL NOEL FISHER, PETITIONER v. UNIVERSITY\n          OF TEXAS AT AUSTIN ET AL.\n"
     " ON WRIT OF CERTIORARI TO THE UNITED STATES COURT OF\n            APPEALS FOR THE FIFTH CIRCUIT\n",
     {("ABIGAIL NOEL FISHER", "petitioner"), ("UNIVERSITY OF TEXAS AT AUSTIN", "respondent")}),
    ("Ronald Wayne Wootan,                                 Petitioner and Appellant\n      v.\n"
     "State of North Dakota,                              Respondent and Appellee\n\n        No. 20240025\n",
     {("Ronald Wayne Wootan", "petitioner-appellant"), ("State of North Dakota", "respondent-appellee")}),
    ("HAMPTON DELLINGER  ) \nin his official capacity as   ) \nSpecial Counsel,  ) \n) \nPlaintiff,  ) \n"
     ")  Civil Action No. 25-0385 (ABJ) \nv.  )   \n) \nSCOTT BESSENT  ) \nin his official capacity as   ) \n"
     "Secretary of the Treasury, et al.,  ) \n) \nDefendants.  ) \n",
     {("HAMPTON DELLINGER", "plaintiff"), ("SCOTT BESSENT", "defendant")}),
    ("        GEORGE D. PREWITT, JR., PETITIONER,\n\n                V.\n\n              DENIS MCDONOUGH,\n"
     "     SECRETARY OF VETERANS AFFAIRS, RESPONDENT.\n",
     {("GEORGE D. PREWITT, JR", "petitioner"), ("DENIS MCDONOUGH", "respondent")}),
    ("        IN RE: INDIAN MOTOCYCLE CO., INC. ,\n  INDIAN MOTOCYCLE APPAREL AND ACCESSORIES, INC.,\n"
     "                  Debtors.\n      ______\n              UNITED STATES OF AMERICA,\n            Appellant,\n\n"
     "                     v.\n\n  STERLING CONSULTING CORP., COLORADO RECEIVER\n"
     "    and STEVEN M. RODOLAKIS, CHAPTER 7 TRUSTEE,\n            Appellees.\n",
     {("INDIAN MOTOCYCLE CO., INC", "debtor"), ("INDIAN MOTOCYCLE APPAREL AND ACCESSORIES, INC", "debtor"),
      ("UNITED STATES OF AMERICA", "appellant"), ("STERLING CONSULTING CORP", "appellee"),
      ("STEVEN M. RODOLAKIS", "appellee")}),
    ("1125 Morris\nAvenue Realty LLC, Plaintiff(s),\n\nagainst\n\nTitle Issues Agency LLC, MARTIN E. KOFMAN,\n"
     'STEVEN LOWENTHAL, ESQ., and LOWENTHAL PC,\nDefendant(s).\n\nIndex No. 809156/23E\n',
     {("1125 Morris Avenue Realty LLC", "plaintiff"), ("Title Issues Agency LLC", "defendant"),
      ("MARTIN E. KOFMAN", "defendant"), ("STEVEN LOWENTHAL", "defendant"), ("LOWENTHAL PC", "defendant")}),
    ("                Ideal Electronic Security Co., Inc., et al., \n\n"
     "                          Appellants/Cross-Appellees\n\n\n                                      v.\n\n\n"
     "                  International Fidelity Insurance Company, \n\n"
     "                           Appellee/Cross-Appellant\n",
     {("Ideal Electronic Security Co., Inc", "appellant-cross-appellee"),
      ("International Fidelity Insurance Company", "appellee-cross-appellant")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), CAPTIONS, ids=[t.split(",")[0].strip()[:24] for t, _ in CAPTIONS])
def test_a_caption_block_gives_each_party_with_its_role(text: str, expected: set[tuple[str, str]]) -> None:
    assert parties(text) == expected


def test_counsel_lines_and_sentences_naming_roles_invent_no_party() -> None:
    text = (
        "     John W. Karr argued the cause and filed the briefs for \nappellants/cross-appellees.\n\n"
        "  Joseph H. Baldiga, Paul W. Carey of Mirick, O'Connell and Stephan M. Rodolakis, on brief for the\n"
        "  Appellees.\n\nAs of Friday, February 7, 2025, plaintiff Hampton Dellinger was the Special Counsel. "
        "The motion is denied as to Defendants.\n"
    )
    assert parties(text) == set()
