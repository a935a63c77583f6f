"""Remake docs/images/sandbox-thread.png: a thread table in the sandbox, opened from the page as a newcomer would.

    .venv/bin/python docs/make_sandbox_picture.py   # needs Playwright and /usr/bin/chromium
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "images" / "sandbox-thread.png"


async def main() -> None:
    sys.path.insert(0, str(ROOT))
    from playwright.async_api import async_playwright

    from tests.e2e.browser import Composer, launch, start_sandbox

    process, url = start_sandbox(Path(tempfile.mkdtemp()), BOT_DELAY="1")
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            page = await browser.new_page(viewport={"width": 1100, "height": 760})
            await page.goto(url)
            composer = Composer(page)
            await page.locator("#channel-composer-input").wait_for()
            await composer.command("game new", pick={"game": "Pedwar", "thread": "True"})
            await page.get_by_text("It plays in").first.wait_for(timeout=10_000)
            await composer.command("sandbox go", pick={"place": "Pedwar"})
            await page.locator("#channel-context-name").filter(has_text="Pedwar").wait_for(timeout=10_000)
            await page.locator("#viewer-picker").select_option(label="bob")
            await composer.command("game join")
            await page.get_by_text("bob joined").first.wait_for(timeout=10_000)
            await page.locator("#viewer-picker").select_option(label="alice")
            await composer.command("game start")
            await page.get_by_text("to act").first.wait_for(timeout=15_000)
            await page.locator("button.message-row").last.click()  # focus the table message
            await page.wait_for_timeout(1500)
            await page.screenshot(path=str(PICTURE))
            await browser.close()
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    asyncio.run(main())
