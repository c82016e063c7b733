"""Transcripts as lawyers read them (issue 37): rows by printed page and line, testimony as turns,
the errata sheet's corrections."""
