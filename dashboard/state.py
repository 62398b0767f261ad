"""The training session of one browser tab, and the one path through which pages read its model.

Streamlit runs a tab's script in a thread and starts a rerun (a click, a page link) before the
previous run has stopped, so a page could read the population while a live tick is resizing it
inside ``learn``. Hence: the model is private to :class:`Session`; training and every read go
through one lock; and pages draw from a :class:`Snapshot` (summary, rules, bounds, history,
curves) taken once per iteration under that lock and never changed afterwards.

The session's parts, each in its module: the curve points and the refits they need
(``curve_points.py``), a point's measures (``curves.py``), snapshots (``snapshots.py``), what
pages compute from one state of the model (``model_cache.py``), and the models and parameters a
tab offers, in words and ranges (``choices.py``). ``Session`` never calls Streamlit, so the
benchmark and the unit tests drive it directly.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from dashboard import engine
from dashboard.bounds import RuleBounds
from dashboard.choices import DEFAULT_PARAMS, model_words, params_of_file
from dashboard.curve_points import CurvePoints
from dashboard.curves import RunHistory
from dashboard.data_split import DataSplit
from dashboard.model_cache import ModelCache
from dashboard.pacing import DEFAULT_TICK_CAP, Pacing
from dashboard.selection import Selection
from dashboard.snapshots import SNAPSHOTS, Snapshot, snapshot_of
from mlr_core import Dataset
from mlr_core.errors import InputError, MLRError
from mlr_core.params import DEFAULTS as LIBRARY_DEFAULTS
from mlr_core.params import resolved_max_specified

T = TypeVar("T")


def _start_model(split: DataSplit, params: dict):
    """A `TrainingSession` of a model bound to the training split, checked (data and parameters)
    but not yet tuned: with fitted weights the tuning is a weight fit (seconds on ohsumed's
    words, at iteration 0 as later), done when a page first needs scores (``Session._ready``)."""
    return engine.training(engine.estimator()(**params)).start_untuned(
        *split.training(),
        feature_names=split.dataset.feature_names, label_names=split.dataset.label_names,
    )


def _needs_tuning(training) -> bool:
    """Whether ``training``'s model must be tuned before it predicts: never tuned, or scored by
    fitted weights older than its rules."""
    model = training.model
    return not engine.tuned(model) or (not training.answers_by_vote("agg")
                                       and not model.fitted_.is_current())


def _start_from_file(text: str, split: DataSplit, seed: int) -> tuple[object, dict]:
    """A `TrainingSession` of the model a JSON rule set holds, warm-started on the training split
    and left as saved (its rules, weights and cut: ``start_untuned``), and the Train page's
    parameters of it. Its weights are refitted once training goes on (`Session._ready`), as for
    any rules that changed; until then the pages show, audit and save the file's model: a
    compact model stays the rules it kept (a refit at once made every one-condition rule of
    these data again: a compact model of 19 rules became 927 on yeast's first 1,000 rows).

    ``from_json`` validates (never unpickles); the parameters the Train page shows must lie in
    its ranges (``choices.params_of_file``, checked before the warm start sizes the population by
    ``n_rules``); the warm start checks the feature and label counts against the data and keeps
    the rules.
    """
    model = engine.estimator().from_json(text)  # scored as saved: fitted weights or the vote
    params = params_of_file(model, seed)
    model.set_params(**params)
    if resolved_max_specified(model.get_params(), len(split.train_idx),
                              split.dataset.X.shape[1]) != model.max_specified_:
        # the rules keep their specificity limit ("auto" resolves per weighting and data); left
        # as saved otherwise, so that the model saves to the bytes it was read from
        model.set_params(max_specified=model.max_specified_)
    return engine.training(model).start_untuned(*split.training(), warm_start=True), params


@dataclass
class Session:
    """The training session of one tab: its data split, model and learning curves, with the
    tab's pacing and selection beside them (the selection is reset with the data).

    Building a new split or model creates the replacements first and switches to them only
    when they are valid, so an engine or loader error leaves the previous session intact.

    Locking: ``_lock`` (re-entrant) guards the model (``_training``, trained and replaced
    only under it), its replacement together with ``split``, ``params``, ``selection``,
    ``runs`` and ``traced``, and the snapshot and cache taken of it (``_snapshot``,
    ``_cache``). Read without it: a snapshot already taken (`snapshot`: ``_snapshot``, or
    ``_last`` while another thread holds the lock), and the model's specificity limit, fixed
    for its life (`max_specified`, `model_words`). The parts share this one lock: the curve
    points (``points``: their refits run outside it) and the model cache.
    """

    split: DataSplit
    params: dict = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    #: Population snapshots kept for time travel (0: none, as for the race's models).
    keep_snapshots: int = SNAPSHOTS
    pacing: Pacing = field(default_factory=Pacing)
    selection: Selection = field(init=False)
    #: The run's curve points, the snapshots kept at them, and the refits they need.
    points: CurvePoints = field(init=False)
    #: Curves of earlier runs on this dataset, kept when the model is replaced.
    runs: RunHistory = field(init=False, default_factory=RunHistory)
    #: The last iteration run through the tracer (the Microscope page), None after a reset.
    traced: object | None = field(init=False, default=None)
    #: The model's `TrainingSession` (``_training.model`` is the model), once started.
    _training: object | None = field(init=False, default=None, repr=False)
    _snapshot: Snapshot | None = field(init=False, default=None, repr=False)
    #: The snapshot last taken of this model, kept when it moves on (see :meth:`snapshot`).
    _last: Snapshot | None = field(init=False, default=None, repr=False)
    #: What is computed from the model as it is (see :meth:`model_cache`).
    _cache: ModelCache | None = field(init=False, default=None, repr=False)
    _lock: threading.RLock = field(init=False, default_factory=threading.RLock, repr=False)

    def __post_init__(self) -> None:
        """The model when first needed (see :meth:`_started`)."""
        self.points = CurvePoints(self, self._lock, self.keep_snapshots)
        self._adopt(self.split, None, self.params)

    # ------------------------------------------------------------------ building

    def _started(self):
        """The model's `TrainingSession`, started on the training split the first time
        something needs it."""
        with self._lock:
            if self._training is None:
                self._training = _start_model(self.split, self.params)
            return self._training

    def _adopt(self, split: DataSplit, training, params: dict) -> None:
        """Switch to ``split`` and ``training`` (None: started when first needed): a new run."""
        with self._lock:
            new_data = not hasattr(self, "selection") or split.dataset is not self.split.dataset
            if new_data:
                self.selection = Selection(split.dataset.X.shape[0])
                self.runs.clear()
            self.runs.next_run(self.params, None if new_data else self.points.curves)
            self.split, self._training, self.params = split, training, params
            self.points.restart()
            self.pacing.restart()
            self.traced = None
            self._last = None  # a snapshot of the model replaced is never drawn for this one
            self._changed()

    def _weights_fitted(self, training) -> None:
        """(Under the lock) ``training``'s rule weights were just fitted to its rules, and it is
        the model (a copy refitted outside the lock replaces the one it was copied from: the
        same bit for bit as one refitted in place). Refitting changes no evolved rule, so the
        snapshot stays, unless the fit's one-condition rules joined or left the
        rules the model shows (``MLRClassifier.population_``): then the next read takes one."""
        self._training = training
        kept = self._snapshot
        if kept is not None and int(training.model.population_.size[0]) != len(kept.rules):
            self._changed()

    def reset(self, params: dict | None = None, holdout: float | None = None) -> None:
        """A fresh model on the current dataset (new parameters / split if given)."""
        params = dict(self.params if params is None else params)
        holdout = self.split.holdout if holdout is None else holdout
        split = self.split.resplit(holdout, int(params["random_state"]))
        self._adopt(split, _start_model(split, params), params)

    def set_dataset(self, dataset: Dataset) -> None:
        """Switch dataset with a fresh model; on error the old dataset and model stay."""
        split = DataSplit.of(dataset, self.split.holdout, int(self.params["random_state"]))
        self._adopt(split, _start_model(split, self.params), self.params)

    def read_model_file(self, text: str) -> Callable[[], object]:
        """Read a JSON rule set to inspect or continue training on the current dataset, and
        return the switch to it: the page calls it once the person agrees that the model
        trained so far goes (``ui.replace_model``). Nothing changes before. The switch returns
        the rule set read (`_start_from_file`: the model as saved until training goes on)."""
        split = self.split
        training, params = _start_from_file(text, split, self.params["random_state"])

        def adopt():
            if self.split is not split:
                raise InputError("The data changed since the rule set was read: load it "
                                 "again to continue training it on these data.")
            self._adopt(split, training, params)
            return training.model.rule_set_
        return adopt

    # ------------------------------------------------------------------ training

    def max_specified(self) -> int:
        """The most features a rule of this session specifies: the model's limit once started,
        else the one the library would set on this split (``params.resolved_max_specified``)."""
        training = self._training
        if training is not None:
            return int(training.model.max_specified_)
        return resolved_max_specified({**LIBRARY_DEFAULTS, **self.params},
                                      len(self.split.train_idx), self.split.dataset.X.shape[1])

    def model_words(self) -> str:
        """Which model this session trains, in words (``choices.model_words``), with its
        specificity limit once the model has started."""
        training = self._training
        return model_words(self.params["weighting"],
                           None if training is None else training.model.max_specified_)

    @property
    def iteration(self) -> int:
        """Iterations trained so far (0 before the model starts)."""
        with self._lock:
            return 0 if self._training is None else int(self._training.summary()["iteration"])

    def busy(self) -> bool:
        """Whether another thread holds the model now, or refits its weights for a curve point:
        the refit of a tick that a click ended goes on in the old run's thread for seconds on
        large data, and the click's own tick then draws at once rather than train (which
        would leave that refit for an iteration gone by)."""
        if self.points.refitting():
            return True
        if self._lock.acquire(blocking=False):
            self._lock.release()
            return False
        return True

    def step(self, n_iterations: int, wait: bool = True) -> None:
        """Advance exactly ``n_iterations`` and always add a curve point (a manual step).

        Without ``wait`` (the Step button) the point is made in a thread of its own, as a live
        tick's is (``CurvePoints.owe_point``): the page can show the new iteration at once and
        the point when it is made."""
        self.learn(int(n_iterations))
        if wait:
            self.points.record(force=True)
        else:
            self.points.owe_point()

    def trace_step(self):
        """One iteration through the engine's tracer (the Microscope page): what it did, with
        the rule bounds before it to draw the rules its record names."""
        from dashboard.microscope import Traced

        with self._lock:
            training = self._started()
            bounds = RuleBounds.of_model(training.model)
            trace = training.step_traced()
            self._changed()
            self.traced = Traced(trace, bounds,
                                 int(self.split.train_idx[trace.row]),
                                 int(training.summary()["macro_size"]),
                                 training.model.run_.scaling)
        return self.traced

    def learn(self, n_iterations: int) -> None:
        with self._lock:
            self._started().learn(n_iterations)
            self._changed()

    # ------------------------------------------------------------------ reading

    def _changed(self) -> None:
        """The model or the curves moved on: the next read takes a new snapshot and cache."""
        self._snapshot = None
        self._cache = None

    def _ready(self):
        """The model, started, with its rule weights fitted to the rules as they are: live
        training refits them only for curve points, and predicting, explaining and saving
        refuse weights older than the rules (`_weights_fitted` says what the snapshot keeps)."""
        with self._lock:
            self.points.await_refit(of_rules_now=True)  # a refit of these very rules serves
            training = self._started()
            if _needs_tuning(training):
                training.tune_bipartition()
                self._weights_fitted(training)
            return training.model

    def weights_at_hand(self) -> bool:
        """Whether the model scores by fitted weights that are current (`_ready` refits
        nothing): what lets a page begin work on them in the background
        (``rule_budget.prefetch``) without holding the lock for a refit."""
        with self._lock:
            training = self._training
            return (training is not None and not training.answers_by_vote("agg")
                    and not _needs_tuning(training))

    def model_cache(self) -> ModelCache:
        """What pages compute from the model as it is now (started and ready to predict). Ask
        again at each use: a new one replaces it as soon as the model changes."""
        with self._lock:
            if self._cache is None:
                self._cache = ModelCache(self._ready, self.split, self._lock,
                                         lambda: self._started().model)
            return self._cache

    def snapshot(self, wait: bool = True) -> Snapshot:
        """The model as of now, the same object for every read until it changes.

        A snapshot already taken is returned without waiting for the lock: it is frozen, and a
        page redrawn after a click (Pause) must not wait for a rule-weight refit to end. Without
        ``wait``, while another thread holds the model (a tick training a chunk, a refit in
        place), the snapshot last taken of this model is returned at once: a click's live page
        draws it first, and its next tick the model as it is."""
        kept = self._snapshot
        if kept is not None:
            return kept
        if not self._lock.acquire(blocking=wait):
            last = self._last
            if last is not None:
                return last
            self._lock.acquire()  # nothing taken of this model yet: wait for its first
        try:
            if self._snapshot is None:
                self._snapshot = self._last = snapshot_of(self._training, self.split,
                                                          self.points.curves.frame())
            return self._snapshot
        finally:
            self._lock.release()

    def read_model(self, snap: Snapshot, read: Callable[[object], T],
                   weights: bool = True) -> T:
        """``read(model)`` under the lock, on the model exactly as ``snap`` shows it: for engine
        helpers that need the model itself (the audit, exports of chosen rules), whose rule ids
        must name the snapshot's rules. ``read`` must not change the model. With ``weights``
        the model is ready to predict (stale rule weights refitted first); a read of the rules
        alone (matching, by the vote's rule set) passes ``weights=False`` and costs no refit."""
        with self._lock:
            model = self._started().model
            if snap is not self.snapshot():
                raise MLRError("The model changed since this page was drawn (training went on): "
                               "draw the page again to use the current rules.")
            return read(self._ready() if weights else model)

    def match_counts(self, snap: Snapshot) -> np.ndarray:
        """How many training rows each rule of ``snap`` matches, by the engine's own matching
        (the race's and the Theory page's measured fitness), on the rows the model has bound
        (the training split's). Matching needs no weights, so no refit is paid."""
        from mlr_core.audit import rows_matched

        return self.read_model(snap, rows_matched, weights=False)


#: Chunks of a race tick per lane: a Pause waits for one chunk of each lane at most.
RACE_CHUNKS = 10
#: The race's two lanes: fitness setting -> display name.
RACE_LANES = {"em": "EM (exact match)", "hl": "HL (1 − Hamming loss)"}


@dataclass
class Race:
    """EM against HL: two sessions on the same split and parameters but the fitness, trained by
    the same number of iterations per tick, so their curves share an x axis."""

    split: DataSplit
    params: dict
    iterations_per_tick: int = DEFAULT_TICK_CAP
    running: bool = False
    lanes: dict[str, Session] = field(init=False)

    def __post_init__(self) -> None:
        self.lanes = {fitness: Session(self.split, params={**self.params, "fitness": fitness},
                                       keep_snapshots=0)
                      for fitness in RACE_LANES}

    def advance(self, n_iterations: int | None = None,
                keep_going: Callable[[], bool] = lambda: True) -> int:
        """Both lanes ``n_iterations`` further (default: one tick's worth), in chunks taken in
        turn so the lanes stay level; ``keep_going()`` is asked before each chunk (false once
        the race is paused: no chunk starts after the click). A tick run whole ends with a curve
        point for both lanes when one is due (refits paced as the Train page's). Returns the
        iterations each lane did."""
        n = n_iterations or self.iterations_per_tick
        chunk = max(1, math.ceil(n / RACE_CHUNKS))
        done = 0
        while done < n:
            if not keep_going():
                return done
            step = min(chunk, n - done)
            for lane in self.lanes.values():
                lane.learn(step)
            done += step
        first = next(iter(self.lanes.values()))
        if first.points.curves.due(self.iteration, time.perf_counter()):
            for lane in self.lanes.values():
                lane.points.record(force=True)
        return done

    @property
    def iteration(self) -> int:
        return min(lane.iteration for lane in self.lanes.values())
