"""Parties and their roles: court captions, contract preambles, the terms a contract defines for
them, names a docket cut short."""
