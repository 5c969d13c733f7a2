"""Reading screenshots: is there a picture at all? Decoding happens in a spare browser page,
so QA needs no imaging library and handles 2D and WebGL canvases the same way."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from playwright.async_api import Page

# Share of pixels off the dominant colour, and how many colours (5 bits a channel) there are.
ANALYSE_JS = """async (b64) => {
  const bin = atob(b64); const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const bmp = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
  const w = bmp.width, h = bmp.height; const c = new OffscreenCanvas(w, h);
  const x = c.getContext('2d'); x.drawImage(bmp, 0, 0); const d = x.getImageData(0, 0, w, h).data;
  const hist = new Uint32Array(32768);
  for (let i = 0; i < d.length; i += 4) hist[((d[i] >> 3) << 10) | ((d[i + 1] >> 3) << 5) | (d[i + 2] >> 3)]++;
  let mode = 0, colours = 0;
  for (let k = 0; k < hist.length; k++) { if (hist[k]) colours++; if (hist[k] > hist[mode]) mode = k; }
  const hex = v => (v << 3).toString(16).padStart(2, '0');
  return {width: w, height: h, colours, other: 1 - hist[mode] / (w * h),
          mode: '#' + hex(mode >> 10) + hex((mode >> 5) & 31) + hex(mode & 31)}; }"""

MIN_OTHER = 0.001  # at least 0.1 % of the pixels differ from the background


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    colours: int
    other: float
    mode: str

    @property
    def blank(self) -> bool:
        return self.colours < 2 or self.other < MIN_OTHER


async def analyse(page: Page, png: bytes) -> Picture:
    data = await page.evaluate(ANALYSE_JS, base64.b64encode(png).decode("ascii"))
    return Picture(**data)
