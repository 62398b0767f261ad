"""Live training on a real dataset survives a user clicking as fast as they can.

A rerun (a click, a page link) starts while the previous run's tick may still be training; the
session's lock and snapshot keep every page from reading a population mid-change. Each round
below clicks Start, a page link, Pause and Step in quick succession on emotions (593 x 72,
6 labels) and checks that no exception or "unexpected error" ever appeared, however briefly, and
that the training controls are still in the sidebar. ``ROUNDS`` rounds run in one tab, so the
test repeats the scenario that failed 5 times in 24 tries, 50 times in a row.

Streamlit sometimes drops a button click that lands a fraction of a second after a page switch
or another click (the callback never runs; seen in about one round in ten). That is not an
error on the page, so a round presses Start (or Pause) again until the other button is enabled,
and prints how often it had to.
"""

import random
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from dashboard.page_registry import titles

pytestmark = pytest.mark.e2e

ROUNDS = 50
PAGES = titles("population", "explain", "rules", "train")


def test_rapid_clicks_while_training_never_break_the_page(app):
    app.load_real_dataset("emotions")
    app.open("Train (live)")
    app.press("Step")  # the kernels are loaded (or, on a fresh install, compiled) before the rush
    app.wait_until(lambda: app.iteration() > 0)
    sidebar = app.page.get_by_test_id("stSidebar")
    nav = app.page.get_by_test_id("stSidebarNav")
    start = sidebar.get_by_role("button", name="Start", exact=True)
    pause = sidebar.get_by_role("button", name="Pause", exact=True)
    rng = random.Random(0)
    began, repeated = time.monotonic(), [0]

    def click(button) -> None:
        """Click if the button becomes clickable soon (a dropped click can leave it disabled)."""
        try:
            button.click(timeout=5_000)
        except PlaywrightTimeout:
            repeated[0] += 1

    def press_until_enabled(button, then) -> None:
        """Click ``button`` until ``then`` is enabled (Streamlit may drop a rapid click); a
        busy server may take long to answer, so only three minutes without it fail."""
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if then.is_enabled():
                return
            click(button)
            try:
                expect(then).to_be_enabled(timeout=5_000)
                return
            except AssertionError:
                repeated[0] += 1
        raise AssertionError(f"{then} never became enabled")

    for round_ in range(ROUNDS):
        press_until_enabled(pause, then=start)  # paused (a no-op when it already is)
        press_until_enabled(start, then=pause)
        time.sleep(rng.uniform(0.2, 0.8))  # let a live tick or two train
        nav.get_by_text(PAGES[round_ % len(PAGES)], exact=True).click()
        time.sleep(rng.uniform(0.0, 0.3))
        click(pause)
        time.sleep(rng.uniform(0.0, 0.2))
        click(sidebar.get_by_role("button", name="Step", exact=True))
        time.sleep(rng.uniform(0.0, 0.2))
        assert app.errors_seen() == [], f"round {round_ + 1}"
        for control in ("Start", "Pause", "Step", "Reset model"):
            assert sidebar.get_by_role("button", name=control, exact=True).count() == 1, (
                f"round {round_ + 1}: {control} missing from the sidebar")
    app.idle()
    app.no_exception()
    assert "emotions" in sidebar.inner_text()
    app.open("Train (live)")
    app.page.get_by_test_id("stPlotlyChart").nth(1).locator(".main-svg").first.wait_for()
    app.no_exception()
    app.shot("train_emotions")
    print(f"{ROUNDS} rounds in {time.monotonic() - began:.0f} s, {repeated[0]} clicks retried "
          "(dropped or not yet clickable)")
