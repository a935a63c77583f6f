"""A sentence about a player, in any language, as the parts ``render.layout.fit_names`` shortens.

English puts the name first ("alice to act") or last ("taken from alice's hand"); another language may put it
anywhere ("c'est à alice de jouer"). The translated sentence is cut around its ``{name}`` placeholder, so only
the name is ever shortened whatever the word order.
"""

from __future__ import annotations

import i18n

#: Stands for the name while the sentence is translated: never in a catalogue or a name drawn.
_MARK = "\x00"


def around(lang: str, msgid: str, name: str, /, **params: object) -> list[tuple[str, bool]]:
    """``msgid`` in ``lang`` as (text, is_a_name) parts, its ``{name}`` placeholder the name part."""
    before, _, after = i18n.t(lang, msgid, name=_MARK, **params).partition(_MARK)
    return [(text, is_name) for text, is_name in ((before, False), (name, True), (after, False)) if text]


def name_and_rest(lang: str, msgid: str, name: str, /, **params: object) -> tuple[str, str] | None:
    """(name, rest) when ``msgid`` in ``lang`` starts with the name, as ``render.layout.name_label`` draws it;
    None when the language puts the name elsewhere."""
    parts = around(lang, msgid, name, **params)
    if parts and parts[0][1]:
        return name, "".join(text for text, _ in parts[1:])
    return None
