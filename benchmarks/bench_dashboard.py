"""Dashboard speed: one live tick, the 1,000-rectangle Population figure, first paint.

    python benchmarks/bench_dashboard.py            # all three
    python benchmarks/bench_dashboard.py --no-paint # skip the browser (no Chromium needed)

Targets (issue 4): a live tick (train for the budget + rebuild every visible chart) under 1 s
with at least 200 ms of training, on a 1,000-rule population and yeast-sized data; the Population
figure with 1,000 rectangles in under 0.5 s; first paint (launching ``streamlit run`` until the
browser shows the app's first content) under 5 s; the first metric and chart are timed too.

A tick is measured outside Streamlit with the same calls the pages' live fragments make; figures
are also serialised (``fig.to_json()``), which ``st.plotly_chart`` does for every chart it sends.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))  # the e2e tests' way of starting the app

from dashboard import figures, frames, state  # noqa: E402
from mlr_core.data.loaders import Dataset, load_dataset  # noqa: E402

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


def train_page_charts(session: state.Session) -> list:
    session.model.summary()
    return [figures.learning_curves(session.curves.frame()),
            figures.population_curves(session.model.history())]


def population_page_charts(session: state.Session) -> list:
    """What views/population.py draws each tick with its default options (x0 vs x1, cap 300)."""
    model, X = session.model, session.dataset.X
    rules = model.rules_frame()
    chosen, _, ranges = frames.projection(rules, *model.rule_bounds(), X, (0, 1), cap=300)
    return [
        figures.population_figure(
            chosen, frames.instance_points(X, session.labelsets, (0, 1)),
            feature_names=tuple(session.dataset.feature_names[:2]), ranges=ranges,
            color_by="fitness", palette=figures.labelset_palette(session.palette_labelsets),
            title="population",
        ),
        figures.population_histograms(rules),
    ]


def tick(session: state.Session, charts, with_curve_point: bool) -> dict:
    """One live tick: train for the budget (recording a curve point if asked), then redraw."""
    trained = [0.0]
    learn = session.model.learn

    def timed_learn(n):
        began = time.perf_counter()
        learn(n)
        trained[0] += time.perf_counter() - began

    session.model.learn = timed_learn
    if with_curve_point:
        session.curves.last_time = -np.inf
    else:
        session.curves.last_time = time.perf_counter()
    try:
        _, advance_ms = timed(session.advance)
    finally:
        del session.model.learn
    _, draw_ms = timed(lambda: [fig.to_json() for fig in charts(session)])
    train_ms = 1000 * trained[0]
    return {"total": advance_ms + draw_ms, "train": train_ms,
            "score": advance_ms - train_ms, "draw": draw_ms}


def bench_tick(repeats: int) -> None:
    data = yeast_sized()
    session = state.Session(data)
    session.model.learn(2000)  # fill the population (N = 1,000) before measuring
    while session.model.summary()["micro_size"] < session.params["n_rules"]:
        session.model.learn(1000)
    summary = session.model.summary()
    print(f"live tick on {data.name} ({len(data.X)} x {data.X.shape[1]}, "
          f"{data.Y.shape[1]} labels), population {summary['macro_size']} macro / "
          f"{summary['micro_size']} micro rules, budget {1000 * state.TICK_BUDGET_S:.0f} ms")
    pages = (("Train", train_page_charts), ("Population", population_page_charts))
    for _, charts in pages:  # warm-up: numba loads (or compiles) prediction on first use
        tick(session, charts, with_curve_point=True)
    for page, charts in pages:
        for with_point in (False, True):
            runs = [tick(session, charts, with_point) for _ in range(repeats)]
            worst = max(runs, key=lambda r: r["total"])
            kind = "with a curve point" if with_point else "plain"
            print(f"  {page:10} tick, {kind:18}: total {worst['total']:6.0f} ms "
                  f"(train {worst['train']:4.0f} ms, score {worst['score']:4.0f} ms, "
                  f"charts {worst['draw']:4.0f} ms)   worst of {repeats}")


def bench_rectangles(repeats: int) -> None:
    rng = np.random.default_rng(0)
    n = 1000
    x0, y0 = rng.random(n) * 0.7, rng.random(n) * 0.7
    rects = pd.DataFrame({
        "x0": x0, "x1": x0 + rng.random(n) * 0.3, "y0": y0, "y1": y0 + rng.random(n) * 0.3,
        "fitness": rng.random(n), "numerosity": rng.integers(1, 20, n),
        "labelset": rng.choice([f"{{l{i}}}" for i in range(12)], n),
    })
    points = pd.DataFrame({"x": rng.random(2417), "y": rng.random(2417),
                           "labelset": rng.choice([f"{{l{i}}}" for i in range(12)], 2417),
                           "index": np.arange(2417)})
    palette = figures.labelset_palette([f"{{l{i}}}" for i in range(8)])
    for color_by in ("fitness", "labelset"):
        times = [
            timed(lambda cb=color_by: figures.population_figure(
                rects, points, feature_names=("a", "b"), ranges=((0, 1), (0, 1)),
                color_by=cb, palette=palette, title="t",
            ).to_json())[1]
            for _ in range(repeats)
        ]
        print(f"Population figure, 1,000 rectangles + 2,417 points, colour by {color_by}: "
              f"median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms "
              "(build + to_json)")


# The app's first content: its "Starting the MLR engine" note, or a metric if that came first.
FIRST_CONTENT = "[data-testid='stAlert'], [data-testid='stMetric']"


def bench_first_paint(repeats: int) -> None:
    from playwright.sync_api import sync_playwright
    from streamlit_server import launch_chromium, start_server, stop, wait_healthy

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
                painted = time.perf_counter() - began
                page.get_by_test_id("stMetric").first.wait_for(timeout=120_000)
                metric = time.perf_counter() - began
                page.get_by_test_id("stPlotlyChart").first.locator(".main-svg").first.wait_for(
                    timeout=120_000)
                chart = time.perf_counter() - began
                page.close()
            finally:
                stop(process)
            print(f"first paint run {run + 1}: server healthy {healthy:.2f} s, first paint "
                  f"{painted:.2f} s, first metric {metric:.2f} s, first chart {chart:.2f} s "
                  "(from launching streamlit)")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-paint", action="store_true", help="skip the browser benchmark")
    args = parser.parse_args()
    bench_rectangles(args.repeats)
    bench_tick(args.repeats)
    if not args.no_paint:
        bench_first_paint(3)


if __name__ == "__main__":
    main()
