"""Runtime infrastructure the use cases share: background job workers, file locks."""
