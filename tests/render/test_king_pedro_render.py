"""King Pedro table and hand images at several points of random games and at the end."""

from __future__ import annotations

from PIL import Image

from engines.king_pedro import ENGINE as E
from engines.rng import Rng
from render import hand_png, table_png
from render.king_pedro import hand_image, table_image

NAMES = ["Alice", "Bob the Builder", "Carol", "Dmitri Kowalczyk-Longname-Extra"]
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
        img = table_image(view, NAMES)
        assert isinstance(img, Image.Image)
        assert 900 <= img.width <= 1100 and 500 <= img.height <= 900
        check_png(table_png("king_pedro", view, NAMES))
        for seat in range(4):
            sv = E.view(s, seat)
            himg = hand_image(sv, seat, NAMES)
            assert isinstance(himg, Image.Image) and himg.width >= 600
            check_png(hand_png("king_pedro", sv, seat, NAMES))


def test_images_with_short_and_missing_names_and_passing_phase() -> None:
    for seed in range(12):
        for s in snapshots(seed, {"max_rounds": 1}):
            if s.phase in ("passing", "discarding") or s.folded != (False,) * 4:
                table_image(E.view(s, None), ["a", "", "c", "d"])
                for seat in range(4):
                    hand_image(E.view(s, seat), seat, ["a", "", "c", "d"])
