"""The context graph of a case: merged extracts, related documents and clusters, find_entity."""
