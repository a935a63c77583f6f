"""A PNG encoder for palette images that compresses each band of rows once and reuses it.

Between two moves most of a table's picture does not change: the seats of the players who did not
act, the felt, the headings. Pillow compresses the whole picture every time, and that compression was
half of an image's cost. Here the picture is cut into bands of ``BAND_ROWS`` rows; each band is
compressed on its own (raw deflate ended with a full flush, so that compressed bands can be
concatenated into one valid zlib stream) and kept in a cache keyed by its content, so an unchanged
band costs two checksums instead of a compression. The zlib trailer's Adler-32 of the whole picture
is combined from the bands' own, never recomputed.

The output is a standard PNG (8-bit palette, no filter, one IDAT), identical for identical pixels
whatever the cache held; a band's own compression does not depend on its neighbours.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: 16 rows of an 800-pixel picture: about 13 KB raw, a heading or a seat's name line.
BAND_ROWS = 16
#: Compressed bands kept, by their total size (each render worker has its own cache).
CACHE_BYTES = 24 * 1024 * 1024
#: zlib level 1: a flat picture compresses nearly as well as at level 6, several times faster.
LEVEL = 1
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, fastest (the level is only a hint to readers)
_FINAL_BLOCK = b"\x03\x00"  # an empty final block with fixed codes: ends the deflate stream
_ADLER_BASE = 65521

_bands: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
_cached_bytes = 0


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of A+B from those of A and B and B's length (zlib's ``adler32_combine``)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _compressed(band: memoryview, adler: int) -> bytes:
    global _cached_bytes
    # Two independent checksums and the length: a wrong band would need both to collide at once.
    key = (zlib.crc32(band), adler, len(band))
    found = _bands.get(key)
    if found is not None:
        _bands.move_to_end(key)
        return found
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    data = compressor.compress(band) + compressor.flush(zlib.Z_FULL_FLUSH)
    _bands[key] = data
    _cached_bytes += len(data)
    while _cached_bytes > CACHE_BYTES and _bands:
        _cached_bytes -= len(_bands.popitem(last=False)[1])
    return data


def encodable(img: Image.Image) -> bool:
    """A palette image without transparency: what the table and hand pictures are."""
    return img.mode == "P" and "transparency" not in img.info and img.palette is not None


def encode(img: Image.Image) -> bytes:
    """``img`` (see ``encodable``) as PNG bytes."""
    if not encodable(img):
        raise ValueError(f"only palette images without transparency, not mode {img.mode}")
    width, height = img.size
    # Each PNG row starts with its filter type (0, none): a picture one pixel wider with column 0 at
    # index 0 gives exactly those rows in one C call.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(img, (1, 0))
    raw = memoryview(rows.tobytes())
    step = (width + 1) * BAND_ROWS
    parts = [_ZLIB_HEADER]
    adler = 1
    for start in range(0, len(raw), step):
        band = raw[start:start + step]
        band_adler = zlib.adler32(band)
        parts.append(_compressed(band, band_adler))
        adler = adler32_combine(adler, band_adler, len(band))
    parts.append(_FINAL_BLOCK)
    parts.append(struct.pack(">I", adler))
    palette = bytes(img.getpalette() or [])
    return b"".join((SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", palette), _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")))


def clear_cache() -> None:
    global _cached_bytes
    _bands.clear()
    _cached_bytes = 0
