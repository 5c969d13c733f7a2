"""The packaged presets (canonical copies; the repository's presets/ folder mirrors them)."""
