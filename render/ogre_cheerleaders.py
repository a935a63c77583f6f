"""Ogre Cheerleaders table and hand images, drawn from engine views only, their words in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from data.editions import ogre_cheerleaders as edition
from i18n import DEFAULT, N_, say_text
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
    draw_text,
    finished,
    fit_text,
    fixed_palette,
    paste_card,
    placings_line,
    text_width,
)
from render.layout import BODY, PAD, SMALL, TITLE, WIDTH, fit_name, fit_names, label, name_label, panel
from render.named import around
from render.strips import Strip, stack

TEAM_COLORS: dict[str, Color] = {
    "O": (180, 85, 10),    # orange
    "S": (40, 120, 50),    # swamp green
    "C": (128, 78, 190),   # club purple
    "U": (30, 105, 190),   # unicorn blue
}
FIELD_W, FIELD_H = 112, 150
FIELD_STEP = 128
HAND_W, HAND_H, HAND_GAP = 248, 330, 12
DEALT: Color = (170, 170, 170)
RESOLVING: Color = (255, 140, 120)
CHOSEN: Color = (40, 220, 255)
OPTION_COLOURS: tuple[Color, ...] = ((255, 221, 0), (40, 220, 255), (255, 120, 200), (150, 240, 150))
KEYWORD = {1: "join", 2: "move", 3: "swap", 4: "take", 5: "bench", 6: "steal", 7: "deck", 8: "draw 2",
           9: "shuffle", 10: "bench 2"}
PER_ROW = (WIDTH - 2 * PAD) // FIELD_STEP
HEAD_H = 100
ROW_H = 92
# Team names short enough for a field card's band
BAND = {"O": "Onions", "S": "Swamp", "C": "Clubs", "U": "Unicorns"}
#: Where a band's translation may break over two lines (U+00AD): "Єдино\u00adроги" is drawn "Єдино-" over "роги".
SOFT_HYPHEN = "\u00ad"


def keyword(num: int, lang: str = DEFAULT) -> str:
    """A number's effect in a word, on a field card: the card's width at the smallest legible size at most
    (the message context "effect" keeps these words apart from the same English words elsewhere)."""
    words = {1: i18n.tp(lang, "effect", "join"), 2: i18n.tp(lang, "effect", "move"), 3: i18n.tp(lang, "effect", "swap"),
             4: i18n.tp(lang, "effect", "take"), 5: i18n.tp(lang, "effect", "bench"),
             6: i18n.tp(lang, "effect", "steal"), 7: i18n.tp(lang, "effect", "deck"),
             8: i18n.tp(lang, "effect", "draw 2"), 9: i18n.tp(lang, "effect", "shuffle"),
             10: i18n.tp(lang, "effect", "bench 2")}
    return words[num] if lang != DEFAULT else KEYWORD[num]


def band(team: str, lang: str = DEFAULT) -> str:
    """A team's name on a field card's band (the context "band": a word of its own, it may carry a soft hyphen)."""
    words = {"O": i18n.tp(lang, "band", "Onions"), "S": i18n.tp(lang, "band", "Swamp"),
             "C": i18n.tp(lang, "band", "Clubs"), "U": i18n.tp(lang, "band", "Unicorns")}
    return words[team] if lang != DEFAULT else BAND[team]


def _wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if text_width(trial, size) <= width:
            cur = trial
            continue
        if cur:
            lines.append(cur)
        cur = word
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit_text(lines[-1] + " …", size, width)
    return [fit_text(line, size, width) for line in lines]


def band_lines(team: str, lang: str = DEFAULT) -> list[str]:
    """The band's words: one line, or two when the language's word is wider than the band and says where
    it breaks (a soft hyphen)."""
    word = band(team, lang)
    whole = word.replace(SOFT_HYPHEN, "")
    if SOFT_HYPHEN not in word or text_width(whole, SMALL) <= FIELD_W - 2:
        return [whole]
    head, _, tail = word.partition(SOFT_HYPHEN)
    return [head + "-", tail.replace(SOFT_HYPHEN, "")]


@lru_cache(maxsize=128)
def field_face(card: str, lang: str = DEFAULT) -> Image.Image:
    """A field card: team band, a big number, the effect as one word (its words in ``lang``: the cache keeps
    each language's face)."""
    team, num = card[0], int(card[1:])
    col = TEAM_COLORS[team]
    w, h = FIELD_W, FIELD_H
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=9, fill=PAPER, outline=INK, width=2)
    band = band_lines(team, lang)
    # a band of two lines takes room from the number, drawn smaller and lower
    bottom, number_y, number_size = (34, 78, 56) if len(band) == 1 else (60, 92, 44)
    d.rounded_rectangle((2, 2, w - 3, bottom), radius=7, fill=col)
    # the band is the card's whole width less its border: "Unicorns" just fits at the smallest legible size
    for i, line in enumerate(band):
        draw_text(img, (w // 2, 18 + 26 * i), fit_text(line, SMALL, w - 2), SMALL, WHITE, "mm")
    draw_text(img, (w // 2, number_y), str(num), number_size, col, "mm", bold=True)
    draw_text(img, (w // 2, h - 22), keyword(num, lang), SMALL, INK, "mm")
    return img


@lru_cache(maxsize=64)
def hand_face(card: str, lang: str = DEFAULT) -> Image.Image:
    """A hand card: full team name, big number, the full effect text (in ``lang``)."""
    team, num = card[0], int(card[1:])
    col = TEAM_COLORS[team]
    w, h = HAND_W, HAND_H
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=12, fill=PAPER, outline=INK, width=2)
    # A name of three lines ("Monstres du marais de Stillwater") takes room from the number, drawn smaller.
    team_lines = _wrap(i18n.t(lang, edition.TEAM_NAMES[team]), SMALL, w - 16, 3)
    bottom, number_y, number_size = (70, 112, 60) if len(team_lines) <= 2 else (96, 124, 40)
    d.rounded_rectangle((3, 3, w - 4, bottom), radius=10, fill=col)
    for i, line in enumerate(team_lines):
        draw_text(img, (w // 2, 20 + 28 * i), line, SMALL, WHITE, "mm")
    draw_text(img, (w // 2, number_y), str(num), number_size, col, "mm", bold=True)
    effect = _wrap(i18n.t(lang, edition.EFFECTS[num]), SMALL, w - 16, 6)
    # six lines start higher and closer, so that the last one's descenders stay clear of the card's edge
    top, step = (152, 29) if len(effect) < 6 else (146, 28)
    for i, line in enumerate(effect):
        draw_text(img, (w // 2, top + step * i), line, SMALL, INK, "mt")
    return img


_PLACEHOLDER = re.compile(r"\{p(\d)\}")
#: What the cards in transit are, by the pending decision's kind (a stolen card's line names its owner).
TRANSIT = {"place": N_("You must play this card from the deck"), "join": N_("This card joins the field"),
           "eight": N_("The 8's cards: keep one")}


def _fill(text: str, names: list[str], lang: str = DEFAULT) -> str:
    """Engine texts name seats as {p0}..{p5}."""
    return _PLACEHOLDER.sub(lambda m: _name(names, int(m.group(1)), lang), text)


def _name(names: list[str], seat: int, lang: str = DEFAULT) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else i18n.t(lang, "Seat {number}", number=seat + 1)


def _points(n: int, lang: str) -> str:
    return i18n.tn(lang, "{n} pt", "{n} pts", n)


def _rows(n_cards: int, per_row: int) -> int:
    return max(1, -(-n_cards // per_row))


def _positions(field: list[str], cards: list[str]) -> tuple[int, int]:
    """Where a formation (a contiguous slice) sits on the field: (start, stop), stop exclusive."""
    for i in range(len(field) - len(cards) + 1):
        if field[i:i + len(cards)] == cards:
            return i, i + len(cards)
    return 0, 0


def _field_height(view: dict[str, Any]) -> int:
    field = view.get("field", [])
    options = (view.get("pending") or {}).get("options") or []
    return 40 + _rows(len(field), PER_ROW) * (FIELD_H + 72 + 14 * len(options)) + 20


def _draw_field(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str = DEFAULT) -> int:
    """The field as one line read left to right, wrapped into rows: every card has its position
    number (1 = the left end), the two ends are labelled, and the card whose effect is resolving
    and the card already picked are framed and tagged. Scoring options are bars under their cards."""
    field = view.get("field", [])
    pend = view.get("pending") or {}
    options = pend.get("options") or []
    h = _field_height(view)
    box = panel(d, (PAD, y, WIDTH - PAD, y + h - PAD), FELT_DARK)
    label(img, (3 * PAD, y + 6), i18n.tn(lang, "Field: {n} card", "Field: {n} cards", len(field)), SMALL, WHITE, box,
          bold=True)
    label(img, (box[2] - 2 * PAD, y + 6), i18n.t(lang, "read left to right, row by row"), SMALL, MUTED,
          (box[0] + 260, box[1], box[2], box[1] + 40), "ra")
    dealt = {c for rec in view.get("dealt_formations", []) for c in rec}
    resolving, chosen = pend.get("card"), pend.get("chosen")
    row_h = FIELD_H + 72 + 14 * len(options)
    spans = [[_positions(field, f["cards"]) for f in option] for option in options]
    for i, card in enumerate(field):
        r, c = divmod(i, PER_ROW)
        x = 2 * PAD + c * FIELD_STEP
        cy = y + 40 + r * row_h + 30
        cell = (x - 6, cy - 30, x + FIELD_STEP - 10, cy)
        label(img, (x + FIELD_W // 2, cy - 28), str(i + 1), SMALL, GOLD if i in (0, len(field) - 1) else MUTED,
              cell, "ma", bold=i in (0, len(field) - 1))
        below = cy + FIELD_H + 8 + 14 * len(options)
        short = len(field) == 2  # two cards have no room for both ends' words
        if i == 0:
            label(img, (x, below), i18n.t(lang, "◀ left") if short else i18n.t(lang, "◀ left end"), SMALL, GOLD,
                  (x - 6, below, x + FIELD_STEP + 40, below + 34))
        elif i == len(field) - 1:
            # a last card alone at the start of its row has only its own width for the words
            label(img, (x + FIELD_W, below), i18n.t(lang, "right ▶") if short or c == 0
                  else i18n.t(lang, "right end ▶"), SMALL, GOLD,
                  (max(box[0], x - FIELD_STEP), below, box[2], below + 34), "ra")
        elif c == PER_ROW - 1:
            label(img, (x + FIELD_W, below), i18n.t(lang, "next row ↓"), SMALL, MUTED,
                  (x - FIELD_STEP + 40, below, box[2], below + 34), "ra")
        paste_card(img, field_face(card, lang), (x, cy))
        if card in (resolving, chosen):
            colour = RESOLVING if card == resolving else CHOSEN
            d.rounded_rectangle((x - 4, cy - 4, x + FIELD_W + 3, cy + FIELD_H + 3), radius=11, outline=colour,
                                width=5)
        if card in dealt:
            d.rectangle((x + 4, cy + FIELD_H + 3, x + FIELD_W - 4, cy + FIELD_H + 8), fill=DEALT)
        for k, option in enumerate(spans):
            if any(a <= i < b for a, b in option):
                by = cy + FIELD_H + 6 + 14 * k
                d.rectangle((x - 4, by, x + FIELD_STEP - 8, by + 8), fill=OPTION_COLOURS[k % len(OPTION_COLOURS)])
    if not field:
        label(img, (3 * PAD, y + 60), i18n.t(lang, "(empty)"), SMALL, MUTED, box)
    return box[3] + PAD


def _notes(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> list[tuple[str, Color]]:
    """Full-width lines under the field: resolving effect, scoring options, last scoring, end."""
    out: list[tuple[str, Color]] = []
    pend = view.get("pending") or {}
    field = view.get("field", [])
    if pend.get("card"):
        num = int(pend["card"][1:])
        out.append((i18n.t(lang, "Resolving {card} (red frame): {effect}", card=pend["card"],
                           effect=i18n.t(lang, edition.EFFECTS_SHORT[num])), RESOLVING))
    if pend.get("chosen"):
        out.append((i18n.t(lang, "Already picked: {card} (blue frame)", card=pend["chosen"]), CHOSEN))
    for k, option in enumerate(pend.get("options") or []):
        parts = []
        for f in option:
            a, b = _positions(field, f["cards"])
            # team / sequence / number: the English words as ever, the rules' names in another language
            kinds = [k if lang == DEFAULT else i18n.t(lang, edition.KIND_NAMES.get(k, k)) for k in f.get("kinds") or []]
            parts.append(f"{a + 1}-{b} {' + '.join(kinds)}".strip())
        points = sum(int(c[1:]) for f in option for c in f["cards"])
        out.append((i18n.t(lang, "Option {number}: cards {spans} ({points})", number=k + 1, spans=", ".join(parts),
                           points=_points(points, lang)), OPTION_COLOURS[k % len(OPTION_COLOURS)]))
    ls = view.get("last_scoring")
    if ls and ls.get("highlight"):
        cards = [ls["field"][i] for i in ls["highlight"] if i < len(ls["field"])]
        # the notes panel leaves 728 px for a line; only the name is shortened
        out.append((fit_names(around(lang, N_("Just scored by {name}: {cards}"), _name(names, ls["seat"], lang),
                                     cards=" ".join(cards)), SMALL, 728), GOLD))
    line = i18n.t(lang, "Deck {deck} · bench {bench}", deck=view.get("deck_count", 0), bench=view.get("bench_count", 0))
    if view.get("bench_top"):
        line = i18n.t(lang, "{line} (top {card})", line=line, card=view["bench_top"])
    if view.get("transit_count"):
        line = i18n.t(lang, "{line} · {count} in play, not shown", line=line, count=view["transit_count"])
    out.append((line, WHITE))
    if view.get("final_round") and not view.get("over"):
        last = _name(names, view["last_seat"], lang)
        if lang == DEFAULT:  # the name and its turn in 300 px, as the English picture always had them
            line = "Final round: the game ends after " + fit_name(last, "'s turn", SMALL, 300)
        else:  # the notes panel leaves 728 px for a line; only the name is shortened
            line = fit_names(around(lang, N_("Final round: the game ends after {name}'s turn"), last), SMALL, 728)
        out.append((line, WHITE))
    return out


def _title(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> tuple[str, str]:
    if view.get("placings") is not None and not view.get("over"):
        return "", placings_line(view["placings"], names, lang)
    if view.get("over"):
        return "", _fill(say_text(lang, view.get("status") or "Game over"), names, lang)
    pend = view.get("pending") or {}
    if pend:
        # "alice chooses the card for the 2 to move": the engine's prompt follows the name in every language
        return _name(names, pend["seat"], lang), f" {i18n.t(lang, pend['prompt'])}"
    return "", _fill(say_text(lang, view.get("status", "")), names, lang)


def _player_panel(img: Image.Image, d: ImageDraw.ImageDraw, name: str, score: str, tags: str, acting: bool) -> None:
    """A player's panel, at the top of its strip: name, score, and the tags line."""
    y = 0
    box = panel(d, (PAD, y, WIDTH - PAD, y + ROW_H), FELT_DARK, HIGHLIGHT if acting else None, 4)
    right = (box[2] - 200, box[1], box[2], box[3])
    label(img, (box[2] - 2 * PAD, y + ROW_H // 2), score, BODY, GOLD, right, "rm", bold=True)
    left = (box[0], box[1], box[2] - 200, box[3])
    label(img, (box[0] + 2 * PAD, y + 8), name, BODY, GOLD if acting else WHITE, left, bold=True, inset=PAD)
    label(img, (box[0] + 2 * PAD, y + 52), tags, SMALL, HIGHLIGHT if acting else MUTED, left, inset=PAD)


def _field_key(view: dict[str, Any], lang: str = DEFAULT) -> Hashable:
    """Everything ``_draw_field`` reads: the cards, the scoring options' spans, the framed cards, the dealt ones."""
    field = view.get("field", [])
    pend = view.get("pending") or {}
    options = pend.get("options") or []
    spans = tuple(tuple(_positions(field, f["cards"]) for f in option) for option in options)
    dealt = sorted({c for rec in view.get("dealt_formations", []) for c in rec})
    return ("field", tuple(field), spans, pend.get("card"), pend.get("chosen"), tuple(dealt), lang)


def _notes_panel(img: Image.Image, d: ImageDraw.ImageDraw, notes: list[tuple[str, Color]]) -> None:
    """The notes under the field, at the top of its strip."""
    box = panel(d, (PAD, 0, WIDTH - PAD, 12 + 34 * len(notes)), FELT_DARK)
    for i, (line, colour) in enumerate(notes):
        label(img, (3 * PAD, 6 + 34 * i), line, SMALL, colour, box, inset=2 * PAD)


def _field_strip(view: dict[str, Any], lang: str = DEFAULT) -> Strip:
    """The field; table and hand share it (same drawing, same key), so a hand often pastes the table's."""
    return Strip(_field_height(view), lambda img, d: _draw_field(img, d, view, 0, lang), _field_key(view, lang))


def _notes_strip(notes: list[tuple[str, Color]]) -> Strip:
    """The notes panel and the gap under it; table and hand share it."""
    return Strip(12 + 34 * len(notes) + PAD, lambda img, d: _notes_panel(img, d, notes), ("notes", tuple(notes)))


def table_image(view: dict[str, Any], names: list[str], placings: Sequence[int] | None = None,
                lang: str = DEFAULT) -> Image.Image:
    """The table; with ``placings`` (each seat's place, 1 = first) the table is over: the final picture.
    Its words speak ``lang``."""
    view = finished(view, placings)
    n = view.get("num_players", len(names))
    notes = _notes(view, names, lang)
    who, what = _title(view, names, lang)

    def head(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        box = (0, 0, WIDTH, HEAD_H)
        label(img, (2 * PAD, PAD), edition.TITLE, TITLE, GOLD, box, bold=True)
        name_label(img, (2 * PAD, 54), who, what, BODY, HIGHLIGHT, box, bold=True, inset=2 * PAD, smaller=SMALL)

    strips = [Strip(HEAD_H, head, ("head", who, what, lang))]
    to_act = set(view.get("to_act", []))
    outcome = view.get("outcome") or view.get("placings")
    for q in range(n):
        acting = q in to_act
        tags = []
        if outcome:
            tags.append(i18n.t(lang, "place {place}", place=outcome[q]))
        if acting:
            tags.append(i18n.t(lang, "to act"))
        if q == view.get("first"):
            tags.append(i18n.t(lang, "first player"))
        tags.append(i18n.t(lang, "{scored} scored · {hand} in hand", scored=view["scored_counts"][q],
                           hand=view["hand_counts"][q]))
        name, score, tag_line = _name(names, q, lang), _points(view["scores"][q], lang), " · ".join(tags)

        def player(img: Image.Image, d: ImageDraw.ImageDraw, name: str = name, score: str = score,
                   tag_line: str = tag_line, acting: bool = acting) -> None:
            _player_panel(img, d, name, score, tag_line, acting)

        # A panel shows only these texts and the acting frame: most rows are pasted unchanged between moves.
        strips.append(Strip(ROW_H + PAD, player, ("player", name, score, tag_line, acting, lang)))
    strips += [_field_strip(view, lang), _notes_strip(notes), Strip(PAD, lambda img, d: None, "end")]
    return stack(WIDTH, strips, _PALETTE)


def _mix(a: Color, b: Color, t: float) -> Color:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _palette_image() -> Image.Image:
    """A fixed palette: the colours this renderer draws, blends for anti-aliased edges, a colour cube."""
    keys = [FELT, FELT_DARK, GOLD, MUTED, HIGHLIGHT, INK, PAPER, WHITE, CARD_BACK, DEALT, RESOLVING, CHOSEN,
            *OPTION_COLOURS, *TEAM_COLORS.values()]
    cols: list[Color] = list(keys)
    for bg, fg in [(FELT, WHITE), (FELT_DARK, WHITE), (FELT_DARK, GOLD), (FELT_DARK, MUTED), (FELT_DARK, HIGHLIGHT),
                   (PAPER, INK), (FELT_DARK, RESOLVING), (FELT_DARK, CHOSEN)]:
        cols += [_mix(bg, fg, t) for t in (0.25, 0.5, 0.75)]
    for team in TEAM_COLORS.values():
        cols += [_mix(PAPER, team, t) for t in (0.25, 0.5, 0.75)] + [_mix(team, WHITE, 0.5)]
    return fixed_palette(cols)


_PALETTE = _palette_image()


def _hand_row(img: Image.Image, cards: tuple[str, ...], highlight: bool, y: int, lang: str = DEFAULT) -> None:
    """One row of full-size hand cards, their tops at ``y``."""
    for c, card in enumerate(cards):
        paste_card(img, hand_face(card, lang), (PAD + c * (HAND_W + HAND_GAP), y), highlight=highlight)


def hand_image(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Image.Image:
    """The hand with full effect texts, any card in transit, and the field the choice is about.

    Drawn as strips (``render.strips``): the heading, each row of cards, the cards in transit, the
    field and the notes. A row of the hand often comes back unchanged at the player's next turn, and
    the field and notes strips are the table picture's own (same drawing, same key), so after the
    table of the same moment they are pasted."""
    hand = view.get("hand", [])
    pend = view.get("pending") or {}
    acting = seat in view.get("to_act", [])
    transit = pend.get("transit") if acting else None
    per_row = (WIDTH - 2 * PAD + HAND_GAP) // (HAND_W + HAND_GAP)
    rows = _rows(len(hand), per_row)
    notes = _notes(view, names, lang) if acting else []
    held = i18n.tn(lang, "Your hand: {n} card", "Your hand: {n} cards", len(hand))
    if acting and pend:
        prompt = pend.get("prompt", "")
        sub = i18n.t(lang, "Your turn: {prompt}", prompt=i18n.t(lang, prompt) if prompt else "")
    else:
        sub = i18n.t(lang, "Game over") if view.get("over") else i18n.t(lang, "Not your turn")

    def head(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        box = (0, 0, WIDTH, 106)
        label(img, (2 * PAD, PAD), held, TITLE, GOLD, box, bold=True)
        label(img, (2 * PAD, 56), sub, BODY, HIGHLIGHT if acting else WHITE, box, bold=acting, inset=2 * PAD)

    strips = [Strip(110, head, ("hand head", held, sub, acting, lang))]
    row_h = HAND_H + HAND_GAP
    if not hand:

        def no_cards(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
            label(img, (2 * PAD, 10), i18n.t(lang, "(no cards)"), BODY, MUTED, (0, 0, WIDTH, row_h))

        strips.append(Strip(row_h, no_cards, ("no cards", lang)))
    for r in range(rows if hand else 0):
        cards = tuple(hand[r * per_row:(r + 1) * per_row])

        def hand_row(img: Image.Image, d: ImageDraw.ImageDraw, cards: tuple[str, ...] = cards) -> None:
            _hand_row(img, cards, False, 0, lang)

        # Unframed cards stay inside their row: a row whose cards did not change is pasted.
        strips.append(Strip(row_h, hand_row, ("hand row", cards, lang)))
    if transit:
        kind = pend.get("kind", "")
        if kind == "place" and "from_seat" in pend:
            what = fit_names(around(lang, N_("You must play this card, taken from {name}'s hand"),
                                    _name(names, pend["from_seat"], lang)), SMALL, WIDTH - 4 * PAD)
        else:
            what = i18n.t(lang, TRANSIT[kind]) if kind in TRANSIT else i18n.t(lang, "In play")
        moving = tuple(transit)
        t_rows = _rows(len(moving), per_row)

        def in_transit(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
            label(img, (2 * PAD, 6), what, SMALL, GOLD, (0, 0, WIDTH, 50), inset=2 * PAD)
            for r in range(t_rows):
                _hand_row(img, moving[r * per_row:(r + 1) * per_row], True, 50 + r * row_h, lang)

        # One strip for the line and the framed cards: a frame reaches 3 px above its card.
        strips.append(Strip(50 + t_rows * row_h, in_transit, ("transit", what, moving, lang)))
    strips.append(_field_strip(view, lang))
    if notes:
        strips += [_notes_strip(notes), Strip(PAD, lambda img, d: None, "end")]
    else:
        strips.append(Strip(12 + 2 * PAD, lambda img, d: None, "end"))
    return stack(WIDTH, strips, _PALETTE)
