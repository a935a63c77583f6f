"""/rating and /leaderboard: openskill ratings per server and game, from every rated table."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from cogs import web_links
from cogs.game import GAME_CHOICES
from cogs.guard import Guard, tell
from cogs.web_links import with_link
from data.store import Store
from engines import GAME_TITLES
from host.tournaments.pages import safe_name
from host.web import LeaderboardPage, LeaderLine, leaderboard_csv

#: Players need this many rated games to appear on a leaderboard, which shows this many.
MIN_GAMES = 5
TOP = 20


def rating_line(title: str, mu: float, sigma: float, games: int) -> str:
    return (f"**{title}**: {mu - 3 * sigma:.1f} (μ {mu:.2f}, σ {sigma:.2f}) · "
            f"{games} rated game{'s' if games != 1 else ''}")


class RatingsCog(commands.Cog):
    def __init__(self, store: Store, guard: Guard) -> None:
        self.store = store
        self.guard = guard

    @app_commands.command(name="rating", description="A member's rating in this server (μ − 3σ, with μ and σ)")
    @app_commands.describe(member="Whose rating (default: yours)", game="One game (default: all you have played)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rating(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     game: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            who = member or interaction.user
            found = await self.store.ratings_of(interaction.guild_id or 0, who.id, game.value if game else None)
            name = safe_name(who.display_name)
            if not found:
                what = f" at {GAME_TITLES[game.value]}" if game else ""
                await tell(interaction, f"**{name}** has no rated games{what} in this server yet. A table counts "
                                        "when it finishes with human players on at least two sides.")
                return
            lines = [f"**{name}**'s ratings (the first number is μ − 3σ, which leaderboards sort by):"]
            lines += [rating_line(GAME_TITLES.get(r.game, r.game), r.mu, r.sigma, r.games) for r in found]
            links = web_links.LINKS
            url = await links.player(interaction.guild_id, who.id) if links is not None else None
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
            rows = await self.store.leaderboard(interaction.guild_id or 0, game.value, MIN_GAMES, TOP)
            title = GAME_TITLES[game.value]
            if not rows:
                await tell(interaction, f"Nobody has {MIN_GAMES} rated games of {title} in this server yet.")
                return
            lines = [f"{i}. <@{r.user_id}> — **{r.ordinal:.1f}** (μ {r.mu:.2f}, σ {r.sigma:.2f}) · {r.games} games"
                     for i, r in enumerate(rows, start=1)]
            embed = discord.Embed(title=f"{title} leaderboard", description="\n".join(lines),
                                  colour=discord.Colour.gold())
            embed.set_footer(text=f"openskill (Plackett–Luce), μ − 3σ; players with {MIN_GAMES}+ rated games.")
            # The same rows as a spreadsheet (columns in the docs' "Web pages" section), names as members show.
            names = {r.user_id: m.display_name if (m := interaction.guild and interaction.guild.get_member(r.user_id))
                     else f"Player {r.user_id}" for r in rows}
            page = LeaderboardPage(interaction.guild_id or 0, game.value, title, [
                LeaderLine(i, names[r.user_id], r.user_id, r.ordinal, r.mu, r.sigma, r.games)
                for i, r in enumerate(rows, start=1)])
            csv_file = discord.File(io.BytesIO(leaderboard_csv(page)), filename=f"leaderboard-{game.value}.csv")
            links = web_links.LINKS
            url = links.leaderboard(interaction.guild_id, game.value) if links is not None else None
            view = with_link(None, url, "Leaderboard page") or discord.utils.MISSING
            await interaction.response.send_message(embed=embed, ephemeral=True, file=csv_file, view=view,
                                                    allowed_mentions=discord.AllowedMentions.none())

        await self.guard.run(interaction, work)
