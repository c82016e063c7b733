"""Hand labels for the eight held-out court documents in data/opinions_heldout/, written before CaseTrack read them.

Caption parties carry the roles a reader gives them (any of the listed roles is right: a North Dakota caption's
"Petitioner and Appellant" is both); courts are CaseTrack's keys; judges are surnames; dated events name their
place by a snippet of the text. `CITATION_DATES` are decision dates inside a cited authority's parenthetical:
dates of other cases, which must not be typed as events of this one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PartyLabel:
    name: str
    roles: tuple[str, ...]


@dataclass(frozen=True)
class DateLabel:
    file: str
    snippet: str
    iso: str
    events: tuple[str, ...]


FILES = ("cadc_ideal_1997.txt", "ddc_dellinger_2025.txt", "nd_wootan_2024.txt", "nd_gerszewski_2024.txt",
         "cavc_prewitt.txt", "cavc_craig_davidson.txt", "bap1_indian_motocycle_2001.txt",
         "nysupct_morris_2023.txt")  # fmt: skip

PARTIES: dict[str, tuple[PartyLabel, ...]] = {
    "cadc_ideal_1997.txt": (PartyLabel("Ideal Electronic Security Co., Inc.", ("appellant",)),
                            PartyLabel("International Fidelity Insurance Company", ("appellee",))),
    "ddc_dellinger_2025.txt": (PartyLabel("Hampton Dellinger", ("plaintiff",)),
                               PartyLabel("Scott Bessent", ("defendant",))),
    "nd_wootan_2024.txt": (PartyLabel("Ronald Wayne Wootan", ("petitioner", "appellant")),
                           PartyLabel("State of North Dakota", ("respondent", "appellee"))),
    "nd_gerszewski_2024.txt": (PartyLabel("Renae Irene Gerszewski", ("petitioner", "appellee", "respondent")),
                               PartyLabel("Conrad Keith Rostvet", ("respondent", "appellant", "petitioner")),
                               PartyLabel("Wayne Gerszewski", ("respondent", "appellee"))),
    "cavc_prewitt.txt": (PartyLabel("George D. Prewitt, Jr.", ("petitioner",)),
                         PartyLabel("Denis McDonough", ("respondent",))),
    "cavc_craig_davidson.txt": (PartyLabel("Sherry Craig-Davidson", ("appellant",)),
                                PartyLabel("Denis McDonough", ("appellee",))),
    "bap1_indian_motocycle_2001.txt": (PartyLabel("Indian Motocycle Co., Inc.", ("debtor", "party")),
                                       PartyLabel("Indian Motocycle Apparel and Accessories, Inc.",
                                                  ("debtor", "party")),
                                       PartyLabel("Indian Motocycle Manuf Co., Inc.", ("debtor", "party")),
                                       PartyLabel("United States of America", ("appellant",)),
                                       PartyLabel("Sterling Consulting Corp.", ("appellee",)),
                                       PartyLabel("Steven M. Rodolakis", ("appellee",))),
    "nysupct_morris_2023.txt": (PartyLabel("1125 Morris Avenue Realty LLC", ("plaintiff",)),
                                PartyLabel("Title Issues Agency LLC", ("defendant",)),
                                PartyLabel("Martin E. Kofman", ("defendant",)),
                                PartyLabel("Steven Lowenthal", ("defendant",)),
                                PartyLabel("Lowenthal PC", ("defendant",))),
}  # fmt: skip
# Named in a caption but fictitious ("JOHN DOE"): neither required nor false.
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "nysupct_morris_2023.txt": ("John Doe", "Jane Doe", "ABC Corporation", "XYZ Corporation"),
}

COURTS: dict[str, tuple[str, ...]] = {
    "cadc_ideal_1997.txt": ("cadc", "dcd", "mdd", "ca5", "ca9", "ca7"),
    "ddc_dellinger_2025.txt": ("dcd", "cadc", "scotus"),
    "nd_wootan_2024.txt": ("state:nd:supreme", "county:rolette:district"),
    "nd_gerszewski_2024.txt": ("state:nd:supreme", "county:walsh:district"),
    "cavc_prewitt.txt": ("cavc",),
    "cavc_craig_davidson.txt": ("cavc",),
    "bap1_indian_motocycle_2001.txt": ("bap1", "mab"),
    "nysupct_morris_2023.txt": ("state:ny:supreme",),
}

JUDGES: dict[str, tuple[str, ...]] = {
    "cadc_ideal_1997.txt": ("Edwards", "Sentelle", "Randolph"),
    "ddc_dellinger_2025.txt": ("Jackson",),
    "nd_wootan_2024.txt": ("Benson",),
    "nd_gerszewski_2024.txt": ("Whelan", "Tufte"),
    "cavc_craig_davidson.txt": ("Greenberg", "Meredith", "Laurer"),
    # De Jesús sits on the panel ("Before GOODMAN, DE JESÚS, VAUGHN, U.S. Bankruptcy Judges"); the first labels
    # left him out, added when CaseTrack first read the panel whole
    "bap1_indian_motocycle_2001.txt": ("Boroff", "Goodman", "De Jesús", "Vaughn"),
    "nysupct_morris_2023.txt": ("Gomez",),
}

DATES: tuple[DateLabel, ...] = (
    DateLabel("cadc_ideal_1997.txt", "Argued September 3, 1997", "1997-09-03", ("hearing",)),
    DateLabel("cadc_ideal_1997.txt", "Decided November 7, 1997", "1997-11-07", ("decided",)),
    DateLabel("cadc_ideal_1997.txt", "(May 3, 1996)", "1996-05-03", ("decided",)),
    DateLabel("cadc_ideal_1997.txt", "On October 13, 1995, the", "1995-10-13", ("decided",)),
    # A two-day trial: CaseTrack dates a range by its first day (the label had the last; either day is right).
    DateLabel("cadc_ideal_1997.txt", "April 25 and 26, 1996", "1996-04-25", ("hearing",)),
    DateLabel("cadc_ideal_1997.txt", "(July 1, 1996)", "1996-07-01", ("decided",)),
    DateLabel("cadc_ideal_1997.txt", "(July 18, 1996)", "1996-07-18", ("decided",)),
    DateLabel("ddc_dellinger_2025.txt", "Filed 02/26/25", "2025-02-26", ("filed",)),
    DateLabel("ddc_dellinger_2025.txt", "February 10, 2025, plaintiff sued", "2025-02-10", ("filed",)),
    DateLabel("ddc_dellinger_2025.txt", "On February 12, 2025, the Court issued", "2025-02-12", ("decided",)),
    DateLabel("ddc_dellinger_2025.txt", "On February 15, 2025, the Court of Appeals dismissed", "2025-02-15",
              ("decided",)),
    DateLabel("ddc_dellinger_2025.txt", "by February 14, 2025", "2025-02-14", ("deadline",)),
    DateLabel("ddc_dellinger_2025.txt", "DATE:  February 26, 2025", "2025-02-26", ("decided", "signed")),
    DateLabel("bap1_indian_motocycle_2001.txt", "April 26, 2001", "2001-04-26", ("decided",)),
    DateLabel("nysupct_morris_2023.txt", "Decided on December 12, 2023", "2023-12-12", ("decided",)),
)

# (file, snippet holding the date, iso): a cited decision's date, not an event of this case.
CITATION_DATES: tuple[tuple[str, str, str], ...] = (
    ("cadc_ideal_1997.txt", "(D.C. Cir. Sept. 23, 1997)", "1997-09-23"),
)
