"""The event protocol: what may be written to a transcript, and the models every role exchanges.

Import from the modules (events, game, errors, spec_markdown): this package's own import loads none of
them, so a reader that needs one name does not build every model.
"""
