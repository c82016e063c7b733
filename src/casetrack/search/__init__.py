"""Search stages as pure functions: recall -> fuse -> boost -> rerank (see pipeline.py)."""
