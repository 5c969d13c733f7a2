"""Reports on batches and comparisons of sessions: `crumb report`, `crumb compare`, the Studio's batch pages.

Reading is apart from summing up, and summing up apart from drawing:
digest.py reads one session's transcript into a SessionDigest; cells.py reads a batch folder (plan,
runs.jsonl, the cells' sessions) into CellRows; summary.py turns CellRows into a Report (pure: no I/O);
text.py, export.py, plots.py and page.py render a Report (terminal, JSON/CSV, SVG plots, HTML);
compare.py puts two sessions side by side.
"""
