"""US jurisdictions as data: state names, Bluebook abbreviations, postal codes, circuits."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class State:
    name: str
    abbr: str  # Bluebook: "N.C.", "Cal."
    postal: str


STATES: tuple[State, ...] = (
    State("Alabama", "Ala.", "AL"),
    State("Alaska", "Alaska", "AK"),
    State("Arizona", "Ariz.", "AZ"),
    State("Arkansas", "Ark.", "AR"),
    State("California", "Cal.", "CA"),
    State("Colorado", "Colo.", "CO"),
    State("Connecticut", "Conn.", "CT"),
    State("Delaware", "Del.", "DE"),
    State("District of Columbia", "D.C.", "DC"),
    State("Florida", "Fla.", "FL"),
    State("Georgia", "Ga.", "GA"),
    State("Hawaii", "Haw.", "HI"),
    State("Idaho", "Idaho", "ID"),
    State("Illinois", "Ill.", "IL"),
    State("Indiana", "Ind.", "IN"),
    State("Iowa", "Iowa", "IA"),
    State("Kansas", "Kan.", "KS"),
    State("Kentucky", "Ky.", "KY"),
    State("Louisiana", "La.", "LA"),
    State("Maine", "Me.", "ME"),
    State("Maryland", "Md.", "MD"),
    State("Massachusetts", "Mass.", "MA"),
    State("Michigan", "Mich.", "MI"),
    State("Minnesota", "Minn.", "MN"),
    State("Mississippi", "Miss.", "MS"),
    State("Missouri", "Mo.", "MO"),
    State("Montana", "Mont.", "MT"),
    State("Nebraska", "Neb.", "NE"),
    State("Nevada", "Nev.", "NV"),
    State("New Hampshire", "N.H.", "NH"),
    State("New Jersey", "N.J.", "NJ"),
    State("New Mexico", "N.M.", "NM"),
    State("New York", "N.Y.", "NY"),
    State("North Carolina", "N.C.", "NC"),
    State("North Dakota", "N.D.", "ND"),
    State("Ohio", "Ohio", "OH"),
    State("Oklahoma", "Okla.", "OK"),
    State("Oregon", "Or.", "OR"),
    State("Pennsylvania", "Pa.", "PA"),
    State("Rhode Island", "R.I.", "RI"),
    State("South Carolina", "S.C.", "SC"),
    State("South Dakota", "S.D.", "SD"),
    State("Tennessee", "Tenn.", "TN"),
    State("Texas", "Tex.", "TX"),
    State("Utah", "Utah", "UT"),
    State("Vermont", "Vt.", "VT"),
    State("Virginia", "Va.", "VA"),
    State("Washington", "Wash.", "WA"),
    State("West Virginia", "W. Va.", "WV"),
    State("Wisconsin", "Wis.", "WI"),
    State("Wyoming", "Wyo.", "WY"),
)

STATE_BY_NAME = {s.name.lower(): s for s in STATES}
STATE_BY_ABBR = {s.abbr.replace(" ", "").lower(): s for s in STATES}
STATE_BY_POSTAL = {s.postal.lower(): s for s in STATES}

ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
    "eighth", "ninth", "tenth", "eleventh", "twelfth",
)  # fmt: skip
NUMERIC_ORDINALS = ("1st", "2d", "3d", "4th", "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th")
# Both spellings of the short ordinals ("2d"/"2nd", "3d"/"3rd") map to the circuit number.
CIRCUIT_NUMBER: dict[str, int] = {
    **{w: i + 1 for i, w in enumerate(ORDINALS)},
    **{w: i + 1 for i, w in enumerate(NUMERIC_ORDINALS)},
    "2nd": 2,
    "3rd": 3,
}


def alternation(words: list[str] | tuple[str, ...]) -> str:
    """A regex alternation of literal words, longest first so prefixes never win."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
