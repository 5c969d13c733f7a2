"""QA's filmstrip: small frames of the main play-through, so a Verifier (a model or a person) sees the game
played rather than three stills. Frames are taken at marks spread evenly over the round's game time, plus the
first frame after each input QA pressed; they are saved as PNGs with a contact sheet of them all.

This module holds the schedule (pure: game time in, "take a frame now?" out) and the writing of the files;
play.py takes the pictures (GameTab.frame) and the runner saves them beside the screenshots.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from crumb.protocol.game import FileEntry, FilmFrame, Filmstrip

FRAME_WIDTH = 192  # pixels; a 960x640 canvas becomes 192x128 (about 5-15 KB as PNG)
SHEET_COLUMNS = 4
LABEL_H = 14  # the strip under each frame on the contact sheet: its game time and input


@dataclass(frozen=True)
class Shot:
    """One frame as taken: the PNG, when (game time), and the input it is the first frame after."""

    png: bytes
    t_ms: int
    after: str | None = None


@dataclass
class Schedule:
    """When to take the evenly spread frames: `count` marks from `first_ms` to `last_ms` of game time."""

    count: int
    first_ms: int
    last_ms: int
    t_ms: int = 0  # game time so far
    shots: list[Shot] = field(default_factory=list)

    def marks(self) -> list[int]:
        if self.count <= 0:
            return []
        if self.count == 1:
            return [self.last_ms]
        span = max(0, self.last_ms - self.first_ms)
        return sorted({self.first_ms + round(span * k / (self.count - 1)) for k in range(self.count)})

    def next_mark(self) -> int | None:
        """The first mark not yet reached and not already shown by a frame near it (within half the spacing:
        a frame taken after an input serves the mark it falls beside); None when all are behind."""
        near = max(1, (self.last_ms - self.first_ms) // max(1, 2 * (self.count - 1)))
        return next((m for m in self.marks() if m >= self.t_ms
                     and not any(abs(s.t_ms - m) < near for s in self.shots)), None)

    def step(self, ms: int) -> int:
        """How much of `ms` to run before the next frame is due (all of it when no mark falls inside)."""
        mark = self.next_mark()
        if mark is None or mark > self.t_ms + ms:
            return ms
        return max(0, mark - self.t_ms)

    def due(self) -> bool:
        """A mark is reached now and its frame is not taken."""
        return self.next_mark() == self.t_ms

    def add(self, png: bytes, after: str | None = None) -> None:
        self.shots.append(Shot(png=png, t_ms=self.t_ms, after=after))


_FONT: list[ImageFont.ImageFont | ImageFont.FreeTypeFont] = []  # loaded once: Pillow loads its default font anew on every text()


def ordered(shots: list[Shot]) -> list[Shot]:
    """Game-time order; at one moment the even frame before the frame after an input."""
    return sorted(shots, key=lambda s: (s.t_ms, s.after is not None))


def contact_sheet(shots: list[Shot]) -> bytes:
    """One PNG of every frame (in the order given) in a grid, each labelled with its game time and the
    input it follows. Most of its cost is the PNG encoding: play.py starts it as soon as the play-through
    ends, so it overlaps the rest of the check."""
    if not _FONT:
        _FONT.append(ImageFont.load_default())
    images: list[Image.Image] = []
    for shot in shots:
        with Image.open(io.BytesIO(shot.png)) as opened:
            images.append(opened.convert("RGB"))
    w = max(i.width for i in images)
    h = max(i.height for i in images)
    cols = min(SHEET_COLUMNS, len(images))
    rows = -(-len(images) // cols)
    sheet = Image.new("RGB", (cols * w, rows * (h + LABEL_H)), "#202020")
    draw = ImageDraw.Draw(sheet)
    for n, (shot, image) in enumerate(zip(shots, images, strict=True)):
        x, y = (n % cols) * w, (n // cols) * (h + LABEL_H)
        sheet.paste(image, (x, y))
        label = f"{shot.t_ms / 1000:.2f} s" + (f"  after {shot.after}" if shot.after else "")
        draw.text((x + 3, y + h + 1), label, fill="#e0e0e0", font=_FONT[0])
    out = io.BytesIO()
    sheet.save(out, format="PNG", compress_level=1)  # level 6 took 4x longer for a few KB less
    return out.getvalue()


def write_entry(path: Path, data: bytes, base: Path) -> FileEntry:
    """Write `data` to `path` and name it as qa.result lists QA's files: relative to `base`, with sha256."""
    path.write_bytes(data)
    return FileEntry(path=path.relative_to(base).as_posix(), sha256=hashlib.sha256(data).hexdigest(), bytes=len(data))


def save_film(shots: list[Shot], folder: Path, base: Path, inputs: list[str], width: int = FRAME_WIDTH,
              sheet_png: bytes | None = None) -> tuple[Filmstrip, list[FileEntry]]:
    """Write frame-NN.png and sheet.png (`sheet_png` if already made from `ordered(shots)`) into `folder`
    (emptied of an earlier run's frames first); paths are relative to `base` (the session folder).
    Returns the filmstrip and every file written."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink(missing_ok=True)
    in_order = ordered(shots)
    files: list[FileEntry] = []
    frames: list[FilmFrame] = []
    for n, shot in enumerate(in_order, 1):
        entry = write_entry(folder / f"frame-{n:02d}.png", shot.png, base)
        files.append(entry)
        frames.append(FilmFrame(path=entry.path, sha256=entry.sha256, t_ms=shot.t_ms, after=shot.after))
    sheet = write_entry(folder / "sheet.png", sheet_png or contact_sheet(in_order), base) if in_order else None
    if sheet is not None:
        files.append(sheet)
    return Filmstrip(frames=frames, sheet=sheet.path if sheet else None, width=width, inputs=inputs), files
