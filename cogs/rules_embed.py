"""/game rules' embed in the member's language: the summary, the player counts, a real move and the table options."""

from __future__ import annotations

import discord

import i18n
from host.read_models import GameRules, OptionValues


def option_values(option: OptionValues, lang: str = i18n.DEFAULT) -> str:
    # The values themselves (true, false, 262) are what /game new options: takes, so they stay as typed.
    if isinstance(option.default, bool):
        return i18n.t(lang, "true or false")
    if option.choices:
        return i18n.t(lang, " or ").join(str(c) for c in option.choices)
    return i18n.t(lang, "a whole number from {low} to {high}", low=i18n.number(lang, option.low or 0),
                  high=i18n.number(lang, option.high or 0))


def options_text(options: tuple[OptionValues, ...], lang: str = i18n.DEFAULT) -> str:
    if not options:
        return i18n.t(lang, "This game has no table options.")
    return "\n".join(i18n.t(lang, "`{name}`: {values} (default {default})", name=o.name,
                            values=option_values(o, lang), default=default_value(o, lang)) for o in options)


def default_value(option: OptionValues, lang: str) -> str:
    # true/false as /game new options: takes them; a number the language's way (1,000; 1 000)
    if isinstance(option.default, bool):
        return str(option.default).lower()
    return i18n.number(lang, option.default)


def example_value(option: OptionValues) -> str:
    if isinstance(option.default, bool):
        return str(not option.default).lower()
    return str(option.choices[0] if option.choices else option.low)


def rules_embed(rules: GameRules, lang: str) -> discord.Embed:
    """The embed; the engines' summary and move are translated when they were said from message ids."""
    embed = discord.Embed(title=i18n.t(lang, "{game}: rules", game=i18n.title(lang, rules.title)),
                          description=i18n.say_text(lang, rules.summary)[:4000], colour=discord.Colour.blurple())
    players = str(rules.min_players) if rules.min_players == rules.max_players else \
        f"{rules.min_players}–{rules.max_players}"
    embed.add_field(name=i18n.t(lang, "Players"), value=players)
    if rules.example_move:
        embed.add_field(name=i18n.t(lang, "Your moves"), value=i18n.t(
            lang, "Open **Hand / act** on the table message and pick a move, or type `{/play}` and pick one of the "
            "moves it offers, such as **{move}**.", move=i18n.say_text(lang, rules.example_move)), inline=False)
    example = ""
    if rules.options:
        example = "\n" + i18n.t(lang, "Set them with `{/game new options:}`, e.g. `{example}`.",
                                example=f"{rules.options[0].name}={example_value(rules.options[0])}")
    embed.add_field(name=i18n.t(lang, "Table options"), value=options_text(rules.options, lang) + example,
                    inline=False)
    embed.set_footer(text=i18n.t(lang, "The full rules, with every ruling, are attached."))
    return embed
