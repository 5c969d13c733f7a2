"""Reading screenshots: is there a picture at all? Screenshots are what the compositor showed, so 2D,
WebGL and DOM games are judged the same way; they are decoded here, in Python, because a browser
page kept only for decoding cost a renderer process (about half a second of CPU on every cold start)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

MIN_OTHER = 0.001  # at least 0.1 % of the pixels differ from the background
_TOP5 = [v & 0xF8 for v in range(256)]  # colours are counted at 5 bits a channel: noise is not a picture


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    colours: int
    other: float  # share of pixels off the dominant colour
    mode: str  # the dominant colour, "#rrggbb"

    @property
    def blank(self) -> bool:
        return self.colours < 2 or self.other < MIN_OTHER


def analyse(png: bytes) -> Picture:
    """Count the colours of a screenshot; raises ValueError when the bytes are not an image."""
    try:
        with Image.open(io.BytesIO(png)) as im:
            rgb = im.convert("RGB")
    except (OSError, Image.DecompressionBombError) as exc:
        raise ValueError(f"not a readable image: {exc}") from exc
    w, h = rgb.size
    if not w or not h:
        return Picture(width=w, height=h, colours=0, other=0.0, mode="#000000")
    # an RGB image's colours are (r, g, b) tuples; getcolors' type also covers one-band images' ints
    counts = [(n, c) for n, c in rgb.point(_TOP5 * 3).getcolors(maxcolors=w * h) or [] if isinstance(c, tuple)]
    top, (r, g, b) = max(counts)
    return Picture(width=w, height=h, colours=len(counts), other=1 - top / (w * h), mode=f"#{r:02x}{g:02x}{b:02x}")
