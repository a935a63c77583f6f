"""A newcomer's first hour in the sandbox, in a real browser: a thread table, a reminder, /config."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.browser import Composer, browser_or_skip, launch, start_sandbox


async def test_a_thread_table_is_played_from_the_page_and_news_arrives_by_itself(tmp_path: Path) -> None:
    async_playwright = browser_or_skip()
    process, url = start_sandbox(tmp_path, BOT_DELAY="1")
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await page.goto(url)
            composer = Composer(page)
            messages = page.locator("#messages, main").first
            await page.locator("#channel-composer-input").wait_for()

            # alice opens a thread table from #games, with a 30 s turn clock, and takes the view there.
            await composer.command("game new", ("turn_time", "30s"), pick={"game": "Pedwar", "thread": "True"})
            await page.get_by_text("It plays in").first.wait_for(timeout=10_000)
            await composer.command("sandbox go", pick={"place": "Pedwar"})
            await page.locator("#channel-context-name").filter(has_text="Pedwar").wait_for(timeout=10_000)

            # bob joins in the thread; alice deals.
            await page.locator("#viewer-picker").select_option(label="bob")
            await page.locator("#channel-composer-input").wait_for()
            await composer.command("game join")
            await page.get_by_text("bob joined").first.wait_for(timeout=10_000)
            await page.locator("#viewer-picker").select_option(label="alice")
            await composer.command("game start")
            await page.get_by_text("to act").first.wait_for(timeout=15_000)

            # Whoever is to act plays the first move /play suggests.
            for member in ("alice", "bob"):
                await page.locator("#viewer-picker").select_option(label=member)
                if await composer.offers("play", "action"):
                    await composer.command("play", pick={"action": ""})
                    break
            else:
                raise AssertionError("neither player was offered a move")

            # The reminder (half of 30 s) arrives without anyone pressing "Refresh preview".
            await page.get_by_text("half your time is gone").first.wait_for(timeout=40_000)

            # alice manages the server: /config answers her.
            await page.locator("#viewer-picker").select_option(label="alice")
            await composer.command("config show")
            await page.get_by_text("Deckhand settings for this server").first.wait_for(timeout=10_000)
            assert messages is not None
            await browser.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
