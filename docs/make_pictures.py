"""Regenerate the README's table pictures, docs/images/<game>.png, from fixed seeds.

    .venv/bin/python docs/make_pictures.py

Each game is played by RandomBot from a fixed seed until a state that shows the table well
(a trick in progress, an effect resolving, a full wing); the same seed always gives the same
picture. Names are in several scripts, as on a real server. The README's Languages section shows
the same tables drawn in French and Ukrainian, docs/images/<game>-<lang>.png.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines import get_engine  # noqa: E402
from engines.bots import RandomBot  # noqa: E402
from render import alt_text, table_png  # noqa: E402

NAMES = ["Olha 🇺🇦", "Zoë Müller", "王小明", "Ґалина", "Νίκος", "Sam 🎲"]
OUT = ROOT / "docs" / "images"


def _playing(v: dict[str, Any]) -> bool:
    return not v.get("over")


# game: (players, seed, least steps, the state to stop at)
PICTURES: dict[str, tuple[int, int, int, Callable[[dict[str, Any]], bool]]] = {
    "do_over": (4, 7, 40, lambda v: _playing(v) and len(v["pile"]) >= 3),
    "pedwar": (4, 3, 30, lambda v: _playing(v) and any(slot["bids"] for slot in v["row"])),
    "king_pedro": (4, 5, 20, lambda v: v.get("phase") == "playing" and len(v.get("trick", [])) == 3),
    "ogre_cheerleaders": (4, 3, 20, lambda v: _playing(v) and len(v["field"]) >= 8 and bool(v.get("pending"))
                          and v["pending"].get("card") is not None),
    "pentawar": (5, 8, 40, lambda v: _playing(v) and sum(v["wing_counts"]) >= 6 and bool(v.get("altered"))),
}


#: (game, language) of the README's pictures in another language than English: titles whose pictures are drawn
#: with the language's words (render's ``lang``).
IN_LANGUAGES: tuple[tuple[str, str], ...] = (("do_over", "fr"), ("do_over", "uk"), ("ogre_cheerleaders", "fr"),
                                            ("pentawar", "uk"), ("pedwar", "fr"), ("king_pedro", "uk"))


def picture(game: str, lang: str = "en") -> tuple[bytes, str]:
    players, seed, least, want = PICTURES[game]
    eng = get_engine(game)
    state = eng.new_game(players, seed)
    bot = RandomBot(seed)
    for step in range(5000):
        view = eng.view(state, None)
        if step >= least and want(view):
            break
        if eng.is_over(state):
            raise SystemExit(f"{game}: seed {seed} ended before the wanted state")
        seat = eng.to_act(state)[0]
        state = eng.apply(state, seat, bot.choose(eng, state, seat))
    names = NAMES[:players]
    return table_png(game, view, names, lang=lang), alt_text(game, view, names, lang=lang)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game in PICTURES:
        png, alt = picture(game)
        (OUT / f"{game}.png").write_bytes(png)
        print(f"{game}.png  {len(png) // 1024} KiB  alt: {alt[:100]}…")
    for game, lang in IN_LANGUAGES:
        png, alt = picture(game, lang)
        (OUT / f"{game}-{lang}.png").write_bytes(png)
        print(f"{game}-{lang}.png  {len(png) // 1024} KiB  alt: {alt[:100]}…")


if __name__ == "__main__":
    main()
