"""The training session of one browser tab, kept in ``st.session_state`` and nowhere else.

Each tab gets its own :class:`Session` (dataset, held-out split, model, curves), so two tabs train
two independent models; nothing user-specific goes through ``st.cache_resource``. ``Session`` never
calls Streamlit, so the benchmark and unit tests drive it directly.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from dashboard import figures, frames
from mlr_core import MLRClassifier
from mlr_core.data.loaders import Dataset, load_dataset
from mlr_core.evaluation import measures as metrics

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample_data"
DEFAULT_SAMPLE = "hypercube_2d.csv"
#: Parameters the Train page exposes; the rest keep the engine's defaults.
DEFAULT_PARAMS = {
    "n_rules": 1000, "p_hash": 0.33, "fitness": "hl", "nu": 10.0, "theta_ga": 25,
    "r0": 0.5, "prediction": "agg", "random_state": 0,
}
DEFAULT_HOLDOUT = 0.2
#: Training per live tick; ticks start every TICK_EVERY_S, which leaves time to redraw.
TICK_BUDGET_S = 0.25
TICK_EVERY_S = 0.6
#: Learning-curve points: at most one per CURVE_EVERY_S of live training, CURVE_POINTS kept.
CURVE_EVERY_S = 1.0
CURVE_POINTS = 200
#: Rows of the training set scored for the training curve (a fixed sample keeps ticks short).
TRAIN_EVAL_ROWS = 1000
PALETTE_SIZE = 8
#: Measures of the learning curves (those of ``metrics.evaluate`` a live tick can afford).
CURVE_MEASURES = tuple(figures.METRICS)


class CurveLog:
    """Training / held-out measures over iterations, in a bounded deque.

    When the deque is full every other point is dropped and the spacing between points doubles,
    so memory stays bounded yet the curve always spans the whole run. Live ticks add a point at
    most every ``min_seconds``: scoring costs more than drawing, and curves need not be redrawn
    twice a second.
    """

    COLUMNS = ("iteration", "split", *CURVE_MEASURES)

    def __init__(self, max_points: int = CURVE_POINTS, min_seconds: float = CURVE_EVERY_S):
        self.points: deque[dict] = deque(maxlen=max_points)
        self.min_seconds = min_seconds
        self.every = 1
        self.next_at = 1
        self.last_time = -math.inf

    def due(self, iteration: int, now: float, force: bool = False) -> bool:
        return iteration >= self.next_at and (force or now - self.last_time >= self.min_seconds)

    def add(self, iteration: int, now: float, measures: dict[str, dict[str, float]]) -> None:
        self.points.append({"iteration": iteration, **measures})
        self.last_time = now
        if len(self.points) == self.points.maxlen:
            kept = list(self.points)[::2]
            self.points.clear()
            self.points.extend(kept)
            span = kept[-1]["iteration"] - kept[0]["iteration"]
            self.every = max(1, span // max(len(kept) - 1, 1))
        self.next_at = iteration + self.every

    def frame(self) -> pd.DataFrame:
        """Long format (one row per iteration and split), as ``figures.learning_curves`` takes."""
        rows = [
            {"iteration": p["iteration"], "split": split, **p[split]}
            for p in self.points
            for split in ("training", "held-out")
        ]
        return pd.DataFrame(rows, columns=list(self.COLUMNS))


def _split(n: int, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Shuffled train / held-out indices, at least one row on each side.

    The training indices stay shuffled so that their head is a random sample for the curve.
    """
    order = np.random.default_rng(seed).permutation(n)
    n_test = int(np.clip(round(n * holdout), 1, n - 1)) if n > 1 else 0
    return order[n_test:], np.sort(order[:n_test])


@dataclass
class Session:
    """Dataset, split, model and learning curves of one tab.

    Building a new dataset or model creates the replacements first and assigns them only when
    they are valid, so an engine or loader error leaves the previous session intact.
    """

    dataset: Dataset
    params: dict = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    holdout: float = DEFAULT_HOLDOUT
    running: bool = False
    selected: int = 0
    model: MLRClassifier = field(init=False)
    train_idx: np.ndarray = field(init=False)
    test_idx: np.ndarray = field(init=False)
    curves: CurveLog = field(init=False)
    labelsets: np.ndarray = field(init=False)
    palette_labelsets: list[str] = field(init=False)
    speed: float = field(init=False, default=0.0)
    tick_cap: int | None = None

    def __post_init__(self) -> None:
        self._install(self.dataset, self.params, self.holdout)

    # ------------------------------------------------------------------ building

    def _install(self, dataset: Dataset, params: dict, holdout: float) -> None:
        """Validate a (dataset, params, split) triple by starting a model, then switch to it."""
        train_idx, test_idx = _split(len(dataset.X), holdout, int(params["random_state"]))
        model = MLRClassifier(**params).start(
            dataset.X[train_idx], dataset.Y[train_idx],
            feature_names=dataset.feature_names, label_names=dataset.label_names,
        )
        self._adopt(dataset, model, params, holdout, train_idx, test_idx)

    def _adopt(self, dataset, model, params, holdout, train_idx, test_idx) -> None:
        if not hasattr(self, "labelsets") or dataset is not self.dataset:
            self.labelsets = frames.labelset_texts(dataset.Y, dataset.label_names)
            self.palette_labelsets = frames.frequent_labelsets(self.labelsets, PALETTE_SIZE)
            self.selected = 0
        self.dataset, self.model, self.params, self.holdout = dataset, model, params, holdout
        self.train_idx, self.test_idx = train_idx, test_idx
        self.curves = CurveLog()
        self.running = False
        self.speed = 0.0

    def reset(self, params: dict | None = None, holdout: float | None = None) -> None:
        """A fresh model on the current dataset (new parameters / split if given)."""
        self._install(
            self.dataset,
            dict(self.params if params is None else params),
            self.holdout if holdout is None else holdout,
        )

    def set_dataset(self, dataset: Dataset) -> None:
        """Switch dataset with a fresh model; on error the old dataset and model stay."""
        self._install(dataset, self.params, self.holdout)

    def load_model(self, text: str) -> None:
        """Adopt a JSON rule set to inspect or continue training on the current dataset.

        ``from_json`` validates (never unpickles); ``start(warm_start=True)`` checks the feature
        and label counts against the current data and keeps the rules.
        """
        model = MLRClassifier.from_json(text)
        model.start(self.dataset.X[self.train_idx], self.dataset.Y[self.train_idx],
                    warm_start=True)
        params = {key: model.get_params()[key] for key in DEFAULT_PARAMS}
        self._adopt(self.dataset, model, params, self.holdout, self.train_idx, self.test_idx)

    # ------------------------------------------------------------------ training

    def advance(self, budget_s: float = TICK_BUDGET_S) -> int:
        """Train for about ``budget_s`` seconds (at most ``tick_cap`` iterations), then record.

        Chunks are sized from the measured speed, a quarter of the budget each, so a population
        that slows down as it grows overruns the budget by little. Returns the iterations done
        (at least one, so every tick shows progress).
        """
        deadline = time.perf_counter() + budget_s
        cap = self.tick_cap or math.inf
        done = 0
        while done < cap and ((left := deadline - time.perf_counter()) > 0 or done == 0):
            guess = self.speed * min(max(left, 0.0), budget_s / 4) if self.speed else 20
            chunk = int(max(1, min(guess, cap - done)))
            began = time.perf_counter()
            self.model.learn(chunk)
            rate = chunk / max(time.perf_counter() - began, 1e-6)
            self.speed = rate if not self.speed else 0.5 * (self.speed + rate)
            done += chunk
        self.record()
        return done

    def step(self, n_iterations: int) -> None:
        """Advance exactly ``n_iterations`` and always add a curve point (a manual step)."""
        self.model.learn(int(n_iterations))
        self.record(force=True)

    def record(self, force: bool = False) -> None:
        """Score training (a fixed sample) and held-out rows if a curve point is due."""
        iteration, now = self.model.summary()["iteration"], time.perf_counter()
        if not self.curves.due(iteration, now, force):
            return
        sample = self.train_idx[:TRAIN_EVAL_ROWS]
        rows = np.concatenate([sample, self.test_idx])
        self.model.tune_bipartition()  # to the rules as they are now
        pred = self.model.predict(self.dataset.X[rows])  # one pass over both splits
        truth = self.dataset.Y[rows]
        measures = {
            split: {name: float(getattr(metrics, name)(truth[part], pred[part]))
                    for name in CURVE_MEASURES}
            for split, part in (("training", slice(0, len(sample))),
                                ("held-out", slice(len(sample), None)))
        }
        self.curves.add(iteration, now, measures)


# ---------------------------------------------------------------------- Streamlit glue


@st.cache_data(show_spinner=False)
def sample_names() -> list[str]:
    """Sample datasets shipped in ``sample_data/``, the default (2-D hypercube) first."""
    names = sorted(p.name for p in SAMPLE_DIR.glob("*") if p.suffix in {".csv", ".arff"})
    return sorted(names, key=lambda name: name != DEFAULT_SAMPLE)


@st.cache_data(show_spinner=False)
def load_sample(name: str) -> Dataset:
    """Shared read-only sample data (a copy per caller): cheap to share, unlike a model."""
    return load_dataset(SAMPLE_DIR / name)


def get() -> Session:
    """This tab's session, created on first use on the default sample dataset."""
    if "session" not in st.session_state:
        st.session_state["session"] = Session(load_sample(sample_names()[0]))
    return st.session_state["session"]


def run_every() -> float | None:
    """Timer of the live fragments: ticking while running, ``None`` (stopped) when paused."""
    return TICK_EVERY_S if get().running else None
