"""Real-browser fixtures: ``streamlit run`` on a free localhost port, driven by Debian's Chromium.

Playwright cannot download its own browser here, so these tests use ``/usr/bin/chromium``
(``.ci/run`` installs it). Locally, without it, they skip and say why; in CI they fail instead.
Every tab runs offline: requests to any host but the local server are aborted and recorded, and
a test that caused one fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from wide_data import write_text_like

from dashboard.headless import (
    CHROMIUM,
    WATCH_ERRORS,
    launch_chromium,
    start_server,
    stop,
    wait_healthy,
)

#: The first run in a fresh checkout may compile the engine (numba cache): be patient once.
SLOW_MS = 180_000
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
#: Counts the script runs a tab has begun: every change of the app's script state (a run that
#: began and ended between two looks is still counted), so a test can wait for the run its
#: click caused instead of guessing how long the server takes to start it.
COUNT_RUNS = """
window.__mlrRuns = 0;
new MutationObserver(records => { window.__mlrRuns += records.length; }).observe(
  document, {subtree: true, attributes: true, attributeFilter: ['data-test-script-state']});
"""
#: Elements of the page as the last run drew them: during a rerun Streamlit keeps the previous
#: run's elements on the page, marked stale, until the new run replaces or drops them.
FRESH = "[data-testid='stElementContainer']:not([data-stale='true'])"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
ROOT = Path(__file__).resolve().parents[2]
#: The paper's datasets, beside the repository (CI lays them there too).
DATASETS = ROOT.parent / "shared" / "datasets"
#: Screenshots the README shows, by the name a test gives them.
README_SHOTS = {name: ROOT / "docs" / "screenshots" / f"{name}.png" for name in (
    "train_emotions", "race", "time_travel", "rules-audit", "explain-fitted",
    "explain-waterfall")}


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
        self.blocked: list[str] = []

    def idle(self, timeout: float = SLOW_MS) -> None:
        self.page.wait_for_selector(IDLE, timeout=timeout)

    def open(self, title: str) -> None:
        """Go to a page through the sidebar (a reload would start a new session)."""
        self.page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
        self.page.get_by_role("heading", name=title, level=1).wait_for(timeout=SLOW_MS)
        self.idle()

    def press(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()

    def begin_run(self, action, timeout_ms: float = SLOW_MS) -> None:
        """Do ``action`` (a click, a key) and return once a script run has begun after it;
        Playwright's timeout error if none begins within ``timeout_ms``."""
        before = self.page.evaluate("window.__mlrRuns")
        action()
        self.page.wait_for_function(f"window.__mlrRuns > {before}", timeout=timeout_ms)

    def after_rerun(self, action) -> None:
        """Do ``action`` and return once the run it caused has ended: waits for a script run to
        begin after it, however long the server takes to start one, then for the app to be
        idle."""
        self.begin_run(action)
        self.idle()

    def fresh(self):
        """The elements the last script run drew (`FRESH`): locate text in them to never read
        a stale element beside its replacement."""
        return self.page.locator(FRESH)

    def load_real_dataset(self, name: str) -> None:
        """Upload ``name``.arff and its MULAN .xml through the Data page, as a user would."""
        arff, xml = DATASETS / f"{name}.arff", DATASETS / f"{name}.xml"
        assert arff.is_file(), f"the real datasets are missing: {DATASETS}"
        self.open("Data")
        self.page.get_by_role("tab", name="Upload").click()
        self.page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            [str(arff), str(xml)])
        self.page.get_by_text(xml.name).first.wait_for()
        self.press("Load upload")
        self.idle()
        discard = self.page.get_by_role("button", name=re.compile("^Discard the model"))
        if discard.count():  # a trained model is not thrown away without asking
            discard.click()
        self.page.get_by_text(f"Loaded {name}").wait_for(timeout=SLOW_MS)
        self.idle()

    def metric(self, label: str) -> str:
        metric = self.fresh().get_by_test_id("stMetric").filter(
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

    def wait_until(self, condition, timeout: float = SLOW_MS / 1000) -> None:
        """Polls ``condition`` until it holds; ``timeout`` bounds a failure, it is no speed."""
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.2)

    def wait_advancing(self, done, progress, stall_s: float = SLOW_MS / 1000) -> None:
        """Polls ``done`` until it holds while ``progress()`` (an iteration count) keeps
        changing: a long run on a busy machine is slow, not stuck, so only ``stall_s`` seconds
        without progress fail."""
        last, since = progress(), time.monotonic()
        while not done():
            now = progress()
            if now != last:
                last, since = now, time.monotonic()
            assert time.monotonic() - since < stall_s, f"no progress in {stall_s} s, at {now}"
            time.sleep(0.2)

    def no_exception(self) -> None:
        """No exception element now, and none seen since the tab opened."""
        assert self.page.get_by_test_id("stException").count() == 0
        assert self.errors_seen() == []

    def errors_seen(self) -> list[str]:
        return self.page.evaluate("window.__mlrErrors")

    def shot(self, name: str) -> Path:
        """A screenshot in the test's tmp_path; the README's ones are also refreshed there when
        ``MLR_UPDATE_SCREENSHOTS`` is set."""
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=path)
        if name in README_SHOTS and os.environ.get("MLR_UPDATE_SCREENSHOTS"):
            README_SHOTS[name].parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, README_SHOTS[name])
        return path


def offline_context(browser, blocked: list[str]):
    """A browser context where any request to a non-local host is aborted and recorded."""
    context = browser.new_context(viewport={"width": 1500, "height": 1050})

    def only_local(route):
        if urlsplit(route.request.url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    context.add_init_script(WATCH_ERRORS)
    context.add_init_script(COUNT_RUNS)
    return context


@pytest.fixture
def other_tab(browser, app_url):
    """Opens a second offline tab (another session) on demand, on the app or on ``url``."""
    blocked: list[str] = []
    contexts = []

    def open_tab(url: str | None = None):
        context = offline_context(browser, blocked)
        contexts.append(context)
        page = context.new_page()
        page.goto(url or app_url)
        return page

    yield open_tab
    for context in contexts:
        context.close()
    assert blocked == [], f"requests left the machine: {blocked}"


@pytest.fixture
def app(browser, app_url, tmp_path):
    """A fresh offline tab (its own session) on the Train page, wide enough for the layout."""
    yield from _offline_tab(browser, app_url, tmp_path)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A data folder as a person would set at launch: emotions and yeast (links to the paper's
    MULAN files) and a generated 1,000-word text dataset (``wide_data.py``)."""
    folder = tmp_path_factory.mktemp("data")
    for name in ("emotions", "yeast"):
        for suffix in (".arff", ".xml"):
            source = DATASETS / f"{name}{suffix}"
            assert source.is_file(), f"the real datasets are missing: {DATASETS}"
            (folder / source.name).symlink_to(source)
    write_text_like(folder)
    return folder


def _folder_server(data_dir, tmp_path_factory):
    """The app launched as the README says, on that data folder: (process, url)."""
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    process, url = start_server(log_path, app_args=("--data-dir", str(data_dir)))
    try:
        wait_healthy(process, url, log_path)
        yield process, url
    finally:
        stop(process)


@pytest.fixture(scope="module")
def folder_server(data_dir, tmp_path_factory):
    """The app on the data folder, shared by a module's tests."""
    yield from _folder_server(data_dir, tmp_path_factory)


@pytest.fixture
def own_folder_server(data_dir, tmp_path_factory):
    """The app on the data folder for one test alone: a memory measurement sees no other
    test's sessions. The engine's kernels, dense and sparse, are compiled first, as the README
    suggests after installing (``python -m dashboard.warmup``): the server then loads them from
    numba's cache. Compiled in the server, they stayed in its memory (80 MB when the test ran
    alone on a fresh clone), which the measurement took for the data's."""
    subprocess.run([sys.executable, "-m", "dashboard.warmup"], check=True, cwd=ROOT,
                   capture_output=True, timeout=900)
    yield from _folder_server(data_dir, tmp_path_factory)


def _offline_tab(browser, url, tmp_path):
    """A fresh offline tab on the app at ``url``; after the test, no request may have left the
    machine (``tab.blocked`` lists any). Its waits are bounds for a failure, never a speed the
    test needs: under load (a busy 2-core machine) a run may take many seconds."""
    blocked: list[str] = []
    context = offline_context(browser, blocked)
    page = context.new_page()
    page.set_default_timeout(SLOW_MS)
    page.goto(url)
    tab = App(page, tmp_path)
    tab.blocked = blocked
    page.get_by_test_id("stMetric").first.wait_for(timeout=SLOW_MS)
    tab.idle()
    yield tab
    context.close()
    assert blocked == [], f"requests left the machine: {blocked}"


@pytest.fixture
def folder_tab(browser, folder_server, tmp_path):
    """A fresh offline tab on the app launched with the data folder."""
    yield from _offline_tab(browser, folder_server[1], tmp_path)


@pytest.fixture
def own_folder_tab(browser, own_folder_server, tmp_path):
    """A fresh offline tab on `own_folder_server`."""
    yield from _offline_tab(browser, own_folder_server[1], tmp_path)
