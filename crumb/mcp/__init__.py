"""`crumb mcp`: CRUMB's tools for an agent CLI (Claude Code, Codex, Gemini CLI) over the Model Context
Protocol, on stdio.

tools.py is what each tool does, with no SDK in it (plain functions over a root, one-line refusals);
resources.py what each resource reads; server.py binds both to the official `mcp` SDK. Like the CLI and
the Studio, every write is an inbox file: the server never writes a transcript.
"""
