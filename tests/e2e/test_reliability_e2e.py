"""Every click is answered, bad input changes nothing, and races never undo an acknowledged change."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from typing import Any

import pytest
from simcord.actors import _autocomplete_result, _component_interaction, _visible_message

from bot import create_bot
from cogs.guard import APOLOGY
from tests.e2e.driver import choices_in, components, latest_table_message, open_hand, seats_to_act, use


def cannot_draw(*args: Any, **kwargs: Any) -> Any:
    """Stands in for a picture or message builder that fails."""
    raise RuntimeError("could not be drawn")


FINISHED_GAMES = [
    ("do_over", "max_turns=30"),
    ("pedwar", "max_turns=4"),
    ("king_pedro", "target=30 max_rounds=1"),
    ("ogre_cheerleaders", "max_turns=16"),
    ("pentawar", None),
]


def answer_text(result: Any) -> str:
    """What the member saw: the response, or the follow-up after a deferral."""
    assert result.acknowledged, "the interaction got no answer"
    parts = []
    if result.response is not None:
        parts.append(result.response.content or "")
        parts.extend(e.description or "" for e in result.response.embeds)
    parts.extend(f.content or "" for f in result.followups)
    return "\n".join(parts)


def rows(db_path: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return list(db.execute(sql, params))


async def seat_alone_with_bots(world: Any, game: str, options: str | None, bots: int) -> None:
    alice = world.members["alice"]
    kwargs = {"game": game} if options is None else {"game": game, "options": options}
    await alice.slash(world.channel, "game new", **kwargs)
    for _ in range(bots):
        await alice.slash(world.channel, "game addbot")
    started = await alice.slash(world.channel, "game start")
    assert "The game begins" in answer_text(started)


async def play_randomly(world: Any, rng: random.Random, max_moves: int = 600, stop_after: int | None = None) -> Any:
    """Alice plays random controls until the game ends (or ``stop_after`` moves); returns her last panel."""
    alice = world.members["alice"]
    panel = None
    for moves in range(max_moves):
        message = latest_table_message(world.channel)
        if "Game over" in message.content or (stop_after is not None and moves >= stop_after):
            return panel
        assert seats_to_act(message) == [alice.id], message.content
        panel = await open_hand(alice, message)
        for _ in range(6):
            kind, custom_id, value = rng.choice(choices_in(panel))
            result = await use(alice, panel, kind, custom_id, value)
            if not value.startswith(">"):
                break
            panel = result.response
    raise AssertionError("the game did not end")


async def click_everything(world: Any, messages: list[Any], clickers: list[Any]) -> int:
    """Click every component of every message as each clicker; every click must get a real answer."""
    clicks = 0
    for message in messages:
        for component in components(message):
            for member in clickers:
                if component.get("type") == 2:
                    result = await member.click(message, custom_id=component["custom_id"])
                elif component.get("type") == 3:
                    value = component["options"][0]["value"]
                    result = await member.select(message, [value], custom_id=component["custom_id"])
                else:
                    continue
                text = answer_text(result)
                assert APOLOGY not in text, f"{member.name} clicking {component.get('custom_id')}: {text}"
                assert text.strip(), f"{member.name} clicking {component.get('custom_id')} got an empty answer"
                clicks += 1
    return clicks


def public_messages(world: Any) -> list[Any]:
    return [m for m in world.channel.history() if not m.flags.ephemeral and components(m)]


@pytest.mark.parametrize(("game", "options"), FINISHED_GAMES)
async def test_every_component_of_a_finished_game_is_answered_before_and_after_a_restart(
        world: Any, game: str, options: str | None) -> None:
    bots = 3 if game == "king_pedro" else 1
    await seat_alone_with_bots(world, game, options, bots)
    panel = await play_randomly(world, random.Random(7))
    assert "Game over" in latest_table_message(world.channel).content
    messages = public_messages(world)
    assert messages, "the table messages carry controls"
    seated, stranger = world.members["alice"], world.members["dave"]
    panels = [panel] if panel is not None else []
    before = await click_everything(world, messages, [seated, stranger]) + await click_everything(
        world, panels, [seated])
    await world.env.restart_bot(create_bot())
    after = await click_everything(world, public_messages(world), [seated, stranger]) + await click_everything(
        world, panels, [seated])
    assert before == after and before >= 2 * len(messages)


async def test_every_component_of_an_abandoned_table_is_answered(world: Any, db_path: str) -> None:
    await seat_alone_with_bots(world, "do_over", None, 2)
    await play_randomly(world, random.Random(3), stop_after=4)
    alice = world.members["alice"]
    panel = await open_hand(alice, latest_table_message(world.channel))
    closed = await alice.slash(world.channel, "game abandon")
    assert "abandoned" in answer_text(closed)
    for clickers in ([alice, world.members["dave"]],):
        await click_everything(world, public_messages(world), clickers)
        await click_everything(world, [panel], [alice])
    await world.env.restart_bot(create_bot())
    await click_everything(world, public_messages(world), [alice, world.members["dave"]])
    await click_everything(world, [panel], [alice])
    assert rows(db_path, "SELECT status FROM game_tables") == [("abandoned",)]


async def test_a_stranger_clicking_hand_on_an_old_table_message_is_told_why(world: Any) -> None:
    await seat_alone_with_bots(world, "do_over", None, 1)
    old = latest_table_message(world.channel)
    await play_randomly(world, random.Random(5), stop_after=3)
    result = await world.members["dave"].click(old, label="Hand / act")
    assert "not playing at this table" in answer_text(result)
    assert result.ephemeral


async def test_hand_on_an_old_table_message_opens_the_current_hand(world: Any) -> None:
    await seat_alone_with_bots(world, "do_over", None, 1)
    old = latest_table_message(world.channel)
    await play_randomly(world, random.Random(5), stop_after=3)
    result = await world.members["alice"].click(old, label="Hand / act")
    assert result.ephemeral and "moved on" not in answer_text(result)
    assert choices_in(result.response) or "Waiting" in answer_text(result)


# ------------------------------------------------------------------------------ stop
# (The join-against-abandon race runs in tests/host/test_races.py: SimCord serialises
# its operations, so two interactions cannot overlap inside it.)


async def test_stop_lets_an_action_in_flight_finish_its_commit(world: Any, db_path: str) -> None:
    await seat_alone_with_bots(world, "do_over", None, 1)
    alice = world.members["alice"]
    panel = await open_hand(alice, latest_table_message(world.channel))
    kind, custom_id, value = choices_in(panel)[0]
    moves_before = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
    click = asyncio.ensure_future(use(alice, panel, kind, custom_id, value))
    await asyncio.sleep(0)
    bot = world.env.bot
    await asyncio.gather(click, bot.close())
    assert click.result().acknowledged
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == moves_before + 1
    assert bot.store is None, "the store is closed"
    await world.env.restart_bot(create_bot())


# ------------------------------------------------------------------------ bad input


async def forged_click(member: Any, message: Any, custom_id: str, component_type: int = 2,
                       values: list[str] | None = None) -> Any:
    stored = _visible_message(member, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    return await _component_interaction(member, stored, data)


def snapshot_of(db_path: str) -> list[tuple[Any, ...]]:
    return rows(db_path, "SELECT id, status, version, revision, snapshot FROM game_tables ORDER BY id") + rows(
        db_path, "SELECT table_id, position, user_id FROM seats ORDER BY table_id, position")


async def test_forged_and_stale_custom_ids_are_answered_and_change_nothing(world: Any, db_path: str) -> None:
    await seat_alone_with_bots(world, "pentawar", None, 1)
    alice, dave = world.members["alice"], world.members["dave"]
    message = latest_table_message(world.channel)
    table_id = rows(db_path, "SELECT id FROM game_tables")[0][0]
    version = rows(db_path, "SELECT version FROM game_tables")[0][0]
    panel = await open_hand(alice, message)
    legal = choices_in(panel)[0][2]
    before = snapshot_of(db_path)
    forged = [
        f"dh:a:{table_id + 1}:{version}:{legal}",           # another table
        f"dh:a:{10**22}:{version}:{legal}",                  # a huge table id
        f"dh:a:{table_id}:{10**30}:{legal}",                 # a huge version
        f"dh:a:{table_id}:abc:{legal}",                      # a non-numeric version
        f"dh:a:²:{version}:{legal}",                         # a superscript digit
        f"dh:a:{table_id}:{version}:{legal}\nplay",          # a newline
        f"dh:a:{table_id}:{version}:fly:away",               # an unknown action
        f"dh:a:{table_id}:{version}:ünïcødé✨",              # unicode
        f"dh:a:{table_id}:{version + 5}:{legal}",            # a version from the future
        f"dh:a:{table_id}:0",                                # truncated
        "dh:", "dh:x:1:1", "something-else", f"dh:l:{table_id}:explode", f"dh:h:{table_id}",
    ]
    for custom_id in forged:
        for member in (alice, dave):
            result = await forged_click(member, message, custom_id)
            text = answer_text(result)
            assert result.ephemeral and APOLOGY not in text and text.strip(), (custom_id, text)
    forged_select = await forged_click(alice, message, f"dh:s:{table_id}:{version}:0", 3, ["fly:away"])
    assert APOLOGY not in answer_text(forged_select)
    # A well-formed id that is not on the message cannot be a real click: it is refused as damaged.
    stranger = await forged_click(dave, message, f"dh:a:{table_id}:{version}:{legal}")
    assert "recognise" in answer_text(stranger)
    assert snapshot_of(db_path) == before


async def test_strangers_and_out_of_turn_moves_are_refused(world: Any, db_path: str) -> None:
    alice, bob, dave = world.members["alice"], world.members["bob"], world.members["dave"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    message = latest_table_message(world.channel)
    to_act = seats_to_act(message)[0]
    mover, waiter = (alice, bob) if to_act == alice.id else (bob, alice)
    panel = await open_hand(mover, message)
    kind, custom_id, value = choices_in(panel)[0]
    before = snapshot_of(db_path)
    # The waiting player sends the mover's move: it is not theirs to make.
    out_of_turn = await waiter.slash(world.channel, "play", action=value)
    assert "not your turn" in answer_text(out_of_turn)
    # A stranger clicks the public Hand / act and sends a move.
    stranger = await dave.click(message, label="Hand / act")
    assert "not playing" in answer_text(stranger)
    typed = await dave.slash(world.channel, "play", action=value)
    assert "not playing" in answer_text(typed)
    assert snapshot_of(db_path) == before
    # After the move, a second panel drawn for the same version is stale: a fresh panel, not a second move.
    second = await open_hand(mover, message)
    await use(mover, panel, kind, custom_id, value)
    again = await use(mover, second, kind, custom_id, value)
    assert "moved on" in answer_text(again)
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == 1


@pytest.mark.parametrize("action", ["", " ", "x" * 300, "play:", "bid:99999999999999999999", "²", "play:7\nplay:8",
                                    "🂡", "ready;DROP TABLE seats", "dh:a:1:1:play"])
async def test_malformed_play_values_are_refused(world: Any, db_path: str, action: str) -> None:
    await seat_alone_with_bots(world, "do_over", None, 1)
    before = snapshot_of(db_path)
    result = await world.members["alice"].slash(world.channel, "play", action=action)
    text = answer_text(result)
    assert result.ephemeral and APOLOGY not in text and "legal" in text.lower(), text
    assert snapshot_of(db_path) == before


@pytest.mark.parametrize(("options", "expect"), [
    ("target=abc", "target"), ("max_turns=-5", "max_turns"), ("max_turns=99999999999", "max_turns"),
    ("max_turns=²", "max_turns"), ("nope=3", "unknown option"), ("=", "name=value"), ("a=b=c", "name=value"),
    ("max_turns", "name=value"), ("max_turns=0", "max_turns"), ("allow_voluntary_take=maybe", "allow_voluntary_take"),
])
async def test_bad_table_options_are_refused_and_open_no_table(world: Any, db_path: str, options: str,
                                                               expect: str) -> None:
    result = await world.members["alice"].slash(world.channel, "game new", game="do_over", options=options)
    text = answer_text(result)
    assert result.ephemeral and APOLOGY not in text and expect in text, text
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]


async def test_an_unknown_game_is_refused(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    from simcord.actors import _dispatch_actor_interaction

    root = next(c for c in world.env.backend.visible_commands(user_id=alice.id, channel_id=world.channel.id)
                if c["name"] == "game")
    data = {"id": root["id"], "name": "game", "type": 1,
            "options": [{"type": 1, "name": "new", "options": [{"type": 3, "name": "game", "value": "chess"}]}]}
    result = await _dispatch_actor_interaction(alice, 2, world.channel, data)
    text = answer_text(result)
    assert result.ephemeral and APOLOGY not in text and "chess" in text, text
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(0,)]


async def test_lobby_misuse_is_refused_and_changes_nothing(world: Any, db_path: str) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    start = await alice.slash(world.channel, "game start")
    assert "no table" in answer_text(start).lower()
    await alice.slash(world.channel, "game new", game="king_pedro")
    before = snapshot_of(db_path)
    checks = [
        (alice, "game start", "at least 4"),
        (alice, "game join", "already at this table"),
        (bob, "game abandon", "Only the table's host"),
        (bob, "game start", "Only the table's host"),
        (bob, "game leave", "not at this table"),
        (bob, "game addbot", "Only the table's host"),
        (alice, "play", "not started"),
    ]
    for member, command, expect in checks:
        kwargs = {"action": "bid:30"} if command == "play" else {}
        result = await member.slash(world.channel, command, **kwargs)
        text = answer_text(result)
        assert result.ephemeral and expect in text, (command, text)
        assert snapshot_of(db_path) == before, command
    for member in (bob, carol, dave):
        await member.slash(world.channel, "game join")
    extra = world.guild.add_member(world.env.create_user("erin"))
    full = await extra.slash(world.channel, "game join")
    assert "full" in answer_text(full)
    await world.env.advance_time(3)  # past alice's new_cooldown: the channel's own table is what refuses
    twice = await alice.slash(world.channel, "game new", game="do_over")
    assert "already has a table" in answer_text(twice)


async def test_a_move_whose_answer_fails_still_reaches_the_table(world: Any, db_path: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is committed before it is answered: when the answer cannot be drawn, the table still
    moves on (the next player is pinged, their clock runs) and the member is told the move stands."""
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    message = latest_table_message(world.channel)
    mover = alice if seats_to_act(message)[0] == alice.id else bob
    value = (await mover.autocomplete(world.channel, "play", "action", ""))[0]["value"]

    monkeypatch.setattr("cogs.flow.hand_message", cannot_draw)
    monkeypatch.setattr("cogs.flow.move_done_message", cannot_draw)
    result = await mover.slash(world.channel, "play", action=value)
    assert result.ephemeral and "your move was made" in answer_text(result), answer_text(result)
    assert APOLOGY not in answer_text(result)
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] == 1
    after = latest_table_message(world.channel)
    assert after.id != message.id and seats_to_act(after) != [mover.id], after.content


async def test_a_start_whose_answer_fails_still_posts_the_table(world: Any, db_path: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    created = await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    lobby = created.response

    monkeypatch.setattr("cogs.flow.lobby_message", cannot_draw)
    result = await alice.click(lobby, label="Start")
    assert "The game has started" in answer_text(result), answer_text(result)
    assert rows(db_path, "SELECT status FROM game_tables") == [("playing",)]
    assert seats_to_act(latest_table_message(world.channel)), "the first table message, with the player to act"


async def test_play_suggestions_that_fail_offer_nothing(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    mover = alice if seats_to_act(latest_table_message(world.channel))[0] == alice.id else bob
    assert await mover.autocomplete(world.channel, "play", "action", "")

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the database went away")

    monkeypatch.setattr("host.tables.TableService.hand", broken)
    offered = await _autocomplete_result(mover, world.channel, "play", "action", "", {})
    assert offered.acknowledged and not offered.autocomplete_choices
