"""Cases and their documents: create, resolve, lifecycle, read, move between machines (export/import), start-up repair."""
