"""Dates in legal text: normalised to ISO, typed by the event around them, found only where they can begin."""
