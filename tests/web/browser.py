"""Debian's Chromium driven by Playwright, or the one-line reason it cannot run (with CI=true, a failure)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def chromium_or_skip() -> str:
    reason = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "Playwright is not installed (pip install playwright)"
    if reason is None and not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium; ./test.sh does it when it can)"
    if reason is not None:
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(f"{reason}; CI=true requires the browser tests", pytrace=False)
        pytest.skip(reason)
    return CHROMIUM if os.path.exists(CHROMIUM) else str(shutil.which("chromium"))
