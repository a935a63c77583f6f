"""King Pedro table and hand images for a phone column, drawn only from engine views.

Four-colour suits (spades black, hearts red, diamonds blue, clubs green) with drawn pips. The table
is a stack of full-width bands: teams and scores (with the bidding team's points against its bid),
the contract, the trick in play order (the card winning it is marked), and one row per seat.
Trumps have a gold border and tint; cards legal now get a cyan frame, so the two never look alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from data.editions.king_pedro import SUIT_NAMES as SUIT_WORDS
from engines.king_pedro.rules import trick_winner
from i18n import DEFAULT, N_
from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    WHITE,
    Color,
    card_back,
    draw_text,
    finished,
    make_palette,
    new_canvas,
    place,
    placings_line,
    to_palette,
)
from render.layout import BIG, BODY, PAD, SMALL, TITLE, WIDTH, fit_names, label, message_parts, name_label, panel
from render.strips import Strip, stack

SUIT_COLOURS: dict[str, Color] = {"S": (25, 25, 30), "H": (200, 30, 40), "D": (30, 90, 200), "C": (15, 105, 45)}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
TEAM_COLOURS: tuple[Color, Color] = ((150, 205, 255), (255, 180, 115))
TEAM_NAMES = (N_("Team A"), N_("Team B"))
TRUMP_TINT: Color = (255, 243, 200)
LEGAL: Color = (40, 220, 255)      # cyan: never confused with the gold trump border
WINNING: Color = (255, 255, 255)
BOX_BG: Color = (10, 36, 24)
FOLDED_BG: Color = (40, 40, 40)
NOTE_INK: Color = (120, 80, 0)
POINTS = {"A": 1, "K": 30, "J": 1, "10": 10, "9": 9, "5": 5, "2": 1}
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}

CW, CH = 120, 168    # trick cards
HW, HH = 96, 134     # hand cards
SW, SH = 84, 118     # last trick, discards
TABLE_W = WIDTH


# ---------------------------------------------------------------- pips and faces

@lru_cache(maxsize=64)
def pip(suit: str, size: int, colour: Color | None = None) -> Image.Image:
    """An anti-aliased suit symbol (RGBA), drawn at 4x and scaled down."""
    colour = colour or SUIT_COLOURS[suit]
    k = 4
    s = size * k
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = (*colour, 255)
    r = s * 0.26
    if suit == "H":
        d.ellipse((s * 0.02, s * 0.08, s * 0.02 + 2 * r, s * 0.08 + 2 * r), fill=fill)
        d.ellipse((s * 0.98 - 2 * r, s * 0.08, s * 0.98, s * 0.08 + 2 * r), fill=fill)
        d.polygon([(s * 0.04, s * 0.42), (s * 0.96, s * 0.42), (s * 0.5, s * 0.97)], fill=fill)
    elif suit == "D":
        d.polygon([(s * 0.5, 0), (s * 0.92, s * 0.5), (s * 0.5, s - 1), (s * 0.08, s * 0.5)], fill=fill)
    elif suit == "S":
        d.ellipse((s * 0.02, s * 0.40, s * 0.02 + 2 * r, s * 0.40 + 2 * r), fill=fill)
        d.ellipse((s * 0.98 - 2 * r, s * 0.40, s * 0.98, s * 0.40 + 2 * r), fill=fill)
        d.polygon([(s * 0.04, s * 0.62), (s * 0.96, s * 0.62), (s * 0.5, s * 0.02)], fill=fill)
        d.polygon([(s * 0.5, s * 0.6), (s * 0.7, s - 1), (s * 0.3, s - 1)], fill=fill)
    else:
        cr = s * 0.22
        for cx, cy in ((0.5, 0.26), (0.26, 0.56), (0.74, 0.56)):
            d.ellipse((s * cx - cr, s * cy - cr, s * cx + cr, s * cy + cr), fill=fill)
        d.polygon([(s * 0.5, s * 0.45), (s * 0.7, s - 1), (s * 0.3, s - 1)], fill=fill)
    return img.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=512)
def face(card: str, w: int = CW, h: int = CH, trump: bool = False, points: int = 0,
         dim: bool = False, note: str = "") -> Image.Image:
    """A card face: rank top-left, a big pip; trumps get a gold border and tint, scoring cards a points badge."""
    rank, suit = card[:-1], card[-1]
    colour = SUIT_COLOURS[suit]
    bg = TRUMP_TINT if trump else PAPER
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 9), fill=bg,
                        outline=GOLD if trump else INK, width=5 if trump else 2)
    big = max(SMALL, int(h * 0.26))
    draw_text(d, (7, 3), rank, big, colour, bold=True)
    ps = int(w * 0.46)
    p = pip(suit, ps)
    img.paste(p, ((w - ps) // 2 + 6, int(h * 0.40)), p)
    small = pip(suit, max(12, big // 2))
    img.paste(small, (w - small.width - 8, 10), small)
    if points:
        br = max(SMALL // 2 + 4, w // 6)
        cx, cy = w - br - 4, h - br - 4
        d.ellipse((cx - br, cy - br, cx + br, cy + br), fill=GOLD, outline=INK, width=1)
        draw_text(d, (cx, cy), str(points), SMALL, INK, anchor="mm", bold=True)
    if note:
        draw_text(d, (6, h - 4), note, SMALL, NOTE_INK, anchor="ld", bold=True)
    if dim:
        img = Image.blend(img, Image.new("RGB", (w, h), (70, 80, 75)), 0.55)
    return img


def _is_trump(card: str, trump: str | None) -> bool:
    if not trump:
        return False
    return card[-1] == trump or card == "5" + SAME_COLOUR[trump]


def _points(card: str, trump: str | None) -> int:
    return POINTS.get(card[:-1], 0) if _is_trump(card, trump) else 0


def _card(card: str, trump: str | None, w: int = CW, h: int = CH, dim: bool = False,
          lang: str = DEFAULT) -> Image.Image:
    t = _is_trump(card, trump)
    # The other five is a trump of another suit: its note says so, in the reader's language (the note is in
    # the face's cache key, so each language keeps its own face).
    note = i18n.t(lang, OTHER_FIVE) if t and card[-1] != trump else ""
    return face(card, w, h, t, _points(card, trump), dim, note)


#: The note on the other five's face, which is a trump of another suit. At most three characters in any language:
#: a longer one runs into the card's points badge on the smallest face.
OTHER_FIVE = N_("5th")


def _name(names: list[str], seat: int | None, lang: str = DEFAULT) -> str:
    if seat is None:
        return "?"
    return names[seat] if seat < len(names) and names[seat] else i18n.t(lang, "Seat {number}", number=seat + 1)


def _suit(lang: str, suit: str) -> str:
    """A suit's name: "Spades" in English (as the pictures always wrote it), the glossary's word elsewhere."""
    return SUIT_NAMES[suit] if lang == DEFAULT else i18n.t(lang, SUIT_WORDS[suit])


def _fitted(lang: str, msgid: str, names: dict[str, str], size: int, room: int, bold: bool = False,
            **params: object) -> str:
    """``msgid`` in ``lang`` in at most ``room`` pixels, only its names shortened."""
    return fit_names(message_parts(i18n.t(lang, msgid), names, **params), size, room, bold)


def _frame(img: Image.Image, xy: tuple[int, int], w: int, h: int, colour: Color, width: int = 6) -> None:
    x, y = xy
    ImageDraw.Draw(img).rounded_rectangle((x - width, y - width, x + w + width - 1, y + h + width - 1),
                                          radius=14, outline=colour, width=width)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    grounds = [FELT, FELT_DARK, BOX_BG, FOLDED_BG, PAPER, TRUMP_TINT, CARD_BACK]
    inks = [INK, WHITE, GOLD, MUTED, HIGHLIGHT, LEGAL, *SUIT_COLOURS.values(), *TEAM_COLOURS, NOTE_INK]
    return make_palette(inks, grounds, (0.33, 0.66), room=150)


# ---------------------------------------------------------------- table

HEAD_H = 100
TEAM_H = 92
CONTRACT_H = 84
TRICK_H = 320
SEAT_H = 92

#: What the one player to act is to do, by phase ({name} is the player).
ONE_ACTS = {"bidding": N_("{name} to bid"), "trump": N_("{name} to name trump"),
            "passing": N_("{name} to pass trumps"), "discarding": N_("{name} to discard to 6"),
            "playing": N_("{name} to play")}


def _who_acts(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> str:
    if view.get("placings") is not None and not view.get("over"):
        return placings_line(view["placings"], names, lang)
    if view.get("over"):
        w = view.get("winner")
        if w == "tie":
            return i18n.t(lang, "Game over: a shared win")
        return (i18n.t(lang, "Game over: {team} wins", team=i18n.t(lang, TEAM_NAMES[w])) if w is not None
                else i18n.t(lang, "Game over"))
    acting = view.get("to_act", [])
    phase = view.get("phase", "")
    if len(acting) == 1:
        room = WIDTH - 4 * PAD
        return _fitted(lang, ONE_ACTS.get(phase, N_("{name} to act")), {"name": _name(names, acting[0], lang)}, BODY,
                       room, bold=True)
    # several act at once: passing trumps, reducing hands
    if phase == "passing":
        return i18n.tn(lang, "{n} player to pass trumps", "{n} players to pass trumps", len(acting))
    if phase == "discarding":
        return i18n.tn(lang, "{n} player to discard to 6", "{n} players to discard to 6", len(acting))
    return i18n.tn(lang, "{n} player to act", "{n} players to act", len(acting))


def table_image(view: dict[str, Any], names: list[str], placings: Sequence[int] | None = None,
                lang: str = DEFAULT) -> Image.Image:
    """The table; with ``placings`` (each seat's place, 1 = first) the table is over: the final picture.
    Its words speak ``lang``."""
    view = finished(view, placings)
    trump = view.get("trump")
    bidder = view.get("bidder")
    bid = view.get("bid")
    rnd = i18n.t(lang, "round {round} · first to {target}", round=view.get("round", 1),
                 target=view.get("target", 262))
    who = _who_acts(view, names, lang)

    def head(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        box = (0, 0, WIDTH, HEAD_H)
        label(img, (2 * PAD, PAD), "King Pedro", TITLE, GOLD, box, bold=True)
        label(img, (WIDTH - 2 * PAD, PAD + 4), rnd, SMALL, MUTED, box, "ra")
        label(img, (2 * PAD, 52), who, BODY, HIGHLIGHT, box, bold=True, inset=2 * PAD)

    strips = [Strip(HEAD_H, head, ("head", rnd, who, lang))]
    # ---- teams: score, and during play the bidding team's points against its bid
    for team in (0, 1):
        score = str(view.get("scores", [0, 0])[team])
        pts = view.get("round_points", [0, 0])[team]
        tricks = view.get("tricks_won", [0, 0])[team]
        if view.get("phase") == "playing" and bid and bidder is not None and bidder % 2 == team:
            line = i18n.t(lang, "{points} of {bid} bid · {tricks}", points=pts, bid=bid,
                          tricks=i18n.tn(lang, "{n} trick", "{n} tricks", tricks))
        elif view.get("phase") == "playing":
            line = i18n.t(lang, "{points} · {tricks} this round",
                          points=i18n.tn(lang, "{n} point", "{n} points", pts),
                          tricks=i18n.tn(lang, "{n} trick", "{n} tricks", tricks))
        else:
            line = ""
        first, second = _name(names, team, lang), _name(names, team + 2, lang)

        def team_band(img: Image.Image, d: ImageDraw.ImageDraw, team: int = team, first: str = first,
                      second: str = second, line: str = line, score: str = score) -> None:
            _team_band(img, d, team, first, second, line, score, lang)

        strips.append(Strip(TEAM_H, team_band, ("team", team, first, second, line, score, lang)))
    # ---- the contract: bid, bidder, trump and the other five
    bidder_name = _name(names, bidder, lang)
    other = (view.get("other_five_suit") or SAME_COLOUR[trump]) if trump else None
    strips.append(Strip(CONTRACT_H, lambda img, d: _contract(img, d, bid, bidder_name, trump, other, lang),
                        ("contract", bid, bidder_name, trump, other, lang)))
    # The middle changes with nearly every move; its key is every view field it reads, the names and the language.
    middle_key = ("middle", tuple(names), json.dumps({k: view[k] for k in _MIDDLE_FIELDS if k in view}, sort_keys=True),
                  lang)
    strips.append(Strip(TRICK_H, lambda img, d: _middle(img, d, view, names, (PAD, 0, WIDTH - PAD, TRICK_H - PAD),
                                                        lang),
                        middle_key))
    to_act = set(view.get("to_act", []))
    for seat in range(4):
        acting = seat in to_act
        folded = seat in view.get("folded", [])
        tags = _seat_tags(view, seat, acting, folded, lang)
        n = view.get("hand_counts", [0, 0, 0, 0])[seat]
        name = _name(names, seat, lang)

        def seat_row(img: Image.Image, d: ImageDraw.ImageDraw, seat: int = seat, name: str = name,
                     acting: bool = acting, folded: bool = folded, tags: str = tags, n: int = n) -> None:
            _seat_row(img, d, seat, name, acting, folded, tags, n, lang)

        strips.append(Strip(SEAT_H + PAD, seat_row, ("seat", seat, name, acting, folded, tags, n, lang)))
    # The picture has always ended with this much felt below the last seat.
    strips.append(Strip(4 * PAD, lambda img, d: None, "end"))
    return stack(TABLE_W, strips, _palette())


def _team_band(img: Image.Image, d: ImageDraw.ImageDraw, team: int, first: str, second: str, line: str,
               score: str, lang: str = DEFAULT) -> None:
    """A team's band, at the top of its strip: both names, the round's line and the score."""
    y = 0
    box = panel(d, (PAD, y, WIDTH - PAD, y + TEAM_H - PAD), BOX_BG, TEAM_COLOURS[team], 3)
    sw = 170
    left = (box[0], box[1], box[2] - sw, box[3])
    room = left[2] - PAD - (box[0] + 2 * PAD)
    team_line = _fitted(lang, N_("{team}: {first} & {second}"), {"first": first, "second": second}, BODY, room,
                        bold=True, team=i18n.t(lang, TEAM_NAMES[team]))
    label(img, (box[0] + 2 * PAD, y + 8), team_line, BODY, TEAM_COLOURS[team], left, bold=True, inset=PAD)
    if line:
        label(img, (box[0] + 2 * PAD, y + 44), line, SMALL, WHITE, left, inset=PAD)
    right = (box[2] - sw, box[1], box[2], box[3])
    label(img, (box[2] - 2 * PAD, y + (TEAM_H - PAD) // 2), score, BIG, GOLD, right, "rm", bold=True)


def _contract(img: Image.Image, d: ImageDraw.ImageDraw, bid: Any, bidder_name: str, trump: str | None,
              other: str | None, lang: str = DEFAULT) -> None:
    """The contract band, at the top of its strip: bid and bidder, trump and the other five."""
    y = 0
    box = panel(d, (PAD, y, WIDTH - PAD, y + CONTRACT_H - PAD), BOX_BG)
    if bid:
        within = (box[0], box[1], box[2] - 340, box[3])
        line = _fitted(lang, N_("Bid {bid} by {name}"), {"name": bidder_name}, BODY,
                       within[2] - PAD - (box[0] + 2 * PAD), bold=True, bid=bid)
        label(img, (box[0] + 2 * PAD, y + 8), line, BODY, GOLD, within, bold=True, inset=PAD)
    else:
        label(img, (box[0] + 2 * PAD, y + 8), i18n.t(lang, "No bid yet"), BODY, MUTED, box, bold=True)
    if trump and other:
        tx = box[2] - 330  # room for "+ the 5 of Diamonds" at the smallest legible size
        d.rounded_rectangle((tx, y + 8, tx + 56, y + 64), radius=8, fill=PAPER, outline=GOLD, width=3)
        p = pip(trump, 44)
        img.paste(p, (tx + 6, y + 14), p)
        tbox = (tx + 60, box[1], box[2], box[3])
        label(img, (tx + 68, y + 6), i18n.t(lang, "Trump {suit}", suit=_suit(lang, trump)), SMALL, WHITE, tbox,
              inset=PAD)
        label(img, (tx + 68, y + 36), i18n.t(lang, "+ the 5 of {suit}", suit=_suit(lang, other)), SMALL, GOLD, tbox,
              inset=PAD)
    elif bid:
        label(img, (box[2] - 2 * PAD, y + 14), i18n.t(lang, "trump not named"), SMALL, MUTED, box, "ra")


#: Every view field ``_middle`` reads: its strip's key.
_MIDDLE_FIELDS = ("trump", "trick", "last_trick", "tricks_played", "last_trick_winner", "phase", "trump_passes",
                  "folded", "faceup_discards", "auction", "last_round")


def _middle(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str],
            box: tuple[int, int, int, int], lang: str = DEFAULT) -> None:
    """The trick in play order with the winning card marked; else the last trick, or the auction."""
    panel(d, box, FELT_DARK)
    trump = view.get("trump")
    trick = view.get("trick") or []
    x0, y0 = box[0] + 2 * PAD, box[1] + PAD
    room = box[2] - 2 * PAD - x0
    if trick or view.get("last_trick"):
        current = bool(trick)
        cards = trick if current else view["last_trick"]
        w, h = (CW, CH) if current else (SW, SH)
        if current:
            title = i18n.t(lang, "Trick {trick} of 6, in play order", trick=view.get("tricks_played", 0) + 1)
            win = trick_winner([c for _, c in cards], trump) if trump else 0
        else:
            title = _fitted(lang, N_("Last trick, won by {name}"),
                            {"name": _name(names, view.get("last_trick_winner"), lang)}, SMALL, room)
            win = next((i for i, (s, _) in enumerate(cards) if s == view.get("last_trick_winner")), -1)
        label(img, (x0, y0), title, SMALL, WHITE, box, inset=2 * PAD)
        slot = (box[2] - box[0] - 4 * PAD) // 4
        cy = y0 + 44
        for i, (seat, card) in enumerate(cards):
            cx = x0 + i * slot + (slot - w) // 2
            img.paste(_card(card, trump, w, h, lang=lang), (cx, cy))
            if i == win:
                _frame(img, (cx, cy), w, h, WINNING, 5)
            cell = (x0 + i * slot, cy + h + 6, x0 + (i + 1) * slot - 4, box[3])
            label(img, (cell[0] + slot // 2 - 2, cy + h + 10), _name(names, seat, lang), SMALL,
                  TEAM_COLOURS[seat % 2], cell, "ma")
            tag = N_("winning") if i == win and current else (N_("won") if i == win else (N_("led") if i == 0 else ""))
            if tag:
                label(img, (cell[0] + slot // 2 - 2, cy + h + 40), i18n.t(lang, tag), SMALL,
                      WINNING if i == win else MUTED, cell, "ma", bold=True)
        return
    # before play: the auction, newest last, two columns
    phase = view.get("phase")
    # (who, what, colour): the name is shortened, never what they did
    lines: list[tuple[str, str, Color]] = []
    if phase in ("passing", "discarding"):
        for frm, to, many in view.get("trump_passes", []):
            # what a line says fits the right three fifths of its one-column cell: only the partner's name is
            # shortened
            what = fit_names(message_parts(i18n.tn(lang, "passed {n} to {name}", "passed {n} to {name}", many,
                                                   name="{name}"),
                                           {"name": _name(names, to, lang)}), SMALL, (room - PAD) * 3 // 5)
            lines.append((_name(names, frm, lang), what, WHITE))
        for seat in view.get("folded", []):
            lines.append((_name(names, seat, lang), i18n.t(lang, "folded"), MUTED))
        ups = view.get("faceup_discards", [])
        if ups:
            lines.append(("", i18n.t(lang, "Face-up discards: {cards}", cards=", ".join(c for _, c in ups)), WHITE))
        title = i18n.t(lang, "Passing trumps") if phase == "passing" else i18n.t(lang, "Reducing hands to 6")
    else:
        calls = view.get("auction", [])
        title = (i18n.t(lang, "Auction ({calls})", calls=i18n.tn(lang, "{n} call", "{n} calls", len(calls)))
                 if calls else i18n.t(lang, "Auction: no calls yet"))
        last = view.get("last_round")
        if last and not calls:
            bidding_team = TEAM_NAMES[last["bidding_team"]]
            team = i18n.t(lang, bidding_team)
            lines.append(("", i18n.t(lang, "Last round: {team} bid {bid} and made it", team=team, bid=last["bid"])
                          if last["made"] else
                          i18n.t(lang, "Last round: {team} bid {bid} and was set", team=team, bid=last["bid"]), GOLD))
            lines.append(("", i18n.t(lang, "Points {points} to {other_points}", points=last["points"][0],
                                     other_points=last["points"][1]), WHITE))
        for seat, call in calls:
            lines.append((_name(names, seat, lang),
                          i18n.t(lang, "passes") if call == "pass" else i18n.t(lang, "bids {bid}", bid=call),
                          TEAM_COLOURS[seat % 2]))
    label(img, (x0, y0), title, SMALL, GOLD, box, bold=True, inset=2 * PAD)
    per_col = 7
    wide = any(not who for who, _, _ in lines) or phase in ("passing", "discarding")
    lines = lines[-per_col:] if wide else lines[-2 * per_col:]
    col_w = (box[2] - box[0] - 4 * PAD) // (1 if wide else 2)
    for i, (who, what, colour) in enumerate(lines):
        col, row = divmod(i, per_col)
        cell = (x0 + col * col_w, y0 + 36 + row * 34, x0 + (col + 1) * col_w - PAD, y0 + 36 + (row + 1) * 34)
        if not who:
            label(img, (cell[0], cell[1]), what, SMALL, colour, cell)
            continue
        what_cell = (cell[0] + (cell[2] - cell[0]) * 2 // 5, cell[1], cell[2], cell[3])
        what_box = label(img, (cell[2], cell[1]), what, SMALL, WHITE, what_cell, "ra")
        label(img, (cell[0], cell[1]), who, SMALL, colour, (cell[0], cell[1], what_box[0] - PAD, cell[3]))


def _seat_tags(view: dict[str, Any], seat: int, acting: bool, folded: bool, lang: str = DEFAULT) -> str:
    """The seat's tag line: every view field a seat row reads beyond its name and card count ends up here."""
    tags = []
    placings = view.get("placings")
    if placings is not None and seat < len(placings):
        tags.append(place(lang, placings[seat]))
    if acting:
        tags.append(i18n.t(lang, "to act"))
    if view.get("dealer") == seat:
        tags.append(i18n.t(lang, "dealer"))
    if view.get("bidder") == seat and view.get("bid"):
        tags.append(i18n.t(lang, "bid {bid}", bid=view["bid"]))
    if folded:
        tags.append(i18n.t(lang, "folded"))
    if view.get("phase") == "bidding":
        calls = [c for p, c in view.get("auction", []) if p == seat]
        if calls:
            tags.append(i18n.t(lang, "passed") if calls[-1] == "pass" else i18n.t(lang, "bid {bid}", bid=calls[-1]))
    down = view.get("facedown_counts", [0, 0, 0, 0])[seat]
    if down:
        # discarded: the short form fits beside the hand
        tags.append(f"{down} face down" if lang == DEFAULT else i18n.tn(lang, "{n} face down", "{n} face down", down))
    return " · ".join(tags)


def _seat_row(img: Image.Image, d: ImageDraw.ImageDraw, seat: int, name: str, acting: bool, folded: bool,
              tags: str, n: int, lang: str = DEFAULT) -> None:
    """A seat's row, at the top of its strip: name, tags, and its hand as backs and a count."""
    y = 0
    box = panel(d, (PAD, y, WIDTH - PAD, y + SEAT_H), FOLDED_BG if folded else BOX_BG,
                HIGHLIGHT if acting else None, 4)
    team = seat % 2
    right_w = 186  # the backs, then "13 cards" clear of them at the smallest legible size
    left = (box[0], box[1], box[2] - right_w, box[3])
    label(img, (box[0] + 2 * PAD, y + 8), name, BODY, TEAM_COLOURS[team], left, bold=True, inset=PAD)
    label(img, (box[0] + 2 * PAD, y + 52), tags, SMALL, HIGHLIGHT if acting else MUTED, left, inset=PAD)
    right = (box[2] - right_w, box[1], box[2], box[3])
    if n and not folded:
        back = card_back(34, 48)
        for i in range(min(n, 3)):
            img.paste(back, (right[0] + 6 + i * 12, y + 22))
    cards = i18n.tn(lang, "{n} card", "{n} cards", n)
    label(img, (box[2] - 2 * PAD, y + SEAT_H // 2), cards, SMALL, WHITE, right, "rm")


# ---------------------------------------------------------------- hand

def _hint(view: dict[str, Any], seat: int, acting: bool, mine: bool, lang: str) -> str:
    """What the seat is to do now, in ``lang``."""
    phase = view.get("phase")
    if seat in view.get("folded", []):
        return i18n.t(lang, "You have folded this round.")
    if acting and phase == "playing":
        return i18n.t(lang, "Your turn: play a framed card")
    if acting and phase == "discarding":
        return i18n.tn(lang, "Your turn: discard {n} (framed cards may go)",
                       "Your turn: discard {n} (framed cards may go)", len(view.get("hand", [])) - 6)
    if mine and phase == "bidding":
        return (i18n.t(lang, "Your turn: bid more than {bid}, or pass", bid=view["bid"]) if view.get("bid")
                else i18n.t(lang, "Your turn: bid 30 to 62, or pass"))
    if mine and phase == "trump":
        return i18n.t(lang, "Your turn: you won the auction, name trump")
    if mine and phase == "passing":
        return i18n.t(lang, "Your turn: pass trumps to your partner, or keep them")
    return i18n.t(lang, "Your turn") if mine else i18n.t(lang, "Waiting for others")


def hand_image(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Image.Image:
    """The hand (legal cards framed in cyan), the contract and the trick so far: enough to choose from. Its
    words speak ``lang`` (the member's language)."""
    hand = view.get("hand", [])
    trump = view.get("trump")
    phase = view.get("phase")
    playable = set(view.get("playable", [])) | set(view.get("discardable", []))
    acting = seat in view.get("to_act", []) and phase in ("playing", "discarding") and bool(playable)
    per_row = 7
    step = (WIDTH - 2 * PAD) // per_row
    rows = max(1, -(-len(hand) // per_row))
    extra = view.get("facedown_discards", []) + view.get("folded_cards", [])
    trick = view.get("trick") or []
    height = 150 + rows * (HH + 20) + (SH + 110 if trick else 0) + (60 if extra else 0) + 60
    img, d = new_canvas(WIDTH, height)
    team = seat % 2
    head = (0, 0, WIDTH, 146)
    name_label(img, (2 * PAD, PAD), _name(names, seat, lang), f" · {i18n.t(lang, TEAM_NAMES[team])}", TITLE,
               TEAM_COLOURS[team], head, bold=True, inset=2 * PAD)
    bidder = {"name": _name(names, view.get("bidder"), lang)}
    # One message for the whole contract, so a language can put the bidder's name last, where a line too long
    # for the width loses part of the name and never the trump.
    if view.get("bid") and trump:
        info = message_parts(i18n.t(lang, "Bid {bid} by {name} · trump {suit} + 5 of {other}"), bidder,
                             bid=view["bid"], suit=_suit(lang, trump), other=_suit(lang, SAME_COLOUR[trump]))
    elif view.get("bid"):
        info = message_parts(i18n.t(lang, "Bid {bid} by {name}"), bidder, bid=view["bid"])
    elif trump:
        info = [(i18n.t(lang, "trump {suit} + 5 of {other}", suit=_suit(lang, trump),
                        other=_suit(lang, SAME_COLOUR[trump])), False)]
    else:
        info = []
    line = (fit_names(info, SMALL, WIDTH - 4 * PAD - 2 * PAD) if info
            else i18n.t(lang, "Bidding: trump not named yet"))
    label(img, (2 * PAD, 52), line, SMALL, WHITE, head, inset=2 * PAD)
    mine = seat in view.get("to_act", [])
    hint = _hint(view, seat, acting, mine, lang)
    label(img, (2 * PAD, 92), hint, BODY, HIGHLIGHT if mine else MUTED, head, bold=mine, inset=2 * PAD)
    y = 156
    for i, card in enumerate(hand):
        r, c = divmod(i, per_row)
        x = PAD + c * step + (step - HW) // 2
        cy = y + r * (HH + 20)
        legal = card in playable
        img.paste(_card(card, trump, HW, HH, dim=acting and not legal, lang=lang), (x, cy))
        if acting and legal:
            _frame(img, (x, cy), HW, HH, LEGAL, 5)
    if not hand:
        label(img, (2 * PAD, y + 20), i18n.t(lang, "No cards in play."), BODY, MUTED, (0, y, WIDTH, y + HH))
    y += rows * (HH + 20)
    if trick:
        box = (PAD, y, WIDTH - PAD, y + SH + 100)
        panel(d, box, FELT_DARK)
        label(img, (3 * PAD, y + 6), i18n.t(lang, "The trick so far"), SMALL, WHITE, box)
        win = trick_winner([c for _, c in trick], trump) if trump else 0
        slot = (WIDTH - 6 * PAD) // 4
        for i, (s, card) in enumerate(trick):
            cx = 3 * PAD + i * slot + (slot - SW) // 2
            img.paste(_card(card, trump, SW, SH, lang=lang), (cx, y + 40))
            if i == win:
                _frame(img, (cx, y + 40), SW, SH, WINNING, 4)
            cell = (3 * PAD + i * slot, y + 40 + SH, 3 * PAD + (i + 1) * slot - 4, y + SH + 100)
            name = _name(names, s, lang)
            tag = _fitted(lang, N_("{name} wins"), {"name": name}, SMALL, slot - 10) if i == win else name
            label(img, (cell[0] + slot // 2, y + 44 + SH), tag, SMALL, TEAM_COLOURS[s % 2], cell, "ma")
        y += SH + 110
    if extra:
        cards = ", ".join(extra)
        what = (i18n.t(lang, "Your face-down discards: {cards}", cards=cards) if view.get("facedown_discards")
                else i18n.t(lang, "Your folded cards: {cards}", cards=cards))
        label(img, (2 * PAD, y), what, SMALL, MUTED, (0, y, WIDTH, y + 50), inset=2 * PAD)
        y += 60
    legend = i18n.t(lang, "Frames: gold trump · cyan legal now · white winning")
    label(img, (2 * PAD, y + 10), legend, SMALL, MUTED, (0, y, WIDTH, height), inset=2 * PAD)
    return to_palette(img, _palette())
