"""Rebuild the bundled fonts in render/fonts/ from Debian's Noto packages.

    .venv/bin/python render/fonts/build.py            # downloads the .debs with apt-get
    .venv/bin/python render/fonts/build.py /tmp/x     # or: a directory where they were dpkg -x'ed

All fonts are under the SIL Open Font License 1.1 (OFL.txt beside them). What is built and why:

- NotoSans-Regular.ttf, NotoSans-Bold.ttf: Latin, Greek, Cyrillic (with ґ є ї і), copied as they are.
- NotoSansSymbols2-Subset.ttf: arrows, geometric shapes, card suits, dingbats (U+2190-2BFF), for the
  symbols people put in nicknames that Noto Sans lacks.
- NotoSansCJK-Subset.otf: Noto Sans CJK SC cut to GB2312, JIS X 0208, Big5 level 1, all 11,172 Hangul
  syllables, kana, Jamo and CJK punctuation, without hints, vertical forms or the 'locl' variants
  (thousands of JP/KR/TC glyphs we never select). The full collection is 19.5 MB; this is 3.8 MB.
  Fewer Han or only the 2,350 common Hangul would be smaller but draw rarer names as boxes.
- NotoColorEmoji.ttf: every emoji, its 109 ppem PNG strike re-encoded at 48 ppem with at most 64
  colours (11 MB -> 4.7 MB). Emoji are drawn at 22-32 px, where the difference cannot be seen.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image

HERE = Path(__file__).resolve().parent
PACKAGES = ["fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji"]
CJK_SC = 2  # index of "Noto Sans CJK SC" in NotoSansCJK-Regular.ttc


def _extract(tmp: Path) -> Path:
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=tmp, check=True)
    root = tmp / "x"
    for deb in tmp.glob("*.deb"):
        subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True)
    return root


def _double_byte(codec: str, leads: range, trails: range) -> set[int]:
    """Every character a double-byte legacy encoding can spell: a cheap, standard list of the
    Han characters names actually use."""
    out: set[int] = set()
    for a in leads:
        for b in trails:
            try:
                ch = bytes([a, b]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.add(ord(ch))
    return out


def cjk_codepoints() -> set[int]:
    cps = _double_byte("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))
    cps |= _double_byte("euc_jp", range(0xA1, 0xF5), range(0xA1, 0xFF))        # JIS X 0208
    big5_level1 = _double_byte("big5", range(0xA4, 0xC7), range(0x40, 0xFF))
    cps |= {c for c in big5_level1 if c >= 0x3400}                              # Han only
    for lo, hi in [(0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F), (0x3000, 0x30FF),
                   (0x31F0, 0x31FF), (0xFF00, 0xFFEF)]:
        cps |= set(range(lo, hi + 1))
    return cps


def _subset(src: Path, dst: Path, unicodes: set[int], font_number: int = 0) -> None:
    opts = subset.Options()
    opts.font_number = font_number
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.hinting = False  # CJK outlines at 22-60 px look the same without hints, and the subset is smaller
    # Only what a horizontal line of names uses: 'locl' alone would pull in thousands of JP/KR/TC glyph
    # variants, and we never set a language; vertical forms are never drawn.
    opts.layout_features = ["ccmp", "kern", "liga", "ljmo", "vjmo", "tjmo", "mark", "mkmk"]
    opts.drop_tables += ["vhea", "vmtx", "VORG"]
    font = subset.load_font(str(src), opts)
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=unicodes)
    sub.subset(font)
    subset.save_font(font, str(dst), opts)


EMOJI_PPEM = 48


def _shrink_emoji(src: Path, dst: Path, ppem: int = EMOJI_PPEM, colours: int = 64) -> None:
    """Re-encode the 109 ppem colour strike at ``ppem`` with at most ``colours`` colours.

    Emoji are drawn at 22-32 px, so a 48 ppem strike loses nothing visible and the font shrinks
    from 11 MB to 4.7 MB. Pillow then opens the font at ``size=ppem`` (the only size a
    bitmap-only font accepts), and render.text scales the glyphs to the text size.
    """
    font = TTFont(str(src))
    for strike in font["CBLC"].strikes:
        table = strike.bitmapSizeTable
        k = ppem / table.ppemY
        table.ppemX = table.ppemY = ppem
        for lm in (table.hori, table.vert):
            for attr in ("ascender", "descender", "widthMax"):
                setattr(lm, attr, round(getattr(lm, attr) * k))
    for strike in font["CBDT"].strikeData:
        for bitmap in strike.values():
            # Noto uses format 17 only: small metrics and one PNG per glyph.
            img = Image.open(io.BytesIO(bitmap.imageData)).convert("RGBA")
            w, h = max(1, round(img.width * k)), max(1, round(img.height * k))
            img = img.resize((w, h), Image.Resampling.LANCZOS)
            small = img.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            buf = io.BytesIO()
            small.save(buf, format="PNG", optimize=True)
            bitmap.imageData = buf.getvalue()
            m = bitmap.metrics
            m.width, m.height = w, h
            m.BearingX, m.BearingY, m.Advance = round(m.BearingX * k), round(m.BearingY * k), round(m.Advance * k)
    font.save(str(dst))


def build(root: Path) -> None:
    noto = root / "usr/share/fonts/truetype/noto"
    cjk = root / "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    for name in ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"):
        shutil.copy(noto / name, HERE / name)
    _subset(noto / "NotoSansSymbols2-Regular.ttf", HERE / "NotoSansSymbols2-Subset.ttf",
            set(range(0x2190, 0x2C00)))
    _subset(cjk, HERE / "NotoSansCJK-Subset.otf", cjk_codepoints(), CJK_SC)
    _shrink_emoji(noto / "NotoColorEmoji.ttf", HERE / "NotoColorEmoji.ttf")
    # Debian's copyright files hold the copyright lines and the full OFL 1.1 text for each package.
    licence = "\n\n".join((root / f"usr/share/doc/{p}/copyright").read_text() for p in PACKAGES)
    (HERE / "OFL.txt").write_text(licence)
    for f in sorted(HERE.glob("*.*tf")):
        print(f"{f.name}: {f.stat().st_size / 1e6:.2f} MB")


def main() -> None:
    if len(sys.argv) > 1:
        build(Path(sys.argv[1]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        build(_extract(Path(tmp)))


if __name__ == "__main__":
    main()
