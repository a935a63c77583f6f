"""/rating and /leaderboard: openskill ratings per server and game, from every rated table."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game import GAME_CHOICES
from cogs.guard import Guard, tell
from cogs.standings_pages import safe_name
from cogs.web_links import WebLinks, with_link
from host.ratings import MIN_GAMES, TOP, RatingService
from host.read_models import LeaderRow, RatingRow
from host.web import LeaderboardPage, LeaderLine, leaderboard_csv
from render.words import count


def leader_line(place: int, row: LeaderRow) -> str:
    return f"{place}. <@{row.user_id}> — **{row.rating:,}** · {count(row.games, 'game')}"


def rating_line(row: RatingRow, details: bool) -> str:
    games = count(row.games, "rated game")
    if not details:
        return f"**{row.title}**: **{row.rating:,}** · {games}"
    return (f"**{row.title}**: **{row.rating:,}** · {games} · μ {row.mu:.2f}, σ {row.sigma:.2f}, "
            f"μ − 3σ = {row.mu - 3 * row.sigma:.2f}")


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
            who = member or interaction.user
            found = await self.ratings.member(interaction.guild_id, who.id, who.display_name,
                                              game.value if game else None)
            name = safe_name(found.name)
            if not found.rows:
                what = f" at {found.game_title}" if found.game_title else ""
                await tell(interaction, f"**{name}** has no rated games{what} in this server yet. A table counts "
                                        "when it finishes with human players on at least two sides.")
                return
            lines = [f"**{name}**'s ratings (a new player starts at 1,000):"]
            lines += [rating_line(r, details) for r in found.rows]
            if details:
                lines.append("The rating is 1,000 + 40 × (μ − 3σ): openskill's cautious estimate, "
                             "which leaderboards sort by.")
            url = await self.links.player(interaction.guild_id, who.id)
            if url is None:
                await tell(interaction, "\n".join(lines))
                return
            await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True,
                                                    view=with_link(None, url, "Player page"))

        await self.guard.run(interaction, work)

    @app_commands.command(name="leaderboard", description=f"The server's top {TOP} at a game "
                          f"(players with {MIN_GAMES}+ rated games)")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            board = await self.ratings.leaderboard(interaction.guild_id, game.value)
            title, rows = board.title, board.rows
            if not rows:
                await tell(interaction, f"Nobody has {MIN_GAMES} rated games of {title} in this server yet.")
                return
            lines = [leader_line(i, r) for i, r in enumerate(rows, start=1)]
            embed = discord.Embed(title=f"{title} leaderboard", description="\n".join(lines),
                                  colour=discord.Colour.gold())
            embed.set_footer(text=f"A new player starts at 1,000 (1,000 + 40 × (μ − 3σ), openskill); "
                                  f"players with {MIN_GAMES}+ rated games. The CSV has μ and σ.")
            # The same rows as a spreadsheet (columns in the docs' "Web pages" section), names as members show.
            names = {r.user_id: m.display_name if (m := interaction.guild and interaction.guild.get_member(r.user_id))
                     else f"Player {r.user_id}" for r in rows}
            page = LeaderboardPage(interaction.guild_id or 0, game.value, title, [
                LeaderLine(i, names[r.user_id], r.user_id, r.ordinal, r.mu, r.sigma, r.games)
                for i, r in enumerate(rows, start=1)])
            csv_file = discord.File(io.BytesIO(leaderboard_csv(page)), filename=f"leaderboard-{game.value}.csv")
            url = self.links.leaderboard(interaction.guild_id, game.value)
            view = with_link(None, url, "Leaderboard page") or discord.utils.MISSING
            await interaction.response.send_message(embed=embed, ephemeral=True, file=csv_file, view=view,
                                                    allowed_mentions=discord.AllowedMentions.none())

        await self.guard.run(interaction, work)
