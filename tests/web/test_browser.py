"""A real browser at 412 and 1280 px: no sideways scroll, no console errors, alt text on every image; a table
page shows a new move within 2 s without a reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import chromium_or_skip
from tests.web.live_server import LiveServer

WIDTHS = (412, 1280)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    chromium_or_skip()
    server = LiveServer(str(tmp_path_factory.mktemp("web") / "deckhand.sqlite3"))
    yield server
    server.close()


@pytest.fixture(scope="module")
def browser(live: LiveServer) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_or_skip(), args=["--no-sandbox"])
        yield b
        b.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["server", "table", "tournament", "player"])
def test_pages_fit_the_width_with_no_console_errors_and_alt_text(live: LiveServer, browser: Any, name: str,
                                                                  width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(live.pages()[name], wait_until="networkidle")
    assert response is not None and response.status == 200
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.title() and page.locator("h1").count() == 1
    sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert sideways <= 0, f"{name} scrolls {sideways} px sideways at {width} px"
    missing = page.evaluate("[...document.images].filter(i => !i.getAttribute('alt')).map(i => i.src)")
    assert missing == []
    broken = page.evaluate("[...document.images].filter(i => i.complete && i.naturalWidth === 0).map(i => i.src)")
    assert broken == []
    assert errors == []
    page.close()


def test_a_table_page_shows_a_new_move_within_two_seconds(live: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 412, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.pages()["table"], wait_until="networkidle")
    before = int(page.locator("#live").get_attribute("data-version") or 0)
    moves = page.locator("ol.log li").count()
    page.wait_for_timeout(300)  # the page's stream is open
    version = live.move()
    assert version == before + 1
    page.wait_for_selector(f'#live[data-version="{version}"]', timeout=2000)
    assert page.locator("ol.log li").count() == moves + 1
    assert page.locator("#table-image").get_attribute("src").endswith(f"/v{version}.png")
    assert errors == []
    page.close()
