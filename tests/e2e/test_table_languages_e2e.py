"""Every title played from /game new to the final standings in a French and in a Ukrainian server: every
payload the bot sent (table messages, lobbies, hand panels, answers, thread names, alt text) speaks the
server's language, or the member's own in a private answer, with no English message left
(tests/languages.py english_left) beyond the engine-made texts listed below, not yet converted.

SimCord records every request the bot makes, so the test reads what Discord was sent, not what a helper
returned: a word that escapes the catalogues anywhere on the way shows up here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import discord
import pytest

from engines import GAME_TITLES
from i18n import t
from tests.e2e.driver import MENTION, components, hand_button_id, latest_table_message, seat_table, take_turn
from tests.languages import english_left

pytestmark = pytest.mark.asyncio

#: How each title is seated and played: (game, options, humans, bots).
TITLES = [
    ("do_over", "max_turns=40", ["alice", "bob"], 1),
    ("pedwar", "max_turns=8", ["alice", "bob", "carol"], 1),
    ("king_pedro", "target=30 max_rounds=1", ["alice", "bob"], 2),
    ("ogre_cheerleaders", None, ["alice", "bob"], 0),
    ("pentawar", None, ["alice", "bob", "carol"], 0),
]

#: English message ids that an engine still makes below the presenters, in English, on the way to a payload
#: (a move's label, an event or a status line that the host fills with the seats' names, or reads back from
#: the stored log; the pictures' alt text): the i18n-engines work converts them. Each is an engine's own text;
#: remove an entry once its engine's words arrive translated (test_the_engine_exception_only_shrinks fails
#: for an entry no game meets any more).
ENGINE_MADE: frozenset[str] = frozenset({
    # Empty now: Do Over!, Pedwar and Pentawar's lines met in these games all arrive translated. An engine's
    # text that is catalogued but still reaches a payload in English goes here, with its engine named.
})
#: Every catalogued English id met in a payload, across the games of this module (for the shrinking check).
MET: set[str] = set()
#: How many of this module's games were played in this session (the shrinking check needs them all).
PLAYED: list[str] = []

#: English words that no French or Ukrainian chrome may hold once names, titles and engine texts are set
#: aside: english_left finds only catalogued ids, this finds a string that never reached the catalogues.
#: (Not "table" nor "options": French writes them the same.)
ENGLISH = re.compile(r"\b(the|and|your|you|move|moves|game|players?|seats?|turn|with|waiting|paused|"
                     r"deadline|choices?|join|leave|start|lobby|host|clock|back|hand|act|over|result|"
                     r"abandoned|closed|opened|plays|channel|thread|web page)\b", re.IGNORECASE)
#: What a payload may hold in English: the members' and bots' names, the game titles, option names and values
#: (`/game new` takes them as they are), mentions and links. (Commands are the language's: english_left.)
NOT_ENGLISH = re.compile("|".join([
    r"Robo [A-Z][a-z]+ \((?:easy|normal|hard)\)", r"Robo [A-Z][a-z]+", *map(re.escape, GAME_TITLES.values()),
    r"`[^`]*`", r"<[@#][!&]?\d+>", r"<t:\d+:\w>", r"https?://\S+", r"\b[a-z_]+=[^\s,]+",
    r"\b(?:turn_time|on_timeout|thread):?\s*\S*"]))

#: Request keys whose values are not words (ids, urls, file names).
NOT_WORDS = {"custom_id", "url", "filename", "id", "value", "proxy_url", "content_type", "type", "style",
             "emoji", "allowed_mentions", "message_reference", "flags", "nonce"}


def strings(value: Any, of_object: Callable[[dict[str, Any]], Iterator[str]]) -> Iterator[str]:
    """The non-blank strings of a JSON value: a list's items in turn, an object's as ``of_object`` reads them."""
    if isinstance(value, dict):
        yield from of_object(value)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, of_object)
    elif isinstance(value, str) and value.strip():
        yield value


def words(value: Any) -> Iterator[str]:
    """Every string of a request's JSON body that a member reads."""
    return strings(value, lambda obj: (w for k, v in obj.items() if k not in NOT_WORDS for w in words(v)))


def chrome(value: Any, lang: str) -> Iterator[str]:
    """The strings of a request body that Deckhand's own catalogues make, engine-made parts set aside: the
    action controls' labels and options (the engines' move labels), the pictures' alt text (the renderers'),
    and in a table or hand message every line but its heading and the lines the presenter writes itself."""
    def of_object(obj: dict[str, Any]) -> Iterator[str]:
        custom_id = str(obj.get("custom_id", ""))
        if custom_id.startswith(("dh:a:", "dh:s:")):
            if custom_id.startswith("dh:s:"):  # "Choose…" then the first and last options' labels
                yield str(obj.get("placeholder", "")).split(" ")[0]
            return
        for k, v in obj.items():
            if k in NOT_WORDS or k == "attachments":
                continue
            if k == "content" and isinstance(v, str):
                yield from own_lines(v, lang)
            elif k == "description" and isinstance(v, str):
                yield v.split("\n\n", 1)[0]  # the final result's standings; the last move's story follows
            else:
                yield from chrome(v, lang)

    return strings(value, of_object)


#: The presenter's own lines in a table or hand message, by the start of their text.
OWN_LINES = ("To act:", "Game over!", "Your move: {n} choice below, or use `{/play}`.", "Waiting for {names}.",
             "Your deadline: {when}", "The game is over.", "This table was abandoned.",
             "Paused: no clock runs until `{/game resume}`.", "Your hand: **{button}** on the table message.")


def own_lines(content: str, lang: str) -> Iterator[str]:
    lines = content.split("\n")
    engine = any(line.startswith("**") and " · " in line for line in lines[:2])  # a table, hand or replay
    own = tuple(t(lang, msgid, n=1, names="", when="", button="").split(" ")[0] for msgid in OWN_LINES)
    for line in lines:
        if line.startswith("✅") or (line.startswith("*") and not line.startswith("**") and line.endswith("*")):
            continue  # the move just made, and the engine's status line
        bare = line.lstrip("⏸️🏁⏰🥇🥈🥉 ")
        if engine and not (line.startswith("**") and " · " in line) and not bare.startswith(own):
            continue  # the table's lines since the last message: the engine's moves and events
        parts = line.split(" · ", 2)
        if engine and len(parts) == 3 and ":" in parts[2]:
            line = " · ".join([*parts[:2], parts[2].split(":", 1)[0]])  # a replay's heading ends with its move
        yield line


def english_words(texts: Iterator[str]) -> list[str]:
    found = []
    for text in texts:
        bare = NOT_ENGLISH.sub(" ", text)
        for name in ("alice", "bob", "carol", "dave", "mona"):
            bare = bare.replace(name, " ")
        hit = ENGLISH.search(bare)
        if hit:
            found.append(f"{hit.group(0)!r} in {text[:100]!r}")
    return found


def sent_requests(env: Any, since: int = 0) -> list[Any]:
    """The bodies the bot sent Discord since request ``since`` (the command sync aside: its English names
    carry their own localisations, checked by test_command_locales_e2e.py)."""
    return [r.json for r in env.http_requests[since:] if r.json is not None and not r.path.endswith("/commands")]


def leaks(bodies: list[Any], lang: str) -> list[str]:
    """English left in what was sent, beside the engines' listed texts."""
    texts = [text for body in bodies for text in words(body)]
    found = english_left(texts, lang)
    left = []
    for leak in found:
        msgid = next((m for m in ENGINE_MADE if leak.startswith(repr(m) + " in ")), None)
        if msgid is None:
            left.append(leak)
        else:
            MET.add(msgid)
    return left + english_words(text for body in bodies for text in chrome(body, lang))


async def speak(world: Any, member_locales: dict[int, str], lang: str) -> None:
    """The server reads ``lang`` (a manager's /config set) and each member's client speaks it too."""
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await mona.slash(world.channel, "config set", setting="language", value=lang)
    for member in world.members.values():
        member_locales[member.id] = lang


def to_act(message: Any, lang: str) -> list[int]:
    _, sep, tail = message.content.partition(t(lang, "To act:"))
    return [int(x) for x in MENTION.findall(tail)] if sep else []


async def play_to_end(world: Any, lang: str, seed: int, max_moves: int = 4000) -> Any:
    rng = random.Random(seed)
    by_id = {m.id: m for m in world.members.values()}
    over = t(lang, "Game over!")
    for _ in range(max_moves):
        message = latest_table_message(world.channel)
        if over in message.content:
            return message
        ids = to_act(message, lang)
        assert ids, f"nobody human to act, yet the game is not over: {message.content}"
        await take_turn(by_id[ids[0]], message, rng.choice)
    raise AssertionError("the game did not end")


async def play_title(world: Any, lang: str, game: str, options: str | None, humans: list[str], bots: int) -> Any:
    host = world.members[humans[0]]
    started = await seat_table(world, game, humans, bots, options)
    assert t(lang, "The game begins! Seats: {seats}", seats="") in started.response.content
    final = await play_to_end(world, lang, seed=len(game))
    # The final standings, then what a member asks afterwards, privately.
    assert final.embeds and final.embeds[0].title == t(lang, "Final result")
    await host.slash(world.channel, "game log")
    await host.slash(world.channel, "game replay", move=1)
    await host.slash(world.channel, "game mine")
    await host.slash(world.channel, "game tables")
    return final


@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize(("game", "options", "humans", "bots"), TITLES, ids=[row[0] for row in TITLES])
async def test_a_game_in_a_french_or_ukrainian_server_leaves_no_english(
        world: Any, member_locales: dict[int, str], lang: str, game: str, options: str | None,
        humans: list[str], bots: int) -> None:
    await speak(world, member_locales, lang)
    since = len(world.env.http_requests)
    await play_title(world, lang, game, options, humans, bots)
    bodies = sent_requests(world.env, since)
    PLAYED.append(f"{game}-{lang}")
    left = leaks(bodies, lang)
    assert not left, "\n".join(left[:20])
    # The table's own words are there in the language (not merely no English): its chrome was sent.
    joined = "\n".join(text for body in bodies for text in words(body))
    for msgid in ("Hand / act", "To act:", "Final result", "Join", "Your move: {n} choice below, or use `{/play}`."):
        assert t(lang, msgid).split("{")[0] in joined, msgid


async def test_the_engine_exception_only_shrinks() -> None:
    """Run after the games above (pytest keeps a module's order): every listed engine text was still met."""
    if len(set(PLAYED)) < 2 * len(TITLES):
        pytest.skip("not every game of this module ran in this session")
    assert ENGINE_MADE <= MET, f"no longer met, remove from ENGINE_MADE: {sorted(ENGINE_MADE - MET)}"


async def open_panels(world: Any, server: str) -> dict[str, Any]:
    """A two-player table opened and started; each member's hand panel, opened from the table message."""
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="ogre_cheerleaders")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    message = latest_table_message(world.channel)
    assert t(server, "To act:") in message.content  # the channel reads the server's language
    assert [c["label"] for c in components(message) if c.get("custom_id", "").startswith("dh:h:")] == [
        t(server, "Hand / act")]
    return {name: (await world.members[name].click(message, custom_id=hand_button_id(message))).response
            for name in ("alice", "bob")}


async def test_a_french_member_at_an_english_servers_table_gets_french_private_answers(
        world: Any, member_locales: dict[int, str]) -> None:
    member_locales[world.members["alice"].id] = "fr"
    panels = await open_panels(world, "en")
    assert "vous êtes **alice**" in panels["alice"].content and "you are" not in panels["alice"].content
    assert not english_left([panels["alice"].content], "fr")
    assert "you are **bob**" in panels["bob"].content  # bob's client is English
    mine = await world.members["alice"].slash(world.channel, "game mine")
    assert mine.ephemeral and t("fr", "Your tables") in mine.response.content
    assert "Your tables" in (await world.members["bob"].slash(world.channel, "game mine")).response.content


async def test_an_english_member_at_a_ukrainian_servers_table_gets_english_private_answers(
        world: Any, member_locales: dict[int, str]) -> None:
    await speak(world, member_locales, "uk")
    member_locales[world.members["alice"].id] = "en-GB"
    panels = await open_panels(world, "uk")
    assert "you are **alice**" in panels["alice"].content
    assert "ви — **bob**" in panels["bob"].content and not english_left([panels["bob"].content], "uk")
    status = await world.members["alice"].slash(world.channel, "game status")
    assert status.ephemeral and "To act:" in status.response.content  # her own copy, in her language


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_seat_changes_speak_the_servers_language(world: Any, member_locales: dict[int, str], lang: str) -> None:
    """/game pause, resume and resign answer the channel in its language, and the table message after them."""
    await speak(world, member_locales, lang)
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    since = len(world.env.http_requests)
    paused = await alice.slash(world.channel, "game pause")
    assert paused.response.content.startswith("⏸️ ") and not paused.ephemeral
    again = await alice.slash(world.channel, "game pause")
    assert again.ephemeral and t(lang, "This table is already paused. `{/game resume}` restarts its clocks.") == \
        again.response.content
    await alice.slash(world.channel, "game resume")
    resigned = await bob.slash(world.channel, "game resign")
    assert t(lang, "🏳️ **{player}** resigns.", player="bob") in resigned.response.content
    left = leaks(sent_requests(world.env, since), lang)
    assert not left, "\n".join(left[:20])


async def test_table_refusals_speak_the_members_language(world: Any, member_locales: dict[int, str]) -> None:
    """At an English server's table, a French member is refused in French, privately; an English one in English."""
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[bob.id] = "fr"
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    twice = await bob.slash(world.channel, "game join")
    assert twice.ephemeral and twice.response.content == "Vous êtes déjà à cette table."
    assert (await alice.slash(world.channel, "game join")).response.content == "You are already at this table."
    early = await bob.slash(world.channel, "game start")
    assert early.ephemeral and not english_left([early.response.content], "fr")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    waiting = [m for m in (alice, bob) if m.id not in to_act(latest_table_message(world.channel), "en")]
    refused = await waiting[0].slash(world.channel, "play", action="x")
    expected = "Ce n'est pas votre tour." if waiting[0] is bob else "It's not your turn."
    assert refused.ephemeral and refused.response.content.startswith(expected)


async def test_the_rules_reason_for_an_illegal_move_speaks_the_members_language(
        world: Any, member_locales: dict[int, str]) -> None:
    """An illegal move typed in /play is refused privately with the engine's own reason (a message id said in
    the member's language): French for a French member at an English server's table, English for the other."""
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    acting = next(m for m in (alice, bob) if m.id in to_act(latest_table_message(world.channel), "en"))
    member_locales[acting.id] = "fr"
    refused = await acting.slash(world.channel, "play", action="wing:hand:dragon:A")
    assert refused.ephemeral
    assert refused.response.content.startswith("`wing:hand:dragon:A` n'est pas un coup permis pour vous")
    assert refused.response.content.endswith("> Espèce de dragon inconnue 'dragon'.")
    assert not english_left([refused.response.content], "fr")
    member_locales[acting.id] = "en-US"
    refused = await acting.slash(world.channel, "play", action="wing:hand:dragon:A")
    assert refused.response.content.endswith("\n> Unknown dragon kind 'dragon'.")
