"""Deckhand's composition root: settings, logging, the Bot, its cogs, the store.

    python bot.py            # real bot with DISCORD_TOKEN, else the offline sandbox
    python bot.py --sandbox  # always the offline sandbox (SimCord + browser preview)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from cogs.controls import ActButton, ActSelect
from cogs.game import APOLOGY, GameCog
from data.store import Store
from host import TableService

log = logging.getLogger("deckhand")

SANDBOX_MEMBERS = ("alice", "bob", "carol", "dave")


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: str
    dev_guild_id: int | None
    log_level: str
    bot_delay: float
    sandbox_port: int | None

    @classmethod
    def from_env(cls) -> Settings:
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        port = os.environ.get("SANDBOX_PORT", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=os.environ.get("DATABASE_PATH", "").strip() or os.path.join("var", "deckhand.sqlite3"),
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            bot_delay=float(os.environ.get("BOT_DELAY", "1.5") or 1.5),
            sandbox_port=int(port) if port.isdigit() else None,
        )


class DeckhandBot(commands.Bot):
    def __init__(self, settings: Settings) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True))
        self.settings = settings
        self.store: Store | None = None
        self.tables: TableService | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.tables = TableService(self.store)
        self.add_dynamic_items(ActButton, ActSelect)
        await self.add_cog(GameCog(self, self.tables, self.settings.bot_delay))
        self.tree.on_error = self.on_app_command_error
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        cog = self.get_cog("GameCog")
        if isinstance(cog, GameCog):
            await cog.resume()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # Components whose id is not ours at all never reach a DynamicItem; answer them here.
        if interaction.type is discord.InteractionType.component:
            custom_id = str((interaction.data or {}).get("custom_id", ""))
            if not custom_id.startswith("dh:") and not interaction.response.is_done():
                await interaction.response.send_message(
                    "That control isn't one I recognise. Use the table's **Hand / act** button.", ephemeral=True)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            text = "Deckhand tables live in server channels, not in direct messages."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You can't use that command here."
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = APOLOGY
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def close(self) -> None:
        cog = self.get_cog("GameCog")
        if cog is not None:
            await self.remove_cog("GameCog")
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def create_bot(settings: Settings | None = None) -> DeckhandBot:
    """Build the unstarted bot from the environment (DATABASE_PATH and the rest)."""
    return DeckhandBot(settings or Settings.from_env())


def setup_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # discord.py logs the gateway URL and session, never the token; keep its chatter down.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))


async def run_sandbox(settings: Settings) -> None:
    """The real bot, unchanged, inside SimCord, with a browser view of #games."""
    import simcord

    sandbox_settings = Settings(token=None, database_path=os.environ.get("SANDBOX_DATABASE_PATH", "").strip()
                                or os.path.join("var", "sandbox.sqlite3"),
                                dev_guild_id=None, log_level=settings.log_level, bot_delay=settings.bot_delay,
                                sandbox_port=settings.sandbox_port)
    async with simcord.run(create_bot(sandbox_settings), check_errors=False) as env:
        guild = env.create_guild("Deckhand Sandbox")
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(name)) for name in SANDBOX_MEMBERS]
        async with env.preview(channel, viewers=members, layout="channel",
                               port=settings.sandbox_port) as preview:
            print(f"\nDeckhand sandbox is running: open {preview.url}\n"
                  "Play in #games; switch 'Viewing as' between alice, bob, carol and dave. Ctrl-C stops.\n",
                  flush=True)
            await preview.wait_closed()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run Deckhand")
    parser.add_argument("--sandbox", action="store_true", help="run offline in SimCord with a browser preview")
    args = parser.parse_args(argv)
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:
        pass
    settings = Settings.from_env()
    setup_logging(settings.log_level)
    if args.sandbox or not settings.token:
        if not args.sandbox:
            log.info("no DISCORD_TOKEN set: starting the offline sandbox")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_sandbox(settings))
        return 0
    create_bot(settings).run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
