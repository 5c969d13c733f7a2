"""Genres: one folder each (crumb/genres/<id>/: genre.py and game.js), found by the registry.

See docs/add-a-genre.md. Importing this package loads nothing: the registry is found on first use.
"""

from __future__ import annotations

from crumb.genres.model import ANY, LANGUAGES, PALETTE_KEYS, Genre, GenreControls, LoadedGenre, Words
from crumb.genres.registry import configure, genres, get, ids, loaded, registry

__all__ = ["ANY", "LANGUAGES", "PALETTE_KEYS", "GenreControls", "Genre", "LoadedGenre", "Words", "configure", "genres",
           "get", "ids", "loaded", "registry"]
