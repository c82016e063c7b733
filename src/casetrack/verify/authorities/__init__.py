"""The authorities a draft cites: as the draft writes them, those the case itself holds, the table of
authorities."""
