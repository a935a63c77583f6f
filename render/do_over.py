"""Do Over! table and hand images for a phone column, drawn from engine views only.

Seats are listed in the order of play, starting with the player to act: who plays next is the
row below, and a Reverse flips the list. That replaced a 2-column grid where seat order and
direction were unclear.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

import i18n
from data.editions import do_over as edition
from i18n import DEFAULT, N_
from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    WHITE,
    Color,
    card_back,
    finished,
    fit_text,
    make_palette,
    new_canvas,
    paste_card,
    placings_line,
    text_width,
)
from render.common import draw_text as _draw
from render.common import to_palette as _to_palette
from render.layout import BIG, BODY, PAD, SMALL, TITLE, WIDTH, label, name_label, panel
from render.strips import Strip, stack
from render.words import count

BIG_W, BIG_H = 120, 168       # pile and hand cards
MINI_W, MINI_H = 66, 90       # face-up reserve cards in the seat rows
ROW_H = 112
HEAD_H = 104
CENTRE_H = 250

NUMBER_BG: Color = (248, 206, 222)
NUMBER_INK: Color = (150, 18, 82)
ROW_BG: Color = FELT_DARK
NOW_BG: Color = (58, 52, 16)
SPECIAL_STYLE: dict[str, tuple[str, str, Color, Color]] = {
    # code: (big label, small line, ink, background)
    # the small line: what the card does, in at most two lines of the card's width at the smallest legible
    # size (a line break at a space, or where a translation's soft hyphen says)
    edition.BOMB: ("BOMB", N_("clears pile"), WHITE, (28, 28, 32)),
    edition.DO_OVER: ("DO", N_("value 0"), WHITE, (30, 115, 55)),
    edition.REVERSE: ("REV", N_("reverse"), WHITE, (40, 92, 190)),
}


#: The view's directions of play, drawn in the reader's language.
DIRECTIONS = (N_("clockwise"), N_("counterclockwise"))

SOFT_HYPHEN = "\u00ad"
#: the step between the two lines of a card's small line
SUB_STEP = 28

#: what a card too narrow for its name at the smallest legible size shows instead (a reserve's mini cards)
NARROW = {edition.BOMB: "💣"}


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    inks = [WHITE, GOLD, MUTED, HIGHLIGHT, INK, NUMBER_INK, (120, 140, 210)]
    grounds = [FELT, FELT_DARK, NOW_BG, NUMBER_BG, CARD_BACK, *(st[3] for st in SPECIAL_STYLE.values())]
    return make_palette(inks, grounds)


def to_palette(img: Image.Image, _pal: Image.Image | None = None) -> Image.Image:
    return _to_palette(img, _palette())


def _largest(text: str, sizes: tuple[int, ...], width: int) -> int:
    return next((z for z in sizes if text_width(text, z, True) <= width), sizes[-1])


@lru_cache(maxsize=64)
def face(code: str, w: int = BIG_W, h: int = BIG_H, lang: str = DEFAULT) -> Image.Image:
    """A cached Do Over! card face: the number or the special's name as large as fits (its small line in
    ``lang``: the cache keeps each language's face)."""
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    label_, sub, ink, bg = SPECIAL_STYLE.get(code, (code, N_("highest") if code == "11" else "", NUMBER_INK,
                                                    NUMBER_BG))
    lines = sub_lines(i18n.t(lang, sub), w - 8) if sub and h >= 120 else []
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(6, w // 9), fill=bg, outline=INK, width=2)
    if text_width(label_, SMALL, True) > w - 8:
        label_ = NARROW.get(code, label_)
    big = _largest(label_, (int(h * 0.46), int(h * 0.36), int(h * 0.3), SMALL), w - 8)
    big = max(big, SMALL)
    # the big label is centred in the room the small line leaves above it
    first = h - SMALL - SUB_STEP * (len(lines) - 1)
    cy = (first - SMALL // 2) // 2 + 2 if len(lines) > 1 else h // 2 - (h // 10 if lines else 0)
    _draw(img, (w // 2, cy), label_, big, ink, "mm", bold=True)
    for i, line in enumerate(lines):
        _draw(img, (w // 2, first + i * SUB_STEP), line, SMALL, ink, "mm")
    return img


def sub_lines(sub: str, width: int) -> list[str]:
    """A card's small line as one line of at most ``width`` px at the smallest legible size, else two: broken at
    the space or soft hyphen that leaves the narrower longer line ("vide / la Pile", "роз- / ворот")."""
    whole = sub.replace(SOFT_HYPHEN, "")
    if text_width(whole, SMALL) <= width:
        return [whole]
    splits = [(whole[:i], whole[i + 1:]) for i, ch in enumerate(whole) if ch == " "]
    splits += [(sub[:i].replace(SOFT_HYPHEN, "") + "-", sub[i + 1:].replace(SOFT_HYPHEN, ""))
               for i, ch in enumerate(sub) if ch == SOFT_HYPHEN]
    fitting = [pair for pair in splits if max(text_width(part, SMALL) for part in pair) <= width]
    if not fitting:  # a translation too long for two lines: cut, never drawn smaller (tests keep this from happening)
        return [fit_text(whole, SMALL, width)]
    return list(min(fitting, key=lambda pair: max(text_width(part, SMALL) for part in pair)))


@lru_cache(maxsize=8)
def empty_slot(w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), FELT_DARK)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=6, outline=MUTED, width=2)
    return img


def _cards(k: int, lang: str = DEFAULT) -> str:
    return count(k, "card") if lang == DEFAULT else i18n.tn(lang, "{n} card", "{n} cards", k)


def _name(names: list[str], seat: int, lang: str = DEFAULT) -> str:
    return names[seat] if seat < len(names) and names[seat] else i18n.t(lang, "Seat {number}", number=seat + 1)


def play_order(view: dict[str, Any]) -> list[int]:
    """Seats in the order they will play, starting with the one to act (or the dealer's left)."""
    n = view["num_players"]
    step = 1 if view.get("direction", "clockwise") == "clockwise" else -1
    to_act = view.get("to_act") or []
    start = view.get("current") if view.get("phase") == "play" and view.get("current") is not None else (
        to_act[0] if to_act else 0)
    return [(start + i * step) % n for i in range(n)]


def table_image(view: dict[str, Any], names: list[str], placings: Sequence[int] | None = None,
                lang: str = DEFAULT) -> Image.Image:
    """The table; with ``placings`` (each seat's place, 1 = first) the table is over: the final picture.
    Its words speak ``lang``."""
    view = finished(view, placings)
    n = view["num_players"]
    placings = view.get("placings")
    swap = view.get("phase") == "swap" and placings is None
    over = bool(view.get("over")) or placings is not None
    to_act = set(view.get("to_act", []))

    # ---- header: title and the one line that says what is going on
    turns = i18n.t(lang, "turn {turn} of max {most}", turn=view.get("turns", 0) + 1, most=view.get("max_turns", "?"))
    if placings is not None and not view.get("over"):
        line = placings_line(placings, names, lang)
    elif over:
        winner = view.get("winner")
        line = (i18n.t(lang, "{name} wins!", name=_name(names, winner, lang)) if winner is not None
                else i18n.t(lang, "Turn limit reached"))
    elif swap:
        ready = sum(1 for s in view["seats"] if s.get("ready"))
        line = i18n.t(lang, "Swap step: {ready} of {players} ready", ready=ready, players=n)
    else:
        line = i18n.t(lang, "{name} to play: beat {value}", name=_name(names, view.get("current", 0), lang),
                      value=view.get("pile_value", 0))

    def head(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        box = (0, 0, WIDTH, HEAD_H)
        label(img, (2 * PAD, PAD), "Do Over!", TITLE, GOLD, box, bold=True)
        label(img, (WIDTH - 2 * PAD, PAD + 4), turns, SMALL, MUTED, box, "ra")
        label(img, (2 * PAD, 54), line, BODY, HIGHLIGHT if not over else GOLD, box, bold=True, inset=2 * PAD)

    strips = [Strip(HEAD_H, head, ("head", turns, line, over))]
    # ---- centre: the pile (top cards), its value, the draw pile; the felt below it belongs to it
    pile = view.get("pile", [])
    top = tuple(pile[-4:])
    value = view.get("pile_value", 0)
    count = view.get("pile_count", len(pile))
    draw_count = view.get("draw_count", 0)
    removed = view.get("removed_count", 0)
    strips.append(Strip(CENTRE_H + PAD, lambda img, d: _centre(img, d, top, value, count, draw_count, removed, lang),
                        ("centre", top, value, count, draw_count, removed, lang)))
    # ---- seats, in the order of play
    ltr = view.get("direction", "clockwise") == "clockwise"
    strips.append(Strip(ORDER_H, lambda img, d: _order_line(img, ltr, lang), ("order", ltr, lang)))
    outcome = (view.get("outcome") or placings) if over else None
    for k, s in enumerate(play_order(view)):
        seat = view["seats"][s]
        acting = s in to_act
        now = (k == 0 and not over and not swap)
        tag = (i18n.t(lang, "now") if now else i18n.t(lang, "next") if k == 1 and not over and not swap else "")
        if outcome:
            tag = f"#{outcome[s]}"
        if swap:
            state = i18n.t(lang, "ready") if seat.get("ready") else i18n.t(lang, "swapping")
        else:
            # Playing from the Hand goes without saying; the line fits beside the reserve at the smallest
            # legible size only in short words.
            source = {"up": N_("face-up"), "down": N_("blind")}.get(seat.get("source") or "", "")
            state = i18n.t(lang, source) if source else ""
        detail = i18n.t(lang, "Hand {hand} · {down} down", hand=seat["hand_count"],
                        down=seat.get("down_count", sum(seat["down"])))
        info = f"{detail} · {state}" if state else detail
        # What the three reserve slots show: a face-up card, a back, or nothing.
        ups, downs = seat["up"], seat["down"]
        reserve = tuple(ups[j] if ups[j] is not None else bool(downs[j]) for j in range(3))
        row = _SeatRow(now, acting, tag, _name(names, s, lang), info, reserve, str(seat["cards_left"]), lang)
        strips.append(Strip(ROW_H + PAD, lambda img, d, row=row: _seat_row(img, d, row), ("seat", row)))
    # The picture has always ended with this much felt below the last row.
    strips.append(Strip(60 - ORDER_H, lambda img, d: None, "end"))
    return stack(WIDTH, strips, _palette())


ORDER_H = 54


class _SeatRow(NamedTuple):
    """Everything a seat's row shows (its strip's key)."""

    now: bool
    acting: bool
    tag: str
    name: str
    info: str
    #: Per reserve slot: the face-up card's code, else True for a face-down card, False for none.
    reserve: tuple[str | bool, ...]
    left: str
    lang: str = DEFAULT


def _centre(img: Image.Image, d: ImageDraw.ImageDraw, top: tuple[str, ...], value: int, count: int,
            draw_count: int, removed: int, lang: str = DEFAULT) -> None:
    """The pile's top cards and value, the draw pile and the cards out of the game, at the top of its strip."""
    cy = 0
    centre = panel(d, (PAD, cy, WIDTH - PAD, cy + CENTRE_H), FELT_DARK)
    px, py = 2 * PAD + 4, cy + 2 * PAD
    if not top:
        img.paste(empty_slot(BIG_W, BIG_H), (px, py))
        label(img, (px + BIG_W // 2, py + BIG_H // 2), i18n.t(lang, "empty"), SMALL, MUTED, centre, "mm")
    for i, code in enumerate(top):
        paste_card(img, face(code, lang=lang), (px + i * 40, py), highlight=(i == len(top) - 1))
    vx = px + BIG_W + 40 * 3 + 24
    label(img, (vx, py), i18n.t(lang, "Pile value"), SMALL, WHITE, centre)
    label(img, (vx, py + 28), str(value), 2 * BIG, GOLD, centre, bold=True)
    label(img, (vx, py + 136), _cards(count, lang), SMALL, WHITE, centre)
    dx = WIDTH - 2 * PAD - 4 - 100
    img.paste(card_back(100, 140) if draw_count else empty_slot(100, 140), (dx, py))
    if draw_count:
        label(img, (dx + 50, py + 70), str(draw_count), BIG, WHITE, centre, "mm", bold=True)
    label(img, (dx + 50, py + 150), i18n.t(lang, "draw pile"), SMALL, WHITE, centre, "ma")
    label(img, (px, py + BIG_H + 14), i18n.t(lang, "Out of the game: {count}", count=removed), SMALL, MUTED, centre)


def _order_line(img: Image.Image, ltr: bool, lang: str = DEFAULT) -> None:
    box = (0, 0, WIDTH, ORDER_H)
    label(img, (2 * PAD, 8), i18n.t(lang, "Order of play ↓"), BODY, WHITE, box, bold=True)
    label(img, (WIDTH - 2 * PAD, 12), i18n.t(lang, "clockwise") if ltr else i18n.t(lang, "reversed: counterclockwise"),
          SMALL, GOLD, box, "ra")


def _seat_row(img: Image.Image, d: ImageDraw.ImageDraw, row: _SeatRow) -> None:
    """A seat's row, at the top of its strip: tag, name, hand and reserve, cards left."""
    y = 0
    box = panel(d, (PAD, y, WIDTH - PAD, y + ROW_H), NOW_BG if row.now else ROW_BG,
                HIGHLIGHT if row.acting else None, 4)
    tag_box = (box[0], box[1], box[0] + 84, box[3])
    label(img, (box[0] + 42, y + ROW_H // 2), row.tag, BODY if row.tag.startswith("#") else SMALL,
          HIGHLIGHT if row.now else GOLD, tag_box, "mm", bold=True)
    right = WIDTH - 2 * PAD - 96
    reserve_x = right - 3 * (MINI_W + 6) - 8
    name_box = (box[0] + 84, box[1], reserve_x - 8, box[3])
    label(img, (name_box[0], y + 12), row.name, BODY, GOLD if row.acting else WHITE, name_box, bold=True)
    label(img, (name_box[0], y + 60), row.info, SMALL, MUTED, name_box)
    for j, slot in enumerate(row.reserve):
        rx = reserve_x + j * (MINI_W + 6)
        card = face(slot, MINI_W, MINI_H, row.lang) if isinstance(slot, str) else (
            card_back(MINI_W, MINI_H) if slot else empty_slot(MINI_W, MINI_H))
        img.paste(card, (rx, y + (ROW_H - MINI_H) // 2))
    left_box = (right, box[1], box[2], box[3])
    label(img, (box[2] - 2 * PAD, y + 6), row.left, BIG, GOLD, left_box, "ra", bold=True)
    label(img, (box[2] - 2 * PAD, y + 66), i18n.t(row.lang, "left"), SMALL, WHITE, left_box, "ra")


def hand_image(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Image.Image:
    """The player's hand, and what the choice is about: the pile's value and top, the reserve."""
    hand: list[str] = view.get("hand", [])
    groups: list[tuple[str, int]] = []
    for code in hand:
        if groups and groups[-1][0] == code:
            groups[-1] = (code, groups[-1][1] + 1)
        else:
            groups.append((code, 1))
    per_row = 5
    step = (WIDTH - 2 * PAD) // per_row
    rows = max(1, -(-len(groups) // per_row))
    hand_h = rows * (BIG_H + 44)
    height = 120 + hand_h + 60 + BIG_H + 80 + 36  # + the pile numbers under the Reserve
    img, _ = new_canvas(WIDTH, height)
    me = view["seats"][seat]
    acting = seat in view.get("to_act", [])
    pv = view.get("pile_value", 0)
    head = (0, 0, WIDTH, 116)
    name_label(img, (2 * PAD, PAD), _name(names, seat, lang), i18n.t(lang, ": Hand of {cards}",
                                                                     cards=_cards(len(hand), lang)),
               TITLE, GOLD, head, bold=True, inset=2 * PAD)
    if view.get("phase") == "swap":
        note = (i18n.t(lang, "Your turn: swap Hand and face-up cards, then Ready") if acting
                else i18n.t(lang, "Ready: waiting for others"))
    elif view.get("over"):
        note = i18n.t(lang, "Game over")
    elif acting:
        note = i18n.t(lang, "Your turn: play {value} or higher, or a special", value=pv)
    else:
        note = i18n.t(lang, "Not your turn · pile value {value}", value=pv)
    label(img, (2 * PAD, 62), note, BODY, HIGHLIGHT if acting else WHITE, head, bold=acting, inset=2 * PAD)
    y0 = 120
    hand_box = (0, y0, WIDTH, y0 + hand_h)
    if not groups:
        label(img, (2 * PAD, y0 + 20), i18n.t(lang, "Your Hand is empty: you play from your Reserve."), BODY, WHITE,
              hand_box)
    for k, (code, many) in enumerate(groups):
        x = PAD + (k % per_row) * step + (step - BIG_W) // 2
        y = y0 + (k // per_row) * (BIG_H + 44)
        playable = view.get("phase") == "play" and acting and me.get("source") == "hand" and (
            not code.isdigit() or int(code) >= pv)
        paste_card(img, face(code, lang=lang), (x, y + 6), highlight=playable)
        if many > 1:
            label(img, (x + BIG_W // 2, y + BIG_H + 10), f"×{many}", SMALL, GOLD, hand_box, "ma", bold=True)
    ry = y0 + hand_h + 10
    half = WIDTH // 2
    res_box = (0, ry, half, height)
    label(img, (2 * PAD, ry), i18n.t(lang, "Your Reserve"), BODY, WHITE, res_box, bold=True)
    for j in range(3):
        x = 2 * PAD + j * (100 + 16)
        card = face(me["up"][j], 100, 140, lang) if me["up"][j] is not None else (
            card_back(100, 140) if me["down"][j] else empty_slot(100, 140))
        img.paste(card, (x, ry + 44))
        if me["down"][j] and me["up"][j] is None:
            label(img, (x + 50, ry + 114), "?", BIG, WHITE, res_box, "mm", bold=True)
        # numbered as the swap and play menus number them ("the face-up 9 of Reserve pile 1")
        label(img, (x + 50, ry + 190), i18n.t(lang, "pile {number}", number=j + 1), SMALL, GOLD,
              (x - 8, ry + 186, x + 108, ry + 224), "ma")
    label(img, (2 * PAD, ry + 232), i18n.t(lang, "{count} face down under them",
                                           count=me.get("down_count", sum(me["down"]))), SMALL, MUTED, res_box)
    pile_box = (half, ry, WIDTH, height)
    label(img, (half + PAD, ry), i18n.t(lang, "Pile: value {value}", value=pv), BODY, WHITE, pile_box, bold=True)
    for i, code in enumerate(view.get("pile", [])[-3:]):
        img.paste(face(code, 100, 140, lang), (half + PAD + i * 44, ry + 44))
    direction = view.get("direction", "")
    # The view's direction is a word of the engine's ("clockwise"): said in the reader's language.
    label(img, (half + PAD, ry + 232), i18n.t(lang, "Draw pile {count} · {direction}", count=view.get("draw_count", 0),
                                             direction=i18n.t(lang, direction) if direction else ""),
          SMALL, MUTED, pile_box)
    return to_palette(img)
