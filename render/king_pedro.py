"""King Pedro table and hand images, drawn only from engine views.

Four-colour suits (spades black, hearts red, diamonds blue, clubs green) with drawn pips, since the
built-in font has no suit glyphs. Seat 1 (index 0) sits at the bottom, then clockwise: left, top, right.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    GREY,
    HIGHLIGHT,
    INK,
    PAPER,
    WHITE,
    Color,
    card_back,
    draw_text,
    fit_text,
    fixed_palette,
    new_canvas,
    paste_card,
    text_width,
    to_palette,
)

SUIT_COLOURS: dict[str, Color] = {"S": (25, 25, 30), "H": (200, 30, 40), "D": (30, 90, 200), "C": (20, 130, 60)}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
TEAM_COLOURS: tuple[Color, Color] = ((70, 150, 255), (255, 140, 50))
TEAM_NAMES = ("Team A", "Team B")
TRUMP_TINT: Color = (255, 243, 200)
HEADER_BG: Color = (14, 50, 33)
BOX_BG: Color = (10, 36, 24)
FOLDED_BG: Color = (40, 40, 40)
BACK_LINE: Color = (120, 140, 210)
NOTE_INK: Color = (120, 80, 0)
POINTS = {"A": 1, "K": 30, "J": 1, "10": 10, "9": 9, "5": 5, "2": 1}
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
_SYMBOL_WORDS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}

CW, CH = 70, 98      # card size on the table and in the hand
SW, SH = 46, 64      # small cards (discards, last trick)
TABLE_W, TABLE_H = 1000, 720


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
    """A card face: rank top-left, a big pip; trumps get a warm tint, scoring cards a gold points badge."""
    rank, suit = card[:-1], card[-1]
    colour = SUIT_COLOURS[suit]
    bg = TRUMP_TINT if trump else PAPER
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 9), fill=bg,
                        outline=GOLD if trump else INK, width=3 if trump else 2)
    big = max(14, int(h * 0.27))
    draw_text(d, (5, 3), rank, big, colour)
    ps = int(w * 0.48)
    p = pip(suit, ps)
    img.paste(p, ((w - ps) // 2 + (4 if w >= 60 else 2), int(h * 0.42)), p)
    small = pip(suit, max(8, big // 2))
    img.paste(small, (w - small.width - 5, 6), small)
    if points:
        br = max(9, w // 6)
        cx, cy = w - br - 3, h - br - 3
        d.ellipse((cx - br, cy - br, cx + br, cy + br), fill=GOLD, outline=INK, width=1)
        draw_text(d, (cx, cy), str(points), max(10, br), INK, anchor="mm")
    if note:
        draw_text(d, (5, h - 5), note, max(10, h // 8), NOTE_INK, anchor="ld")
    if dim:
        img = Image.blend(img, Image.new("RGB", (w, h), (70, 80, 75)), 0.55)
    return img


def _is_trump(card: str, trump: str | None) -> bool:
    if not trump:
        return False
    return card[-1] == trump or card == "5" + SAME_COLOUR[trump]


def _points(card: str, trump: str | None) -> int:
    return POINTS.get(card[:-1], 0) if _is_trump(card, trump) else 0


def _card(card: str, trump: str | None, w: int = CW, h: int = CH, dim: bool = False) -> Image.Image:
    t = _is_trump(card, trump)
    note = "5th" if t and card[-1] != trump else ""
    return face(card, w, h, t, _points(card, trump), dim, note)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"


def _team_names(names: list[str], team: int) -> str:
    return f"{_name(names, team)} & {_name(names, team + 2)}"


# ---------------------------------------------------------------- cached text and palette

@lru_cache(maxsize=4096)
def _fit(text: str, size: int, max_width: int) -> str:
    return fit_text(text, size, max_width)


@lru_cache(maxsize=1024)
def _width(text: str, size: int) -> int:
    return text_width(text, size)


def _text(img: Image.Image, xy: tuple[int, int], text: str, size: int = 16, fill: Color = WHITE,
          anchor: str = "la") -> None:
    draw_text(img, xy, text, size, fill, anchor)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette: every colour the table uses plus anti-aliasing blends between them."""
    backs = [FELT, FELT_DARK, HEADER_BG, BOX_BG, FOLDED_BG, PAPER, TRUMP_TINT, CARD_BACK]
    fores = [INK, WHITE, GOLD, GREY, HIGHLIGHT, *SUIT_COLOURS.values(), *TEAM_COLOURS, BACK_LINE, NOTE_INK]
    colours: list[Color] = []
    for c in backs + fores:
        if c not in colours:
            colours.append(c)
    mixes = [(b, f) for b in backs for f in fores] + [(a, b) for i, a in enumerate(backs) for b in backs[i + 1:]]
    for t in (0.5, 0.3, 0.7):
        for a, b in mixes:
            c = tuple(round(a[k] * (1 - t) + b[k] * t) for k in range(3))
            if c not in colours and len(colours) < 256:
                colours.append(c)
    return fixed_palette(colours)


# ---------------------------------------------------------------- table

_SEAT_BOX = {0: (390, 598), 1: (12, 300), 2: (390, 118), 3: (768, 300)}
_TRICK_POS = {0: (465, 420), 1: (345, 330), 2: (465, 225), 3: (585, 330)}
BOX_W, BOX_H = 220, 92


def table_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    img, d = new_canvas(TABLE_W, TABLE_H)
    trump = view.get("trump")
    to_act = set(view.get("to_act", []))
    _header(img, d, view, names)
    d.ellipse((250, 190, 750, 560), fill=FELT_DARK)
    for seat in range(4):
        _seat_box(img, d, view, names, seat, seat in to_act)
    _trump_panel(img, d, view, names)
    # the current trick, or the last trick faded in the middle
    trick = view.get("trick") or []
    for seat, card in trick:
        x, y = _TRICK_POS[seat]
        paste_card(img, _card(card, trump), (x, y))
    if trick:
        leader = trick[0][0]
        x, y = _TRICK_POS[leader]
        _text(img, (x + CW // 2, y + CH + 3), "led", 14, GOLD, anchor="ma")
    else:
        _centre(img, d, view, names)
    _discards(img, d, view, names)
    status = view.get("status", "")
    for sym, word in _SYMBOL_WORDS.items():
        status = status.replace(sym, word)
    _text(img, (12, TABLE_H - 26), _fit(status, 18, TABLE_W - 24), 18, WHITE)
    return to_palette(img, _palette())


def _header(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str]) -> None:
    d.rectangle((0, 0, TABLE_W, 104), fill=HEADER_BG)
    _text(img, (12, 8), "King Pedro", 24, GOLD)
    rnd = f"Round {view.get('round', 1)} of max {view.get('max_rounds', '?')}"
    _text(img, (12, 40), rnd, 16, WHITE)
    _text(img, (12, 62), f"Target {view.get('target', 262)} on a made bid", 16, WHITE)
    winner = view.get("winner")
    for team in (0, 1):
        x = 250 + team * 375
        col = TEAM_COLOURS[team]
        crown = winner == team or winner == "tie"
        d.rounded_rectangle((x, 6, x + 360, 98), radius=10, fill=BOX_BG, outline=col, width=3)
        label = f"{TEAM_NAMES[team]}: {_team_names(names, team)}"
        _text(img, (x + 10, 10), _fit(label, 17, 230 if crown else 340), 17, col)
        score = view.get("scores", [0, 0])[team]
        _text(img, (x + 10, 32), f"{score}", 34, GOLD if crown else WHITE)
        _text(img, (x + 14 + _width(f"{score}", 34), 46), f"/ {view.get('target', 262)}", 18, GREY)
        tw = view.get("tricks_won", [0, 0])[team]
        pts = view.get("round_points", [0, 0])[team]
        if view.get("phase") in ("playing",) or tw:
            _text(img, (x + 350, 40), f"tricks {tw}", 16, WHITE, anchor="ra")
            _text(img, (x + 350, 62), f"{pts} pts this round", 16, WHITE, anchor="ra")
        if crown:
            _text(img, (x + 350, 12), "WINNER" if winner != "tie" else "SHARED WIN", 16, GOLD, anchor="ra")


def _seat_box(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], seat: int,
              acting: bool) -> None:
    x, y = _SEAT_BOX[seat]
    team = seat % 2
    folded = seat in view.get("folded", [])
    fill = FOLDED_BG if folded else BOX_BG
    d.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=10, fill=fill,
                        outline=HIGHLIGHT if acting else TEAM_COLOURS[team], width=5 if acting else 3)
    _text(img, (x + 10, y + 6), _fit(_name(names, seat), 20, BOX_W - 20), 20, TEAM_COLOURS[team])
    tags = []
    if view.get("dealer") == seat:
        tags.append("DEALER")
    if view.get("bidder") == seat and view.get("bid"):
        tags.append(f"BIDDER {view['bid']}")
    if folded:
        tags.append("FOLDED")
    _text(img, (x + 10, y + 34), _fit("  ".join(tags), 15, BOX_W - 90), 15, GOLD)
    if acting:
        _text(img, (x + BOX_W - 10, y + 34), "TO ACT", 15, HIGHLIGHT, anchor="ra")
    phase = view.get("phase")
    n = view.get("hand_counts", [0, 0, 0, 0])[seat]
    line = f"{n} card{'s' if n != 1 else ''}"
    if phase == "bidding":
        calls = [c for p, c in view.get("auction", []) if p == seat]
        if calls:
            line += f" · {'passed' if calls[-1] == 'pass' else 'bid ' + str(calls[-1])}"
    elif phase == "discarding" and seat in view.get("discard_done", []):
        line += " · done"
    for frm, _to, count in view.get("trump_passes", []):
        if frm == seat:
            line = f"passed {count} trump{'s' if count != 1 else ''} to partner"
    _text(img, (x + 10, y + 62), _fit(line, 16, BOX_W - 20 - (min(n, 8) * 8 + 16 if n else 0)), 16, WHITE)
    if n and not folded:
        back = card_back(16, 22)
        for i in range(min(n, 8)):
            img.paste(back, (x + BOX_W - 26 - i * 8, y + 60))


def _centre(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str]) -> None:
    """Between tricks and before play: the auction, the passes or the last trick."""
    phase = view.get("phase")
    trump = view.get("trump")
    lines: list[tuple[str, Color]] = []
    if phase in ("bidding", "trump"):
        last = view.get("last_round")
        if last and not view.get("auction"):
            team = last["bidding_team"]
            verdict = "made it" if last["made"] else "were set"
            lines.append((f"Last round: {TEAM_NAMES[team]} bid {last['bid']} and {verdict}", GOLD))
            lines.append((f"Points {last['points'][0]} - {last['points'][1]}, "
                          f"change {last['deltas'][0]:+d} / {last['deltas'][1]:+d}", WHITE))
        lines.append(("Auction", GOLD))
        calls = view.get("auction", [])
        if not calls:
            lines.append(("no calls yet", GREY))
        for seat, call in calls[-7:]:
            text = "passes" if call == "pass" else f"bids {call}"
            lines.append((_fit(f"{_name(names, seat)} {text}", 18, 380), TEAM_COLOURS[seat % 2]))
    elif phase in ("passing", "discarding"):
        lines.append(("Passing trumps" if phase == "passing" else "Reducing hands to 6", GOLD))
        for frm, to, count in view.get("trump_passes", []):
            lines.append((_fit(f"{_name(names, frm)} passed {count} to {_name(names, to)}", 18, 380), WHITE))
        for seat in view.get("folded", []):
            if not any(frm == seat for frm, _t, _c in view.get("trump_passes", [])):
                lines.append((_fit(f"{_name(names, seat)} folded (no trumps)", 18, 380), GREY))
    elif view.get("last_trick"):
        last = view["last_trick"]
        total = len(last) * (SW + 6)
        x0 = 500 - total // 2
        _text(img, (500, 290), "Last trick", 16, WHITE, anchor="ma")
        for i, (seat, card) in enumerate(last):
            img.paste(_card(card, trump, SW, SH), (x0 + i * (SW + 6), 312))
            _text(img, (x0 + i * (SW + 6) + SW // 2, 380), _fit(_name(names, seat), 12, SW + 4), 12,
                      TEAM_COLOURS[seat % 2], anchor="ma")
        w = view.get("last_trick_winner")
        if w is not None:
            _text(img, (500, 400), _fit(f"won by {_name(names, w)}", 18, 300), 18, GOLD, anchor="ma")
        last_round = view.get("last_round")
        if phase == "over" and last_round:
            team = last_round["bidding_team"]
            verdict = "made it" if last_round["made"] else "were set"
            _text(img, (500, 440), f"Final round: {TEAM_NAMES[team]} bid {last_round['bid']} and {verdict}", 18,
                  WHITE, anchor="ma")
            pts = last_round["points"]
            _text(img, (500, 466), f"Points {pts[0]} - {pts[1]}", 18, WHITE, anchor="ma")
        return
    y = 375 - len(lines) * 13
    for text, colour in lines:
        _text(img, (500, y), text, 18, colour, anchor="ma")
        y += 26


def _trump_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str]) -> None:
    x, y = 768, 118
    d.rounded_rectangle((x, y, x + 220, y + 168), radius=10, fill=BOX_BG, outline=GOLD, width=2)
    bid, bidder = view.get("bid"), view.get("bidder")
    if bid:
        _text(img, (x + 10, y + 8), f"Bid {bid}", 20, GOLD)
        _text(img, (x + 10, y + 32), _fit(f"by {_name(names, bidder)}", 16, 200), 16, WHITE)
    else:
        _text(img, (x + 10, y + 8), "No bid yet", 20, GOLD)
    trump = view.get("trump")
    if trump:
        _text(img, (x + 10, y + 60), "Trump", 18, WHITE)
        d.rounded_rectangle((x + 66, y + 50, x + 118, y + 102), radius=8, fill=PAPER)
        p = pip(trump, 44)
        img.paste(p, (x + 70, y + 54), p)
        _text(img, (x + 122, y + 62), SUIT_NAMES[trump], 16, WHITE)
        other = view.get("other_five_suit") or SAME_COLOUR[trump]
        _text(img, (x + 10, y + 112), "+ other five", 16, WHITE)
        img.paste(face("5" + other, 40, 56, True, 5), (x + 120, y + 104))
    else:
        _text(img, (x + 10, y + 60), "Trump: not named", 16, GREY)


def _discards(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str]) -> None:
    x, y = 12, 118
    d.rounded_rectangle((x, y, x + 360, y + 168), radius=10, fill=BOX_BG, outline=GREY, width=2)
    ups = view.get("faceup_discards", [])
    downs = view.get("facedown_counts", [0, 0, 0, 0])
    trump = view.get("trump")
    _text(img, (x + 10, y + 6), "Face-up discards (score for nobody)", 15, WHITE)
    if not ups:
        _text(img, (x + 10, y + 30), "none", 15, GREY)
    for i, (seat, card) in enumerate(ups[:7]):
        cx = x + 10 + i * (SW + 4)
        cy = y + 30
        img.paste(_card(card, trump, SW, SH), (cx, cy))
        _text(img, (cx + SW // 2, cy + SH + 1), _fit(_name(names, seat), 12, SW + 8), 12,
                  TEAM_COLOURS[seat % 2], anchor="ma")
    if len(ups) > 7:
        _text(img, (x + 350, y + 6), f"+{len(ups) - 7} more", 15, WHITE, anchor="ra")
    if any(downs):
        text = "Face down: " + ", ".join(f"{_name(names, s)[:10]} {c}" for s, c in enumerate(downs) if c)
        _text(img, (x + 10, y + 146), _fit(text, 14, 340), 14, GREY)


# ---------------------------------------------------------------- hand

def hand_image(view: dict[str, Any], seat: int, names: list[str]) -> Image.Image:
    hand = view.get("hand", [])
    trump = view.get("trump")
    phase = view.get("phase")
    playable = set(view.get("playable", [])) | set(view.get("discardable", []))
    acting = seat in view.get("to_act", []) and phase in ("playing", "discarding") and bool(playable)
    gap = 6
    n = max(len(hand), 1)
    width = max(720, 24 + n * (CW + gap))
    extra = view.get("facedown_discards", []) + view.get("folded_cards", [])
    height = 266 + (SH + 34 if extra else 0)
    img, _d = new_canvas(width, height)
    team = seat % 2
    title = f"{_name(names, seat)} ({TEAM_NAMES[team]}) · Round {view.get('round', 1)}"
    _text(img, (12, 8), _fit(title, 22, width - 24), 22, TEAM_COLOURS[team])
    info = []
    if view.get("bid"):
        info.append(f"Bid {view['bid']} by {_name(names, view['bidder'])}")
    if trump:
        info.append(f"Trump {SUIT_NAMES[trump]} + 5 of {SUIT_NAMES[SAME_COLOUR[trump]]}")
    _text(img, (12, 38), _fit(" · ".join(info) or "Bidding: trump not named yet", 17, width - 24), 17, WHITE)
    if seat in view.get("folded", []):
        hint = "You have folded this round."
    elif acting and phase == "playing":
        hint = "Your turn: framed cards may be played."
    elif acting and phase == "discarding":
        hint = f"Discard to 6 ({len(hand) - 6} to go): framed cards may be discarded."
    elif seat in view.get("to_act", []) and phase == "bidding":
        hint = f"Your turn to bid more than {view['bid']}, or pass." if view.get("bid") else \
            "Your turn to bid (30 to 62), or pass."
    elif seat in view.get("to_act", []) and phase == "trump":
        hint = "You won the auction: name the trump suit."
    elif seat in view.get("to_act", []) and phase == "passing":
        hint = "Pass your trumps to your partner (and fold), or keep them."
    elif seat in view.get("to_act", []):
        hint = "Your turn: done keeps these 6 cards." if phase == "discarding" else "Your turn."
    else:
        hint = "Waiting for others."
    _text(img, (12, 62), _fit(hint, 17, width - 24), 17, HIGHLIGHT if seat in view.get("to_act", []) else GREY)
    y = 112
    verb = "PLAY" if phase == "playing" else "DISCARD"
    for i, card in enumerate(hand):
        x = 12 + i * (CW + gap)
        legal = card in playable
        paste_card(img, _card(card, trump, dim=acting and not legal), (x, y), highlight=acting and legal)
        if acting and legal:
            _text(img, (x + CW // 2, y - 22), verb, 13 if verb == "DISCARD" else 15, HIGHLIGHT, anchor="ma")
    if not hand:
        _text(img, (12, y + 30), "No cards in play.", 18, GREY)
    legend = "Gold border = trump · gold badge = points it scores · yellow frame = legal now"
    if trump:
        legend += " · '5th' = the other five"
    _text(img, (12, y + CH + 12), _fit(legend, 15, width - 24), 15, GREY)
    if extra:
        ey = y + CH + 40
        label = "Your face-down discards" if view.get("facedown_discards") else "Your folded cards"
        _text(img, (12, ey), label + " (out of play)", 14, GREY)
        for i, card in enumerate(extra[:max(1, (width - 24) // (SW + 4))]):
            img.paste(_card(card, trump, SW, SH, dim=True), (12 + i * (SW + 4), ey + 20))
    return img
