"""Names in every script are drawn as glyphs, never as the missing-glyph box; truncation keeps
grapheme clusters whole; every renderer draws its names through the fallback."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops, features

from engines import get_engine
from render import hand_png, table_png
from render import text as T

SCRIPT_NAMES = {
    "latin": "Zoë Łukasiewicz-Ørsted",
    "greek": "Ζωή Παπαδοπούλου",
    "cyrillic": "Ґалина Єрмак Їжачок і я",
    "chinese": "王小明 張偉",
    "japanese": "山田さくら カタカナ",
    "korean": "김민준 뷁",
    "emoji": "👨‍👩‍👧 Olha 🇺🇦 👍🏽",
    "combining": "Ame\u0301lie n\u0303",
}
NOT_IN_ANY_FONT = "\U0010fffd"  # a private-use code point: every font draws its .notdef for it


def _mask(font, s: str) -> bytes:
    im = Image.new("L", (200, 200))
    from PIL import ImageDraw

    ImageDraw.Draw(im).text((10, 10), s, font=font, fill=255)
    return im.tobytes()


def test_raqm_shaping_is_available():
    # Without libfribidi0, Pillow silently falls back to basic layout and 👨‍👩‍👧 becomes three glyphs.
    assert features.check("raqm")


@pytest.mark.parametrize("script", sorted(SCRIPT_NAMES))
def test_every_cluster_has_a_real_glyph(script):
    name = SCRIPT_NAMES[script]
    for cl in T.clusters(name):
        if cl.isspace():
            continue
        font_name = T.font_for(cl)
        assert font_name is not None, f"no bundled font covers {cl!r}"
        font = T.pil_font(font_name, 40)
        if font_name == T.EMOJI:
            # One colour glyph, as wide as a plain emoji: ZWJ sequences and flags are shaped as one.
            assert font.getlength(cl) == font.getlength("😀"), cl
            im = Image.new("RGBA", (120, 120))
            from PIL import ImageDraw

            ImageDraw.Draw(im).text((0, 0), cl, font=font, embedded_color=True)
            assert im.getchannel("A").getbbox() is not None
            assert len(im.convert("RGB").getcolors(1 << 16) or []) > 8  # colours, not a monochrome box
        else:
            assert _mask(font, cl) != _mask(font, NOT_IN_ANY_FONT), f"{cl!r} drawn as the missing-glyph box"
        assert T.REPLACEMENT not in "".join(r for _, r in T.runs(name))


def test_an_uncovered_glyph_is_a_visible_replacement():
    runs = T.runs("a" + NOT_IN_ANY_FONT + "b")
    assert "".join(r for _, r in runs) == "a" + T.REPLACEMENT + "b"
    img = Image.new("RGB", (100, 40))
    box = T.draw(img, (0, 0), NOT_IN_ANY_FONT, 20)
    assert box[2] > box[0] and img.getbbox() is not None
    font = T.pil_font(T.REGULAR[0], 40)
    assert _mask(font, T.REPLACEMENT) != _mask(font, NOT_IN_ANY_FONT)


def test_drawn_text_differs_from_boxes():
    # The same name drawn with only Noto Sans (boxes for CJK) and with fallback must differ.
    img1 = Image.new("RGB", (300, 60))
    T.draw(img1, (0, 0), "王小明", 30)
    img2 = Image.new("RGB", (300, 60))
    from PIL import ImageDraw

    ImageDraw.Draw(img2).text((0, 0), "王小明", font=T.pil_font(T.REGULAR[0], 30))
    assert ImageChops.difference(img1, img2).getbbox() is not None


FIT_CASES = ["ab👨‍👩‍👧👨‍👩‍👧cd", "🇺🇦🇺🇦🇺🇦🇺🇦", "e\u0301e\u0301e\u0301e\u0301e\u0301", "Ґалина Єрмак"]


@pytest.mark.parametrize("text", FIT_CASES)
def test_fit_cuts_only_between_grapheme_clusters(text):
    whole = T.clusters(text)
    for width in range(10, T.text_width(text, 20) + 5, 3):
        out = T.fit(text, 20, width)
        assert T.text_width(out, 20) <= width or out == T.ELLIPSIS
        kept = T.clusters(out.removesuffix(T.ELLIPSIS))
        assert kept == whole[: len(kept)] or "".join(kept) == "".join(whole[: len(kept)]).rstrip()


def test_truncate_graphemes_counts_code_points_and_keeps_clusters():
    assert T.truncate_graphemes("ab👨‍👩‍👧cd", 6) == "ab…"
    assert T.truncate_graphemes("ab👨‍👩‍👧cd", 8) == "ab👨‍👩‍👧…"
    assert T.truncate_graphemes("short", 10) == "short"
    assert len(T.truncate_graphemes("x" * 50, 32)) == 32


def _states(game: str, n: int, seed: int, every: int = 7):
    eng = get_engine(game)
    s = eng.new_game(n, seed)
    from engines.bots import RandomBot

    bot = RandomBot(seed)
    out, step = [s], 0
    while not eng.is_over(s) and step < 400:
        seat = eng.to_act(s)[0]
        s = eng.apply(s, seat, bot.choose(eng, s, seat))
        step += 1
        if step % every == 0:
            out.append(s)
    return eng, [*out, s]


GAMES = [("do_over", 6), ("pedwar", 4), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pentawar", 5)]


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_renderers_draw_names_in_every_script(game, n):
    names = list(SCRIPT_NAMES.values())[:n]
    names[-1] = SCRIPT_NAMES["emoji"]
    eng, states = _states(game, n, 3)
    for s in [*states[::max(1, len(states) // 6)], states[-1]]:
        with T.recording() as drawn:
            table_png(game, json.loads(json.dumps(eng.view(s, None))), names)
            for seat in range(n):
                hand_png(game, json.loads(json.dumps(eng.view(s, seat))), seat, names)
        texts = [d.text for d in drawn]
        assert not any(T.REPLACEMENT in t for t in texts)
        for t in texts:
            assert all(T.font_for(cl) is not None for cl in T.clusters(t))
        # every name appears, whole or as a grapheme-safe prefix with an ellipsis
        joined = "\n".join(texts)
        for name in names:
            head = T.clusters(name)[0]
            assert head in joined, f"{name!r} never drawn in {game}"
