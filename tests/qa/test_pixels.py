"""Screenshot reading: a flat picture is blank whatever its colour; a small drawing is not."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from crumb.qa.pixels import analyse


def png(im: Image.Image) -> bytes:
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def test_one_colour_is_blank_and_names_the_colour() -> None:
    pic = analyse(png(Image.new("RGB", (320, 200), (16, 32, 48))))
    assert pic.blank and pic.colours == 1 and pic.mode == "#102030"


def test_a_small_sprite_is_a_picture() -> None:
    im = Image.new("RGB", (320, 200), (0, 0, 0))
    ImageDraw.Draw(im).rectangle((10, 10, 19, 19), fill=(255, 200, 0))  # 100 px = 0.16 %
    pic = analyse(png(im))
    assert not pic.blank and pic.colours == 2 and pic.mode == "#000000"
    assert pic.other == pytest.approx(100 / (320 * 200))


def test_noise_below_five_bits_and_a_stray_pixel_are_still_blank() -> None:
    im = Image.new("RGB", (320, 200), (64, 64, 64))
    for x in range(0, 320, 2):
        im.putpixel((x, 5), (67, 65, 70))  # differs only in the low 3 bits of each channel
    im.putpixel((1, 1), (255, 255, 255))
    pic = analyse(png(im))
    assert pic.blank and pic.colours == 2


def test_transparent_and_palette_images_are_read_too() -> None:
    rgba = Image.new("RGBA", (50, 50), (0, 0, 0, 0))
    ImageDraw.Draw(rgba).ellipse((5, 5, 45, 45), fill=(255, 0, 0, 255))
    assert not analyse(png(rgba)).blank
    assert analyse(png(Image.new("P", (50, 50), 3))).blank


def test_bytes_that_are_not_an_image_are_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not a readable image"):
        analyse(b"\x89PNG but not really")
