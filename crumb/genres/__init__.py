"""Genres: one folder each (crumb/genres/<id>/: genre.py and game.js), found by the registry.

See docs/add-a-genre.md. Importing this package loads nothing: the registry is found on first use,
and the models of crumb.genres.model (pydantic) are imported when one of their names is first read,
so `configure(root)`, which every CLI start calls, costs no model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crumb.genres.registry import configure, genres, get, ids, loaded, registry
from crumb.lazy import exports

if TYPE_CHECKING:
    from crumb.genres.model import ANY, LANGUAGES, PALETTE_KEYS, Count, Genre, GenreControls, LoadedGenre, Words

__all__ = ["ANY", "LANGUAGES", "PALETTE_KEYS", "Count", "GenreControls", "Genre", "LoadedGenre", "Words", "configure", "genres",
           "get", "ids", "loaded", "registry"]

# `from crumb.genres import Genre` (what a genre.py writes) imports crumb.genres.model then
__getattr__ = exports(__name__, dict.fromkeys(
    ["ANY", "LANGUAGES", "PALETTE_KEYS", "Count", "GenreControls", "Genre", "LoadedGenre", "Words"], "model"))
