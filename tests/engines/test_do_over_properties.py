"""Random Do Over! playouts: thousands of games checked for the engine contract and the card count."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from data.editions import do_over as edition
from engines import get_engine
from engines.do_over import pile_value
from engines.rng import Rng
from tests.engines.harness import (
    assert_replay_deterministic,
    assert_roundtrip,
    canonical,
    json_strings,
    random_playout,
)

E = get_engine("do_over")
DECK = Counter(edition.DECK)

players = st.integers(min_value=2, max_value=6)
seeds = st.integers(min_value=0, max_value=2**40)
options = st.fixed_dictionaries({"allow_voluntary_take": st.booleans()})
#: the expensive per-step checks run on games capped at fewer turns (random 2-3 player games often
#: cycle to the 1000-turn limit); 4-6 player games mostly finish within the cap.
short_options = st.fixed_dictionaries({"allow_voluntary_take": st.booleans(),
                                       "max_turns": st.integers(min_value=20, max_value=200)})


def dumped_cards(d: dict[str, Any]) -> Counter:
    cards = Counter(d["draw"] + d["pile"] + d["removed"])
    for s in range(d["n"]):
        cards.update(d["hands"][s])
        cards.update(c for c in d["up"][s] + d["down"][s] if c is not None)
    return cards


DECK_COUNTS = [DECK[c] for c in edition.CODES]


def check_cards(state: Any) -> None:
    """Every one of the 54 cards is in exactly one place (read from the engine's state, for speed)."""
    assert list(map(sum, state.hands)) == state.hand_n
    in_hands = list(map(sum, zip(*state.hands, strict=True)))
    flat = state.draw + state.pile + state.removed
    for layer in state.up + state.down:
        flat += layer  # empty slots are -1 and are not counted below
    assert [flat.count(i) + in_hands[i] for i in range(len(in_hands))] == DECK_COUNTS, \
        "all 54 cards must be accounted for"


def check_cards_public(state: Any, d: dict[str, Any]) -> None:
    """The same, from the dump ``d`` (card identities) and from the public view (counts)."""
    assert dumped_cards(d) == DECK
    v = E.view(state, None)
    total = v["pile_count"] + v["draw_count"] + v["removed_count"] + sum(s["cards_left"] for s in v["seats"])
    assert total == 54
    # the value the engine plays by is the rule helper's
    assert v["pile_value"] == pile_value(v["pile"])


def playable(card: str, value: int) -> bool:
    return not card.isdigit() or int(card) >= value


def check_legal_actions(state: Any, d: dict[str, Any]) -> None:
    """The seat to act is offered exactly what rules/do-over.md allows, worked out from the dump ``d``."""
    if d["phase"] != "play":
        return
    seat = d["current"]
    value = pile_value(d["pile"])
    hand, up, down = d["hands"][seat], d["up"][seat], d["down"][seat]
    if hand:      # the Hand first
        moves = [f"play:{c}" for c in edition.CODES if c in hand and playable(c, value)]
    elif any(c is not None for c in up):      # then the face-up Reserve, in any order
        moves = [f"up:{j}" for j, c in enumerate(up) if c is not None and playable(c, value)]
    else:         # then blind flips, and nothing else
        assert E.legal_actions(state, seat) == [f"flip:{j}" for j, c in enumerate(down) if c is not None]
        return
    if d["pile"] and (not moves or d["options"]["allow_voluntary_take"]):
        moves.append("take")
    assert E.legal_actions(state, seat) == moves


def hidden_and_visible(d: dict[str, Any], viewer: int | None) -> tuple[set[str], set[str]]:
    """Card codes hidden from ``viewer`` and card codes the viewer can see, from a dump."""
    swap = d["dealt_up"] is not None
    hidden = list(d["draw"])
    visible = d["pile"] + d["removed"]
    for s in range(d["n"]):
        hidden += [c for c in d["down"][s] if c is not None]
        shown_up = d["dealt_up"][s] if swap and s != viewer else d["up"][s]
        visible += [c for c in shown_up if c is not None]
        if s == viewer:
            visible += d["hands"][s]
        else:
            hidden += d["hands"][s]
            if swap:
                hidden += [c for c in d["up"][s] if c is not None]
    return set(hidden), set(visible)


def perturbed(d: dict[str, Any], viewer: int | None, rng: Rng) -> dict[str, Any]:
    """The same game with every card hidden from ``viewer`` shuffled among the hidden places."""
    d = json.loads(json.dumps(d))
    swap = d["dealt_up"] is not None
    slots: list[tuple[list, int]] = [(d["draw"], i) for i in range(len(d["draw"]))]
    for s in range(d["n"]):
        slots += [(d["down"][s], i) for i, c in enumerate(d["down"][s]) if c is not None]
        if s != viewer:
            slots += [(d["hands"][s], i) for i in range(len(d["hands"][s]))]
            if swap:
                slots += [(d["up"][s], i) for i, c in enumerate(d["up"][s]) if c is not None]
    cards = [lst[i] for lst, i in slots]
    rng.shuffle(cards)
    for (lst, i), c in zip(slots, cards, strict=True):
        lst[i] = c
    for s in range(d["n"]):
        d["hands"][s].sort(key=edition.CODES.index)
    return d


def lists_in(obj: Any):
    if isinstance(obj, list):
        yield obj
        for v in obj:
            yield from lists_in(v)
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from lists_in(v)


def check_no_leak(state: Any, rng: Rng) -> None:
    """Scan the public view and every seat's view; shuffle the hidden cards of one random viewer."""
    d = E.dump(state)
    viewers: list[int | None] = [None, *range(d["n"])]
    perturb = rng.choice(viewers)
    for viewer in viewers:
        view = E.view(state, viewer)
        hidden, visible = hidden_and_visible(d, viewer)
        leaked = (hidden - visible) & set(json_strings(view))
        assert not leaked, f"viewer {viewer} sees hidden cards {leaked}"
        for key in ("rng", "draw", "dealt_up"):
            assert key not in view
        if len(d["draw"]) >= 2:
            assert all(lst != d["draw"] for lst in lists_in(view)), "the deck order leaked"
        if viewer != perturb:
            continue
        # the view must not change when everything hidden from the viewer is shuffled
        other = E.load(perturbed(d, viewer, rng))
        assert canonical(E.view(other, viewer)) == canonical(view), f"viewer {viewer}'s view depends on hidden cards"


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(n=players, seed=seeds, opts=options)
def test_random_games_end_with_every_card_accounted_for(n, seed, opts):
    """No exception; 54 cards after every action; to_act and legal actions agree; every game ends."""
    rng = Rng(seed)
    state = E.new_game(n, seed, opts)
    check_cards(state)
    for _ in range(20_000):
        seats = E.to_act(state)
        assert seats == sorted(seats) and E.is_over(state) == (not seats)
        if not seats:
            break
        legal = [E.legal_actions(state, s) for s in range(n)]
        assert [s for s in range(n) if legal[s]] == seats
        seat = rng.choice(seats)
        state = E.apply(state, seat, rng.choice(legal[seat]))
        check_cards(state)
    else:
        raise AssertionError("the game did not end")
    places = E.outcome(state)
    assert len(places) == n and min(places) == 1
    assert E.view(state, None)["outcome"] == places
    assert E.view(state, None)["turns"] <= E.default_options["max_turns"]


@settings(max_examples=160, deadline=None, derandomize=True)
@given(n=players, seed=seeds, opts=short_options)
def test_random_games_round_trip_replay_and_leak_nothing(n, seed, opts):
    """Per step: dump/load round trip, no hidden card or deck order in any view; then replay is exact."""
    rng = Rng(seed + 1)

    def on_step(state: Any) -> None:
        d = E.dump(state)
        check_cards_public(state, d)
        check_legal_actions(state, d)
        assert_roundtrip(E, state)
        check_no_leak(state, rng)
        for e in E.events(state):
            assert isinstance(e, str)

    final, log = random_playout(E, n, seed, opts, on_step=on_step)
    assert E.is_over(final)
    assert_replay_deterministic(E, n, seed, opts, log, final)
