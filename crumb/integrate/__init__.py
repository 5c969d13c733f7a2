"""`crumb integrate`: the files Claude Code, Codex and Gemini CLI read to start `crumb mcp` and offer its
commands. hosts.py says what each host gets (pure), files.py writes or removes it (idempotent)."""
