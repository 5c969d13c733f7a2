"""The dispatcher: the only place side effects happen."""
