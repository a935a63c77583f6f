"""A tournament in French and in Ukrainian: what the channel reads (the sign-up, the start, the pairings,
the bracket and its alt text, the final standings, thread names) speaks the server's language, and each
private answer the member's, even at a server of another language."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

import i18n
from engines import GAME_TITLES
from tests.e2e.driver import components
from tests.e2e.test_reliability_e2e import answer_text
from tests.languages import english_left

pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("open_tournaments")]


def manager(world: Any) -> Any:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("mona"), roles=[role])


def _body(entry: Any) -> dict[str, Any] | None:
    body = entry.json
    if isinstance(body, dict) and isinstance(body.get("payload_json"), str):
        body = json.loads(body["payload_json"])
    if isinstance(body, dict) and "/callback" in entry.path:
        body = body.get("data")
    return body if isinstance(body, dict) else None


def payload_texts(entries: list[Any], channel_id: int) -> list[str]:
    """Every word the bot sent to the tournament's channel, to a thread's name, or in an interaction's answer:
    contents, embeds, buttons, attachments' alt text."""
    texts: list[str] = []
    for entry in entries:
        ours = (f"/channels/{channel_id}/" in entry.path or "/interactions/" in entry.path
                or "/webhooks/" in entry.path)
        body = _body(entry) if ours else None
        if body is None:
            continue
        texts += [str(body.get("content") or ""), str(body.get("name") or "")]
        for embed in body.get("embeds") or []:
            texts += [embed.get("title") or "", embed.get("description") or "",
                      (embed.get("footer") or {}).get("text") or ""]
            texts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
        for row in body.get("components") or []:
            texts += [c.get("label") or "" for c in row.get("components", [row])]
        texts += [a.get("description") or "" for a in body.get("attachments") or []]
    return [text for text in texts if text]


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_a_small_tournament_speaks_the_servers_language_from_sign_up_to_champion(
        world: Any, db_path: str, member_locales: dict[int, str], lang: str) -> None:
    mona = manager(world)
    await mona.slash(world.channel, "config set", setting="language", value=lang)
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[alice.id] = member_locales[bob.id] = lang
    env = world.env
    mark = len(env.http_requests)

    await alice.slash(world.channel, "tournament new", game="pedwar", format="single_elimination", name="Coupe")
    joined = answer_text(await bob.slash(world.channel, "tournament join"))
    assert joined == i18n.tn(lang, "You are entered in **{name}** ({n} entrant).",
                             "You are entered in **{name}** ({n} entrants).", 1, name="Coupe")
    left = answer_text(await bob.slash(world.channel, "tournament leave"))
    assert left == i18n.t(lang, "You have left **{name}**.", name="Coupe")
    await alice.slash(world.channel, "tournament addbot", count=4, level="easy")
    # A refusal is the member's too: the tournament has not started, so there is nothing to drop from.
    refused = await bob.slash(world.channel, "tournament drop")
    assert refused.response.flags.ephemeral
    await alice.slash(world.channel, "tournament start")
    # Four bots play both rounds at once: the tournament is over.
    status = answer_text(await alice.slash(world.channel, "tournament status"))
    standings = answer_text(await alice.slash(world.channel, "tournament standings"))
    assert i18n.t(lang, "Place, points, then tie-breakers: OPP (opponents' points %), OOPP "
                  "(their opponents'), games played.") in standings

    texts = payload_texts(env.http_requests[mark:], world.channel.id)
    posted = "\n".join(texts)
    assert english_left(texts, lang) == []
    assert english_left([status, standings], lang) == []
    # The channel read each part in the server's language.
    for msgid in ("Join", "Table options", "Final standings", "bracket", "Round {number}"):
        assert i18n.t(lang, msgid, number=1) in posted, msgid
    assert i18n.t(lang, "round {round} · table {table}", round=1, table=1) in posted  # a thread's name
    champion = i18n.t(lang, "🏆 **{name}** is over. Champion: {names}!", name="Coupe", names="**")
    assert champion.split("**!")[0].split(" **")[0] in posted  # "🏆 **Coupe** est terminé. Champion : **…"
    brackets = [m for m in world.channel.history() if m.attachments and m.attachments[0].filename == "bracket.png"]
    assert brackets and all(i18n.t(lang, "{top} against {bottom}", top="", bottom="").strip() in
                            (m.attachments[0].description or "") for m in brackets)
    # The words checked are the language's own, not English left as it is.
    assert i18n.t(lang, "Final standings") != "Final standings"


async def test_a_french_member_reads_french_answers_at_an_english_servers_tournament(
        world: Any, member_locales: dict[int, str]) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[bob.id] = "fr"
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=2, name="Cup")
    joined = answer_text(await bob.slash(world.channel, "tournament join"))
    assert joined == "Votre inscription à **Cup** est enregistrée (1 inscrit)."
    twice = await bob.slash(world.channel, "tournament standings")
    assert "Classement" in twice.response.embeds[0].title
    assert "Place, points, puis départages" in answer_text(twice)
    # The sign-up the whole channel reads stays in the server's language, English.
    signup = next(m for m in world.channel.history() if m.embeds and m.embeds[0].fields)
    assert signup.embeds[0].fields[-1].name == "Entrants (1)"
    assert [c.get("label") for c in components(signup)] == ["Join", "Leave"]
    # A French member's click on the sign-up's button redraws the channel's message: still English.
    join_id = next(c["custom_id"] for c in components(signup) if c.get("label") == "Join")
    member_locales[world.members["carol"].id] = "fr"
    clicked = await world.members["carol"].click(signup, custom_id=join_id)
    redrawn = clicked.response.embeds[0]
    assert redrawn.fields[-1].name == "Entrants (2)" and "Organiser:" in (redrawn.description or "")
    assert english_left([joined, answer_text(twice)], "fr") == []


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_tournament_refusals_speak_the_members_language_words_inside_them_too(
        world: Any, member_locales: dict[int, str], lang: str) -> None:
    """A refusal is private: the member's language, at an English server. The words a refusal holds (the action
    refused, a status, the reason a start failed) are translated with it."""
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[alice.id] = member_locales[bob.id] = lang
    none = await bob.slash(world.channel, "tournament join")
    assert answer_text(none) == i18n.t(lang, "There is no tournament in this channel. An organiser opens one with "
                                             "`{/tournament new}`.")
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=2, name="Cup")
    early = answer_text(await bob.slash(world.channel, "tournament drop"))
    assert early == i18n.t(lang, "**{name}** has not started: use `{/tournament leave}` instead.", name="Cup")
    not_yours = answer_text(await bob.slash(world.channel, "tournament start"))
    assert not_yours == i18n.t(lang, "Only the organiser, a member with Manage Server or one with the server's "
                                     "tournament organiser role can {what}.",
                               what=i18n.t(lang, "start the tournament"))
    too_few = answer_text(await alice.slash(world.channel, "tournament start"))
    assert too_few == i18n.t(lang, "This tournament needs at least {need} entrants to start; it has {entrants}. "
                                   "{more} more must join (or the organiser can use {/tournament addbot}).",
                             need=2, entrants=0, more=2)
    bad = answer_text(await alice.slash(world.channel, "tournament new", game="king_pedro", format="round_robin"))
    assert english_left([none.response.content, early, not_yours, too_few, bad], lang) == []
    assert bad == i18n.t(lang, "Round robin is for 2-player tables, and {title} tables of {size} are pods. Use format "
                               "swiss for pods: it pairs every round by points and avoids repeated pods.",
                         title=GAME_TITLES["king_pedro"], size=4)


async def test_a_drop_is_told_at_the_table_in_the_servers_language(world: Any, member_locales: dict[int, str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A drop is the channel's news: the public answer and the table's thread name speak the server's language
    (Ukrainian), and the note the tournament gives the table is said from a message id, so the table message
    shows it in that language too."""
    mona = manager(world)
    await mona.slash(world.channel, "config set", setting="language", value="uk")
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[bob.id] = "fr"  # the member's own language does not change what the channel reads
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=1, name="Кубок")
    await alice.slash(world.channel, "tournament join")
    await bob.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament start")
    thread = world.channel.threads[-1]
    assert thread.name == "Кубок · " + i18n.t("uk", "round {round} · table {table}", round=1, table=1)
    flow = world.env.bot.services.tournament_flow
    told: list[Any] = []
    shown = flow.show_notices

    async def keep(notices: Any) -> None:
        told.extend(notices)
        await shown(notices)

    monkeypatch.setattr(flow, "show_notices", keep)
    dropped = await bob.slash(world.channel, "tournament drop")
    assert not dropped.response.flags.ephemeral
    assert dropped.response.content.startswith(f"🚪 <@{bob.id}> виходить із **Кубок**")
    lines = [line for notice in told for line in notice.lines]
    assert lines and lines[0] == "🚪 **bob** dropped from the tournament and forfeits."  # English for the log
    assert i18n.say_text("uk", lines[0]) == "🚪 **bob** виходить із турніру; технічна поразка."
