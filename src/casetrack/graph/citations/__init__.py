"""Authorities a document cites: cases (eyecite, made fast), statutes, rules and regulations, short
forms resolved, and how the citing passage treats each."""
