"""Checking a draft against a case: its quotations and citations (drafts.py), its table of authorities
(drafts.py, toa_docx.py)."""
