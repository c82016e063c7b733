"""The legal roles a passage plays: the taxonomy as data, CUAD's clause types by a learned classifier,
where in a passage its clause is, and the tagging at ingest."""
