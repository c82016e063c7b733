"""Checking a draft against the record: its quotations, its record citations and the authorities it cites.

Pure: the case's pages come in through `check.CaseView` (its keys index, its documents, a page reader),
the draft as parsed pages; nothing here opens a store or a file.
"""
