"""What makes a catalogue complete: every message of the template translated, nothing fuzzy, the same
``{placeholders}`` as the English text, and as many plural forms as the language's rules have.

``python -m i18n.check`` prints the problems (the completeness test asserts there are none).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n import DOMAIN, LOCALES, languages, placeholders, po_path


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def problems(template: Catalog, catalog: Catalog, lang: str) -> list[str]:
    """Every way ``catalog`` (the ``lang`` catalogue) falls short of ``template``, one line each."""
    found: list[str] = []
    rules = Catalog(locale=lang)
    if catalog.fuzzy:
        found.append(f"{lang}: the header is marked fuzzy (its plural forms would be ignored)")
    if catalog.plural_forms != rules.plural_forms:
        found.append(f"{lang}: Plural-Forms is {catalog.plural_forms!r}, the language's rules are "
                     f"{rules.plural_forms!r}")
    wanted = {(m.context, _key(m.id)) for m in template if m.id}
    have = {(m.context, _key(m.id)) for m in catalog if m.id}
    found += [f"{lang}: {where(c, i)} is not in the template (run python -m tests.catalogues)"
              for c, i in sorted(have - wanted, key=str)]
    for message in template:
        if not message.id:
            continue
        ours = catalog.get(message.id, context=message.context)
        name = where(message.context, _key(message.id))
        if ours is None:
            found.append(f"{lang}: {name} is missing")
            continue
        if ours.fuzzy:
            found.append(f"{lang}: {name} is fuzzy")
        if isinstance(message.id, (list, tuple)):
            singular, plural = message.id[0], message.id[1]
            forms = ours.string if isinstance(ours.string, (list, tuple)) else (ours.string,)
            if len(forms) != rules.num_plurals:
                found.append(f"{lang}: {name} has {len(forms)} plural forms, {lang} has {rules.num_plurals}")
            expected = placeholders(plural) | placeholders(singular)
            for form in forms:
                if not form:
                    found.append(f"{lang}: {name} has an empty plural form")
                # A form may write the number out ("un coup") rather than use {n}; nothing else may go.
                elif placeholders(form) - {"n"} != expected - {"n"}:
                    found.append(f"{lang}: {name}: {form!r} has placeholders {sorted(placeholders(form))}, the "
                                 f"English {sorted(expected)}")
        elif not ours.string or isinstance(ours.string, (list, tuple)):
            found.append(f"{lang}: {name} has no translation")
        elif placeholders(ours.string) != placeholders(message.id):
            found.append(f"{lang}: {name}: {ours.string!r} has placeholders {sorted(placeholders(ours.string))}, "
                         f"the English {sorted(placeholders(message.id))}")
    return found


def where(context: str | None, msgid: str) -> str:
    return f"{msgid!r}" + (f" ({context})" if context else "")


def _key(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def all_problems() -> list[str]:
    template = read(LOCALES / f"{DOMAIN}.pot")
    return [line for lang in languages()[1:] for line in problems(template, read(po_path(lang), lang), lang)]


if __name__ == "__main__":
    print("\n".join(all_problems()) or "every catalogue is complete")
