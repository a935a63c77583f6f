"""The King Pedro engine object: the contract (engines.contract.Engine) over the round logic."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from data.editions import king_pedro as edition
from engines.contract import IllegalAction, Options, View, check_options
from engines.king_pedro import bot, hidden
from engines.king_pedro.playout import PlayoutResult, random_playout
from engines.king_pedro.round import (
    DUMP_VERSION,
    State,
    _deal,
    _frozen,
    _ntrumps,
    _plain,
    bid,
    decide_trumps,
    discard,
    finish_discarding,
    name_trump,
    play,
)
from engines.king_pedro.rules import (
    _BIDS,
    _DCLASS,
    _DECK_SET,
    _DISCARD,
    _PLAY,
    _POINTS,
    _TRUMP_ACTIONS,
    _TRUMPS,
    DEFAULT_OPTIONS,
    HAND,
    MAX_BID,
    MIN_BID,
    SYM,
    TEAMS,
    TITLE,
    TRICKS,
    N,
    legal_discards,
    legal_plays,
    places,
    pretty,
)
from engines.rng import Rng, seed_state
from i18n import N_, msg, said, said_n


def _not_a_card(code: str) -> str:
    return said("{code} is not a card (use codes like AS, 10H, 5D, 2C)", code=repr(code))


class KingPedroEngine:
    game_id = "king_pedro"
    title = TITLE
    min_players = 4
    max_players = 4
    #: The partnerships, partners opposite: team 0 is seats 0 & 2, team 1 seats 1 & 3 (``seat % 2``).
    #: The host reads this to seat human partners together when bots fill the other seats.
    teams: tuple[tuple[int, int], ...] = TEAMS
    summary = N_(
        "**Canadian and Ukrainian King Pedro**: 4 players, partners opposite (seats 1 & 3 against 2 & 4).\n"
        "- Deal 9 each. Bid 30-62 (or pass for good); three passes end it, four passes mean a redeal.\n"
        "- The bidder names trump. Trumps are that suit plus the **other five** (the 5 of the same colour), "
        "ranked A K Q J 10 9 8 7 6 5, other five, 4 3 2.\n"
        "- Deal 4 more each (13). From the bidder, a player with 1-2 trumps may pass them to their partner "
        "and fold; then everyone without trumps folds.\n"
        "- Reduce to 6: keep all your trumps (up to 6); with more than 6, discard non-scoring trumps "
        "(Q 8 7 6 4 3), then the 2, then others, face up; such discards score for nobody.\n"
        "- Six tricks, bidder leads (first lead must be a trump). Follow trump with trump; follow a non-trump "
        "with any non-trump. Highest trump wins; a trick with no trump goes to its leader.\n"
        "- Points: K 30, 10 10, 9 9, 5 5, other five 5, A 1, J 1, 2 1 (the 2 scores for whoever played it): 62.\n"
        "- Defenders always score; the bidders score their points if they reach the bid, else lose the bid.\n"
        "- Win by reaching the target (default 262) on a made bid. The deal passes left each round."
    )

    def __init__(self) -> None:
        self.default_options: Options = dict(DEFAULT_OPTIONS)

    # -- setup ------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: Options | None = None) -> State:
        if num_players != N:
            raise ValueError("King Pedro needs exactly 4 players")
        opts = check_options(self, options)
        s = object.__new__(State)
        rng = Rng(seed_state(seed))
        s.target, s.max_rounds = opts["target"], opts["max_rounds"]
        s.dealer = rng.below(N)
        s.rng = rng.state
        s.round = 1
        s.scores = (0, 0)
        s.winner = -1
        s.last_round = None
        events: list[str] = []
        _deal(s, events)
        s.events = tuple(events)
        return s

    # -- queries ----------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        if state.phase == "over":
            return []
        if state.phase == "discarding":
            return [p for p in range(N) if not state.folded[p] and not state.done[p]]
        return [state.turn]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        phase = state.phase
        if phase == "over":
            return []
        if phase == "discarding":
            if not isinstance(seat, int) or not 0 <= seat < N or state.folded[seat] or state.done[seat]:
                return []
            hand = state.hands[seat]
            if len(hand) <= HAND:
                return ["done"]
            return [_DISCARD[c] for c in legal_discards(hand, state.trump)]
        if seat != state.turn:
            return []
        if phase == "playing":
            led = state.trick[0][1] if state.trick else None
            return [_PLAY[c] for c in legal_plays(state.hands[seat], led, state.trump, state.trick_no == 0)]
        if phase == "bidding":
            return [*_BIDS[max(0, state.bid + 1 - MIN_BID):], "pass"]
        if phase == "trump":
            return list(_TRUMP_ACTIONS)
        return ["pass_trumps", "keep"]

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> list[int]:
        if state.phase != "over":
            raise ValueError("the game is not over")
        return places(state.winner)

    def events(self, state: State) -> list[str]:
        return list(state.events)

    # -- apply ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: str) -> State:
        if seat.__class__ is not int or action.__class__ is not str or action not in self.legal_actions(state, seat):
            raise IllegalAction(self._refusal(state, seat, action))
        s = object.__new__(State)
        s.__dict__.update(state.__dict__)
        events: list[str] = []
        phase = s.phase
        if phase == "discarding":
            if action == "done":
                finish_discarding(s, seat, events)
            else:
                discard(s, seat, action[8:])
        elif phase == "playing":
            play(s, seat, action[5:], events)
        elif phase == "bidding":
            bid(s, seat, 0 if action == "pass" else int(action[4:]), events)
        elif phase == "trump":
            name_trump(s, action[6:], events)
        else:
            decide_trumps(s, seat, action == "pass_trumps", events)
        s.events = tuple(events)
        return s

    # Why a move is not in legal_actions, in the words a player needs; only reached for a refused move.
    def _refusal(self, s: State, seat: object, action: object) -> str:
        phase = s.phase
        if phase == "over":
            return said("The game is over.")
        if seat.__class__ is not int or not 0 <= seat < N:  # type: ignore[operator]
            return said("There is no seat {seat} at this table.", seat=repr(seat))
        assert isinstance(seat, int)
        if action.__class__ is not str or not action:
            return said("An action must be a non-empty text.")
        assert isinstance(action, str)
        if phase == "discarding":
            if s.folded[seat]:
                return said("You have folded this round.")
            if s.done[seat]:
                return said("You have already finished discarding.")
            return self._discard_refusal(s, seat, action)
        if seat != s.turn:
            return said("It is not your turn.")
        if phase == "bidding":
            return self._bid_refusal(s, action)
        if phase == "trump":
            return said("Name trump with trump:S, trump:H, trump:D or trump:C.")
        if phase == "passing":
            return said("Choose pass_trumps (give your trumps to your partner and fold) or keep.")
        return self._play_refusal(s, seat, action)

    @staticmethod
    def _bid_refusal(s: State, action: str) -> str:
        if not action.startswith("bid:"):
            return said("In the auction you may only bid (bid:{low} to bid:{high}) or pass.", low=MIN_BID,
                        high=MAX_BID)
        try:
            n = int(action[4:])
        except ValueError:
            return said("{value} is not a number.", value=repr(action[4:]))
        if action[4:] != str(n) or not MIN_BID <= n <= MAX_BID:
            return said("Bids are whole numbers from {low} to {high}.", low=MIN_BID, high=MAX_BID)
        return said("You must bid more than the current bid of {bid}.", bid=s.bid)

    @staticmethod
    def _discard_refusal(s: State, seat: int, action: str) -> str:
        hand = s.hands[seat]
        if action == "done":
            return said("Discard down to {hand} cards first ({more} more to go).", hand=HAND, more=len(hand) - HAND)
        if not action.startswith("discard:"):
            return said("While reducing to 6, discard one card (discard:<card>) at a time, then done.")
        card = action[8:]
        if card not in _DECK_SET:
            return _not_a_card(card)
        if card not in hand:
            return said("You do not hold {card}.", card=pretty(card))
        if len(hand) <= HAND:
            return said("You already hold {n} cards: choose done.", n=HAND)
        held = [c for c in hand if c in _TRUMPS[s.trump]]
        if len(held) <= HAND:
            return said("You must keep all your trumps: discard non-trumps.")
        if min(_DCLASS[s.trump][c] for c in held) == 0:
            return said("Discard your non-scoring trumps (Q 8 7 6 4 3) before any scoring trump.")
        return said("Discard the 2 of trump before any other scoring trump.")

    @staticmethod
    def _play_refusal(s: State, seat: int, action: str) -> str:
        if not action.startswith("play:"):
            return said("Play a card with play:<card>.")
        card = action[5:]
        if card not in _DECK_SET:
            return _not_a_card(card)
        if card not in s.hands[seat]:
            return said("You do not hold {card}.", card=pretty(card))
        if not s.trick:
            return said("The first lead of the round must be a trump.")
        if s.trick[0][1] in _TRUMPS[s.trump]:
            return said("A trump was led: you must play a trump.")
        return said("A non-trump was led: you must play a non-trump (any suit).")

    # -- random playouts ----------------------------------------------------
    def random_playout(self, seed: int, options: Options | None = None, bot_seed: int | None = None
                       ) -> PlayoutResult:
        """The game RandomBot(bot_seed) plays from ``new_game(4, seed, options)``, without a copy per move.

        See ``engines.king_pedro.playout``, which shares the rule helpers and not this module.
        """
        return random_playout(seed, options, bot_seed)

    # -- bot player -------------------------------------------------------
    def bot_move(self, state: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
        """The King Pedro bot's choice among ``actions`` (see ``engines.king_pedro.bot``)."""
        return bot.choose(state, seat, actions, draw)

    # -- search hooks -----------------------------------------------------
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from ``state`` (see ``engines.king_pedro.hidden``)."""
        return hidden.determinize(state, seat, rng)

    def evaluate(self, state: State) -> list[float]:
        return hidden.evaluate(state)

    # -- labels -----------------------------------------------------------
    def describe(self, state: State, action: str) -> str:
        verb, _, arg = action.partition(":")
        if verb == "bid":
            return said("Bid {bid}", bid=arg)
        if action == "pass":
            return said("Pass (you are out of this auction)")
        if verb == "trump" and arg in SYM:
            return said("Name {suit} {sign} as trump", suit=msg(edition.SUIT_NAMES[arg]), sign=SYM[arg])
        if action == "pass_trumps":
            return said("Pass your trumps to your partner and fold")
        if action == "keep":
            return said("Keep your trumps and play")
        if action == "done":
            return said("Done: keep these 6 cards")
        if verb == "discard" and arg in _DECK_SET:
            up = state.trump and arg in _TRUMPS[state.trump]
            return (said("Discard {card} face up", card=pretty(arg)) if up
                    else said("Discard {card} face down", card=pretty(arg)))
        if verb == "play" and arg in _DECK_SET:
            return said("Play {card}", card=pretty(arg))
        return action[:100]

    def public_label(self, state: State, seat: int, action: str) -> str:
        verb, _, arg = action.partition(":")
        if verb == "discard":
            if state.trump and arg in _TRUMPS[state.trump]:
                return said("discards {card} face up", card=pretty(arg))
            return said("discards a card face down")
        if action == "pass_trumps":
            n = _ntrumps(state.hands[seat], state.trump) if state.trump else 0
            return said_n("passes {n} trump to their partner and folds", "passes {n} trumps to their partner and folds",
                          n)
        if action == "done":
            return said("is done discarding")
        if action == "pass":
            return said("passes")
        if action == "keep":
            return said("keeps their trumps")
        if verb == "bid":
            return said("bids {bid}", bid=arg)
        if verb == "trump" and arg in SYM:
            return said("names {suit} {sign} as trump", suit=msg(edition.SUIT_NAMES[arg]), sign=SYM[arg])
        if verb == "play" and arg in _DECK_SET:
            return said("plays {card}", card=pretty(arg))
        return said("acts")

    # -- views ------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        s = state
        over = s.phase == "over"
        v: dict[str, Any] = {
            "game": self.game_id,
            "num_players": N,
            "status": self._status(s),
            "to_act": self.to_act(s),
            "over": over,
            "phase": s.phase,
            "round": s.round,
            "max_rounds": s.max_rounds,
            "target": s.target,
            "teams": [list(t) for t in TEAMS],
            "scores": list(s.scores),
            "dealer": s.dealer,
            "bid": s.bid or None,
            "bidder": s.bidder if s.bidder >= 0 else None,
            "auction": [[p, n if n else "pass"] for p, n in s.auction],
            "passed": [p for p in range(N) if s.out[p]] if s.phase == "bidding" else [],
            "trump": s.trump or None,
            "other_five_suit": edition.SAME_COLOUR[s.trump] if s.trump else None,
            "hand_counts": [len(h) for h in s.hands],
            "stock_count": len(s.stock),
            "folded": [p for p in range(N) if s.folded[p]],
            "trump_passes": [list(x) for x in s.passes],
            "faceup_discards": [[p, c] for p, c in s.faceup],
            "facedown_counts": [len(x) for x in s.facedown],
            "discard_done": [p for p in range(N) if s.done[p]] if s.phase == "discarding" else [],
            "trick": [[p, c] for p, c in s.trick],
            "trick_leader": s.trick[0][0] if s.trick else (s.turn if s.phase == "playing" else None),
            "tricks_played": s.trick_no,
            "tricks_won": list(s.tricks_won),
            "round_points": list(s.team_pts),
            "last_trick": [[p, c] for p, c in s.last_trick],
            "last_trick_winner": s.last_winner if s.last_winner >= 0 else None,
            "last_round": _plain(s.last_round),
            "winner": None if not over else ("tie" if s.winner == 2 else s.winner),
        }
        if over:
            v["outcome"] = self.outcome(s)
        if seat is not None:
            hand = s.hands[seat]
            v["seat"] = seat
            v["hand"] = list(hand)
            trumps = _TRUMPS[s.trump] if s.trump else frozenset()
            v["trumps"] = [c for c in hand if c in trumps]
            pts = _POINTS[s.trump] if s.trump else {}
            v["scoring"] = [c for c in hand if c in pts]
            acts = self.legal_actions(s, seat)
            v["playable"] = [a[5:] for a in acts if a.startswith("play:")]
            v["discardable"] = [a[8:] for a in acts if a.startswith("discard:")]
            v["facedown_discards"] = list(s.facedown[seat])
            v["folded_cards"] = list(s.folded_cards[seat])
            v["legal_actions"] = acts
        return v

    def _status(self, s: State) -> str:
        if s.phase == "over":
            a, b = s.scores
            if s.winner == 2:
                return said("Game over after {rounds} rounds: tied at {points}", rounds=s.round, points=a)
            team = msg("Team A (seats 1 & 3)") if s.winner == 0 else msg("Team B (seats 2 & 4)")
            return said("Game over after {rounds} rounds: {team} wins, {points} to {other_points}", rounds=s.round,
                        team=team, points=a, other_points=b)
        if s.phase == "bidding":
            high = msg("high bid {bid}", bid=s.bid) if s.bid else msg("no bid yet")
            return said("Round {round} · Bidding: {high}, {passed} passed", round=s.round, high=high,
                        passed=sum(s.out))
        if s.phase == "trump":
            return said("Round {round} · Bid {bid} won: the bidder names trump", round=s.round, bid=s.bid)
        sign = SYM[s.trump]
        if s.phase == "passing":
            return said("Round {round} · trump {sign}, bid {bid}: passing trumps to partners", round=s.round,
                        sign=sign, bid=s.bid)
        if s.phase == "discarding":
            active = N - sum(s.folded)
            return said("Round {round} · trump {sign}, bid {bid}: reducing hands to 6 ({done} of {active} done)",
                        round=s.round, sign=sign, bid=s.bid, done=sum(s.done), active=active)
        return said_n("Round {round} · trump {sign}, bid {bid} · trick {trick} of {tricks}: {n} card in play",
                      "Round {round} · trump {sign}, bid {bid} · trick {trick} of {tricks}: {n} cards in play",
                      len(s.trick), round=s.round, sign=sign, bid=s.bid, trick=s.trick_no + 1, tricks=TRICKS)

    # -- persistence --------------------------------------------------------
    def dump(self, state: State) -> dict[str, Any]:
        d = {k: _plain(v) for k, v in state.__dict__.items()}
        d["v"] = DUMP_VERSION
        return d

    def load(self, data: dict[str, Any]) -> State:
        if data.get("v") != DUMP_VERSION:
            raise ValueError("unknown King Pedro snapshot version")
        s = object.__new__(State)
        # Fields added since version 1 (what tricks showed about voids): absent in older snapshots.
        s.no_trump = s.only_trump = (False,) * N
        for k, v in data.items():
            if k != "v":
                setattr(s, k, _frozen(v))
        return s


ENGINE = KingPedroEngine()
