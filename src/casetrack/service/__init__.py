"""Use cases and the composition root."""
