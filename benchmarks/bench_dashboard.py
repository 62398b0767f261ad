"""Dashboard speed: one live tick, the 1,000-rectangle Population figure, kernel compile vs cache
load, and the first answer of a cold server.

    python benchmarks/bench_dashboard.py             # all of it
    python benchmarks/bench_dashboard.py --no-paint  # skip the browser (no Chromium needed)

Targets: a live tick (train for the budget + rebuild every visible chart) under 1 s with at
least 200 ms of training, on a 1,000-rule population and yeast-sized data; the Population figure
with 1,000 rectangles in under 0.5 s; after ``streamlit run`` (cold server, warm kernel cache),
first content under 2 s and the first metric and chart under 3 s (medians).

Ticks are timed outside Streamlit through the same page-assembly functions the views call
(``mlr_dashboard.pages``); figures are also serialised (``fig.to_json()``), which
``st.plotly_chart`` does for every chart it sends.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mlr_core import Dataset, load_dataset
from mlr_dashboard import figures, pages, state
from mlr_dashboard.headless import launch_chromium, start_server, stop, wait_healthy

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
    """One live tick: train for the budget (recording a curve point if asked), then redraw."""
    session.curves.last_time = -np.inf if with_curve_point else time.perf_counter()
    _, advance_ms = timed(session.advance)
    _, draw_ms = timed(lambda: [fig.to_json() for fig in charts(session)])
    return {"total": advance_ms + draw_ms, "advance": advance_ms, "draw": draw_ms}


def bench_tick(repeats: int) -> None:
    data = yeast_sized()
    session = state.Session(data)
    while session.snapshot().summary["micro_size"] < session.params["n_rules"]:
        session.step(1000)  # fill the population (N = 1,000) before measuring
    summary = session.snapshot().summary
    print(f"live tick on {data.name} ({len(data.X)} x {data.X.shape[1]}, "
          f"{data.Y.shape[1]} labels), population {summary['macro_size']} macro / "
          f"{summary['micro_size']} micro rules, budget {1000 * state.TICK_BUDGET_S:.0f} ms")
    charts = (("Train", train_page), ("Population", population_page))
    for _, draw in charts:  # warm-up: numba loads (or compiles) prediction on first use
        tick(session, draw, with_curve_point=True)
    for page, draw in charts:
        for with_point in (False, True):
            runs = [tick(session, draw, with_point) for _ in range(repeats)]
            worst = max(runs, key=lambda r: r["total"])
            kind = "with a curve point" if with_point else "plain"
            print(f"  {page:10} tick, {kind:18}: total {worst['total']:6.0f} ms "
                  f"(train + score {worst['advance']:4.0f} ms, snapshot + charts "
                  f"{worst['draw']:4.0f} ms)   worst of {repeats}")


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
    for color_by in ("fitness", "labelset"):
        times = [
            timed(lambda cb=color_by: figures.population_figure(
                rects, points, feature_names=("a", "b"), ranges=((0, 1), (0, 1)),
                color_by=cb, palette=figures.labelset_palette(range(8)),
                labelset_names=names, title="t",
            ).to_json())[1]
            for _ in range(repeats)
        ]
        print(f"Population figure, 1,000 rectangles + 2,417 points, colour by {color_by}: "
              f"median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms "
              "(build + to_json)")


def bench_kernels() -> None:
    """Kernel warm-up with an empty numba cache (a fresh install) and with a full one."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "mlr_core", Path(tmp) / "mlr_core",
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)])}
        command = [sys.executable, "-c", "from mlr_dashboard.warmup import exercise_kernels; "
                   "print(exercise_kernels())"]
        for label in ("empty cache (compile)", "full cache (load)"):
            out = subprocess.run(command, env=env, cwd=tmp, capture_output=True, text=True,
                                 check=True)
            print(f"kernel warm-up, {label}: {float(out.stdout.split()[-1]):.1f} s")


# The app's first content: any element of the page body.
FIRST_CONTENT = "[data-testid='stMain'] [data-testid='stElementContainer']"


def bench_first_answer(repeats: int) -> None:
    from playwright.sync_api import sync_playwright

    runs = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        browser = launch_chromium(playwright)
        for run in range(repeats):
            log = Path(tmp) / f"server{run}.log"
            began = time.perf_counter()
            process, url = start_server(log)
            try:
                wait_healthy(process, url, log)
                healthy = time.perf_counter() - began
                page = browser.new_page(viewport={"width": 1500, "height": 1000})
                page.goto(url)
                page.locator(FIRST_CONTENT).first.wait_for(timeout=120_000)
                content = time.perf_counter() - began
                page.get_by_test_id("stMetric").first.wait_for(timeout=120_000)
                metric = time.perf_counter() - began
                page.get_by_test_id("stPlotlyChart").first.locator(".main-svg").first.wait_for(
                    timeout=120_000)
                chart = time.perf_counter() - began
                page.close()
            finally:
                stop(process)
            runs.append((healthy, content, metric, chart))
            print(f"  run {run + 1}: server healthy {healthy:.2f} s, first content "
                  f"{content:.2f} s, first metric {metric:.2f} s, first chart {chart:.2f} s")
        browser.close()
    medians = [statistics.median(column) for column in zip(*runs, strict=True)]
    print("first answer after `streamlit run` (median of {}): server healthy {:.2f} s, first "
          "content {:.2f} s, first metric {:.2f} s, first chart {:.2f} s".format(
              repeats, *medians))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-paint", action="store_true", help="skip the browser benchmark")
    args = parser.parse_args()
    bench_rectangles(args.repeats)
    bench_tick(args.repeats)
    bench_kernels()
    if not args.no_paint:
        bench_first_answer(args.repeats)


if __name__ == "__main__":
    main()
