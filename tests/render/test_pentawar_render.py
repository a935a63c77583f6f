"""Pentawar table and hand images at several points of random games, and at the end."""

from __future__ import annotations

import pytest
from PIL import Image

from engines.pentawar import ENGINE as E
from engines.rng import Rng
from render import hand_png, table_png
from render import text as T
from render.common import to_png
from render.pentawar import dragon_card, hand_image, table_image
from render.pentawar import marks as pentawar_marks
from tests.render.layout_check import render_checked
from tests.render.names import LONG_NAMES

NAMES = LONG_NAMES[:5]
LIMIT = 200 * 1024


def _snapshots(n: int, seed: int) -> list:
    """States from a random game: the start, a few points on the way, the end."""
    rng = Rng(seed)
    s = E.new_game(n, seed)
    states = [s]
    step = 0
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        acts = E.legal_actions(s, seat)
        wings = [a for a in acts if a.startswith("wing")]
        s = E.apply(s, seat, rng.choice(wings if wings and rng.below(2) else acts))
        step += 1
        if step % 12 == 0 or s.phase != "turn":
            states.append(s)
    states.append(s)
    return [*states[:: max(1, len(states) // 8)], s]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_table_and_hand_images_through_a_game(n):
    for s in _snapshots(n, 17 + n):
        view = E.view(s, None)
        img, _ = render_checked(lambda view=view: table_image(view, NAMES[:n]))
        assert isinstance(img, Image.Image)
        assert img.width == 800 and 400 <= img.height <= 1600
        png = to_png(img)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) <= LIMIT
        for seat in range(n):
            hv = E.view(s, seat)
            himg, _ = render_checked(lambda hv=hv, seat=seat: hand_image(hv, seat, NAMES[:n]), max_ratio=3)
            assert isinstance(himg, Image.Image) and himg.width == 800
            assert len(to_png(himg)) <= LIMIT


def test_full_wings_big_tableau_and_alter_in_progress():
    s = E.new_game(5, 11)
    s.wings[0] = ["sun", "moon", "forest", "ruby", "frost"]
    s.wings[1] = ["citrine", "shadow", "storm", None, None]
    s.wings[2] = ["ember", "sapphire", "moon", "moon", None]
    s.tableau = ["sun", "moon", "frost", "ember", "storm", "citrine", "sapphire", "ruby", "shadow", "forest"]
    s.hands[1] = ["sun"] * 3 + ["moon", "frost", "ember", "storm", "citrine", "sapphire", "ruby", "shadow"] * 2
    s.turn = 1
    s = E.apply(s, 1, "alter:hand:sun")
    names = ["a" * 40, *LONG_NAMES[1:5]]
    v = E.view(s, None)
    _, drawn = render_checked(lambda: table_image(v, names))
    texts = [t.text for t in drawn]
    assert "Alter war: placing" in texts and any(t.startswith("wing 5/5 · hand ") for t in texts)
    assert texts.count("under E") == 2 and "under C" in texts and "under D" in texts
    for place in "ABCDE":
        assert texts.count(place) >= 3  # every wing names its places
    assert len(table_png("pentawar", v, names)) <= LIMIT
    render_checked(lambda: hand_image(E.view(s, 1), 1, names), max_ratio=3)
    assert len(hand_png("pentawar", E.view(s, 1), 1, names)) <= LIMIT


def test_table_image_reads_only_the_public_view():
    s = E.new_game(4, 3)
    view = E.view(s, None)
    assert "hand" not in view
    a = to_png(table_image(view, NAMES[:4]))
    view2 = E.view(s, 2)
    assert to_png(table_image(view2, NAMES[:4])) == a  # a private view draws the same table


def test_acting_seat_is_marked():
    s = E.new_game(3, 8)
    view = E.view(s, None)
    img = table_image(view, NAMES[:3]).convert("RGB")
    other = dict(view, to_act=[(view["to_act"][0] + 1) % 3])
    assert to_png(table_image(other, NAMES[:3])) != to_png(img)


def test_empty_hand_image():
    s = E.new_game(2, 1)
    s.hands[0] = []
    img, _ = render_checked(lambda: hand_image(E.view(s, 0), 0, NAMES[:2]), max_ratio=3)
    assert img.width == 800 and len(to_png(img)) <= LIMIT


def test_each_kind_has_its_own_card_face():
    from data.editions import pentawar as edition

    faces = {k: dragon_card(k, 56, 78).tobytes() for k in edition.KINDS}
    assert len(set(faces.values())) == len(edition.KINDS)


def _altered_state():
    """Five players, full and covered wings, Ruby just put on position 2 (replacing the Sun) with a kill to come."""
    s = E.new_game(5, 11)
    s.war = ["citrine", "moon", "sun", "forest", "shadow"]
    s.wings[0] = ["sun", "moon", "forest", "ruby", "frost"]
    s.wings[2] = ["ember", "sapphire", "moon", "moon", None]
    s.hands[1] = ["ruby", "moon", "frost"]
    s.turn = 1
    s = E.apply(E.apply(s, 1, "alter:hand:ruby"), 1, "replace:2")
    assert s.phase == "alter_kill"
    return s


def test_the_altered_position_is_drawn_and_fits():
    from PIL import ImageChops

    from render.common import HIGHLIGHT
    from render.pentawar import STAR_W, WAR_H, WAR_W, war_points

    s = _altered_state()
    v = E.view(s, None)
    assert v["altered"] == {"position": 2, "kind": "ruby", "replaced": "sun", "seat": 1}
    img, drawn = render_checked(lambda: table_image(v, NAMES))
    texts = [t.text for t in drawn]
    assert "War altered" in texts and "position 2: Ruby" in texts and "replaced Sun" in texts
    assert any(t.startswith("by Ґалина") for t in texts)
    assert any(t.endswith(" may kill, or end the turn") for t in texts)
    # positions are numbered 0-4, as in "puts Ruby on position 2" and the rules
    assert sorted(t for t in texts if t in "01234" and len(t) == 1) == ["0", "1", "2", "3", "4"]
    # a frame around position 2 only: the image differs from the same view without the Alter war just there
    plain = dict(v, altered=None)
    diff = ImageChops.difference(img.convert("RGB"), table_image(plain, NAMES).convert("RGB"))
    star = diff.crop((0, 96, STAR_W, 96 + 440)).getbbox()
    assert star is not None
    px, py = war_points(0, 0)[2]
    assert star[0] <= px - WAR_W / 2 and star[2] >= px + WAR_W / 2 and star[1] <= py - WAR_H / 2
    for p, (qx, qy) in enumerate(war_points(0, 0)):
        if p != 2:  # no other card is touched
            assert diff.crop((int(qx - WAR_W / 2) + 12, int(96 + qy - WAR_H / 2) + 22, int(qx + WAR_W / 2),
                              int(96 + qy + WAR_H / 2))).getbbox() is None, p
    frame = img.convert("RGB").getpixel((int(px + WAR_W / 2 + 3), int(96 + py)))
    assert frame == HIGHLIGHT
    # and in the hand panel, where the kill is chosen
    _, hdrawn = render_checked(lambda: hand_image(E.view(s, 1), 1, NAMES), max_ratio=3)
    assert "War altered" in [t.text for t in hdrawn]


def test_the_altered_position_stays_for_the_next_player_then_goes():
    s = E.apply(_altered_state(), 1, "skip")
    v = E.view(s, None)
    _, drawn = render_checked(lambda: table_image(v, NAMES))
    assert "War altered" in [t.text for t in drawn]
    s = E.apply(s, s.turn, "gather")
    _, drawn = render_checked(lambda: table_image(E.view(s, None), NAMES))
    assert "War altered" not in [t.text for t in drawn]


def test_a_view_without_the_altered_field_draws_as_before():
    # A view from a snapshot that predates the field, or a state with no Alter war to show.
    s = E.new_game(3, 5)
    v = E.view(s, None)
    old = {k: x for k, x in v.items() if k != "altered"}
    assert to_png(table_image(old, NAMES[:3])) == to_png(table_image(v, NAMES[:3]))
    s = E.apply(E.new_game(3, 5), E.to_act(s)[0], "alter:tableau:" + s.tableau[0])
    _, drawn = render_checked(lambda: table_image(E.view(s, None), NAMES[:3]))
    texts = [t.text for t in drawn]
    assert "Alter war: placing" in texts and "War altered" not in texts  # placing, not yet placed


def test_wing_cards_are_large_and_never_overlap_and_counts_sit_under_the_tableau_cards(monkeypatch):
    """Once tiny and piled over one another, a full wing is five cards side by side, each about 46 px
    wide on a phone; the tableau's counts are written under their cards, never over them."""
    from render.layout import PHONE, WIDTH
    from render.pentawar import TAB_H, TAB_W, WING_H, WING_W

    pasted: list[tuple[int, int, int, int]] = []
    paste = Image.Image.paste

    strip: list[tuple[int, int, int, int]] = []  # pasted on the strip being drawn, at its own y = 0

    def recording_paste(self, im, box=None, mask=None):
        if isinstance(im, Image.Image) and isinstance(box, tuple) and len(box) == 2 and self.width == WIDTH:
            if self.mode == "P" and im.mode == "P" and box[0] == 0:
                # a finished strip put in the picture: what was pasted on it moves down to its place
                pasted.extend((x0, y0 + box[1], x1, y1 + box[1]) for x0, y0, x1, y1 in strip)
                strip.clear()
            else:
                strip.append((box[0], box[1], box[0] + im.width, box[1] + im.height))
        return paste(self, im, box, mask)

    monkeypatch.setattr(Image.Image, "paste", recording_paste)
    s = E.new_game(5, 11)
    s.wings = [["sun", "moon", "forest", "ruby", "frost"], ["citrine", "shadow", "storm", "ember", "sapphire"],
               ["ember", "sapphire", "moon", "moon", None], [None] * 5, ["sun", None, None, None, None]]
    s.tableau = ["sun", "sun", "moon", "frost", "ember", "storm", "citrine", "sapphire", "ruby", "shadow", "forest"]
    _, drawn = render_checked(lambda: table_image(E.view(s, None), NAMES))
    pasted.extend(strip)  # a picture drawn whole, not in strips
    wing = [r for r in pasted if (r[2] - r[0], r[3] - r[1]) == (WING_W, WING_H)]
    assert len(wing) == 5 * 5  # every place of every wing, cards and empty places alike
    assert WING_W * PHONE / WIDTH >= 44  # about 46 px wide on the phone (once 22)
    for i, a in enumerate(wing):
        for b in wing[i + 1:]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (a, b)
    cards = [r for r in pasted if (r[2] - r[0], r[3] - r[1]) == (TAB_W, TAB_H)]
    counts = [t for t in drawn if t.text.startswith("×")]
    assert len(cards) == len(counts) == 10 and sorted(t.text for t in counts).count("×2") == 1
    for t in counts:
        card = next(c for c in cards if c[0] <= (t.box[0] + t.box[2]) / 2 <= c[2] and t.box[1] >= c[3])
        assert t.box[1] - card[3] <= 16  # right under its own card
        for c in cards:
            assert min(t.box[2], c[2]) <= max(t.box[0], c[0]) or min(t.box[3], c[3]) <= max(t.box[1], c[1])


@pytest.mark.parametrize(("lang", "full", "ran_out"), [
    ("en", "Game over: bob's flight wing is full", "Game over: the deck ran out and the discard pile is empty"),
    ("fr", "Partie terminée : escadrille complète pour bob", "Partie terminée : le paquet et la défausse sont"),
    ("uk", "Гру закінчено: крило гравця bob заповнене", "Гру закінчено: колода скінчилася, а скид")])
def test_why_the_game_ended_is_said_whole_in_the_language_even_from_a_loaded_state(lang, full, ran_out):
    """A state loaded from its snapshot keeps the end reason as plain English text: the heading says it in the
    reader's language, the seat named, whole (only a name would be shortened)."""
    view = E.view(E.new_game(3, 1), None)
    names = ["alice", "bob", "carol"]
    for reason, heading in (("{p1} starts a turn with 5 dragons in the flight wing", full),
                            ("the deck ran out and the discard pile is empty", ran_out)):
        view.update(over=True, to_act=[], end_reason=reason)
        with T.recording() as drawn:
            table_image(view, names, lang=lang)
        said = [d.text for d in drawn if d.text.startswith(heading)]
        assert said and T.ELLIPSIS not in said[0], [d.text for d in drawn][:3]
    view.update(end_reason="{p1} starts a turn with 5 dragons in the flight wing")
    with T.recording() as drawn:
        table_image(view, LONG_NAMES[:3], lang=lang)
    assert any(d.text.startswith(full.split("bob")[0]) for d in drawn)


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_each_kinds_mark_is_its_own_in_every_language(lang):
    marks = pentawar_marks(lang)
    assert len(set(marks.values())) == len(marks) == 10 and all(len(mark) == 2 for mark in marks.values())
    if lang == "fr":
        assert marks["sun"] == "So" and marks["shadow"] == "Om"  # Soleil, Ombre: the French names' letters
