"""Words about a member do not guess their gender (issue 29's review): Deckhand never knows a member's gender, and
French and Ukrainian make an adjective, a past participle or a past-tense verb agree with the person it is said of.
A French or Ukrainian text about a named member ({name}, {player}…), about "you", or a tag drawn beside a seat's
name is therefore written without agreement: a noun phrase ("Victoire : {names}", "Хід {turn}, на черзі — {name}"),
the present tense ("{player} se couche", "{player} залишає"), an avoir-verb ("a validé") or an invariable phrase
("hors jeu"). Generic words for nobody in particular (French "les joueurs", "l'organisateur"; Ukrainian
"гравець", whose plain form the glossary uses) are not this test's business.

The deny-list holds the forms that were removed, each with why; each pattern carries an example it must catch,
so that a pattern that stops matching anything is seen.
"""

from __future__ import annotations

import re

import pytest

import i18n
from i18n.check import read

#: (language, pattern, why, an example the pattern must catch).
DENIED: list[tuple[str, str, str, str]] = [
    ("fr", r"\best le joueur actif\b", "the active player is a member: 'c'est le tour de {name}'",
     "Tour 3, Ґалина est le joueur actif."),
    ("fr", r"\b[Vv]ous (?:n')?(?:êtes|serez)(?: déjà| toujours| pas)? (?:inscrit|mentionné|apparié|disqualifié"
           r"|prêt|couché|retiré|éliminé|absent)\b",
     "'vous' is one member: a participle or adjective after it agrees with their gender",
     "Vous êtes déjà inscrit à **Coupe**."),
    ("fr", r"\b[Vv]ous vous êtes couché", "folding said in the past agrees: 'Vous vous couchez…'",
     "Vous vous êtes couché pour cette manche."),
    ("fr", r"\b(?:a|avez) été disqualifié", "a disqualified member: 'Disqualification de **{name}**'",
     "⛔ **Ґалина** a été disqualifié du tournoi"),
    ("fr", r"\bser(?:a|ez) (?:plus )?apparié", "a member paired: 'ne jouera plus aucune ronde'",
     "🚪 Ґалина abandonne **Coupe** et ne sera plus apparié."),
    ("fr", r"\bvous finissez dernier\b", "'you' placed last: the seat is, 'elle finit dernière'",
     "Abandonner votre place : vous finissez dernier"),
    ("fr", r"\bsoyez le premier\b", "'you' first: 'débarrassez-vous… avant les autres'",
     "**Do Over!** — soyez le premier à vous débarrasser"),
    ("fr", r"\bdéclarez-vous prêt\b|\bdites que vous êtes prêt\b|\best prêt\b",
     "ready is an adjective that agrees: 'validez', 'a validé'", "Tout le monde est prêt : Ґалина commence"),
    ("fr", r"^Retirés\b", "members dropped: 'Retrait faute de confirmation'", "Retirés faute d'avoir confirmé"),
    ("fr", r"\bChampion :", "the champion is a member (championne): 'Victoire : {names}'", "🏆 Champion : Ґалина"),
    ("fr", r"\ble gagnant\b", "the winner is a member: 'la victoire marquée'", "chaque match, le gagnant marqué"),
    ("fr", r"^(?:couché|actif|donneur|prêt|retiré|absent|disqualifié|champion)$",
     "a tag drawn beside a member's name agrees with them: 'hors jeu', 'son tour', 'distribue', 'a validé', "
     "'abandon', 'absence', 'disqualification', 'victoire'", "couché"),
    ("uk", r"\bактивний гравець\s*—", "the active player named is a member: 'на черзі — {name}'",
     "активний гравець — Ґалина"),
    ("uk", r"\{\w+\}\**\s+(?:щойно\s+)?(?:вийшов|вийшла|вибув|вибула|пропустив|пропустила|склав|склала|пасував"
           r"|пасувала|виграв|виграла)\b",
     "a past-tense verb after a member's name agrees with their gender: the present tense",
     "**{player}** щойно вийшов із **Кубка**."),
    ("uk", r"\((?:суперник )?вибув\)|^вибув$|^не з'явився$",
     "dropped and no-show said of a member in the past tense: 'поза турніром', 'неявка'", " (вибув)"),
    ("uk", r"\bЧемпіон:|^чемпіон$", "the champion is a member (чемпіонка): 'Перемога: {names}'",
     "🏆 Чемпіон: Ґалина"),
    ("uk", r"^(?:роздавач|активний)$", "a tag beside a member's name: 'роздає', 'на черзі'", "роздавач"),
    ("uk", r"\bходить першим\b|\bостаннім ходить\b", "першим/останнім agree with a member: 'Починає {player}'",
     "{player} ходить першим"),
    ("uk", r"\bпершим позбудьтеся\b", "'you' first agrees with the member: 'раніше за інших'",
     "**Do Over!** — першим позбудьтеся всіх своїх карт."),
    ("uk", r"\bпереможця позначено\b", "the winner is a member: 'перемогу позначено'",
     "двоє гравців кожного матчу, переможця позначено"),
]


def texts(lang: str) -> list[tuple[str, str]]:
    """Each translation of the catalogue (every plural form), with its message id."""
    found = []
    for message in read(i18n.po_path(lang), lang):
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        found += [(msgid, s) for s in strings if s]
    return found


@pytest.mark.parametrize(("lang", "pattern", "why", "example"), DENIED, ids=[f"{d[0]}-{i}" for i, d in
                                                                            enumerate(DENIED)])
def test_the_deny_list_catches_what_it_was_written_for(lang: str, pattern: str, why: str, example: str) -> None:
    assert re.search(pattern, example, re.M), (pattern, example)


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_no_translation_guesses_a_members_gender(lang: str) -> None:
    found = [f"{msgid!r}: {text!r} ({why})" for msgid, text in texts(lang)
             for language, pattern, why, _ in DENIED if language == lang and re.search(pattern, text, re.M)]
    assert not found, "\n".join(found)
