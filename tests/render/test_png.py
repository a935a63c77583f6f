"""The band-caching PNG encoder: standard PNGs, the same pixels as drawn, the same bytes whatever it cached."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import png


def palette_image(width: int, height: int, seed: int, colours: int = 8) -> Image.Image:
    rnd = random.Random(seed)
    img = Image.new("P", (width, height))
    img.putpalette([rnd.randrange(256) for _ in range(3 * colours)])
    # Flat runs with a few specks, like card art: compressible, and different from seed to seed.
    data = bytearray()
    for _ in range(height):
        row = bytearray([rnd.randrange(colours)]) * width
        for _ in range(rnd.randrange(4)):
            row[rnd.randrange(width)] = rnd.randrange(colours)
        data += row
    img.frombytes(bytes(data))
    return img


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@given(st.binary(max_size=3000), st.binary(max_size=3000))
@settings(max_examples=300)
def test_adler32_combine_matches_zlib(first: bytes, second: bytes) -> None:
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


@given(st.integers(1, 90), st.integers(1, 70), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_every_picture_decodes_to_exactly_its_pixels_and_palette(width: int, height: int, seed: int) -> None:
    img = palette_image(width, height, seed)
    back = decoded(png.encode(img))
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.getpalette()[: 3 * 8] == img.getpalette()[: 3 * 8]


def test_the_bytes_do_not_depend_on_what_was_cached() -> None:
    first, second = palette_image(200, 120, 1), palette_image(200, 120, 2)
    png.clear_cache()
    cold = png.encode(second)
    png.encode(first)
    assert png.encode(second) == cold
    png.clear_cache()
    assert png.encode(second) == cold


def test_an_unchanged_band_is_reused_and_a_changed_one_is_compressed_again() -> None:
    img = palette_image(120, png.BAND_ROWS * 4, 3)
    png.clear_cache()
    png.encode(img)
    bands = len(png._bands)
    assert bands == 4
    changed = img.copy()
    changed.putpixel((5, png.BAND_ROWS * 2 + 1), (img.getpixel((5, png.BAND_ROWS * 2 + 1)) + 1) % 8)
    back = decoded(png.encode(changed))
    assert back.tobytes() == changed.tobytes()
    assert len(png._bands) == bands + 1, "only the band with the changed pixel was compressed again"


def test_the_cache_stays_within_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(png, "CACHE_BYTES", 2000)
    png.clear_cache()
    for seed in range(20):
        png.encode(palette_image(100, 64, seed))
    assert 0 < png._cached_bytes <= 2000
    assert png._cached_bytes == sum(len(b) for b in png._bands.values())
    png.clear_cache()


def test_other_modes_are_refused() -> None:
    with pytest.raises(ValueError):
        png.encode(Image.new("RGB", (4, 4)))
    transparent = palette_image(4, 4, 1)
    transparent.info["transparency"] = 0
    assert not png.encodable(transparent)


def test_a_picture_joined_from_compressed_row_blocks_is_the_picture() -> None:
    top, bottom = palette_image(90, 7, 1), palette_image(90, 20, 2)
    bottom.putpalette(top.getpalette())
    whole = Image.new("P", (90, 27))
    whole.putpalette(top.getpalette())
    whole.paste(top, (0, 0))
    whole.paste(bottom, (0, 7))
    back = decoded(png.from_rows(whole, [png.compress_rows(top), png.compress_rows(bottom)]))
    assert back.tobytes() == whole.tobytes()
    with pytest.raises(ValueError):
        png.from_rows(whole, [png.compress_rows(top)])


def test_a_table_png_is_joined_from_its_strips_and_decodes_to_its_picture() -> None:
    import json

    from engines import get_engine
    from render import table_png
    from render.pedwar import table_image

    engine = get_engine("pedwar")
    view = json.loads(json.dumps(engine.view(engine.new_game(4, 3), None)))
    names = ["Ada", "Kofi", "王芳", "Олена"]
    picture = table_image(view, names)
    assert png.ROWS_INFO in picture.info
    data = table_png("pedwar", view, names, "Ada plays the 5")
    back = decoded(data)
    assert back.height > picture.height and back.tobytes()[-len(picture.tobytes()):] == picture.tobytes()


@pytest.mark.parametrize("deflate", ["zlib_ng", "zlib"])
def test_either_deflate_makes_a_standard_png_of_the_same_pixels(deflate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """zlib-ng where its wheel is installed, the standard library's zlib where not: the same pixels either way,
    banded or joined from rows, and zlib-ng is the one in use when it is installed."""
    import zlib_ng.zlib_ng

    assert png.zlib is zlib_ng.zlib_ng
    monkeypatch.setattr(png, "zlib", zlib_ng.zlib_ng if deflate == "zlib_ng" else zlib)
    png.clear_cache()
    img = palette_image(300, 70, seed=11)
    assert decoded(png.encode(img)).tobytes() == img.tobytes()
    top, bottom = img.crop((0, 0, 300, 30)), img.crop((0, 30, 300, 70))
    joined = png.from_rows(img, [png.compress_rows(top), png.compress_rows(bottom)])
    assert decoded(joined).tobytes() == img.tobytes()
    png.clear_cache()
