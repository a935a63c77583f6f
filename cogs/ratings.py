"""/rating and /leaderboard: openskill ratings per server and game, from every rated table."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.answers import reply
from cogs.game import GAME_CHOICES
from cogs.guard import Guard
from cogs.locales import member_language
from cogs.presenter import Outgoing
from cogs.standings_pages import safe_name
from cogs.web_links import WebLinks, with_link
from host.ratings import MIN_GAMES, SCALE, START, TOP, RatingService
from host.read_models import LeaderRow, RatingRow
from host.web import LeaderboardPage, LeaderLine, leaderboard_csv


def leader_line(place: int, row: LeaderRow, lang: str = i18n.DEFAULT) -> str:
    games = i18n.tn(lang, "{n} game", "{n} games", row.games)
    return f"{place}. <@{row.user_id}> — **{i18n.number(lang, row.rating)}** · {games}"


async def answer_with_link(interaction: discord.Interaction, text: str, url: str | None, label: str) -> None:
    """A private answer, with a link button to its web page when the server serves one."""
    await reply(interaction, Outgoing(text[:2000], view=with_link(None, url, label)), ephemeral=True)


def rating_line(row: RatingRow, details: bool, lang: str = i18n.DEFAULT) -> str:
    games = i18n.tn(lang, "{n} rated game", "{n} rated games", row.games)
    if not details:
        return f"**{i18n.title(lang, row.title)}**: **{i18n.number(lang, row.rating)}** · {games}"
    return (f"**{i18n.title(lang, row.title)}**: **{i18n.number(lang, row.rating)}** · {games} · "
            f"μ {i18n.decimal(lang, row.mu, 2)}, σ {i18n.decimal(lang, row.sigma, 2)}, "
            f"μ − 3σ = {i18n.decimal(lang, row.mu - 3 * row.sigma, 2)}")


class RatingsCog(commands.Cog):
    def __init__(self, ratings: RatingService, guard: Guard, links: WebLinks) -> None:
        self.ratings = ratings
        self.guard = guard
        #: The web pages' addresses: the player page and leaderboard link buttons.
        self.links = links

    @app_commands.command(name="rating", description="A member's rating in this server (a new player starts at 1,000)")
    @app_commands.describe(member="Whose rating (default: yours)", game="One game (default: all you have played)",
                           details="Also show openskill's μ and σ behind the number")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rating(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     game: app_commands.Choice[str] | None = None, details: bool = False) -> None:
        async def work() -> None:
            lang = member_language(interaction)
            who = member or interaction.user
            found = await self.ratings.member(interaction.guild_id, who.id, who.display_name,
                                              game.value if game else None)
            name = safe_name(found.name)
            start = i18n.number(lang, START)
            if not found.rows:
                counts = i18n.t(lang, "A table counts when it finishes with human players on at least two sides.")
                if found.game_title:
                    none = i18n.t(lang, "**{name}** has no rated games at {game} in this server yet.", name=name,
                                  game=i18n.title(lang, found.game_title))
                else:
                    none = i18n.t(lang, "**{name}** has no rated games in this server yet.", name=name)
                # Unrated games (against bots only) still make a player page: its link, when it is served.
                await answer_with_link(interaction, f"{none} {counts}",
                                       await self.links.player(interaction.guild_id, who.id),
                                       i18n.t(lang, "Player page"))
                return
            lines = [i18n.t(lang, "**{name}**'s ratings (a new player starts at {start}):", name=name, start=start)]
            lines += [rating_line(r, details, lang) for r in found.rows]
            if details:
                lines.append(i18n.t(lang, "The rating is {start} + {scale} × (μ − 3σ): openskill's cautious estimate, "
                                    "which leaderboards sort by.", start=start, scale=i18n.number(lang, SCALE)))
            await answer_with_link(interaction, "\n".join(lines), await self.links.player(interaction.guild_id, who.id),
                                   i18n.t(lang, "Player page"))

        await self.guard.run(interaction, work)

    @app_commands.command(name="leaderboard", description=f"The server's top {TOP} at a game "
                          f"(players with {MIN_GAMES}+ rated games)")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            lang = member_language(interaction)
            board = await self.ratings.leaderboard(interaction.guild_id, game.value)
            title, rows = i18n.title(lang, board.title), board.rows
            url = self.links.leaderboard(interaction.guild_id, game.value)
            if not rows:
                await answer_with_link(interaction, i18n.tn(
                    lang, "Nobody has {n} rated game of {game} in this server yet.",
                    "Nobody has {n} rated games of {game} in this server yet.", MIN_GAMES, game=title),
                    url, i18n.t(lang, "Leaderboard page"))
                return
            lines = [leader_line(i, r, lang) for i, r in enumerate(rows, start=1)]
            embed = discord.Embed(title=i18n.t(lang, "{game} leaderboard", game=title), description="\n".join(lines),
                                  colour=discord.Colour.gold())
            embed.set_footer(text=i18n.tn(
                lang, "A new player starts at {start} ({start} + {scale} × (μ − 3σ), openskill); players with {n}+ "
                "rated game. The CSV has μ and σ.", "A new player starts at {start} ({start} + {scale} × (μ − 3σ), "
                "openskill); players with {n}+ rated games. The CSV has μ and σ.", MIN_GAMES,
                start=i18n.number(lang, START), scale=i18n.number(lang, SCALE)))
            # The same rows as a spreadsheet (columns in the docs' "Web pages" section), each name the one the member
            # last played under here.
            names = {r.user_id: r.name or i18n.t(lang, "Player {id}", id=r.user_id) for r in rows}
            page = LeaderboardPage(interaction.guild_id or 0, game.value, board.title, [
                LeaderLine(i, names[r.user_id], r.user_id, r.ordinal, r.mu, r.sigma, r.games)
                for i, r in enumerate(rows, start=1)])
            csv_file = discord.File(io.BytesIO(leaderboard_csv(page)), filename=f"leaderboard-{game.value}.csv")
            view = with_link(None, url, i18n.t(lang, "Leaderboard page")) or discord.utils.MISSING
            await interaction.response.send_message(embed=embed, ephemeral=True, file=csv_file, view=view,
                                                    allowed_mentions=discord.AllowedMentions.none())

        await self.guard.run(interaction, work)
