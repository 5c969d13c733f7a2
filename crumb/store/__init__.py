"""The transcript store: one writer that appends validated events, readers that stream and repair."""
