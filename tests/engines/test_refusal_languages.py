"""Every reason an engine gives for refusing a move is said from a message id: it reads English exactly as its
text, and French and Ukrainian with no English left. Random games of every title, with illegal moves tried at
each step: garbled and mistyped actions, moves of other phases and other players, seats that do not exist."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines import IllegalAction, get_engine
from i18n import Said, say_text
from tests.languages import english_left

GAMES = ("do_over", "king_pedro", "pedwar", "ogre_cheerleaders", "pentawar")
#: Texts no game accepts, and the shapes of every title's actions with arguments that cannot be right.
GARBAGE = ("", "nonsense", "play", "play:", "play:ZZ", "play:ZZ:L", "bid", "bid:", "bid:x", "bid:R5", "bid:R5:x",
           "bid:ZZ:3", "bid:R5:OP,3", "bid:R5:3,4,5", "bid:R5:3,4", "raise:R5:3", "raise:ZZ:3", "raise", "done:x",
           "pass:x", "discard:x", "discard:AS", "up:7", "up:0", "flip:0", "flip:x", "take", "swap:x:0", "swap:7:9",
           "ready", "gather:x", "wing:x", "wing:hand:sun", "wing:pocket:sun:A", "wing:hand:dragon:A",
           "kill:hand:sun:9:A", "kill:hand:sun:0:Z", "alter:hand:moon", "replace:0", "skip", "pass", "trump:X",
           "move:ZZ", "steal:9", "keep:ZZ", "to:L", "score:9", "pass_trumps", "keep", "bid:20", "bid:99",
           "bid:3x")


def mutations(action: str) -> Iterator[str]:
    """An action with one argument changed, dropped or added to: mostly moves the rules refuse."""
    parts = action.split(":")
    yield action + ":extra"
    if len(parts) > 1:
        yield ":".join(parts[:-1])
        for other in ("x", "0", "1", "2", "3", "9", "A", "E", "OP", "2+,5", "10H", "hand", "tableau", "L"):
            yield ":".join([*parts[:-1], other])
            yield ":".join([parts[0], other, *parts[2:]])


def refusals(game: str, seeds: int = 3, steps: int = 150) -> list[str]:
    """The reasons of every refused move tried along random games of ``game`` at each player count."""
    engine = get_engine(game)
    reasons: list[str] = []

    def refused(state: object, seat: object, action: object) -> None:
        try:
            engine.apply(state, seat, action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            reasons.append(exc.args[0])
            assert say_text("en", exc.message) == str(exc)

    for players in range(engine.min_players, engine.max_players + 1):
        pool: set[str] = set(GARBAGE)
        for seed in range(seeds):
            rng = random.Random(seed)
            state = engine.new_game(players, seed)
            for _ in range(steps):
                if engine.is_over(state):
                    break
                acting = engine.to_act(state)
                seat = rng.choice(acting)
                legal = engine.legal_actions(state, seat)
                pool.update(legal)
                tried = {m for a in rng.sample(legal, min(3, len(legal))) for m in mutations(a)}
                tried.update(rng.sample(sorted(pool), min(25, len(pool))))
                for action in sorted(tried - set(legal)):
                    refused(state, seat, action)
                idle = [s for s in range(players) if s not in acting]
                if idle:
                    refused(state, rng.choice(idle), rng.choice(legal))
                refused(state, players + 3, rng.choice(legal))
                refused(state, seat, None)
                state = engine.apply(state, seat, rng.choice(legal))
            if engine.is_over(state):
                refused(state, 0, rng.choice(sorted(pool)))
    return reasons


@pytest.fixture(scope="module")
def reasons() -> dict[str, list[str]]:
    return {game: refusals(game) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_is_said_from_a_message(game: str, reasons: dict[str, list[str]]) -> None:
    found = reasons[game]
    plain = sorted({reason for reason in found if not isinstance(reason, Said)})
    assert not plain, plain[:5]
    # The walk reaches many different reasons, not a few: the test would miss little otherwise.
    ids = {str(reason.message[0]) for reason in found}
    assert len(ids) >= 10, sorted(ids)


@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize("game", GAMES)
def test_no_english_is_left_in_a_refusal(game: str, lang: str, reasons: dict[str, list[str]]) -> None:
    said = sorted({say_text(lang, reason) for reason in reasons[game]})
    assert said
    assert english_left(said, lang) == []
    assert not set(said) & {str(reason) for reason in reasons[game] if len(str(reason)) > 20}


def test_no_engine_refuses_with_plain_text() -> None:
    """Beside the walk (which may miss a rare reason): no ``IllegalAction`` in engines/ is raised with a string
    literal or an f-string, and no helper that words a refusal returns one; each says it from a message id."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "engines"
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                found += [f"{path.name}:{node.lineno}" for arg in node.args
                          if isinstance(arg, (ast.Constant, ast.JoinedStr))]
            wording = isinstance(node, ast.FunctionDef) and any(
                word in node.name for word in ("refusal", "why", "wrong_phase", "not_a_card"))
            if wording:
                found += [f"{path.name}:{ret.lineno}" for ret in ast.walk(node) if isinstance(ret, ast.Return)
                          and isinstance(ret.value, (ast.Constant, ast.JoinedStr))]
    assert found == []
