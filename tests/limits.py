"""Discord's payload limits, checked on everything the bot sends.

Sources: Discord's API reference for messages, embeds, components, and
autocomplete. A payload over a limit is refused by Discord with a 400, which
a member sees as "This interaction failed" or a table that never moves on.
"""

from __future__ import annotations

from typing import Any

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_TOTAL = 6000
EMBEDS = 10
ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
CUSTOM_ID = 100
CHOICES = 25
CHOICE_TEXT = 100


def _embed(embed: dict[str, Any], where: str) -> list[str]:
    bad = []
    title, description = embed.get("title") or "", embed.get("description") or ""
    fields = embed.get("fields") or []
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(title) > EMBED_TITLE:
        bad.append(f"{where}: embed title {len(title)} > {EMBED_TITLE}")
    if len(description) > EMBED_DESCRIPTION:
        bad.append(f"{where}: embed description {len(description)} > {EMBED_DESCRIPTION}")
    if len(fields) > EMBED_FIELDS:
        bad.append(f"{where}: {len(fields)} embed fields > {EMBED_FIELDS}")
    total = len(title) + len(description) + len(footer) + len(author)
    for field in fields:
        name, value = field.get("name") or "", field.get("value") or ""
        total += len(name) + len(value)
        if len(name) > EMBED_FIELD_NAME or len(value) > EMBED_FIELD_VALUE:
            bad.append(f"{where}: embed field {len(name)}/{len(value)} chars")
        if not name or not value:
            bad.append(f"{where}: empty embed field name or value")
    if len(footer) > EMBED_FOOTER:
        bad.append(f"{where}: embed footer {len(footer)} > {EMBED_FOOTER}")
    if total > EMBED_TOTAL:
        bad.append(f"{where}: embed total {total} > {EMBED_TOTAL}")
    return bad


def _components(rows: list[dict[str, Any]], where: str) -> list[str]:
    bad = []
    if len(rows) > ROWS:
        bad.append(f"{where}: {len(rows)} action rows > {ROWS}")
    ids: list[str] = []
    for row in rows:
        children = row.get("components", [])
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if len(buttons) > BUTTONS_PER_ROW:
            bad.append(f"{where}: {len(buttons)} buttons in a row > {BUTTONS_PER_ROW}")
        if selects and len(children) > 1:
            bad.append(f"{where}: a select shares its row")
        for button in buttons:
            if len(button.get("label") or "") > BUTTON_LABEL:
                bad.append(f"{where}: button label {len(button['label'])} > {BUTTON_LABEL}")
        for select in selects:
            options = select.get("options") or []
            if select.get("type") == 3 and not 1 <= len(options) <= SELECT_OPTIONS:
                bad.append(f"{where}: select with {len(options)} options")
            if len(select.get("placeholder") or "") > PLACEHOLDER:
                bad.append(f"{where}: placeholder {len(select['placeholder'])} > {PLACEHOLDER}")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                bad.append(f"{where}: duplicate select option values")
            for option in options:
                for key in ("label", "value", "description"):
                    text = option.get(key) or ""
                    if len(text) > OPTION_TEXT or (key != "description" and not text):
                        bad.append(f"{where}: option {key} of {len(text)} chars")
        for child in children:
            if "custom_id" in child:
                ids.append(child["custom_id"])
                if not 1 <= len(child["custom_id"]) <= CUSTOM_ID:
                    bad.append(f"{where}: custom_id of {len(child['custom_id'])} chars")
    if len(set(ids)) != len(ids):
        bad.append(f"{where}: custom_ids repeat within one message: {sorted(ids)}")
    return bad


def message_violations(message: dict[str, Any], where: str = "message") -> list[str]:
    bad = []
    content = message.get("content") or ""
    if len(content) > CONTENT:
        bad.append(f"{where}: content {len(content)} > {CONTENT}")
    embeds = message.get("embeds") or []
    if len(embeds) > EMBEDS:
        bad.append(f"{where}: {len(embeds)} embeds")
    for embed in embeds:
        bad.extend(_embed(embed, where))
    bad.extend(_components(message.get("components") or [], where))
    return bad


def choices_violations(choices: list[dict[str, Any]], where: str = "autocomplete") -> list[str]:
    bad = []
    if len(choices) > CHOICES:
        bad.append(f"{where}: {len(choices)} choices > {CHOICES}")
    for choice in choices:
        if not 1 <= len(str(choice.get("name", ""))) <= CHOICE_TEXT or len(str(choice.get("value", ""))) > CHOICE_TEXT:
            bad.append(f"{where}: choice {choice!r} breaks the 100-character limit")
    return bad


def request_violations(method: str, path: str, payload: Any) -> list[str]:
    """Check one REST request body: a message post or edit, or an interaction callback."""
    if not isinstance(payload, dict):
        return []
    where = f"{method} {path}"
    if "/callback" in path:
        data = payload.get("data") or {}
        if payload.get("type") == 8:
            return choices_violations(data.get("choices") or [], where)
        return message_violations(data, where) if isinstance(data, dict) else []
    if "/messages" in path or "/webhooks/" in path:
        return message_violations(payload, where)
    return []
