"""In-memory search indexes kept in sync with the case store: BM25, dense, sparse."""
