"""Real-browser fixtures: ``streamlit run`` on a free localhost port, driven by Debian's Chromium.

Playwright cannot download its own browser here, so these tests use ``/usr/bin/chromium``
(``.ci/run`` installs it). Locally, without it, they skip and say why; in CI they fail instead.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from streamlit_server import CHROMIUM, launch_chromium, start_server, stop, wait_healthy

#: The first run in a fresh checkout may compile the engine (numba cache): be patient once.
SLOW_MS = 180_000
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    process, url = start_server(log_path)
    try:
        wait_healthy(process, url, log_path)
        yield url
    finally:
        stop(process)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium (CI installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


class App:
    """A browser tab on the dashboard with the few moves the tests need."""

    def __init__(self, page, shots: Path) -> None:
        self.page = page
        self.shots = shots

    def idle(self, timeout: float = SLOW_MS) -> None:
        self.page.wait_for_selector(IDLE, timeout=timeout)

    def open(self, title: str) -> None:
        """Go to a page through the sidebar (a reload would start a new session)."""
        self.page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
        self.page.get_by_role("heading", name=title, level=1).wait_for(timeout=SLOW_MS)
        self.idle()

    def press(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()

    def metric(self, label: str) -> str:
        metric = self.page.get_by_test_id("stMetric").filter(
            has=self.page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
        )
        return metric.get_by_test_id("stMetricValue").inner_text()

    def iteration(self) -> int:
        return int(re.sub(r"\D", "", self.metric("Iteration")))

    def start(self) -> None:
        """Press Start and wait for the first live tick to show iterations."""
        self.press("Start")
        self.page.get_by_role("button", name="Pause", exact=True).wait_for(timeout=SLOW_MS)
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
            ".some(e => /[1-9]/.test(e.innerText))", timeout=SLOW_MS,
        )

    def pause(self) -> None:
        self.press("Pause")
        self.page.get_by_role("button", name="Start", exact=True).wait_for()
        self.idle()

    def wait_until(self, condition, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.2)

    def no_exception(self) -> None:
        assert self.page.get_by_test_id("stException").count() == 0

    def shot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=path)
        return path


@pytest.fixture
def app(browser, app_url, tmp_path):
    """A fresh tab (its own session) on the Train page, viewport wide enough for the layout."""
    context = browser.new_context(viewport={"width": 1500, "height": 1050})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(app_url)
    tab = App(page, tmp_path)
    page.get_by_test_id("stMetric").first.wait_for(timeout=SLOW_MS)
    tab.idle()
    yield tab
    context.close()
