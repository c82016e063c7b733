"""A case's search index on disk: the entries it is built from, its segment files, its manifest."""
