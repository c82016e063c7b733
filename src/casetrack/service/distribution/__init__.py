"""How CaseTrack reaches users: licence tiers and keys, updates from PyPI."""
