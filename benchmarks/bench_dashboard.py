"""Dashboard speed: one live tick, the 1,000-rectangle Population figure, kernel compile vs cache
load, and the first answer of a cold server.

    python benchmarks/bench_dashboard.py                      # all of it
    python benchmarks/bench_dashboard.py --only first-answer  # one part
    python benchmarks/bench_dashboard.py --only pause --repeats 3  # Pause on yeast, full speed
    python benchmarks/bench_dashboard.py --only draw          # the live charts drawn by plotly.js
    python benchmarks/bench_dashboard.py --only clicks        # a page click's cost to the browser
    python benchmarks/bench_dashboard.py --no-paint           # no browser (no Chromium needed)

Targets: a live tick (train for the budget + rebuild every visible chart) under 1 s with at
least 200 ms of training, on a 1,000-rule population and yeast-sized data; the Population figure
with 1,000 rectangles in under 0.5 s; after ``streamlit run`` (cold server, warm kernel cache),
first content under 2 s and the first metric and chart under 3 s (medians).

The live pages' charts (Train's two, Population's two), as one tab training on the sample drew
them, are also drawn again by plotly.js in a blank Chromium page: each as built, and in the
margins every chart had before 29 Nov (60 px left, 20 px right), which plotly must widen,
drawing the chart a second time (automargin).

A click from Train to Population, Rules or Explain (``--only clicks``) is traced in Chromium:
the browser's main-thread time it costs, on a tab's first visit and after.

Ticks are timed outside Streamlit through the same page-assembly functions the views call
(``dashboard.pages``); figures are also serialised (``fig.to_json()``), which
``st.plotly_chart`` does for every chart it sends.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from dashboard import figures, pacing, pages, plot_axes, state
from dashboard.data_split import DataSplit
from dashboard.headless import APP, launch_chromium, start_server, stop, wait_healthy
from mlr_core import Dataset, load_dataset

ROOT = Path(__file__).resolve().parents[1]
YEAST = ROOT.parent / "shared" / "datasets" / "yeast.arff"  # the paper's data, beside the repo


def yeast_sized() -> Dataset:
    """yeast itself when present, else random data of its shape (2417 x 103, 14 labels)."""
    if YEAST.is_file():
        return load_dataset(YEAST)
    rng = np.random.default_rng(0)
    X, Y = rng.random((2417, 103)), (rng.random((2417, 14)) < 0.3).astype(np.uint8)
    return Dataset(X, Y, [f"f{j}" for j in range(103)], [f"l{j}" for j in range(14)],
                   name="random-yeast-shape")


def timed(fn):
    began = time.perf_counter()
    result = fn()
    return result, 1000 * (time.perf_counter() - began)


def train_page(session: state.Session) -> list:
    return pages.train_charts(session.snapshot())


def population_page(session: state.Session) -> list:
    """What views/population.py draws each tick with its default options."""
    snap = session.snapshot()
    page = pages.population_page(session, snap,
                                 pages.PopulationOptions(pages.default_features(snap)))
    return [page.projection, page.histograms]


def tick(session: state.Session, charts, with_curve_point: bool) -> dict:
    """One live tick: train for the budget (starting a curve point if asked), then redraw; then
    the wait for the point, whose refit runs beside the tick (``CurvePoints.record``)."""
    session.points.curves.last_time = -np.inf if with_curve_point else time.perf_counter()
    _, advance_ms = timed(lambda: session.pacing.advance(session))
    _, draw_ms = timed(lambda: [fig.to_json() for fig in charts(session)])
    _, point_ms = timed(session.points.settled)
    return {"total": advance_ms + draw_ms, "advance": advance_ms, "draw": draw_ms,
            "point": point_ms}


def bench_tick(repeats: int) -> None:
    data = yeast_sized()
    session = state.Session(DataSplit.of(data))
    session.pacing.tick_cap = None  # "max": a full-budget tick, the slowest a page sees
    while session.snapshot().summary["micro_size"] < session.params["n_rules"]:
        session.step(1000)  # fill the population (N = 1,000) before measuring
    summary = session.snapshot().summary
    print(f"live tick on {data.name} ({len(data.X)} x {data.X.shape[1]}, "
          f"{data.Y.shape[1]} labels), population {summary['macro_size']} macro / "
          f"{summary['micro_size']} micro rules, budget {1000 * pacing.TICK_BUDGET_S:.0f} ms")
    charts = (("Train", train_page), ("Population", population_page))
    for _, draw in charts:  # warm-up: numba loads (or compiles) prediction on first use
        tick(session, draw, with_curve_point=True)
    for page, draw in charts:
        for with_point in (False, True):
            runs = [tick(session, draw, with_point) for _ in range(repeats)]
            worst = max(runs, key=lambda r: r["total"])
            kind = "with a curve point" if with_point else "plain"
            print(f"  {page:10} tick, {kind:18}: total {worst['total']:6.0f} ms "
                  f"(train {worst['advance']:4.0f} ms, snapshot + charts "
                  f"{worst['draw']:4.0f} ms; the point made beside it {worst['point']:4.0f} ms "
                  f"later)   worst of {repeats}")


def bench_rectangles(repeats: int) -> None:
    rng = np.random.default_rng(0)
    n, n_points = 1000, 2417
    x0, y0 = rng.random(n) * 0.7, rng.random(n) * 0.7
    rects = pd.DataFrame({
        "x0": x0, "x1": x0 + rng.random(n) * 0.3, "y0": y0, "y1": y0 + rng.random(n) * 0.3,
        "fitness": rng.random(n), "numerosity": rng.integers(1, 20, n),
        "labelset_id": rng.integers(0, 12, n),
    })
    points = pd.DataFrame({"x": rng.random(n_points), "y": rng.random(n_points),
                           "labelset_id": rng.integers(0, 12, n_points),
                           "index": np.arange(n_points)})
    names = [f"{{l{i}}}" for i in range(12)]
    axis = plot_axes.PlotAxis("linear", (0.0, 1.0))
    for color_by in ("fitness", "labelset"):
        times = [
            timed(lambda cb=color_by: figures.population_figure(
                rects, points, feature_names=("a", "b"), axes=(axis, axis),
                color_by=cb, palette=figures.labelset_palette(range(8)),
                labelset_names=names, title="t",
            ).to_json())[1]
            for _ in range(repeats)
        ]
        print(f"Population figure, 1,000 rectangles + 2,417 points, colour by {color_by}: "
              f"median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms "
              "(build + to_json)")


def bench_kernels(repeats: int) -> None:
    """Kernel warm-up with an empty numba cache (a fresh install) and with a full one."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "mlr_core", Path(tmp) / "mlr_core",
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)])}
        command = [sys.executable, "-c", "from dashboard.warmup import exercise_kernels; "
                   "print(exercise_kernels())"]
        for label in ("empty cache (compile)", "full cache (load)"):
            out = subprocess.run(command, env=env, cwd=tmp, capture_output=True, text=True,
                                 check=True)
            print(f"kernel warm-up, {label}: {float(out.stdout.split()[-1]):.1f} s")


# The app's first content: any element of the page body.
FIRST_CONTENT = "[data-testid='stMain'] [data-testid='stElementContainer']:visible"


#: A bare Streamlit app with a title, a metric and a plotly chart: the floor a dashboard on this
#: machine cannot beat, timed alternately with the real one so both see the same load.
BARE_APP = """
import plotly.graph_objects as go
import streamlit as st
st.title("bare")
st.metric("metric", 1)
st.plotly_chart(go.Figure(go.Scatter(x=[0, 1], y=[0, 1])))
"""


def first_answer(browser, app: Path, log: Path) -> tuple[float, ...]:
    """Seconds from launching ``streamlit run`` to: server healthy, first content, first
    metric, first drawn chart."""
    began = time.perf_counter()
    process, url = start_server(log, app)
    try:
        wait_healthy(process, url, log)
        times = [time.perf_counter() - began]
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.goto(url)
        for locator in (page.locator(FIRST_CONTENT).first,
                        page.get_by_test_id("stMetric").first,
                        page.get_by_test_id("stPlotlyChart").first.locator(".main-svg").first):
            locator.wait_for(timeout=120_000)
            times.append(time.perf_counter() - began)
        page.close()
    finally:
        stop(process)
    return tuple(times)


def bench_first_answer(repeats: int) -> dict[str, list[float]]:
    """Both apps launched alternately ``repeats`` times; returns each one's medians."""
    from playwright.sync_api import sync_playwright

    names = ("server healthy", "first content", "first metric", "first chart")
    runs = {"MLR Studio": [], "bare Streamlit app": []}
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare_app.py"
        bare.write_text(BARE_APP)
        browser = launch_chromium(playwright)
        for run in range(repeats):
            for label, app in (("MLR Studio", APP), ("bare Streamlit app", bare)):
                before = os.getloadavg()[0]
                runs[label].append(first_answer(browser, app, Path(tmp) / f"{run}.log"))
                print(f"  run {run + 1}, {label}: " + ", ".join(
                    f"{name} {t:.2f} s" for name, t in zip(names, runs[label][-1], strict=True))
                    + f" (load {before:.2f}-{os.getloadavg()[0]:.2f})", flush=True)
        browser.close()
    medians = {label: [statistics.median(column) for column in zip(*times, strict=True)]
               for label, times in runs.items()}
    for label, values in medians.items():
        print(f"{label}, after `streamlit run` (median of {repeats}): " + ", ".join(
            f"{name} {t:.2f} s" for name, t in zip(names, values, strict=True)))
    return medians


ENABLED_START = ("() => [...document.querySelectorAll('[data-testid=stSidebar] button')]"
                 ".some(b => b.innerText.trim().endsWith('Start') && !b.disabled)")


def bench_pause(repeats: int) -> None:
    """Pause at full speed on yeast, in a browser: the iteration the page shows when Pause is
    clicked against the one it shows once paused, and the seconds until Start is enabled."""
    from playwright.sync_api import sync_playwright

    idle = "[data-testid='stApp'][data-test-script-state='notRunning']"
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        process, url = start_server(log, app_args=("--data-dir", str(YEAST.parent)))
        try:
            wait_healthy(process, url, log)
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.goto(url)
            page.get_by_test_id("stMetric").first.wait_for(timeout=180_000)
            nav = page.get_by_test_id("stSidebarNav")
            nav.get_by_text("Data", exact=True).click()
            page.wait_for_selector(idle, timeout=180_000)
            page.get_by_test_id("stSelectbox").filter(has_text="Datasets in").click()
            page.get_by_role("option").filter(has_text="yeast.arff").click()
            page.get_by_role("button", name="Load dataset").click()
            page.get_by_text("Loaded yeast").first.wait_for(timeout=180_000)
            nav.get_by_text("Train (live)", exact=True).click()
            page.wait_for_selector(idle, timeout=180_000)
            page.get_by_test_id("stSidebar").get_by_role("slider").first.focus()
            page.keyboard.press("End")  # "max": 250 ms of training per tick
            page.wait_for_selector(idle, timeout=180_000)
            iteration = page.get_by_test_id("stMetric").first.get_by_test_id("stMetricValue")
            for run in range(repeats):
                page.get_by_role("button", name="Start", exact=True).click()
                page.wait_for_timeout(6000)
                shown = int(iteration.inner_text().replace(",", ""))
                began = time.perf_counter()
                page.get_by_role("button", name="Pause", exact=True).click()
                page.wait_for_function(ENABLED_START, timeout=60_000, polling=20)
                lag = time.perf_counter() - began
                page.wait_for_selector(idle, timeout=60_000)
                page.wait_for_timeout(1500)
                final = int(iteration.inner_text().replace(",", ""))
                print(f"  run {run + 1}: shown {shown:,} at the click, {final:,} once paused "
                      f"(+{final - shown:,}), Start enabled after {lag:.2f} s")
            browser.close()
        finally:
            stop(process)


#: The figures of a page's charts as the app drew them (Streamlit's theme merged in).
DRAWN_FIGURES = """() => [...document.querySelectorAll('.js-plotly-plot')].map(
  chart => JSON.parse(JSON.stringify({data: chart.data, layout: chart.layout})))"""
#: Draws a figure ``repeats`` times in a blank page; the median milliseconds, and whether
#: plotly drew it in the margins its figure asks for (not widened: one pass).
DRAW = """async ([figure, repeats]) => {
  const times = [];
  let widened = false;
  for (let k = 0; k < repeats; k++) {
    const copy = JSON.parse(JSON.stringify(figure));
    Plotly.purge('chart');
    const began = performance.now();
    await Plotly.newPlot('chart', copy.data, copy.layout, {});
    times.push(performance.now() - began);
    const chart = document.getElementById('chart'), asked = copy.layout.margin || {};
    widened = ['l', 'r', 't', 'b'].some(side => !(chart._fullLayout._size[side] <= asked[side]));
  }
  times.sort((a, b) => a - b);
  return [times[Math.floor(repeats / 2)], widened];
}"""


def bench_draw(repeats: int) -> None:
    """The live pages' charts as one tab training on the sample draws them, drawn again by
    plotly.js in a blank page with Streamlit's font: as built, and in the margins they had
    before 29 Nov (60 px left, 20 px right), which plotly must widen (a second pass)."""
    import plotly
    import streamlit
    from classroom import open_tab, served

    with served() as (process, url, browser, _):
        tab = open_tab(browser, url, 1)
        tab.press("Start", "Start", "() => [...document.querySelectorAll('[data-testid="
                  "stMetricValue]')].some(e => /[1-9]/.test(e.innerText))")
        time.sleep(5)
        charts = []
        for title in ("Population", "Train (live)"):
            tab.open(title)
            time.sleep(3)
            charts += tab.page.evaluate(DRAWN_FIGURES)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_content("<div id='chart' style='width: 800px'></div>")
        page.add_script_tag(path=str(Path(plotly.__file__).parent / "package_data"
                                     / "plotly.min.js"))
        static = Path(streamlit.__file__).parent / "static"  # the font of Streamlit's theme
        if font := next(static.rglob("SourceSans*Upright*.woff2"), None):
            page.add_style_tag(content="@font-face {font-family: 'Source Sans'; src: url(data:"
                               f"font/woff2;base64,{base64.b64encode(font.read_bytes()).decode()}"
                               ");}")
        print(f"The live pages' charts on the sample (plotly.js {page.evaluate('Plotly.version')}"
              f", median of {repeats} draws):")
        for figure in charts:
            old = {**figure, "layout": {**figure["layout"], "margin": {
                **figure["layout"]["margin"], "l": 60, "r": 20}}}
            (ms, widened), (old_ms, old_widened) = (
                page.evaluate(DRAW, [f, repeats]) for f in (figure, old))
            title = re.sub("<[^>]*>", "", figure["layout"]["title"]["text"])
            print(f"  {title[:45]:45}  as built {ms:4.0f} ms "
                  f"({'widened' if widened else 'one pass'}), in the old margins {old_ms:4.0f} ms "
                  f"({'widened' if old_widened else 'one pass'}): {old_ms / ms:.1f}x")


#: The pages a class opens after Train (``classroom.py --teacher``).
CLICKED = ("Population", "Rules", "Explain an instance")


def renderer_busy_ms(trace: bytes) -> float:
    """Milliseconds of top-level tasks on the page's main thread (the renderer's, which runs
    its JavaScript) in a Chromium trace: what a page's drawing costs a browser's CPU, whatever
    the machine's load."""
    import collections
    import json

    events = json.loads(trace)["traceEvents"]
    main = collections.Counter((e["pid"], e["tid"]) for e in events  # it runs the page's JS
                               if e.get("name") == "FunctionCall").most_common(1)[0][0]
    return sum(e["dur"] for e in events if (e.get("pid"), e.get("tid")) == main
               and e.get("name") == "RunTask" and e.get("ph") == "X") / 1e3


def visits(tab, title: str, count: int, measure: Callable[[Callable[[], None]], float]
           ) -> list[float]:
    """``count`` clicks from Train to ``title`` in ``tab``, each measured by ``measure(click)``
    (which calls ``click``: the page opened, and 2 s for it to draw)."""

    def click() -> None:
        tab.open(title)
        time.sleep(2)

    values = []
    for _ in range(count):
        tab.open("Train (live)")
        time.sleep(1.5)
        values.append(measure(click))
    return values


def traced_ms(browser, page, click: Callable[[], None]) -> float:
    """``page``'s main-thread milliseconds during ``click()`` (`renderer_busy_ms`)."""
    browser.start_tracing(page=page, categories=["devtools.timeline",
                                                 "disabled-by-default-devtools.timeline"])
    click()
    return renderer_busy_ms(browser.stop_tracing())


def browser_cpu_ms(server_pid: int, click: Callable[[], None]) -> float:
    """CPU milliseconds of all the browser's threads during ``click()``."""
    from classroom import cpu_seconds

    before = cpu_seconds(server_pid)["browser"]
    click()
    return 1000 * (cpu_seconds(server_pid)["browser"] - before)


def bench_clicks(repeats: int) -> None:
    """What a click on a page costs the browser, in a tab paused on the sample, from Train: the
    first visit (the page's scripts load and compile, its widgets mount for the first time) and
    the median of ``repeats`` more. Twice: the page's main thread (DevTools trace), then, in a
    tab of its own and untraced, all the browser's threads (CPU time: compositing and raster
    too). Six tabs following the teacher pay the first visits all at once on the same cores
    (``classroom.py --teacher``)."""
    from classroom import open_tab, served

    with served() as (process, url, browser, _log):
        traced, untraced = open_tab(browser, url, 1), open_tab(browser, url, 2)
        print(f"A click on a page from Train, paused on the sample, over the 2 s after it: the "
              f"page's main thread, then all the browser's threads (first visit; median of "
              f"{repeats} more):")
        for title in CLICKED:
            busy = visits(traced, title, repeats + 1,
                          lambda click: traced_ms(browser, traced.page, click))
            cpu = visits(untraced, title, repeats + 1,
                         lambda click: browser_cpu_ms(process.pid, click))
            if not all(busy):  # a click is never free: the trace's events were not found
                raise RuntimeError(f"no main-thread tasks in the traces of {title}: {busy}")
            print(f"  {title:22} main thread: first {busy[0]:5.0f} ms, then "
                  f"{statistics.median(busy[1:]):5.0f} ms; all threads: first {cpu[0]:5.0f} ms, "
                  f"then {statistics.median(cpu[1:]):5.0f} ms", flush=True)


PARTS = {"rectangles": bench_rectangles, "tick": bench_tick, "kernels": bench_kernels,
         "first-answer": bench_first_answer, "pause": bench_pause, "draw": bench_draw,
         "clicks": bench_clicks}


BROWSER_PARTS = ("first-answer", "pause", "draw", "clicks")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=PARTS, action="append",
                        help="run only this part (repeatable); default: all")
    parser.add_argument("--no-paint", action="store_true",
                        help="skip the browser part (no Chromium needed)")
    args = parser.parse_args()
    for name, bench in PARTS.items():
        if (args.only and name not in args.only) or (args.no_paint and name in BROWSER_PARTS):
            continue
        bench(args.repeats)


if __name__ == "__main__":
    main()
