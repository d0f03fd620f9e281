"""Headless Chromium for the tests of the pages: Debian's ``chromium`` driven by Debian's ``chromedriver``
through Selenium. Never downloads a browser or a driver. Test-only: nothing shipped imports it (issue 36;
``tests/test_layout.py`` checks that no shipped module imports ``tests`` or ``selenium``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1300,900")


def missing() -> str:
    """Why the browser cannot run here ("" when it can)."""
    for binary, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(binary).exists():
            return f"{binary} is missing (Debian package {package}; `make test` installs it)"
    return ""


def chromium(profile: str) -> Any:
    """A Selenium WebDriver on a fresh profile folder ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    why = missing()
    if why:
        raise RuntimeError(why)
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
