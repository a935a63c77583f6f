"""The docs' screenshots of the web pages at 412 and 1280 px, taken with headless Chromium:

    .venv/bin/python -m tests.web.screenshots docs/images/web
"""

from __future__ import annotations

import os
import sys
import tempfile

from tests.web.browser import CHROMIUM
from tests.web.live_server import LiveServer


def main(out: str) -> int:
    from playwright.sync_api import sync_playwright

    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(os.path.join(tmp, "deckhand.sqlite3"))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                for width, height in ((412, 915), (1280, 900)):
                    page = browser.new_page(viewport={"width": width, "height": height})
                    for name in ("table", "tournament"):
                        page.goto(live.pages()[name], wait_until="networkidle")
                        page.screenshot(path=os.path.join(out, f"{name}-{width}.png"))
                        print(os.path.join(out, f"{name}-{width}.png"))
                    page.close()
                browser.close()
        finally:
            live.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/images/web"))
