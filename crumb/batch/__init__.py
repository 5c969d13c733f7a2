"""Batches: many pitches × many agent set-ups × seeds, each cell an ordinary session.

plan.py says what a batch is (batch.toml) and which cells it has; runs.py is its append-only log
(runs.jsonl), from which what is finished, running or missing is read, as replay reads a transcript.
"""
