"""Ingestion: one file into a case (parse, chunk, index entries, one commit), folders and sync, reindexing."""
