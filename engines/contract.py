"""The engine contract every game module satisfies (see DESIGN.md)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from i18n import Message, message_of

Options = dict[str, Any]
View = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str(exc)`` is its English reason.

    An engine raises it with a reason said from a message id (``IllegalAction(said("You do not hold {card}.",
    card=...))``), so the presenting layer shows :attr:`message` in the reader's language; seat placeholders
    (``{p1}``) in it are filled with names there, as in the engine's other lines.
    """

    def __init__(self, reason: str = "") -> None:
        super().__init__(reason)
        #: The message the reason was said from (plain English text is its own message id).
        self.message: Message = message_of(reason)


@runtime_checkable
class Engine(Protocol):
    game_id: str
    title: str
    min_players: int
    max_players: int
    #: Table options from rules/<game>.md with their defaults.
    default_options: Options
    #: A short rules summary (Markdown) for ``/game rules``.
    summary: str

    def new_game(self, num_players: int, seed: int, options: Options | None = None) -> Any: ...

    def to_act(self, state: Any) -> list[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[str]: ...

    def apply(self, state: Any, seat: int, action: str) -> Any: ...

    def view(self, state: Any, seat: int | None) -> View: ...

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> list[int]: ...

    def describe(self, state: Any, action: str) -> str: ...

    def public_label(self, state: Any, seat: int, action: str) -> str:
        """What everyone may read about ``seat`` doing ``action`` in ``state``.

        Unlike ``describe`` (shown to the actor), this never names a card the
        table cannot see, e.g. a face-down discard.
        """
        ...

    def events(self, state: Any) -> list[str]:
        """Public sentences about what the last ``apply`` caused (scores, round ends)."""
        ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> Any: ...

    # Optional, looked up with getattr and so not part of the Protocol:
    #   teams: tuple[tuple[int, ...], ...]  partnerships by seat; the host seats humans together.
    #   bot_move(state, seat, actions, draw) -> str  the game's own bot player (engines.bots.bot_action).
    #   describe_for(state, seat, action) -> str  ``describe`` for the seat's own menu, where the label needs
    #       to know whose move it is (Do Over!'s swap step, where every seat acts at once).
    #   random_playout(seed, options, bot_seed)  RandomBot's whole game, faster (engines.simulate).
    #   determinize(state, seat, rng: random.Random) -> state  a state ``seat`` cannot tell from ``state``:
    #       the same view(…, seat) and public history, hidden cards redealt among the places ``seat``
    #       cannot see (honouring what play revealed), the engine RNG reseeded from ``rng`` (engines.search).
    #   evaluate(state) -> list[float]  per seat in [0, 1], from the scores as they stand, so search
    #       values margins and may stop a playout early; partners get equal values (engines.search).


def check_options(engine: Engine, options: Options | None) -> Options:
    """Merge ``options`` over the engine's defaults, refusing unknown keys and wrong types."""
    merged = dict(engine.default_options)
    for key, value in (options or {}).items():
        if key not in merged:
            raise ValueError(f"unknown option {key!r} for {engine.title}")
        default = merged[key]
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"option {key} must be true or false")
        is_whole = isinstance(value, int) and not isinstance(value, bool) and value >= 1
        if isinstance(default, int) and not isinstance(default, bool) and not is_whole:
            raise ValueError(f"option {key} must be a positive whole number")
        merged[key] = value
    return merged
