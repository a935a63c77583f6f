"""Table options with the values each game can use: what `/game new options:` accepts and `/game rules` lists.

The rules files give each option's default; the bounds here are what a table can sensibly use (a game
capped at 5,000 turns ends long after any real one would), so that no option can make a table run on
for hours of bot moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines import Engine
from host.errors import Figure, GameTitle, Phrase, Refusal, Several
from i18n import N_
from render.markup import in_code

#: Bounds of the whole-number options, by name: (lowest, highest). King Pedro's rules play to 262 or 200;
#: a lower target keeps a quick game (and the tests' games) short, a higher one is never used.
BOUNDS: Mapping[str, tuple[int, int]] = {"max_turns": (1, 5_000), "max_rounds": (1, 500), "target": (1, 262)}
#: Options that take one of a few values.
CHOICES: Mapping[str, tuple[int, ...]] = {}


@dataclass(frozen=True)
class TableOption:
    """One option of a game: its default and the values it takes."""

    name: str
    default: bool | int
    low: int | None = None
    high: int | None = None
    choices: tuple[int, ...] = ()

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    def values(self) -> Phrase:
        """The values it takes, in words: "true or false", "200 or 262", "a whole number from 20 to 5,000"."""
        if self.is_flag:
            return Phrase(N_("true or false"))
        if self.choices:
            *first, last = (Figure(c) for c in self.choices)
            return Phrase(N_("{first} or {last}"), first=Several(first), last=last)
        return Phrase(N_("a whole number from {low} to {high}"), low=Figure(self.low or 0), high=Figure(self.high or 0))

    def describe(self) -> Phrase:
        # A flag's default is the word typed in the option (true, false), the same in every language.
        default = str(self.default).lower() if self.is_flag else f"{self.default}"
        return Phrase(N_("`{name}`: {values} (default {default})"), name=self.name, values=self.values(),
                      default=default)

    def problem(self, value: Any) -> Phrase | None:
        """Why ``value`` is not one this option takes, or None when it is."""
        if self.is_flag:
            return None if isinstance(value, bool) else Phrase(N_("`{name}` is {values}"), name=self.name,
                                                                 values=self.values())
        if isinstance(value, bool) or not isinstance(value, int):
            return Phrase(N_("`{name}` is {values}"), name=self.name, values=self.values())
        out_of_range = self.low is not None and self.high is not None and not self.low <= value <= self.high
        if (self.choices and value not in self.choices) or out_of_range:
            return Phrase(N_("`{name}` is {values}, not {value}"), name=self.name, values=self.values(),
                          value=Figure(value))
        return None


def table_options(engine: Engine) -> tuple[TableOption, ...]:
    """Every option of ``engine``'s tables, in the order its defaults list them."""
    out = []
    for name, default in engine.default_options.items():
        if isinstance(default, bool):
            out.append(TableOption(name, default))
        elif name in CHOICES:
            out.append(TableOption(name, default, choices=CHOICES[name]))
        else:
            low, high = BOUNDS.get(name, (1, max(int(default) * 5, 1)))
            out.append(TableOption(name, default, low, high))
    return tuple(out)


def listing(engine: Engine) -> Phrase:
    """The game's options in a sentence a refusal or `/game rules` can show (words translated where shown)."""
    found = table_options(engine)
    if not found:
        return Phrase(N_("{title} tables have no options."), title=GameTitle(engine.title))
    return Phrase(N_("{title} options: {options}."), title=GameTitle(engine.title),
                  options=Several((option.describe() for option in found), sep="; "))


#: A refusal followed by the game's options (no words of their own, so not message ids to translate).
WITH_OPTIONS = "{refusal} {options}"
WITH_OPTIONS_AFTER = "{refusal}. {options}"


def check_table_options(engine: Engine, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` merged over the game's defaults; an unknown option or a value out of range raises Refusal
    naming every option the game has, with its values."""
    known = {option.name: option for option in table_options(engine)}
    merged: dict[str, Any] = {name: option.default for name, option in known.items()}
    for key, value in (options or {}).items():
        option = known.get(key)
        if option is None:
            raise Refusal(WITH_OPTIONS, refusal=Phrase(N_("`{name}` is an unknown option for {title}."),
                                                       name=in_code(key[:40]), title=GameTitle(engine.title)),
                          options=listing(engine))
        if (why := option.problem(value)) is not None:
            raise Refusal(WITH_OPTIONS_AFTER, refusal=why, options=listing(engine))
        merged[key] = value
    return merged
