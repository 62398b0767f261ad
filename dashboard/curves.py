"""Learning curves over a run: the measures of a curve point, bounded logs that always span the
whole run, and the curves of earlier runs kept for comparison."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dashboard.data_split import DataSplit

#: Learning-curve points: at most one per CURVE_EVERY_S of live training, CURVE_POINTS kept. Each
#: point redraws the Train page's charts in the browser (every 1 s before 29 Nov: one tab's
#: browser then used 71% of a core on Train, 58% at 2 s; `benchmarks/live_pages.py`).
CURVE_EVERY_S = 2.0
CURVE_POINTS = 200
#: Earlier runs whose curves the Train page keeps when the parameters change.
RUN_HISTORY = 5
#: The learning curves' measures (those a live tick can afford), with their display names.
MEASURES = {"hamming_loss": "Hamming loss", "accuracy": "Accuracy", "f1": "F1"}
#: Rows of the training set scored for the training curve (a fixed sample keeps ticks short).
TRAIN_EVAL_ROWS = 1000


def curve_scores(model, split: DataSplit) -> dict:
    """The measures of ``model`` on the training sample and the held-out rows of ``split``
    (the data it was trained on: a point made beside a tick may end after new data)."""
    from mlr_core.evaluation import measures  # on first scoring: it pulls in scikit-learn

    sample = split.train_idx[:TRAIN_EVAL_ROWS]
    rows = np.concatenate([sample, split.test_idx])
    pred = model.predict(split.dataset.features(rows))  # one pass over both splits
    truth = split.dataset.Y[rows]
    return {
        side: {name: float(getattr(measures, name)(truth[part], pred[part])) for name in MEASURES}
        for side, part in (("training", slice(0, len(sample))),
                           ("held-out", slice(len(sample), None)))
    }


class ThinnedLog:
    """Records over iterations in a bounded deque that always spans the whole run.

    When the deque is full every other point is dropped and the spacing between points doubles,
    so memory stays bounded. Live ticks add a point at most every ``min_seconds``: scoring costs
    more than drawing, and curves need not be redrawn twice a second.
    """

    def __init__(self, max_points: int = CURVE_POINTS, min_seconds: float = CURVE_EVERY_S):
        self.points: deque[dict] = deque(maxlen=max_points)
        self.min_seconds = min_seconds
        self.every = 1
        self.next_at = 1
        self.last_time = -math.inf

    def due(self, iteration: int, now: float, force: bool = False) -> bool:
        return iteration >= self.next_at and (force or now - self.last_time >= self.min_seconds)

    def add(self, iteration: int, now: float, record: dict) -> None:
        self.points.append({"iteration": iteration, **record})
        self.last_time = now
        if len(self.points) == self.points.maxlen:
            self.thin()
        self.next_at = iteration + self.every

    def thin(self) -> None:
        """Drop every other point (the first and the spacing-doubling rule keep the span)."""
        kept = list(self.points)[::2]
        self.points.clear()
        self.points.extend(kept)
        span = kept[-1]["iteration"] - kept[0]["iteration"]
        self.every = max(1, span // max(len(kept) - 1, 1))


class CurveLog(ThinnedLog):
    """Training / held-out measures over iterations."""

    COLUMNS = ("iteration", "split", *MEASURES)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._frame: pd.DataFrame | None = None

    def add(self, iteration: int, now: float, record: dict) -> None:
        super().add(iteration, now, record)
        self._frame = None

    def frame(self) -> pd.DataFrame:
        """Long format (one row per iteration and split), as ``figures.learning_curves`` takes:
        the same frame until a point is added (read it, never change it), so a page can tell
        that its curves did not move since it last drew them."""
        if self._frame is None:
            rows = [
                {"iteration": p["iteration"], "split": split, **p[split]}
                for p in self.points
                for split in ("training", "held-out")
            ]
            self._frame = pd.DataFrame(rows, columns=list(self.COLUMNS))
        return self._frame


@dataclass(frozen=True)
class PastRun:
    """The curves of an earlier run of this session, named by what set it apart."""

    name: str
    params: dict
    curves: pd.DataFrame


#: How a run's name says which model it trained.
MODEL_TAGS = {"fitted": "fitted weights", "vote": "the paper's vote"}


def run_name(number: int, params: dict) -> str:
    """``run 2: fitted weights, HL, ν 10, N 1000, P# 0.33, θ_GA 25, seed 0``: the model and the
    parameters a teacher changes."""
    return (f"run {number}: {MODEL_TAGS[params['weighting']]}, {params['fitness'].upper()}, "
            f"ν {params['nu']:g}, "
            f"N {params['n_rules']}, P# {params['p_hash']:g}, θ_GA {params['theta_ga']}, "
            f"seed {params['random_state']}")


class RunHistory:
    """The curves of the earlier runs on one dataset (newest last, at most ``keep``) and the
    number of the current run: a new model on the same data keeps its predecessor's curves for
    comparison, new data clears them (curves on other data do not compare)."""

    def __init__(self, keep: int = RUN_HISTORY) -> None:
        self.runs: deque[PastRun] = deque(maxlen=keep)
        self.number = 0

    def next_run(self, params: dict, curves: CurveLog | None) -> None:
        """The current run ends (its curves are kept if it drew any); the next one starts."""
        if curves is not None and curves.points:
            self.runs.append(PastRun(run_name(self.number, params), dict(params), curves.frame()))
        self.number += 1

    def clear(self) -> None:
        self.runs.clear()

    def __iter__(self) -> Iterator[PastRun]:
        return iter(self.runs)

    def __len__(self) -> int:
        return len(self.runs)

    def __getitem__(self, k: int) -> PastRun:
        return self.runs[k]
