"""Rule tests for Ogre Cheerleaders (rules/ogre-cheerleaders.md), one or more per rule, on stacked decks."""

from __future__ import annotations

import json

import pytest

from data.editions import ogre_cheerleaders as edition
from engines import IllegalAction, get_engine
from engines.ogre_cheerleaders import ENGINE as E
from engines.ogre_cheerleaders import formations
from engines.ogre_cheerleaders.flow import card_key, dealt_records
from engines.ogre_cheerleaders.rules import scorable_spans, score_choices
from engines.ogre_cheerleaders.state import State, all_cards
from tests.engines.harness import assert_refuses, json_strings


def make(hands, field=(), deck=(), bench=(), *, seat=0, first=0, dealt=False, piles=None,
         max_turns=500) -> State:
    """A stacked state at the start of ``seat``'s play phase. ``deck`` is given top card first."""
    n = len(hands)
    s = E.new_game(n, 7, {"max_turns": max_turns})
    s.hands = [sorted(h, key=card_key) for h in hands]
    s.field = list(field)
    s.deck = list(reversed(deck))
    s.bench = list(bench)
    s.piles = [list(p) for p in piles] if piles else [[] for _ in range(n)]
    s.records = dealt_records(s.field) if dealt else []
    s.first, s.seat, s.turns = first, seat, 1
    s.pending, s.transit = ["play"], []
    s.t_deck, s.t_num, s.t_scored = len(s.deck), 0, False
    s.streak_num, s.streak_len, s.deck_out = 0, 0, -1
    s.over, s.result, s.places = False, "", []
    s.events, s.last_scoring, s.bonus, s.steal_from = [], None, 0, -1
    return s


def act(s: State, *actions: str) -> State:
    for a in actions:
        assert a in E.legal_actions(s, s.seat), f"{a} not in {E.legal_actions(s, s.seat)}"
        s = E.apply(s, s.seat, a)
    return s


def finish_turn(s: State, card: str) -> State:
    """Play ``card`` at the left end, then take the first legal choice until the turn is over."""
    t = s.turns
    s = act(s, f"play:{card}:L")
    while not s.over and s.turns == t:
        s = E.apply(s, s.seat, E.legal_actions(s, s.seat)[0])
    return s


def strings(view) -> set[str]:
    return set(json_strings(view))


# Fillers: cards that stay in hand so that a hand does not need the draw phase.
FILL = ["U2", "U3", "U4", "C2"]


# ======================================================================= formations helper


class TestFormationsHelper:
    def test_same_team_needs_three(self):
        assert formations(["O1", "O5"]) == []
        assert formations(["O1", "O5", "O9"]) == [("team", 0, 3)]

    def test_same_team_longest_run_not_cut_short(self):
        assert formations(["S1", "O1", "O5", "O9", "O7", "C2"])[-1] == ("team", 1, 5)
        assert [f for f in formations(["O1", "O5", "O9", "O7"]) if f[0] == "team"] == [("team", 0, 4)]

    def test_sequence_up_and_down(self):
        assert formations(["O5", "S6", "C7"]) == [("sequence", 0, 3)]
        assert formations(["O7", "S6", "C5"]) == [("sequence", 0, 3)]
        assert formations(["O5", "S6"]) == []

    def test_sequence_longest_run(self):
        assert formations(["U9", "O1", "S2", "C3", "U4", "O5", "S8"]) == [("sequence", 1, 6)]
        assert formations(["S8", "O5", "C4", "U3", "S2", "O1"]) == [("sequence", 1, 6)]

    def test_sequence_both_directions_share_the_peak(self):
        assert formations(["O5", "S6", "C7", "U6", "S5"]) == [("sequence", 0, 3), ("sequence", 2, 5)]
        assert formations(["O7", "S6", "C5", "U6", "S7"]) == [("sequence", 0, 3), ("sequence", 2, 5)]

    def test_sequence_needs_steps_of_one_and_no_wrap(self):
        assert formations(["O1", "S3", "C5"]) == []
        assert formations(["O9", "S10", "C1"]) == []
        assert formations(["O4", "S5", "C5", "U6"]) == [("number", 1, 3)]

    def test_same_number_pairs_and_longer(self):
        assert formations(["O3", "S3"]) == [("number", 0, 2)]
        assert formations(["O3", "S3", "C3", "U3"]) == [("number", 0, 4)]
        assert formations(["O3", "S4", "C3"]) == []

    def test_overlaps_all_listed_and_sorted(self):
        got = formations(["U1", "S1", "O2", "C3"])
        assert got == [("number", 0, 2), ("sequence", 1, 4)]
        # O3 O4 O5: one set of cards that is both a team and a sequence.
        assert formations(["O3", "O4", "O5"]) == [("sequence", 0, 3), ("team", 0, 3)]
        assert got == sorted(got)

    def test_empty_and_short_fields(self):
        assert formations([]) == []
        assert formations(["O1"]) == []

    def test_pure(self):
        field = ["O3", "O4", "O5"]
        formations(field)
        assert field == ["O3", "O4", "O5"]
        assert formations(("O3", "O4", "O5")) == formations(field)


class TestOverlapChoiceHelper:
    def test_maximal_disjoint_sets(self):
        # A = 1 1, B = 1 2 3, C = 3 3: valid choices are {A, C} and {B}; {A} alone is not maximal.
        field = ["U1", "S1", "O2", "C3", "S3"]
        spans = scorable_spans(field, [])
        assert [sp[:2] for sp in spans] == [[0, 2], [1, 4], [3, 5]]
        assert score_choices(spans) == [[0, 2], [1]]

    def test_disjoint_formations_are_one_choice(self):
        spans = scorable_spans(["S2", "O2", "U6", "C6", "O3"], [])
        assert score_choices(spans) == [[0, 1]]

    def test_same_cards_two_kinds_are_one_span(self):
        spans = scorable_spans(["O3", "O4", "O5"], [])
        assert spans == [[0, 3, ["team", "sequence"]]]
        assert score_choices(spans) == [[0]]


# ======================================================================= setup and contract


class TestSetup:
    def test_registry_and_metadata(self):
        assert get_engine("ogre_cheerleaders") is E
        assert (E.min_players, E.max_players) == (2, 4)
        assert E.default_options == {"max_turns": 500}
        assert 10 <= len(E.summary.splitlines()) <= 25

    def test_deck_of_forty(self):
        assert len(edition.CARDS) == 40 == len(set(edition.CARDS))
        assert {c[0] for c in edition.CARDS} == {"O", "S", "C", "U"}
        assert sorted(edition.TEAM_NAMES.values()) == sorted([
            "Orange County Onions", "Stillwater Swamp Monsters", "Cave Springs Clubs", "Unionville Unicorns"])

    @pytest.mark.parametrize("n", [2, 3, 4])
    def test_deal(self, n):
        s = E.new_game(n, 3)
        assert all(len(h) == 4 for h in s.hands)
        assert len(s.field) == 4 and len(s.bench) == 1
        assert len(s.deck) == 40 - 4 * n - 5
        assert sorted(all_cards(s)) == sorted(edition.CARDS)
        assert E.to_act(s) == [s.first]

    def test_first_player_random(self):
        assert {E.new_game(4, seed).first for seed in range(40)} == {0, 1, 2, 3}

    def test_bad_player_counts_and_options(self):
        for n in (0, 1, 5, "2", True):
            with pytest.raises(ValueError):
                E.new_game(n, 1)
        with pytest.raises(ValueError):
            E.new_game(2, 1, {"nope": 1})
        with pytest.raises(ValueError):
            E.new_game(2, 1, {"max_turns": 0})

    def test_same_seed_same_game(self):
        assert json.dumps(E.dump(E.new_game(3, 9))) == json.dumps(E.dump(E.new_game(3, 9)))
        assert json.dumps(E.dump(E.new_game(3, 9))) != json.dumps(E.dump(E.new_game(3, 10)))

    def test_dealt_formations_recorded_at_setup(self):
        for seed in range(300):
            s = E.new_game(2, seed)
            if formations(s.field):
                assert s.records == dealt_records(s.field)
                assert E.view(s, None)["dealt_formations"]
                return
        pytest.fail("no seed dealt a formation")


# ======================================================================= play phase and refusals


class TestPlayPhase:
    def test_play_at_either_end(self):
        s = make([["O9", "S2", *FILL], ["C9"]], ["U7", "C5"], deck=["S10"] * 0)
        assert "play:S2:L" in E.legal_actions(s, 0) and "play:S2:R" in E.legal_actions(s, 0)
        assert E.legal_actions(s, 1) == [] and E.to_act(s) == [0]

    def test_refusals(self):
        s = make([["O4", "S9", *FILL], ["C9"]], ["U7", "C5"], deck=["S10"])
        assert_refuses(E, s, 1, "play:C9:L")            # not your turn
        assert_refuses(E, s, 0, "play:C9:L")            # not in hand
        assert_refuses(E, s, 0, "play:O4")              # no end
        assert_refuses(E, s, 0, "play:O4:X")            # bad end
        assert_refuses(E, s, 0, "take:U7")              # wrong phase
        assert_refuses(E, s, 0, "garbage")
        assert_refuses(E, s, 0, "")
        assert_refuses(E, s, 5, "play:O4:L")            # no such seat
        assert_refuses(E, s, -1, "play:O4:L")
        with pytest.raises(IllegalAction):
            E.apply(s, 0, None)  # type: ignore[arg-type]
        s = act(s, "play:O4:L")                         # the 4 must take another card, not itself
        assert_refuses(E, s, 0, "take:O4")
        assert_refuses(E, s, 0, "take:S9")
        assert_refuses(E, s, 0, "play:S9:L")

    def test_refuses_after_game_over(self):
        s = make([["O10", *FILL], ["C9"]], [], max_turns=1)
        s = act(s, "play:O10:L")
        assert s.over and E.to_act(s) == []
        assert_refuses(E, s, 1, "play:C9:L")
        assert all(E.legal_actions(s, q) == [] for q in range(2))

    def test_apply_does_not_mutate(self):
        s = make([["O5", "S9", *FILL], ["C9"]], ["U7", "C5"], deck=["S10"])
        before = json.dumps(E.dump(s), sort_keys=True)
        E.apply(s, 0, "play:O5:L")
        assert json.dumps(E.dump(s), sort_keys=True) == before


# ======================================================================= the ten effects


class TestEffect1Join:
    def test_joins_bench_top_at_chosen_end_without_effect(self):
        s = make([["O1", *FILL], ["C9"]], ["S5", "C9"], deck=["U8", "O8"], bench=["U3", "C7"])
        s = act(s, "play:O1:L")
        assert E.legal_actions(s, 0) == ["join:L", "join:R"]
        assert E.view(s, None)["pending"]["transit"] == ["C7"]   # the bench card is public
        s = act(s, "join:R")
        assert s.field == ["O1", "S5", "C9", "C7"]
        assert s.bench == ["U3"] and len(s.deck) == 2            # the joined 7 did not play the deck's card
        assert s.seat == 1

    def test_empty_bench_nothing_joins(self):
        s = make([["O1", *FILL], ["C9"]], ["S5"], deck=["U8"])
        s = act(s, "play:O1:R")
        assert s.field == ["S5", "O1"] and s.seat == 1


class TestEffect2Move:
    def test_move_to_either_end(self):
        s = make([["O2", *FILL], ["C8"]], ["S5", "C9", "U3"], deck=["U8"])
        s = act(s, "play:O2:R")
        assert E.legal_actions(s, 0) == ["move:S5", "move:C9", "move:U3"]
        s = act(s, "move:C9")
        assert E.legal_actions(s, 0) == ["to:L", "to:R"]
        s2 = act(s, "to:L")
        assert s2.field == ["C9", "S5", "U3", "O2"]
        s3 = act(s, "to:R")
        assert s3.field == ["S5", "U3", "O2", "C9"]

    def test_move_to_its_own_end_changes_nothing(self):
        s = make([["O2", *FILL], ["C8"]], ["S5", "C9", "U3"], deck=["U8"])
        s = act(s, "play:O2:R", "move:S5", "to:L")
        assert s.field == ["S5", "C9", "U3", "O2"]

    def test_no_other_card(self):
        s = make([["O2", *FILL], ["C8"]], [], deck=["U8"])
        s = act(s, "play:O2:L")
        assert s.field == ["O2"] and s.seat == 1


class TestEffect3Swap:
    def test_swap_any_two_other_cards(self):
        s = make([["O3", *FILL], ["C8"]], ["S5", "C9", "U3", "C6"], deck=["U8"])
        s = act(s, "play:O3:R")
        assert E.legal_actions(s, 0) == ["swap:S5", "swap:C9", "swap:U3", "swap:C6"]
        s = act(s, "swap:S5")
        assert E.legal_actions(s, 0) == ["with:C9", "with:U3", "with:C6"]
        s = act(s, "with:C6")
        assert s.field == ["C6", "C9", "U3", "S5", "O3"]

    def test_exactly_two_others_swap_at_once(self):
        s = make([["O3", *FILL], ["C8"]], ["S5", "C9"], deck=["U8"])
        s = act(s, "play:O3:R")
        assert s.field == ["C9", "S5", "O3"] and s.seat == 1

    def test_fewer_than_two_others(self):
        s = make([["O3", *FILL], ["C8"]], ["S5"], deck=["U8"])
        s = act(s, "play:O3:R")
        assert s.field == ["S5", "O3"] and s.seat == 1


class TestEffect4Take:
    def test_take_any_other_card(self):
        s = make([["O4", *FILL], ["C8"]], ["S5", "C9", "U2"], deck=["U8"])
        s = act(s, "play:O4:L")
        assert E.legal_actions(s, 0) == ["take:S5", "take:C9", "take:U2"]
        s = act(s, "take:C9")
        assert s.field == ["O4", "S5", "U2"] and "C9" in s.hands[0]

    def test_one_other_taken_at_once(self):
        s = make([["O4", *FILL], ["C8"]], ["S8"], deck=["U8"])
        s = act(s, "play:O4:R")
        assert s.field == ["O4"] and "S8" in s.hands[0] and s.seat == 1

    def test_no_other_card(self):
        s = make([["O4", *FILL], ["C8"]], [], deck=["U8"])
        s = act(s, "play:O4:R")
        assert s.field == ["O4"] and s.seat == 1

    def test_a_played_4_may_take_the_7_that_played_it(self):
        s = make([["O7", *FILL], ["C8"]], ["C9"], deck=["S4", "U8"])
        s = act(s, "play:O7:R", "place:R")
        assert E.legal_actions(s, 0) == ["take:C9", "take:O7"]
        s = act(s, "take:O7")
        assert s.field == ["C9", "S4"] and "O7" in s.hands[0]


class TestEffect5Bench:
    def test_bench_any_other_card(self):
        s = make([["O5", *FILL], ["C8"]], ["S1", "C9", "U2"], deck=["U8"], bench=["S7"])
        s = act(s, "play:O5:L")
        assert E.legal_actions(s, 0) == ["bench:S1", "bench:C9", "bench:U2"]
        s = act(s, "bench:C9")
        assert s.field == ["O5", "S1", "U2"] and s.bench == ["S7", "C9"]
        assert E.view(s, None)["bench"] == ["S7", "C9"]

    def test_one_other_benched_at_once(self):
        s = make([["O5", *FILL], ["C8"]], ["S8"], deck=["U8"])
        s = act(s, "play:O5:R")
        assert s.field == ["O5"] and s.bench == ["S8"]

    def test_no_other_card(self):
        s = make([["O5", *FILL], ["C8"]], [], deck=["U8"])
        s = act(s, "play:O5:R")
        assert s.field == ["O5"] and s.bench == []


class TestEffect6Steal:
    def test_choose_opponent_take_random_card_and_play_it(self):
        s = make([["O6", *FILL], ["C8", "C10"], ["S5"]], ["U1", "C9"], deck=["U8"])
        s = act(s, "play:O6:R")
        assert E.legal_actions(s, 0) == ["steal:1", "steal:2"]
        s = act(s, "steal:2")
        assert s.hands[2] == [] and s.transit == ["S5"]
        # The stolen card is hidden from everyone but the thief until it is played.
        assert "S5" not in strings(E.view(s, None))
        assert "S5" not in strings(E.view(s, 1)) and "S5" not in strings(E.view(s, 2))
        assert E.view(s, 0)["pending"]["transit"] == ["S5"]
        assert "S5" not in E.public_label(s, 0, "place:L")
        s = act(s, "place:L")                    # the 5 resolves: bench a card
        assert s.field == ["S5", "U1", "C9", "O6"]
        s = act(s, "bench:U1")
        assert s.field == ["S5", "C9", "O6"] and s.bench == ["U1"]
        assert sorted(all_cards(s)) == sorted(["O6", *FILL, "C8", "C10", "S5", "U1", "C9", "U8"])

    def test_single_opponent_chosen_at_once(self):
        s = make([["O6", *FILL], ["C10"]], ["U1"], deck=["U8"])
        s = act(s, "play:O6:R")
        assert E.legal_actions(s, 0) == ["place:L", "place:R"] and s.transit == ["C10"]

    def test_only_opponents_with_cards(self):
        s = make([["O6", *FILL], [], ["C10"]], ["U1"], deck=["U8"])
        s = act(s, "play:O6:R")
        assert s.transit == ["C10"] and s.hands[2] == []

    def test_no_opponent_has_cards(self):
        s = make([["O6", *FILL], []], ["U1"], deck=["U8"])
        s = act(s, "play:O6:R")
        assert s.field == ["U1", "O6"] and s.seat == 1

    def test_random_pick_is_seeded(self):
        picks = set()
        for r in range(20):
            s = make([["O6", *FILL], ["C8", "C10", "S1", "S3"]], ["U1"], deck=["U8"])
            s.rng = r * 7919
            picks.add(act(s, "play:O6:R").transit[0])
            again = make([["O6", *FILL], ["C8", "C10", "S1", "S3"]], ["U1"], deck=["U8"])
            again.rng = r * 7919
            assert act(again, "play:O6:R").transit == act(s, "play:O6:R").transit
        assert len(picks) > 1

    def test_chain_7_6_7(self):
        s = make([["O7", *FILL], ["C7"]], ["C9"], deck=["U6", "S1", "U8"])
        s = act(s, "play:O7:R")                  # O7 plays the deck's top card (U6)
        s = act(s, "place:L")                    # U6 steals C7 (the only opponent) ...
        assert s.transit == ["C7"] and s.hands[1] == []
        s = act(s, "place:L")                    # ... which plays the next deck card (S1)
        assert s.transit == ["S1"]
        s = act(s, "place:R")                    # S1: bench empty, nothing joins
        assert s.field == ["C7", "U6", "C9", "O7", "S1"] and s.seat == 1


class TestEffect7PlayDeckTop:
    def test_plays_top_card_with_its_effect(self):
        s = make([["O7", *FILL], ["C8"]], ["S1", "C9", "U2"], deck=["S5", "U8"])
        s = act(s, "play:O7:L")
        assert s.transit == ["S5"] and "S5" not in strings(E.view(s, None))
        assert "S5" not in strings(E.view(s, 1)) and E.view(s, 0)["pending"]["transit"] == ["S5"]
        s = act(s, "place:R")
        assert E.legal_actions(s, 0)[0].startswith("bench:")

    def test_chain_7_7_5(self):
        s = make([["O7", *FILL], ["C8"]], ["S1", "C9", "U3"], deck=["U7", "C5", "U8"])
        s = act(s, "play:O7:L", "place:R", "place:R")
        assert s.field == ["O7", "S1", "C9", "U3", "U7", "C5"]
        s = act(s, "bench:S1")
        assert s.bench == ["S1"] and s.seat == 1

    def test_empty_deck(self):
        s = make([["O7", *FILL], ["C8"]], ["S1"])
        s = act(s, "play:O7:L")
        assert s.field == ["O7", "S1"] and s.transit == []


class TestEffect8Draw2:
    def test_keep_one_other_joins(self):
        s = make([["O8", *FILL], ["C8"]], ["S1", "U3"], deck=["S9", "C10", "U8"])
        s = act(s, "play:O8:L")
        assert E.legal_actions(s, 0) == ["keep:S9", "keep:C10"]
        assert "S9" not in strings(E.view(s, None)) and "C10" not in strings(E.view(s, 1))
        s = act(s, "keep:C10")
        assert "C10" in s.hands[0] and E.legal_actions(s, 0) == ["join:L", "join:R"]
        s = act(s, "join:L")                     # the 9 joins: no shuffle
        assert s.field == ["S9", "O8", "S1", "U3"]
        assert "C10" not in strings(E.view(s, None))

    def test_one_card_left_keep_or_join(self):
        s = make([["O8", *FILL], ["C8"]], ["S1"], deck=["S9"])
        s = act(s, "play:O8:L")
        assert E.legal_actions(s, 0) == ["keep:S9", "join:L", "join:R"]
        kept = act(s, "keep:S9")
        assert "S9" in kept.hands[0] and kept.field == ["O8", "S1"]
        joined = act(s, "join:R")
        assert joined.field == ["O8", "S1", "S9"]

    def test_empty_deck(self):
        s = make([["O8", *FILL], ["C8"]], ["S1"])
        s = act(s, "play:O8:L")
        assert s.field == ["O8", "S1"] and s.seat == 1


class TestEffect9Shuffle:
    def test_shuffles_whole_field_including_the_9(self):
        positions = set()
        for r in range(30):
            s = make([["O9", *FILL], ["C8"]], ["S1", "C3", "U5", "O7"], deck=["U8"])
            s.rng = r * 104729 + 1
            s = act(s, "play:O9:R")
            assert sorted(s.field) == sorted(["S1", "C3", "U5", "O7", "O9"])
            positions.add(s.field.index("O9"))
        assert len(positions) > 2

    def test_alone(self):
        s = make([["O9", *FILL], ["C8"]], [], deck=["U8"])
        assert act(s, "play:O9:L").field == ["O9"]


class TestEffect10BenchFarEnd:
    def test_no_other_card(self):
        s = make([["O10", *FILL], ["C8"]], [], deck=["U8"])
        s = act(s, "play:O10:L")
        assert s.field == ["O10"] and s.bench == []

    def test_one_other_card_benched_10_stays(self):
        s = make([["O10", *FILL], ["C8"]], ["S5"], deck=["U8"])
        s = act(s, "play:O10:L")
        assert s.field == ["O10"] and s.bench == ["S5"]

    def test_two_others(self):
        s = make([["O10", *FILL], ["C8"]], ["S5", "C3"], deck=["U8"])
        s = act(s, "play:O10:R")
        assert s.field == ["O10"] and sorted(s.bench) == ["C3", "S5"]

    def test_far_end_is_the_end_opposite_where_the_10_itself_was_placed(self):
        # A 7 played at the left end plays a 10 at the right end: the 10 benches the two cards on the
        # left, the 7 among them.
        s = make([["O7", *FILL], ["C8"]], ["S1", "C3", "U5"], deck=["C10", "U8"])
        s = act(s, "play:O7:L", "place:R")
        assert set(s.bench) == {"O7", "S1"} and s.field == ["C3", "U5", "C10"]

    @pytest.mark.parametrize(("end", "field", "benched"), [
        ("L", ["O10", "S1", "C3"], {"U5", "O7"}),
        ("R", ["U5", "O7", "O10"], {"S1", "C3"}),
    ])
    def test_many_others_far_end(self, end, field, benched):
        s = make([["O10", *FILL], ["C8"]], ["S1", "C3", "U5", "O7"], deck=["U8"])
        s = act(s, f"play:O10:{end}")
        assert s.field == field and set(s.bench) == benched


# ======================================================================= scoring


class TestScoring:
    def test_scores_to_active_players_pile_with_points_and_event(self):
        s = make([["O1", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U8"])
        s = act(s, "play:O1:R")
        assert s.piles[0] == ["O3", "O4", "O5"] and s.field == ["S9", "O1"]
        assert E.view(s, None)["scores"] == [12, 0] and E.view(s, None)["scored_counts"] == [3, 0]
        assert "{p0} scored Same team O3 O4 O5 for 12" in E.events(s)

    def test_longest_run_scored_whole(self):
        s = make([["U7", *FILL], ["C8"]], ["O3", "S4", "C5", "O6"], deck=["U8"])
        s = act(s, "play:U7:R")   # U7 plays the deck top (U8) ...
        s = act(s, "place:L")     # ... U8 draws 2 from an empty deck: nothing
        assert s.piles[0] == ["O3", "S4", "C5", "O6", "U7"] and s.field == ["U8"]
        assert "{p0} scored Sequence O3 S4 C5 O6 U7 for 25" in E.events(s)

    def test_overlap_choice_offered(self):
        s = make([["U1", *FILL], ["C8"]], ["S1", "O2", "C3"], deck=["U8"])
        s = act(s, "play:U1:L")
        assert E.legal_actions(s, 0) == ["score:0", "score:1"]
        opts = E.view(s, None)["pending"]["options"]
        assert [[f["cards"] for f in o] for o in opts] == [[["U1", "S1"]], [["S1", "O2", "C3"]]]
        a = act(s, "score:0")
        assert a.piles[0] == ["U1", "S1"] and a.field == ["O2", "C3"]
        b = act(s, "score:1")
        assert b.piles[0] == ["S1", "O2", "C3"] and b.field == ["U1"]

    def test_overlap_choice_must_be_maximal(self):
        s = make([["C1", *FILL], ["C8"]], ["S1", "O2", "U3", "S3"], deck=["U8"])
        s = act(s, "play:C1:L")
        opts = E.view(s, 0)["pending"]["options"]
        assert [[f["cards"] for f in o] for o in opts] == [[["C1", "S1"], ["U3", "S3"]], [["S1", "O2", "U3"]]]
        a = act(s, "score:0")
        assert a.piles[0] == ["C1", "S1", "U3", "S3"] and a.field == ["O2"]

    def test_no_choice_when_one_valid_set(self):
        s = make([["U1", *FILL], ["C8"]], ["S1", "O5", "C3"], deck=["U8"])
        s = act(s, "play:U1:L")
        assert s.seat == 1 and s.piles[0] == ["U1", "S1"]

    def test_several_formations_scored_at_once(self):
        s = make([["O3", *FILL], ["C8"]], ["S2", "U6", "O2", "C6"], deck=["U8"])
        s = act(s, "play:O3:R", "swap:U6", "with:O2")
        assert s.piles[0] == ["S2", "O2", "U6", "C6"] and s.field == ["O3"]
        assert E.events(s)[:2] == ["{p0} scored Same number S2 O2 for 4", "{p0} scored Same number U6 C6 for 12"]
        ls = E.view(s, None)["last_scoring"]
        assert ls == {"seat": 0, "field": ["S2", "O2", "U6", "C6", "O3"], "highlight": [0, 1, 2, 3]}

    def test_cascade_after_gaps_close(self):
        s = make([["S3", *FILL], ["C8"]], ["C1", "U7", "O1", "C7"], deck=["U8"])
        s = act(s, "play:S3:R", "swap:O1", "with:C7")
        assert s.piles[0] == ["U7", "C7", "C1", "O1"] and s.field == ["S3"]
        assert E.view(s, None)["scores"][0] == 16
        ls = E.view(s, None)["last_scoring"]
        assert ls["field"] == ["C1", "U7", "C7", "O1", "S3"] and ls["highlight"] == [0, 1, 2, 3]

    def test_last_scoring_cleared_at_next_apply(self):
        s = make([["U1", *FILL], ["C9", *FILL]], ["S1", "O5", "C3"], deck=["U8", "S8"])
        s = act(s, "play:U1:L")
        assert E.view(s, None)["last_scoring"] is not None
        s = act(s, "play:C9:R")
        assert E.view(s, None)["last_scoring"] is None

    def test_cascade_with_a_choice(self):
        # Two pairs score at once; the gaps close into 1 1 2 3, which needs the active player's choice.
        s = make([["O1", *FILL], ["C8"]], ["U1", "U7", "C7", "S1", "O8", "C8", "O2", "C3"], deck=["U8"])
        s = act(s, "play:O1:R")
        assert s.piles[0] == ["U7", "C7", "O8", "C8"] and s.field == ["U1", "S1", "O2", "C3", "O1"]
        assert E.legal_actions(s, 0) == ["score:0", "score:1"] and E.to_act(s) == [0]
        assert E.view(s, None)["last_scoring"]["highlight"] == [1, 2, 4, 5]
        a = act(s, "score:0")
        assert a.piles[0][4:] == ["U1", "S1"] and a.field == ["O2", "C3", "O1"] and a.seat == 1
        b = act(s, "score:1")      # the sequence goes, and U1 O1 close up: a second cascade
        assert b.piles[0][4:] == ["S1", "O2", "C3", "U1", "O1"]
        assert b.field == ["U8"] and b.seat == 0 and b.bonus == 1   # field cleared: bonus deal and play
        assert E.view(b, None)["last_scoring"] == {
            "seat": 0, "field": ["U1", "S1", "O2", "C3", "O1"], "highlight": [0, 1, 2, 3, 4]}


class TestDealtFormations:
    def test_dealt_formation_does_not_score(self):
        s = make([["U1", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U8"], dealt=True)
        s = act(s, "play:U1:R")
        assert s.field == ["O3", "O4", "O5", "S9", "U1"] and s.piles[0] == []

    def test_card_played_next_to_it_makes_it_scorable(self):
        s = make([["U1", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U8"], dealt=True)
        s = act(s, "play:U1:L")
        assert s.piles[0] == ["O3", "O4", "O5"]

    def test_card_joined_next_to_it_makes_it_scorable(self):
        base = make([["C1", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U9"], bench=["U8"], dealt=True)
        s = act(base, "play:C1:R", "join:L")
        assert s.piles[0] == ["O3", "O4", "O5"]
        s = act(base, "play:C1:R", "join:R")
        assert s.piles[0] == [] and s.field == ["O3", "O4", "O5", "S9", "C1", "U8"]

    def test_card_leaving_drops_record(self):
        s = make([["C5", *FILL], ["C8"]], ["S9", "O3", "O4", "O5", "O6"], deck=["U8"], dealt=True)
        assert s.records == [["O3", "O4", "O5", "O6"]]
        s = act(s, "play:C5:L", "bench:O6")
        assert s.piles[0] == ["O3", "O4", "O5"]

    def test_record_dropped_for_good_after_a_move(self):
        s = make([["C3", "U6", "U4"], ["S2", "U10", "C9"]], ["O3", "O4", "O5", "S9"], deck=["U8", "U9"], dealt=True)
        s = act(s, "play:C3:R", "swap:O5", "with:S9")
        assert s.field == ["O3", "O4", "S9", "O5", "C3"] and s.records == []
        s = act(s, "play:S2:R", "move:S9", "to:R")   # O3 O4 O5 again, as dealt: now it scores
        assert s.piles[1] == ["O3", "O4", "O5"]

    def test_gap_closing_is_not_a_move(self):
        s = make([["C5", *FILL], ["C8"]], ["O3", "O4", "O5", "S9", "C8"], deck=["U8"], dealt=True)
        s = act(s, "play:C5:R", "bench:S9")
        assert s.field == ["O3", "O4", "O5", "C8", "C5"] and s.piles[0] == []
        assert s.records == [["O3", "O4", "O5"]]

    def test_gap_closing_that_extends_it_scores(self):
        s = make([["C5", *FILL], ["C8"]], ["O3", "O4", "O5", "S9", "O6"], deck=["U8"], dealt=True)
        assert s.records == [["O3", "O4", "O5"]]
        s = act(s, "play:C5:R", "bench:S9")
        assert s.piles[0] == ["O3", "O4", "O5", "O6"]

    def test_moving_a_card_to_its_own_end_keeps_record(self):
        s = make([["U2", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U8"], dealt=True)
        s = act(s, "play:U2:R", "move:O3", "to:L")
        assert s.piles[0] == [] and s.records == [["O3", "O4", "O5"]]

    def test_moving_a_card_of_it_drops_record(self):
        s = make([["U2", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U8"], dealt=True)
        s = act(s, "play:U2:R", "move:O3", "to:R")
        assert s.records == []

    def test_moving_another_card_away_keeps_record(self):
        s = make([["U2", *FILL], ["C8"]], ["S9", "O3", "O4", "O5", "C8"], deck=["U8"], dealt=True)
        s = act(s, "play:U2:R", "move:S9", "to:R")
        assert s.field == ["O3", "O4", "O5", "C8", "U2", "S9"] and s.piles[0] == []
        assert s.records == [["O3", "O4", "O5"]]

    def test_nine_drops_every_record(self):
        s = make([["U9", *FILL], ["C8"]], ["O3", "O4", "O5", "S1", "C1"], deck=["U8"], dealt=True)
        assert len(s.records) == 2
        s = act(s, "play:U9:R")
        assert s.records == [] and E.view(s, None)["dealt_formations"] == []

    def test_unscorable_dealt_formations_take_no_part_in_the_choice(self):
        s = make([["C5", *FILL], ["C8"]], ["U1", "U9", "S1", "O2", "C3"], deck=["U8"], dealt=True)
        assert s.records == [["S1", "O2", "C3"]]
        s = act(s, "play:C5:L", "bench:U9")
        assert s.piles[0] == ["U1", "S1"] and s.field == ["C5", "O2", "C3"]
        assert s.records == []  # S1 left the field (scored): the record is dropped for good

    def test_card_taken_by_a_4_drops_record(self):
        s = make([["C4", *FILL], ["C8"]], ["O3", "O4", "O5", "U1"], deck=["U8"], dealt=True)
        s = act(s, "play:C4:R", "take:O5")   # played next to U1, not next to the formation
        assert s.field == ["O3", "O4", "U1", "C4"] and "O5" in s.hands[0]
        assert s.records == [] and E.view(s, None)["dealt_formations"] == []

    def test_card_benched_by_a_10_drops_record(self):
        s = make([["C10", *FILL], ["C8"]], ["O3", "O4", "O5", "S9"], deck=["U8"], dealt=True)
        s = act(s, "play:C10:R")              # benches O3 and O4 from the far (left) end
        assert s.field == ["O5", "S9", "C10"] and set(s.bench) == {"O3", "O4"}
        assert s.records == []

    def test_record_stands_when_other_cards_leave_and_nothing_is_placed_next_to_it(self):
        # a 10 at the right end benches two cards at the left end that are not part of the record
        s = make([["C10", *FILL], ["C8"]], ["U1", "C7", "O3", "O4", "O5", "S9"], deck=["U8"], dealt=True)
        assert s.records == [["O3", "O4", "O5"]]
        s = act(s, "play:C10:R")
        assert s.field == ["O3", "O4", "O5", "S9", "C10"] and s.piles[0] == []   # gap closing is no move
        assert s.records == [["O3", "O4", "O5"]]


class TestBonusPlay:
    def test_clear_field_deals_four_and_plays_again_without_drawing(self):
        s = make([["O3", "U8", "C2"], ["C8"]], ["S3"], deck=["S6", "U9", "O1", "C10", "S2", "O8"])
        s = act(s, "play:O3:L")
        assert s.piles[0] == ["O3", "S3"]
        assert s.field == ["S6", "U9", "O1", "C10"] and s.seat == 0
        assert s.hands[0] == ["C2", "U8"] and E.legal_actions(s, 0)[0].startswith("play:")
        assert E.view(s, None)["bonus"] == 1
        s = act(s, "play:C2:R", "move:S6", "to:R")
        assert s.seat == 1 and len(s.hands[0]) == 2 + 1 and s.deck == []

    def test_fewer_than_four_in_deck(self):
        s = make([["O3", "U8"], ["C8"]], ["S3"], deck=["S6", "U9"])
        s = act(s, "play:O3:L")
        assert s.field == ["S6", "U9"] and s.seat == 0

    def test_empty_hand_only_deals_then_draws(self):
        s = make([["O3"], ["C8"]], ["S3"], deck=["S6", "U9", "O1", "C10", "S2", "O8", "C4"])
        s = act(s, "play:O3:L")
        assert s.field == ["S6", "U9", "O1", "C10"]
        assert s.seat == 1 and s.hands[0] == sorted(["S2", "O8", "C4"], key=card_key)

    def test_bonus_repeats(self):
        s = make([["O3", "U1", "C9"], ["C8"]], ["S3"], deck=["S1", "U9", "O10", "C10", "S2", "O8", "C4", "U4"])
        s = act(s, "play:O3:L")
        assert s.field == ["S1", "U9", "O10", "C10"] and s.records == [["O10", "C10"]]
        s = act(s, "play:U1:L")   # U1 next to S1: 1 1 scores; O10 C10 stays a dealt formation
        assert s.piles[0] == ["O3", "S3", "U1", "S1"] and s.field == ["U9", "O10", "C10"]

    def test_second_bonus(self):
        s = make([["O3", "O1", "C9"], ["C8"]], ["S3"], deck=["O6", "O7", "O8"])
        s = act(s, "play:O3:L")
        assert s.field == ["O6", "O7", "O8"] and s.bonus == 1
        s = act(s, "play:O1:L")   # team O1 O6 O7 O8 overlaps the sequence O6 O7 O8: a choice
        assert E.legal_actions(s, 0) == ["score:0", "score:1"]
        s = act(s, "score:0")     # all four score; the deck is empty: nothing dealt, bonus again
        assert s.piles[0] == ["O3", "S3", "O1", "O6", "O7", "O8"]
        assert s.field == [] and s.seat == 0 and s.bonus == 2
        assert E.legal_actions(s, 0) == ["play:C9:L", "play:C9:R"]

    def test_bonus_with_empty_deck_plays_on_empty_field(self):
        s = make([["O3", "U8"], ["C8"]], ["S3"])
        s = act(s, "play:O3:L")
        assert s.field == [] and s.seat == 0 and E.legal_actions(s, 0) == ["play:U8:L", "play:U8:R"]


class TestDrawing:
    def test_draw_up_to_four_at_end_of_turn(self):
        s = make([["O9", "S2"], ["C8"]], ["U7"], deck=["S6", "U9", "O1", "C10"])
        s = act(s, "play:S2:R", "move:U7", "to:R")
        assert s.hands[0] == sorted(["O9", "S6", "U9", "O1"], key=card_key) and s.deck == ["C10"]

    def test_draw_as_many_as_the_deck_has(self):
        s = make([["O9", "S2"], ["C8"]], ["U7"], deck=["S6"])
        s = act(s, "play:S2:R", "move:U7", "to:R")
        assert s.hands[0] == ["O9", "S6"] and s.deck == [] and s.deck_out == 1

    def test_no_draw_with_four_or_more(self):
        s = make([["O4", "S2", "U2", "U3"], ["C8"]], ["U7"], deck=["S6"])
        s = act(s, "play:O4:R")
        assert len(s.hands[0]) == 4 and s.deck == ["S6"]

    def test_empty_hand_at_start_of_turn_draws_four(self):
        s = make([["O9", *FILL], []], ["U7"], deck=["S6", "U9", "O1", "C10", "S2", "O8", "C4"])
        s = act(s, "play:U2:R", "move:U7", "to:R")
        assert s.seat == 1 and len(s.hands[1]) == 4 and s.pending == ["play"]
        assert any("draws 4" in e for e in E.events(s))

    def test_empty_hand_draws_as_many_as_the_deck_has(self):
        s = make([["O9", *FILL], []], ["U7"], deck=["S6", "U9"])
        s = act(s, "play:U2:R", "move:U7", "to:R")
        assert s.seat == 1 and s.hands[1] == ["S6", "U9"] and s.pending == ["play"]

    def test_empty_hand_and_empty_deck_turn_ends_at_once(self):
        s = make([["O9", "C4"], [], ["U9", "U3"]], ["U7", "S1"], first=0)
        s = act(s, "play:C4:R", "take:U7")
        assert s.seat == 2 and s.turns == 3
        assert any("{p1} has no cards" in e for e in E.events(s))


class TestEndOfGame:
    """5s and 10s keep a single card on the field; other cards stay in hand."""

    @staticmethod
    def seats_of_turns(s: State, plays: list[str]) -> tuple[list[int], State]:
        seen = []
        for card in plays:
            assert not s.over
            seen.append(s.seat)
            s = finish_turn(s, card)
        assert s.over and s.result == "deck"
        return seen, s

    def test_2p_deck_runs_out_on_first_players_turn(self):
        s = make([["O5", "S10", "C5", "U2"], ["O10", "U5", "C2", "C3"]], [], deck=["U3"], first=0)
        seen, s = self.seats_of_turns(s, ["O5", "O10"])
        assert seen == [0, 1]

    def test_2p_deck_runs_out_on_last_seats_turn(self):
        s = make([["O5", "S10", "C5", "U2", "U4"], ["O10", "U5", "C2", "C3"]], [], deck=["U3"], first=0)
        seen, s = self.seats_of_turns(s, ["O5", "O10", "S10", "U5"])
        assert seen == [0, 1, 0, 1]

    def test_2p_first_player_1(self):
        s = make([["O5", "S10", "C5", "U2"], ["O10", "U5", "C2", "C3"]], [], deck=["U3"], first=1, seat=1)
        seen, s = self.seats_of_turns(s, ["O10", "O5"])
        assert seen == [1, 0]

    def test_3p_deck_runs_out_mid_round(self):
        hands = [["O5", "U2", "U3", "U4"], ["O10", "S2", "S3", "S4", "S6"], ["C5", "C2", "C3", "C4"]]
        s = make(hands, [], deck=["U6"], first=1, seat=1)
        seen, s = self.seats_of_turns(s, ["O10", "C5", "O5"])
        assert seen == [1, 2, 0]

    def test_3p_deck_runs_out_on_last_seats_turn(self):
        hands = [["O5", "S10", "U2", "U3"], ["O10", "S5", "S2", "S3", "S4"], ["C5", "C10", "C2", "C3", "C4"]]
        s = make(hands, [], deck=["U6"], first=1, seat=1)
        seen, s = self.seats_of_turns(s, ["O10", "C5", "O5", "S5", "C10", "S10"])
        assert seen == [1, 2, 0, 1, 2, 0]

    def test_4p_deck_runs_out_on_second_seats_turn(self):
        hands = [["O5", "O2", "O3", "O4"], ["O10", "S2", "S3", "S4"], ["C5", "C2", "C3", "C4", "C6"],
                 ["U10", "U2", "U3", "U4"]]
        s = make(hands, [], deck=["U6"], first=2, seat=2)
        seen, s = self.seats_of_turns(s, ["C5", "U10", "O5", "O10"])
        assert seen == [2, 3, 0, 1] and s.deck_out == 2

    def test_4p_deck_runs_out_on_first_players_turn(self):
        hands = [["O5", "O2", "O3", "O4"], ["O10", "S2", "S3", "S4"], ["C5", "C2", "C3", "C4"],
                 ["U10", "U2", "U3", "U4"]]
        s = make(hands, [], deck=["U6"], first=2, seat=2)
        seen, s = self.seats_of_turns(s, ["C5", "U10", "O5", "O10"])
        assert seen == [2, 3, 0, 1] and s.deck_out == 1

    def test_4p_deck_runs_out_on_last_seats_turn(self):
        hands = [["O5", "O10", "O2", "O3", "O4"], ["S5", "S10", "S2"], ["C5", "C10", "C2", "C3", "C4"],
                 ["U10", "U5", "U2", "U3", "U4"]]
        s = make(hands, [], deck=["U6"], first=2, seat=2)
        seen, s = self.seats_of_turns(s, ["C5", "U10", "O5", "S5", "C10", "U5", "O10", "S10"])
        assert seen == [2, 3, 0, 1, 2, 3, 0, 1] and s.deck_out == 4

    def test_highest_score_wins(self):
        s = make([["O5", "U2", "U3", "U4"], ["C5"]], [], deck=["U6", "U7"], max_turns=1,
                 piles=[["O10", "S9"], ["C10"]])
        s = finish_turn(s, "O5")
        assert s.over and s.result == "max_turns" and E.outcome(s) == [1, 2]
        assert any("Game over" in e for e in E.events(s))

    def test_tie_break_on_scored_cards(self):
        s = make([["O5", "U2", "U3", "U4"], ["C5"]], [], deck=["U6"], max_turns=1,
                 piles=[["O10"], ["C5", "S5"]])
        assert E.outcome(finish_turn(s, "O5")) == [2, 1]

    def test_full_tie_shares_the_place(self):
        s = make([["O5", "U2", "U3", "U4"], ["C5"], ["C6"]], [], deck=["U6"], max_turns=1,
                 piles=[["O10"], ["C10"], ["S1"]])
        assert E.outcome(finish_turn(s, "O5")) == [1, 1, 3]

    def test_max_turns_option(self):
        s = E.new_game(3, 5, {"max_turns": 4})
        while not s.over:
            s = E.apply(s, s.seat, E.legal_actions(s, s.seat)[0])
        assert s.turns == 4 and s.result == "max_turns"
        v = E.view(s, None)
        assert v["over"] and v["outcome"] == E.outcome(s)


class TestStalemate:
    def test_a_scoring_turn_breaks_the_streak(self):
        # 4s passed back and forth beside a dealt pair that never scores; the fourth 4 takes a card of
        # that pair, so the two 4s left side by side score: same number, deck unchanged, but a score.
        base = make([["O4", "U2", "U3", "U5"], ["S4", "C2", "C3", "C5"]], ["C4", "U9", "S9"],
                    deck=["U10", "S10"], dealt=True)
        assert base.records == [["U9", "S9"]]
        s = act(base, "play:O4:L", "take:C4", "play:S4:L", "take:O4", "play:C4:L", "take:S4")
        assert s.streak_len == 3 and s.field == ["C4", "U9", "S9"] and s.piles == [[], []]
        scored = act(s, "play:O4:L", "take:U9")
        assert scored.piles[1] == ["O4", "C4"] and len(scored.deck) == 2
        assert not scored.over and scored.streak_len == 0
        # the same fourth turn without the score ends the game in a stalemate
        quiet = act(s, "play:O4:L", "take:C4")
        assert quiet.over and quiet.result == "stalemate" and E.outcome(quiet) == [1, 1]

    def test_four_turns_same_number_nothing_scored_deck_unchanged(self):
        s = make([["O4", "U2", "U3", "U5"], ["S4", "C2", "C3", "C5"]], ["C4"], deck=["U9", "U10"])
        for i, card in enumerate(["O4", "S4", "C4", "O4"]):
            assert not s.over
            s = finish_turn(s, card)
            assert s.streak_len == i + 1 or s.over
        assert s.over and s.result == "stalemate" and E.outcome(s) == [1, 1]

    def test_three_turns_is_not_enough(self):
        s = make([["O4", "U2", "U3", "U5"], ["S4", "C2", "C3", "C5"]], ["C4"], deck=["U9", "U10"],
                 piles=[["O10"], []])
        for card in ["O4", "S4", "C4"]:
            s = finish_turn(s, card)
        assert not s.over

    def test_different_number_breaks_the_streak(self):
        s = make([["O4", "U2", "U3", "U5"], ["S4", "C2", "C3", "C5"]], ["C4"], deck=["U9", "U10"])
        for card in ["O4", "S4", "C4"]:
            s = finish_turn(s, card)
        s = act(s, "play:C5:R")     # a 5 benches: hand drops to 3 and draws, a different number
        assert not s.over and s.streak_len == 0

    def test_deck_change_breaks_the_streak(self):
        s = make([["O4", "U2", "U3", "U5"], ["S4", "C2", "C3", "C5"]], ["C4"], deck=["U9", "U10", "S9"])
        s = finish_turn(s, "O4")   # 4 - 1 played + 1 taken = 4: no draw
        assert s.streak_len == 1
        s = make([["O4", "U2", "U3"], ["S4", "C2", "C3", "C5"]], ["C4"], deck=["U9", "U10", "S9"])
        s = finish_turn(s, "O4")   # 3 - 1 + 1: draws one, the deck changed
        assert s.streak_len == 0


class TestViewsAndLabels:
    def test_required_keys_and_no_hidden_cards(self):
        s = E.new_game(3, 21)
        pub = E.view(s, None)
        for key in ("game", "num_players", "status", "to_act", "over"):
            assert key in pub
        assert pub["game"] == "ogre_cheerleaders" and "seat" not in pub and "hand" not in pub
        seen = strings(pub)
        for h in s.hands:
            assert not seen & set(h)
        assert not seen & set(s.deck)
        assert "rng" not in pub and "deck" not in pub
        v1 = E.view(s, 1)
        assert v1["seat"] == 1 and v1["hand"] == s.hands[1]
        assert not strings(v1) & (set(s.hands[0]) | set(s.hands[2]) | set(s.deck))
        json.dumps(pub)

    def test_bench_is_the_full_list_bottom_to_top(self):
        s = make([["O5", *FILL], ["C8"]], ["S1", "C9"], deck=["U8"], bench=["U1", "S7"])
        s = act(s, "play:O5:L", "bench:C9")
        v = E.view(s, None)
        assert v["bench"] == ["U1", "S7", "C9"] and v["bench_count"] == 3 and v["bench_top"] == "C9"

    def test_describe_and_labels(self):
        s = make([["O7", *FILL], ["C8"]], ["S1"], deck=["S5", "U8"])
        for a in E.legal_actions(s, 0):
            assert 0 < len(E.describe(s, a)) <= 100
        s = act(s, "play:O7:L")
        assert "S5" in E.describe(s, "place:R")
        assert "S5" not in E.public_label(s, 0, "place:R")
        s = act(s, "place:R")
        assert any("S5" in e for e in E.events(s))

    def test_dump_load_roundtrip(self):
        s = make([["O6", *FILL], ["C8", "C10"], ["S5"]], ["U1", "C9"], deck=["U8"])
        s = act(s, "play:O6:R")
        d = E.dump(s)
        assert json.dumps(E.dump(E.load(json.loads(json.dumps(d)))), sort_keys=True) == json.dumps(d, sort_keys=True)
        with pytest.raises(ValueError):
            E.load({"n": 2})
