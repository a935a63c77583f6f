"""A PNG encoder for palette images that compresses each band of rows once and reuses it.

Between two moves most of a table's picture does not change: the seats of the players who did not
act, the felt, the headings. Pillow compresses the whole picture every time, and that compression was
half of an image's cost. Here the picture is cut into bands of ``BAND_ROWS`` rows; each band is
compressed on its own (raw deflate ended with a full flush, so that compressed bands can be
concatenated into one valid zlib stream) and kept in a cache keyed by its content, so an unchanged
band costs two checksums instead of a compression. The zlib trailer's Adler-32 of the whole picture
is combined from the bands' own, never recomputed.

The output is a standard PNG (8-bit palette, no filter, one IDAT), identical for identical pixels
whatever the cache held; a band's own compression does not depend on its neighbours. Deflate is zlib-ng's
where its wheel is installed (a dependency), else the standard library's.
"""

from __future__ import annotations

import struct
from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image

try:
    # zlib-ng writes the same deflate format twice as fast at this level, and checksums six times as fast:
    # compressing and checksumming the strips that changed was a third of a table picture's cost.
    from zlib_ng import zlib_ng as zlib
except ImportError:  # a platform without its wheel: the standard library's, same bytes format
    import zlib  # type: ignore[no-redef]

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: 16 rows of an 800-pixel picture: about 13 KB raw, a heading or a seat's name line.
BAND_ROWS = 16
#: Compressed bands kept, by their total size (each render worker has its own cache).
CACHE_BYTES = 24 * 1024 * 1024
#: zlib level 1 with run-length matching only: flat card art compresses nearly as well as at level 6,
#: several times faster (palette rows are long runs of one index).
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
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 8, zlib.Z_RLE)
    data = compressor.compress(band) + compressor.flush(zlib.Z_FULL_FLUSH)
    _bands[key] = data
    _cached_bytes += len(data)
    while _cached_bytes > CACHE_BYTES and _bands:
        _cached_bytes -= len(_bands.popitem(last=False)[1])
    return data


@dataclass(frozen=True)
class Rows:
    """Rows of a palette picture, compressed on their own: raw deflate ended with a full flush (so that
    blocks concatenate into one stream), the Adler-32 and the length of the raw rows they hold."""

    deflate: bytes
    adler: int
    length: int
    height: int


#: ``Image.info`` key of a picture's ``Rows`` blocks, top to bottom, when it was assembled from them.
ROWS_INFO = "deckhand_rows"


def compress_rows(img: Image.Image) -> Rows:
    """``img``'s rows, each led by its filter byte (0, none), compressed once (see ``Rows``)."""
    width, height = img.size
    # A picture one pixel wider with column 0 at index 0 gives exactly those rows in one C call.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(img, (1, 0))
    raw = rows.tobytes()
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 8, zlib.Z_RLE)
    return Rows(compressor.compress(raw) + compressor.flush(zlib.Z_FULL_FLUSH), zlib.adler32(raw), len(raw), height)


def from_rows(img: Image.Image, blocks: list[Rows]) -> bytes:
    """The PNG of ``img`` from ``blocks``, its rows compressed earlier, top to bottom: only joined here."""
    width, height = img.size
    if sum(b.height for b in blocks) != height or sum(b.length for b in blocks) != (width + 1) * height:
        raise ValueError("the row blocks do not make up the picture")
    adler = 1
    for block in blocks:
        adler = adler32_combine(adler, block.adler, block.length)
    return _png(img, b"".join((_ZLIB_HEADER, *(b.deflate for b in blocks), _FINAL_BLOCK, struct.pack(">I", adler))))


def _png(img: Image.Image, zlib_stream: bytes) -> bytes:
    width, height = img.size
    palette = bytes(img.getpalette() or [])
    return b"".join((SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", palette), _chunk(b"IDAT", zlib_stream), _chunk(b"IEND", b"")))


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
    return _png(img, b"".join(parts))


def clear_cache() -> None:
    global _cached_bytes
    _bands.clear()
    _cached_bytes = 0
