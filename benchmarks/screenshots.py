"""Full-page screenshots of every page of the dashboard on a dataset of the data folder.

    PYTHONPATH=$PWD python benchmarks/screenshots.py ohsumed emotions --iterations 2000

The app is launched the README's way (``streamlit run dashboard/streamlit_app.py -- --data-dir
../shared/datasets``) and driven by Debian's Chromium, headless, 1,400 px wide. Per dataset a
fresh tab loads it from the Data page, trains ``--iterations`` (two presses of Step), then opens
every page of ``dashboard/page_registry.py``, presses what a visitor presses there (the browser
tests' ``page_action``; on the Race page, Start race then Pause race), and saves the page whole
to ``docs/screenshots/<dataset>-<page>.png``. Printed per page: the seconds each click took
until the app was idle, the 1-minute load beside them, and what the browser tests' readability
checks find (legends over their chart, grids that scroll sideways, texts cut short), which here
are reported, not asserted: the pictures are for a person to judge.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests")]  # conftest, and its sparse_mulan

from classroom import STEPPED  # noqa: E402
from conftest import DATASETS, SLOW_MS, App, offline_context  # noqa: E402
from test_readable_browser import (  # noqa: E402
    CUT_OFF,
    LEGEND_OVERLAPS,
    PAGES,
    SHOTS,
    TICKS_COLLIDE,
    Visit,
    load_from_folder,
    page_action,
    screenshot,
    train,
)

from dashboard.headless import launch_chromium, start_server, stop, wait_healthy  # noqa: E402

WIDTH = 1400
#: Seconds the race runs before it is paused for its picture.
RACE_S = 20


def race(visit: Visit) -> None:
    """Start the race, let it run ``RACE_S`` seconds, pause it: timed as one, since on ohsumed
    the run Start causes outlasted the browser tests' wait for an idle app (180 s)."""
    app = visit.app
    began = time.perf_counter()
    app.press("Start race")
    app.page.wait_for_timeout(RACE_S * 1000)
    app.press("Pause race")  # once it is enabled: the race has drawn its first point
    app.idle(timeout=3 * SLOW_MS)
    visit.seconds[f"start race, pause after {RACE_S} s, idle"] = time.perf_counter() - began


def shoot(browser, url: str, dataset: str, iterations: int, pages, out: Path) -> None:
    blocked: list[str] = []
    context = offline_context(browser, blocked)
    page = context.new_page()
    page.set_default_timeout(SLOW_MS)
    page.set_viewport_size({"width": WIDTH, "height": 1050})
    page.goto(url)
    app = App(page, out)
    page.get_by_test_id("stMetric").first.wait_for(timeout=SLOW_MS)
    app.idle()
    visit = Visit(app)
    load_from_folder(visit, dataset)
    app.open("Train (live)")  # its metrics say the iteration reached
    train(visit, iterations // 2)
    # the pictures must show the iteration asked for: one run on ohsumed, beside the test
    # suite, shot every page at 1,000 of 2,000 (a second Step not yet done, or lost: alone, the
    # same two presses reached 2,000); waiting for it fails loudly rather than mislabel them
    page.wait_for_function(STEPPED, arg=iterations, timeout=SLOW_MS)
    # the last Step's curve point is made in a thread; once made, the whole page (the sidebar
    # too) is drawn again: on ohsumed the pictures showed the point missing and the sidebar at
    # the first Step's iteration
    page.get_by_text("Fitting the rule weights for the").first.wait_for(state="hidden")
    app.idle()
    print(f"{dataset}: trained to iteration {app.iteration():,}", flush=True)
    for title in pages:
        before = set(visit.seconds)
        visit.click(f"open {title}", lambda title=title: app.open(title), reruns=False)
        if title == "Race: EM vs HL":
            race(visit)
        else:
            page_action(visit, title)
        slug = re.sub(r"\W+", "-", title.lower()).strip("-")
        screenshot(app, out / f"{dataset}-{slug}.png")
        problems = (page.evaluate(LEGEND_OVERLAPS) + page.evaluate(TICKS_COLLIDE)
                    + page.evaluate(CUT_OFF) + app.errors_seen())
        clicks = ", ".join(f"{what} {s:.1f} s" for what, s in visit.seconds.items()
                           if what not in before)
        print(f"  {title}: {clicks} (load {os.getloadavg()[0]:.2f})"
              + (f"; found: {problems}" if problems else ""), flush=True)
    context.close()
    assert blocked == [], f"requests left the machine: {blocked}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="+", help="names in the data folder, e.g. ohsumed")
    parser.add_argument("--iterations", type=int, default=2000, help="even: two Steps of half")
    parser.add_argument("--data-dir", type=Path, default=DATASETS)
    parser.add_argument("--pages", nargs="+", default=PAGES, choices=PAGES, metavar="TITLE",
                        help="page titles, in order (default: every page)")
    parser.add_argument("--out", type=Path, default=SHOTS, help="folder of the pictures")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        process, url = start_server(log, app_args=("--data-dir", str(args.data_dir)))
        try:
            wait_healthy(process, url, log)
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                for dataset in args.datasets:
                    shoot(browser, url, dataset, args.iterations, args.pages, args.out)
                browser.close()
        finally:
            stop(process)


if __name__ == "__main__":
    main()
