"""What a genre folder's `genre.py` declares: one `GENRE = Genre(...)` with everything CRUMB knows about
that game. The embedded studio's Planner, researcher, Builder and fidelity checks read only this (through
crumb.genres.registry), so a new genre is one folder: this module and its `game.js`.

Keyword syntax (words, verbs, famous): a plain word matches a whole word (Latin scripts) or a substring
(CJK, Hangul, kana); a trailing `*` matches any word that starts with it ("shoot*" → shooter, shooting).
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: the languages the embedded studio reads a pitch in; every genre has a name and words in each
LANGUAGES: tuple[str, ...] = ("en", "nl", "de", "it", "es", "fr", "pt", "ru", "pl", "tr", "uk", "vi",
                              "zh-Hans", "zh-Hant", "ko", "ja")
#: a words key for tokens of no language (emoji, "2048")
ANY = "any"
#: the palette colours a game draws with (spec.theme.palette is read in this order)
PALETTE_KEYS: tuple[str, ...] = ("bg", "accent", "accent2", "danger", "fg", "text")
#: the Spec numbers a genre may default or honour (crumb.protocol.game.Numbers)
NUMBER_FIELDS: tuple[str, ...] = ("time_limit_s", "lives", "target_score", "moves", "levels", "grid", "speed", "level_time_s")
#: numbers every game honours through the shared runtime (clock, target, speed)
RUNTIME_NUMBERS: tuple[str, ...] = ("time_limit_s", "target_score", "speed")
#: keys window.__crumb.state() has for every game (the runtime writes them); a genre's state_keys are extra
RUNTIME_STATE_KEYS: tuple[str, ...] = ("phase", "score", "lives", "timeLeft", "level", "levels", "target",
                                       "speed", "hint", "genre", "time", "levelTimeLeft")

_HEX = r"^#[0-9a-fA-F]{6}$"


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Words(_Data):
    """The words of one language that point at a genre."""

    strong: tuple[str, ...] = Field(default=(), description="name the genre outright (3 points each)")
    weak: tuple[str, ...] = Field(default=(), description="only suggest it (1 point each)")
    verbs: tuple[str, ...] = Field(default=(), description="the game's main action: the researcher's hint when no genre word is there")


class GenreControls(_Data):
    keys: tuple[str, ...] = Field(min_length=1)
    pointer: str = Field(min_length=1)
    touch: str = Field(min_length=1)


class Count(_Data):
    """A count a pitch may state in the genre's own nouns ("12 pairs"), and the spec number that plays it."""

    words: tuple[str, ...] = Field(min_length=1, description="the nouns, in every language the genre reads; a "
                                                              "text's words after the number start with one")
    field: str = Field(description="the Spec number that carries the count (a memory game's pairs: grid)")
    values: dict[int, int] = Field(min_length=1, description="count -> the field's value (8 pairs: grid 4)")


class Genre(_Data):
    """One embedded game: its words, how it plays, what it defaults to and what its test hook reports."""

    id: str = Field(pattern=r"^[a-z][a-z0-9]*$", description="the genre name in specs; equals the folder's name")
    name: str = Field(min_length=1)
    order: int = Field(default=1000, description="place in the genre list (ties break by id); built-ins use 1..99")
    names: dict[str, str] = Field(description="display name per language (every language in LANGUAGES)")
    words: dict[str, Words] = Field(description="words per language (every language in LANGUAGES, plus optional 'any')")
    famous: tuple[str, ...] = Field(default=(), description="famous games' names a steering message may use for it")
    aliases: tuple[str, ...] = Field(default=(), description="other names a Planner may write as spec.genre")
    # research facts
    core_loop: str = Field(min_length=1)
    controls: GenreControls
    win: str = Field(min_length=1)
    lose: str = Field(min_length=1)
    rules: str = Field(min_length=1)
    references: tuple[str, ...] = Field(min_length=1)
    themes: dict[str, int] = Field(default_factory=dict,
                                   description="theme id -> rank (1 first): themes this genre suits when a pitch names no genre")
    # building
    palette: dict[str, str] = Field(description="the default colours, one per PALETTE_KEYS entry")
    defaults: dict[str, int] = Field(default_factory=dict,
                                     description="the numbers the game is built with when the spec does not say them")
    honours: dict[str, tuple[int, int] | None] = Field(
        default_factory=dict,
        description="numbers beyond the runtime's (clock, target, speed) the game honours, with the range it plays (None: any)")
    rule_numbers: tuple[int, ...] = Field(
        default=(), description="numbers the game's own rules say (match three, four pads, a well 10 wide and 20 deep): "
                               "a pitch that states one asks for nothing the game does not do")
    counts: tuple[Count, ...] = Field(default=(), description="counts in the genre's own nouns a spec number carries")
    extras: tuple[str, ...] = Field(default=(), description="the extras of the catalogue the game has (combo bonus, boss, "
                                                            "sound…): a pitch asking for another is told it is not built")
    draws: tuple[str, ...] = Field(default=(), description="the things a pitch may ask to see (crumb.actors.embedded.subjects "
                                                           "ids: slingshot's pigs) that the game draws beyond its own words: "
                                                           "a pitch asking for another is told it is not built")
    can_draw: tuple[str, ...] = Field(default=(), description="subjects the game draws instead of its own when the spec's "
                                                              "extras name them (the road hopper hops a frog for a Frogger "
                                                              "pitch); its state's `draws` says which it draws, and a "
                                                              "criterion checks it")
    hero: str | None = Field(default=None, description="the subject among `draws` the player is (the road hopper's "
                                                       "chicken), which a can_draw subject replaces (None: what it "
                                                       "replaces is no subject, the clicker's orb): a pitch naming it "
                                                       "keeps it, though the genre's name shows another (\"frogger, but "
                                                       "the hero is a chicken\")")
    # checking it
    pitches: tuple[str, ...] = Field(min_length=1, description="pitches the Planner must read as this genre (the tests plan each)")
    state_keys: tuple[str, ...] = Field(min_length=1, description="genre-specific keys window.__crumb.state() reports")
    idle_safe: bool = Field(default=False, description="waiting without input cannot end the round before its clock does")
    survive_win: bool = Field(default=False, description="with a clock and no target, the win is to survive the round")

    @model_validator(mode="after")
    def _complete(self) -> Genre:
        missing = [lang for lang in LANGUAGES if not self.names.get(lang)]
        if missing:
            raise ValueError(f"names has no name for {', '.join(missing)}")
        unknown = [k for k in self.words if k not in LANGUAGES and k != ANY]
        if unknown:
            raise ValueError(f"words has unknown language {', '.join(unknown)} (use {', '.join(LANGUAGES)} or {ANY!r})")
        missing = [lang for lang in LANGUAGES if lang not in self.words or not (self.words[lang].strong or self.words[lang].weak)]
        if missing:
            raise ValueError(f"words has no strong or weak word for {', '.join(missing)}")
        if not any(w.strong for w in self.words.values()):
            raise ValueError("words has no strong word in any language: nothing would name this genre")
        if set(self.palette) != set(PALETTE_KEYS):
            raise ValueError(f"palette needs exactly {', '.join(PALETTE_KEYS)}")
        bad = [f"{k}={v}" for k, v in self.palette.items() if not re.match(_HEX, v)]
        if bad:
            raise ValueError(f"palette colours must be #rrggbb: {', '.join(bad)}")
        for table in ("defaults", "honours"):
            odd = [k for k in getattr(self, table) if k not in NUMBER_FIELDS]
            if odd:
                raise ValueError(f"{table} has unknown number {', '.join(odd)} (use {', '.join(NUMBER_FIELDS)})")
        unhonoured = [k for k in self.defaults if k not in self.supported()]
        if unhonoured:
            raise ValueError(f"defaults sets {', '.join(unhonoured)}, which honours does not list")
        for count in self.counts:
            if count.field not in self.supported():
                raise ValueError(f"counts carries {count.words[0]!r} in {count.field}, which honours does not list")
            bounds = self.supported()[count.field]
            odd = [v for v in count.values.values() if bounds is not None and not bounds[0] <= v <= bounds[1]]
            if odd:
                raise ValueError(f"counts gives {count.field} {odd}, outside the {bounds} honours lists")
        clash = [k for k in self.state_keys if k in RUNTIME_STATE_KEYS]
        if clash:
            raise ValueError(f"state_keys lists runtime keys {', '.join(clash)}; list only the genre's own")
        return self

    def supported(self) -> dict[str, tuple[int, int] | None]:
        """Every number the game honours: the runtime's and the genre's own, with their ranges."""
        return {**{k: None for k in RUNTIME_NUMBERS}, **self.honours}

    def all_words(self, kind: str) -> tuple[str, ...]:
        """Every language's `strong`, `weak` or `verbs` words, once each, in language order."""
        out: dict[str, None] = {}
        for lang in (*LANGUAGES, ANY):
            w = self.words.get(lang)
            if w is not None:
                out.update(dict.fromkeys(getattr(w, kind)))
        return tuple(out)


class LoadedGenre(_Data):
    """A genre as the registry holds it: the declaration and where its folder is."""

    genre: Genre
    folder: Path

    @property
    def js(self) -> Path:
        return self.folder / "game.js"
