"""MLR Studio against a bare Streamlit app under a fixed CPU load, side by side in one run.

    python benchmarks/under_load.py                     # 3 burners: load about 4 on 2 cores
    python benchmarks/under_load.py --burners 3 --repeats 5
    python benchmarks/under_load.py --burners 3 -- benchmarks/classroom.py --tabs 1 --data yeast
    python benchmarks/under_load.py --burners 3 --click-floor --repeats 7

Issue 34's target: under load 4 on 2 cores, the first chart after launch at most 1.5 times a
bare Streamlit app's (one title, one metric, one plotly chart: ``bench_dashboard.BARE_APP``),
and Compact and audit within twice its idle time. The load is made by ``--burners`` Python busy
loops at the default niceness (with the benchmark's own server and browser, 3 of them make a
1-minute load average of about 4 on an otherwise idle machine); they start ``--settle`` seconds
before the first measure, so that the load average has risen, and stop at the end. Both apps
are launched and timed by the same code (``bench_dashboard.bench_first_answer``: ``streamlit run``,
then Chromium until the first drawn chart), alternately, so that they see the same load. With
a command after ``--``, that script runs instead, under the same burners (e.g. the one-tab
classroom run, whose "Compact and audit" line is the second target). With ``--click-floor``, the
floor of that second target: a bare app's button that draws what Compact and audit draws, from
random numbers and with nothing to compute (``BARE_CLICK_APP``), clicked idle, under the
burners, and idle again, in one browser. Every figure is printed with the load average while it
was taken.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from bench_dashboard import bench_first_answer
from classroom import SHOWS

from dashboard.headless import launch_chromium, start_server, stop, wait_healthy

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def burners(count: int, settle: float):
    """``count`` busy loops for as long as the block lasts, after ``settle`` seconds."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        time.sleep(settle)
        yield
    finally:
        for loop in loops:
            loop.terminate()
        for loop in loops:
            loop.wait()


def load_text() -> str:
    return "load " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def first_charts(repeats: int) -> None:
    medians = bench_first_answer(repeats)
    ours, floor = medians["MLR Studio"][-1], medians["bare Streamlit app"][-1]
    print(f"first chart: MLR Studio {ours:.2f} s, {ours / floor:.2f} x the bare app's "
          f"{floor:.2f} s (target: at most 1.5 x); {load_text()}")


#: What Compact and audit draws (a budget curve, a heatmap of 20 rules by 14 labels, a scorecard
#: table, four metrics, a measures table, a coverage curve, a slider and a select box), from
#: random numbers: the Streamlit and browser work of that click without the library's.
BARE_CLICK_APP = """
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
st.title("bare")
if st.button("Compact and audit"):
    rng = np.random.default_rng(0)
    st.select_slider("budget", [5, 10, 20, 50], value=20)
    st.plotly_chart(go.Figure(go.Scatter(x=[5, 10, 20, 50], y=rng.random(4))))
    st.selectbox("order", ["weight", "support"])
    st.plotly_chart(go.Figure(go.Heatmap(z=rng.normal(size=(20, 14)))))
    st.dataframe(pd.DataFrame(rng.normal(size=(20, 8))).assign(condition="x3 >= 0.25"))
    for column, name in zip(st.columns(4), ["Deciding rules", "a", "b", "c"]):
        column.metric(name, f"{rng.random():.3f}")
    st.dataframe(pd.DataFrame(rng.random(size=(6, 6))))
    st.plotly_chart(go.Figure(go.Scatter(x=np.arange(21), y=np.cumsum(rng.random(21)))))
"""


def floor_clicks(repeats: int) -> float:
    """Median seconds from clicking the bare click app's button to its page drawn and Streamlit
    idle (``classroom.SHOWS``, the predicate of the Compact-and-audit click), over ``repeats``
    fresh loads of the page after a first one that is not counted: in the classroom run, pages
    with charts come before the click, and the browser has plotly's script by then."""
    from playwright.sync_api import sync_playwright

    seconds = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp) / "bare_click_app.py"
        app.write_text(BARE_CLICK_APP)
        process, url = start_server(Path(tmp) / "server.log", app)
        try:
            wait_healthy(process, url, Path(tmp) / "server.log")
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            for _ in range(repeats + 1):
                page.goto(url)
                button = page.get_by_role("button", name="Compact and audit", exact=True)
                button.wait_for(timeout=120_000)
                began = time.perf_counter()
                button.click()
                page.wait_for_function(SHOWS, arg="Deciding rules", polling=50,
                                       timeout=120_000)
                seconds.append(time.perf_counter() - began)
            seconds = seconds[1:]  # the first loads plotly's script, as the pages before did
            browser.close()
        finally:
            stop(process)
    print("  bare click: " + ", ".join(f"{t:.2f}" for t in seconds) + f" s; {load_text()}",
          flush=True)
    return statistics.median(seconds)


def click_floor(count: int, settle: float, repeats: int) -> None:
    """The bare click idle, under ``count`` burners and idle again: its own ratio is the floor
    for Compact and audit's "within 2x its idle time"."""
    idle = [floor_clicks(repeats)]
    with burners(count, settle):
        loaded = floor_clicks(repeats)
    idle.append(floor_clicks(repeats))
    print(f"bare click (median of {repeats}): idle {idle[0]:.2f} s and {idle[1]:.2f} s, under "
          f"{count} burners {loaded:.2f} s: {loaded / statistics.mean(idle):.2f} x idle")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=3, help="busy loops making the load")
    parser.add_argument("--settle", type=float, default=60.0,
                        help="seconds the burners run before the first measure")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--click-floor", action="store_true",
                        help="time the bare app's click idle, loaded and idle instead")
    parser.add_argument("command", nargs="*", help="a script to run under the load instead")
    args = parser.parse_args()
    print(f"before the burners: {load_text()}")
    if args.click_floor:
        click_floor(args.burners, args.settle, args.repeats)
        return
    with burners(args.burners, args.settle):
        print(f"{args.burners} burners for {args.settle:.0f} s: {load_text()}", flush=True)
        if args.command:
            subprocess.run([sys.executable, *args.command], cwd=ROOT, check=True)
        else:
            first_charts(args.repeats)
    print(f"burners stopped: {load_text()}")


if __name__ == "__main__":
    main()
