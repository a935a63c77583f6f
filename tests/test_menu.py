"""The panel layout: every legal action reachable, Discord's limits respected."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.menu import MAX_OPTIONS, MAX_ROWS, NAV, Menu, build_menu


def reachable(choices: list[tuple[str, str]]) -> set[str]:
    """Every action a player can reach by following nested selects from the root."""
    seen: set[str] = set()
    stack = [""]
    visited: set[str] = set()
    while stack:
        prefix = stack.pop()
        if prefix in visited:
            continue
        visited.add(prefix)
        menu = build_menu(choices, prefix)
        check_limits(menu)
        seen.update(a for a, _ in menu.buttons)
        for spec in menu.selects:
            for value, _ in spec.options:
                if value.startswith(NAV):
                    stack.append(value[len(NAV):])
                else:
                    seen.add(value)
    return seen


def check_limits(menu: Menu) -> None:
    assert menu.rows() <= MAX_ROWS
    for spec in menu.selects:
        assert 1 <= len(spec.options) <= MAX_OPTIONS
        assert len({v for v, _ in spec.options}) == len(spec.options)


def test_single_actions_become_buttons_and_groups_become_selects() -> None:
    choices = [("take", "Take the pile"), ("play:3", "Play 3"), ("play:7", "Play 7")]
    menu = build_menu(choices)
    assert menu.buttons == [("take", "Take the pile")]
    assert [v for v, _ in menu.selects[0].options] == ["play:3", "play:7"]


def test_a_thirty_three_bid_auction_splits_into_two_even_selects() -> None:
    choices = [(f"bid:{n}", f"Bid {n}") for n in range(30, 63)] + [("pass", "Pass")]
    menu = build_menu(choices)
    assert menu.buttons == [("pass", "Pass")]
    assert [len(s.options) for s in menu.selects] == [17, 16]
    assert "Bid 30" in menu.selects[0].placeholder and "Bid 62" in menu.selects[1].placeholder
    assert reachable(choices) == {a for a, _ in choices}


def test_a_large_group_nests_by_its_next_segment() -> None:
    choices = [(f"raise:{card}:{bid}", f"Raise {card} with {bid}") for card in ("R1", "B2", "G3", "Y4", "RW")
               for bid in ("1+", "2+", "3", "4", "5", "OP", "1+,5", "2+,5", "2+,4", "1+,4", "2+,3")]
    menu = build_menu([*choices, ("pass", "Pass")])
    nav = [v for spec in menu.selects for v, _ in spec.options]
    assert all(v.startswith(NAV + "raise:") for v in nav)
    sub = build_menu(choices, "raise:R1")
    offered = {a for a, _ in sub.buttons} | {v for s in sub.selects for v, _ in s.options}
    assert sub.back and offered == {a for a, _ in choices if ":R1:" in a}
    assert reachable(choices) == {a for a, _ in choices}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["play", "bid", "raise", "swap", "kill", "flip", "done", "pass"]),
                          st.lists(st.sampled_from(["R1", "B2", "7", "OP", "2+,5", "hand", "0", "3", "x"]),
                                   max_size=3)),
                max_size=400))
def test_every_action_stays_reachable_within_discords_limits(raw: list[tuple[str, list[str]]]) -> None:
    actions = list(dict.fromkeys(":".join([verb, *args]) for verb, args in raw))
    choices = [(a, a.replace(":", " ")) for a in actions]
    assert reachable(choices) == set(actions)
