"""Presentation: the PRD's human-readable texts and the matching structured dicts.
Pure functions over domain and service values, shared by the MCP tools and the CLI."""
