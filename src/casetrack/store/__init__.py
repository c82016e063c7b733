"""Persistence: RocksDB stores, key encoding, records and migrations."""
