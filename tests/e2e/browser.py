"""Driving the sandbox's browser view (SimCord's preview) as a newcomer would: typing in the composer."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_sandbox(tmp_path: Path, **env: str) -> tuple[subprocess.Popen[str], str]:
    """The sandbox as ``./run.sh`` starts it, on a fresh database; returns the process and its address."""
    environment = {**os.environ, "SANDBOX_DATABASE_PATH": str(tmp_path / "sandbox.sqlite3"),
                   "SANDBOX_PORT": str(free_port()), "DISCORD_TOKEN": "", **env}
    process = subprocess.Popen([sys.executable, "bot.py", "--sandbox"], cwd=ROOT, env=environment, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    assert process.stdout is not None
    for line in process.stdout:
        if found := re.search(r"open (http://127\.0\.0\.1:\d+/#\S+)", line):
            return process, found.group(1)
        assert time.monotonic() < deadline, "the sandbox did not start"
    raise AssertionError(f"the sandbox exited early with {process.wait()}")


class Composer:
    """The message box at the bottom of the view, used as a member types a slash command."""

    def __init__(self, page: Any) -> None:
        self.page = page

    async def command(self, name: str, *options: tuple[str, str], pick: dict[str, str] | None = None) -> None:
        """Type ``/name``, fill each option (typed text, or a suggestion picked by its label), then send.

        The view is live: a bot message that lands while a command is being typed republishes it, and the
        preview then refuses the send as stale without running it (the command stays in the box). A member
        sends it again; so does this, up to three times.
        """
        from playwright.async_api import TimeoutError as StillInTheBox

        for attempt in range(3):
            await self._type_command(name, options, pick or {})
            await self.page.locator("#send-message").click()
            try:
                await self.page.locator("#channel-composer-input").wait_for(timeout=10_000)
                return
            except StillInTheBox:  # refused as stale, not run: send it again
                if attempt == 2:
                    raise
                await self.page.locator("button.command-context-close").click()

    async def _type_command(self, name: str, options: tuple[tuple[str, str], ...], pick: dict[str, str]) -> None:
        page = self.page
        box = page.locator("#channel-composer-input")
        await box.click()
        await box.fill("")
        await box.type(f"/{name}", delay=20)
        await page.wait_for_timeout(300)
        await page.keyboard.press("Enter")  # the first suggestion is the command typed in full
        await page.locator("button.command-chip").wait_for()
        for option, value in options:
            await self._fill(option, value, pick=False)
        for option, label in pick.items():
            await self._fill(option, label, pick=True)
        await page.wait_for_timeout(200)

    async def offers(self, name: str, option: str) -> bool:
        """Whether ``/name``'s ``option`` suggests anything to the member viewing now (the command is left)."""
        page = self.page
        box = page.locator("#channel-composer-input")
        await box.click()
        await box.type(f"/{name}", delay=20)
        await page.wait_for_timeout(300)
        await page.keyboard.press("Enter")
        pill = page.locator(f'input.command-option-input[data-option="{option}"]')
        await pill.click()
        await self._ask(pill, "")
        await page.wait_for_timeout(1500)
        listbox = page.locator("#command-suggestion-listbox")
        found = await listbox.locator('[role="option"]').count() > 0
        await page.locator("button.command-context-close").click()
        await box.wait_for()
        return found

    @staticmethod
    async def _ask(pill: Any, typed: str) -> None:
        """Type into an option as a member does, so that its autocomplete is asked (typing, not focus, asks)."""
        await pill.type(typed or " ", delay=20)
        if not typed:
            await pill.press("Backspace")

    async def _fill(self, option: str, value: str, *, pick: bool) -> None:
        page = self.page
        pill = page.locator(f'input.command-option-input[data-option="{option}"]')
        if not await pill.count():
            await page.locator(".command-ghost").click()
            await page.locator("#command-suggestion-listbox").get_by_text(option, exact=True).first.click()
        await pill.click()
        if pick:
            await self._ask(pill, value)
            listbox = page.locator("#command-suggestion-listbox")
            await listbox.locator('[role="option"]').filter(has_text=value).first.click()
        else:
            await pill.type(value, delay=20)
            await page.wait_for_timeout(300)


def browser_or_skip() -> Any:
    """Playwright's async API, or a skip with its reason (a failure under CI=true, where it must run)."""
    import pytest

    reason = None
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        reason = "Playwright is not installed (pip install -e '.[dev]')"
    if reason is None and not Path(CHROMIUM).exists():
        reason = f"no browser at {CHROMIUM} (apt-get install chromium)"
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests must run in CI: {reason}")
        pytest.skip(reason)
    return async_playwright


async def launch(playwright: Any) -> Any:
    return await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
