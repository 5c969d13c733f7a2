"""What the offline Verifier reads from QA's filmstrip: how much the picture moves between frames, and how
many different pictures the play-through showed. A rule cannot tell "feels like the pitch" from pixels;
this only measures motion and variety, and says so in the visuals note.

Pure: PNG bytes in, numbers out (Pillow decodes; nothing is read from disk here).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageChops

SIDE = 48  # frames are compared at this width: enough to see a sprite move, cheap at any frame size
MOVED = 24  # a pixel whose grey level changes by more than this (of 255) between two frames has moved
MIN_MOVED_SHARE = 0.002  # a step in which at least 0.2 % of the pixels moved counts as motion


@dataclass(frozen=True)
class FilmReading:
    frames: int  # frames read
    distinct: int  # different pictures among them (exact)
    moving_steps: int  # steps between consecutive frames in which the picture moved
    steps: int  # consecutive pairs compared
    mean_moved: float  # share of pixels that moved, averaged over the steps

    @property
    def still(self) -> bool:
        """Enough frames to tell, and not one step moved."""
        return self.frames >= 3 and self.moving_steps == 0

    def note(self) -> str:
        return (f"filmstrip: {self.frames} frames, {self.distinct} different, the picture moved in "
                f"{self.moving_steps} of {self.steps} steps ({100 * self.mean_moved:.1f} % of pixels a step)")


def _grey(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        grey = im.convert("L")
    h = max(1, round(grey.height * SIDE / max(1, grey.width)))
    return grey.resize((SIDE, h))


def read_film(frames: list[bytes]) -> FilmReading | None:
    """Motion and variety over `frames` (game-time order); None when fewer than two are readable pictures."""
    greys = []
    for png in frames:
        try:
            greys.append(_grey(png))
        except (OSError, ValueError, Image.DecompressionBombError):
            continue
    if len(greys) < 2:
        return None
    moved = []
    for a, b in zip(greys, greys[1:], strict=False):
        if a.size != b.size:
            b = b.resize(a.size)
        diff = ImageChops.difference(a, b).point(lambda v: 255 if v > MOVED else 0)
        hist = diff.histogram()
        moved.append(hist[255] / max(1, a.width * a.height))
    return FilmReading(frames=len(greys), distinct=len({bytes(g.tobytes()) for g in greys}),
                       moving_steps=sum(1 for m in moved if m >= MIN_MOVED_SHARE), steps=len(moved),
                       mean_moved=sum(moved) / len(moved))
