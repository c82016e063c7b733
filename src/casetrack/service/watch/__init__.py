"""Folder watching: configuration (any process), and the runner, debounce and syncs (the server only)."""
