"""King Pedro table and hand images at several points of random games and at the end."""

from __future__ import annotations

import colorsys

from PIL import Image

from engines.king_pedro import ENGINE as E
from engines.rng import Rng
from render import hand_png, table_png
from render import king_pedro as kp
from render.king_pedro import hand_image, table_image
from tests.render.layout_check import render_checked
from tests.render.names import LONG_NAMES

NAMES = LONG_NAMES[:4]
PNG_LIMIT = 200 * 1024


def snapshots(seed: int, options: dict | None = None) -> list[object]:
    """One state per phase of the first rounds (plus one mid-trick and the final state)."""
    rng = Rng(seed)
    s = E.new_game(4, seed, options)
    out, seen = [s], set()
    while E.to_act(s):
        seats = E.to_act(s)
        seat = rng.choice(seats)
        s = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
        key = (s.phase, len(s.trick) > 0, s.round > 1)
        if key not in seen:
            seen.add(key)
            out.append(s)
    out.append(s)
    return out


def check_png(data: bytes) -> None:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= PNG_LIMIT


def test_table_and_hand_images_through_a_game() -> None:
    states = snapshots(3, {"max_rounds": 3})
    assert E.is_over(states[-1])
    phases = {s.phase for s in states}
    assert {"bidding", "trump", "discarding", "playing", "over"} <= phases
    for s in states:
        view = E.view(s, None)
        img, _ = render_checked(lambda view=view: table_image(view, NAMES))
        assert isinstance(img, Image.Image)
        assert img.width == 800 and img.height <= 1300
        check_png(table_png("king_pedro", view, NAMES))
        for seat in range(4):
            sv = E.view(s, seat)
            himg, _ = render_checked(lambda sv=sv, seat=seat: hand_image(sv, seat, NAMES))
            assert isinstance(himg, Image.Image) and himg.width == 800
            check_png(hand_png("king_pedro", sv, seat, NAMES))


def test_images_with_short_and_missing_names_and_passing_phase() -> None:
    for seed in range(12):
        for s in snapshots(seed, {"max_rounds": 1}):
            if s.phase in ("passing", "discarding") or s.folded != (False,) * 4:
                table_image(E.view(s, None), ["a", "", "c", "d"])
                for seat in range(4):
                    hand_image(E.view(s, seat), seat, ["a", "", "c", "d"])


def test_longest_auction_fits_and_progress_against_the_bid_is_shown() -> None:
    # walk random games for the longest auction seen, and a mid-trick state
    longest, mid = None, None
    for seed in range(20):
        for s in snapshots(seed, {"max_rounds": 2}):
            v = E.view(s, None)
            if v["phase"] in ("bidding", "trump") and (longest is None or len(v["auction"]) > len(longest["auction"])):
                longest = v
            if v["phase"] == "playing" and v["trick"] and mid is None:
                mid = v
    assert longest is not None and mid is not None
    _, drawn = render_checked(lambda: table_image(longest, NAMES))
    calls = [t.text for t in drawn if t.text.startswith("bids ") or t.text == "passes"]
    assert len(calls) == min(len(longest["auction"]), 14)
    _, drawn = render_checked(lambda: table_image(mid, NAMES))
    texts = [t.text for t in drawn]
    assert any(t.startswith(f"{mid['round_points'][mid['bidder'] % 2]} of {mid['bid']} bid") for t in texts)
    assert "winning" in texts


def test_the_winning_card_is_marked_under_the_right_card() -> None:
    from engines.king_pedro.rules import trick_winner

    rng = Rng(5)
    s = E.new_game(4, 5)
    checked = 0
    while E.to_act(s) and checked < 5:
        seat = rng.choice(E.to_act(s))
        s = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
        v = E.view(s, None)
        if v["phase"] == "playing" and len(v["trick"]) >= 2:
            win = trick_winner([c for _, c in v["trick"]], v["trump"])
            _, drawn = render_checked(lambda v=v: table_image(v, NAMES))
            tag = next(t for t in drawn if t.text == "winning")
            slot = (800 - 4 * 12) // 4
            assert (tag.box[0] + tag.box[2]) // 2 // slot == (win * slot + 24 + slot // 2) // slot
            checked += 1
    assert checked


def test_the_trump_border_and_the_legal_move_frame_look_nothing_alike() -> None:
    # Once nearly the same colour: a gold trump border and a cyan legal-move frame, far apart in hue
    # and in the drawn image.
    def hue(c: tuple[int, int, int]) -> float:
        return colorsys.rgb_to_hsv(*(x / 255 for x in c))[0] * 360

    def apart(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        d = abs(hue(a) - hue(b)) % 360
        return min(d, 360 - d)

    assert apart(kp.GOLD, kp.LEGAL) >= 90 and apart(kp.HIGHLIGHT, kp.LEGAL) >= 90
    assert sum(abs(x - y) for x, y in zip(kp.GOLD, kp.WINNING, strict=True)) >= 150
    # a trump card's border is gold, the legal frame around a card is cyan
    trump = kp.face("AH", trump=True)
    assert trump.getpixel((trump.width // 2, 1)) == kp.GOLD
    canvas = Image.new("RGB", (300, 300))
    kp._frame(canvas, (50, 50), 100, 140, kp.LEGAL, 5)
    framed = {canvas.getpixel((x, y)) for x in range(300) for y in range(300)} - {(0, 0, 0)}
    assert kp.LEGAL in framed and kp.GOLD not in framed
