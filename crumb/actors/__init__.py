"""Actors: the roles (Planner, Builder, Verifier, researcher) and the harnesses that play them."""
