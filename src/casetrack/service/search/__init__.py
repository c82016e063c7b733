"""Searching a case: the query use case and the per-case in-memory indexes it reads."""
