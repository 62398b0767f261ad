"""The training session of one browser tab, and the one path through which pages read its model.

Streamlit runs a tab's script in a thread and starts a rerun (a click, a page link) before the
previous run has stopped, so a page could read the population while a live tick is resizing it
inside ``learn``. Hence: the model is private to :class:`Session`; training and every read go
through one lock; and pages draw from a :class:`Snapshot` (summary, rules, bounds, history,
curves) taken once per iteration under that lock and never changed afterwards.

``Session`` never calls Streamlit, so the benchmark and the unit tests drive it directly.
"""

from __future__ import annotations

import copy
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import pandas as pd

from dashboard.bounds import RuleBounds
from dashboard.curves import CURVE_EVERY_S, MEASURES, CurveLog, RunHistory
from dashboard.data_split import DataSplit
from dashboard.pacing import DEFAULT_TICK_CAP, Pacing
from dashboard.selection import Selection
from dashboard.snapshots import SNAPSHOTS, Snapshot, SnapshotStore
from mlr_core import Dataset
from mlr_core.errors import InputError, MLRError
from mlr_core.params import DEFAULTS as LIBRARY_DEFAULTS
from mlr_core.params import number_type, resolved_max_specified

T = TypeVar("T")

#: Parameters the Train page exposes, at the library's defaults (``mlr_core/params.py``) but for a
#: fixed N and seed; the rest keep the engine's defaults (``max_specified="auto"`` among them:
#: rules of at most 3 conditions with fitted weights, ceil(log2 n) with the vote).
DEFAULT_PARAMS = {
    **{name: LIBRARY_DEFAULTS[name] for name in ("n_rules", "p_hash", "fitness", "nu", "theta_ga",
                                                 "r0", "prediction", "weighting")},
    "n_rules": 1000, "random_state": 0,
}
#: The two models a tab can train, by ``weighting``: the library's default (``MLRClassifier()``)
#: and the paper's, one click away for the lessons about the paper (the race, the theory).
MODELS = {
    "fitted": "the library's default (fitted rule weights)",
    "vote": "the paper's vote (MLR_agg)",
}
#: At most this share of live training's time goes to refitting the rule weights for a curve
#: point (a refit costs about 0.3 s on emotions and 1-2 s on yeast with 1,000 rules): points come
#: at least every CURVE_EVERY_S, further apart when a refit costs more.
REFIT_SHARE = 1 / 3
#: The range the Train page offers for each numeric parameter it shows (its form's bounds, within
#: the library's constraints), in the type ``mlr_core/params.py`` declares for it: a loaded
#: model's parameters must lie in them, or the page could not show the model.
PARAM_RANGES = {name: tuple(map(number_type(name), bounds)) for name, bounds in {
    "n_rules": (10, 20_000), "p_hash": (0, 1), "nu": (0.5, 50), "theta_ga": (0, 1_000),
    "r0": (0.05, 1), "random_state": (0, 2**31 - 1),
}.items()}


def outside_ranges(params: dict) -> list[str]:
    """The parameters of ``params`` outside the ranges of `PARAM_RANGES`, in its order."""
    return [name for name, (low, high) in PARAM_RANGES.items() if not low <= params[name] <= high]


#: Rows of the training set scored for the training curve (a fixed sample keeps ticks short).
TRAIN_EVAL_ROWS = 1000
#: Below this many micro rules per distinct labelset the Train page warns that N is small.
RULES_PER_LABELSET = 5


def _measures():
    """The engine's measures module, imported on first scoring (it pulls in scikit-learn)."""
    from mlr_core.evaluation import measures

    return measures


def _estimator():
    """The engine's estimator class, imported when a model is first needed: scikit-learn and
    numba take seconds to import, and a new tab's first page does not need them."""
    from mlr_core import MLRClassifier

    return MLRClassifier


def _tuned(model) -> bool:
    """Whether ``model`` has been tuned once (a session binds its data first, see
    ``Session._start_model``): the vote's rules and MLR_max answer only after that."""
    return hasattr(model, "rule_set_")


def _copy(model):
    """A copy of ``model`` that reads its bound training rows where they are (read only): 2 ms
    and 0.8 MB on ohsumed, where a whole copy would hold another 89 MB of the same rows."""
    return copy.deepcopy(model, memo={id(model.run_.X): model.run_.X})


def _training(model):
    """A `TrainingSession` of ``model`` (imported when first needed, as `_estimator`)."""
    from mlr_core import TrainingSession

    return TrainingSession(model)


#: What the engine reports for a model that has not learned yet (a unit test checks these
#: against the engine): a new tab's first page shows them without starting the engine.
FRESH_SUMMARY = {
    "iteration": 0, "epoch": 0.0, "macro_size": 0, "micro_size": 0, "mean_fitness": 0.0,
    "mean_generality": 0.0, "coverage": math.nan, "n_covering": 0, "n_ga": 0,
    "n_subsumption": 0, "n_deletion": 0,
}
RULE_COLUMNS = {
    "rule": "object", "labelset": "object", "fitness": "float64", "accuracy": "float64",
    "numerosity": "int64", "experience": "int64", "generality": "float64",
    "n_specified": "int32", "correct_set_size": "float64", "last_ga": "int64", "birth": "int64",
    "labelset_id": "int64",
}


@dataclass
class ModelCache:
    """What pages compute from one state of the model (explanations, the model scored the other
    way), each computed once. :class:`Session` drops it whenever the model changes, so nothing
    here outlives the state it was computed from; it reads the model under the session's lock,
    through ``ready()``, which gives it ready to predict (:meth:`Session._ready`: stale weights
    refitted first, should training have gone on since this cache was made)."""

    ready: Callable[[], object]
    split: DataSplit
    lock: threading.RLock = field(repr=False)
    #: The model as it is, its weights perhaps older than its rules (``Session._started``).
    started: Callable[[], object] = field(repr=False)
    _kept: dict = field(default_factory=dict, repr=False)

    def _once(self, key, make: Callable[[], T]) -> T:
        with self.lock:
            if key not in self._kept:
                self._kept[key] = make()
            return self._kept[key]

    def explain(self, index: int):
        """The vote's explanation of one instance (the Explain page's lesson on the vote)."""
        return self._once(("explain", index),
                          lambda: self.vote_model()._rule_set_for("agg").explain(
                              self.split.dataset.X[index]))

    def _scored(self, weighting: str):
        """A copy of the model with these rules scored by ``weighting``, tuned on the training
        split (the rules keep their specificity limit: "auto" resolves per weighting). Copied
        as it is (``copy.deepcopy``): a copy through JSON needs current weights, and refitting
        weights the copy replaces cost seconds on ohsumed. The copy reads the model's bound
        training rows where they are (``TrainingSession.restart``): binding the split's rows
        again held a second copy of them (89 MB on ohsumed, 190 MB while binding)."""
        model = _copy(self.started())
        model.set_params(weighting=weighting, max_specified=model.max_specified_)
        return _training(model).restart().model

    def scored_by(self, weighting: str):
        """The rules scored by ``weighting`` (a `MODELS` key): the model itself when it scores
        so (its weights current, ``ready()``; read it under the lock), else a copy of the model
        as it is, made once (a vote is tuned in a fraction of a second; fitted weights take
        seconds on yeast, so pages ask for them on request)."""
        if self.started().weighting == weighting:
            return self.ready()
        return self._once(weighting, lambda: self._scored(weighting))

    def vote_model(self):
        """The rules scored by the paper's vote (the Explain page's lesson on the vote)."""
        return self.scored_by("vote")

    def fitted_model(self):
        """The rules scored by fitted rule weights, the library's default."""
        return self.scored_by("fitted")

    def explain_fitted(self, index: int):
        """The explanation of one instance under fitted rule weights (the Explain page's
        scorecard of all rules)."""
        return self._once(("explain fitted", index),
                          lambda: self.fitted_model().rule_set_.explain(
                              self.split.dataset.X[index]))


@dataclass
class Session:
    """The training session of one tab: its data split, model and learning curves, with the
    tab's pacing and selection beside them (the selection is reset with the data).

    Building a new split or model creates the replacements first and switches to them only
    when they are valid, so an engine or loader error leaves the previous session intact.
    """

    split: DataSplit
    params: dict = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    #: Population snapshots kept for time travel (0: none, as for the race's models).
    keep_snapshots: int = SNAPSHOTS
    pacing: Pacing = field(default_factory=Pacing)
    selection: Selection = field(init=False)
    curves: CurveLog = field(init=False)
    #: Snapshots for time travel, one at most per curve point, thinned over the run.
    snapshots: SnapshotStore = field(init=False)
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
    #: (the `TrainingSession`, the iteration) whose rule weights are being refitted outside
    #: the lock, on a copy of its model (:meth:`record`, :meth:`refit_behind`), else None;
    #: ``_refitted`` is notified when that ends.
    _refitting: tuple | None = field(init=False, default=None, repr=False)
    _refitted: threading.Condition = field(init=False, repr=False)
    #: Curve points owed to Steps and not yet made (see :meth:`step`).
    _owed: int = field(init=False, default=0, repr=False)
    #: The rule set of the last curve point's refitted copy (see `last_fitted`).
    _points_rules: object | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        """The model when first needed (see :meth:`_started`)."""
        self._refitted = threading.Condition(self._lock)
        self._adopt(self.split, None, self.params)

    # ------------------------------------------------------------------ building

    @staticmethod
    def _start_model(split: DataSplit, params: dict):
        """A model bound to the training split, checked (data and parameters) but not yet tuned:
        with fitted weights the tuning is a weight fit (seconds on ohsumed's words, at iteration
        0 as later), done when a page first needs scores (:meth:`_ready`)."""
        return _training(_estimator()(**params)).start_untuned(
            *split.training(),
            feature_names=split.dataset.feature_names, label_names=split.dataset.label_names,
        )

    def _started(self):
        """The model, started on the training split the first time something needs it."""
        return self._training_started().model

    def _training_started(self):
        """The model's `TrainingSession`, started as by `_started`."""
        with self._lock:
            if self._training is None:
                self._training = self._start_model(self.split, self.params)
            return self._training

    def _install(self, split: DataSplit, params: dict) -> None:
        """Validate a (split, params) pair by starting a model, then switch to it."""
        self._adopt(split, self._start_model(split, params), params)

    def _adopt(self, split: DataSplit, training, params: dict) -> None:
        with self._lock:
            new_data = not hasattr(self, "selection") or split.dataset is not self.split.dataset
            if new_data:
                self.selection = Selection(len(split.dataset.X))
                self.runs.clear()
            self.runs.next_run(self.params, None if new_data else self.curves)
            self.split, self._training, self.params = split, training, params
            self._points_rules = None
            self.curves = CurveLog()
            self.snapshots = SnapshotStore(max_points=self.keep_snapshots)
            self.pacing.restart()
            self.traced = None
            self._last = None  # a snapshot of the model replaced is never drawn for this one
            self._changed()

    def reset(self, params: dict | None = None, holdout: float | None = None) -> None:
        """A fresh model on the current dataset (new parameters / split if given)."""
        params = dict(self.params if params is None else params)
        holdout = self.split.holdout if holdout is None else holdout
        self._install(self.split.resplit(holdout, int(params["random_state"])), params)

    def set_dataset(self, dataset: Dataset) -> None:
        """Switch dataset with a fresh model; on error the old dataset and model stay."""
        self._install(DataSplit.of(dataset, self.split.holdout, int(self.params["random_state"])),
                      self.params)

    def read_model_file(self, text: str) -> Callable[[], None]:
        """Read a JSON rule set to inspect or continue training on the current dataset, and
        return the switch to it: the page calls it once the person agrees that the model
        trained so far goes (``ui.replace_model``). Nothing changes before.

        ``from_json`` validates (never unpickles); the parameters the Train page shows must lie
        in its ranges (checked before the warm start sizes the population by ``n_rules``: an
        ``auto`` one keeps the size the file holds); a model saved without a seed takes the
        session's; ``start(warm_start=True)`` checks the feature and label counts against the
        current data and keeps the rules.
        """
        model = _estimator().from_json(text)  # scored as saved: fitted weights or the vote
        params = {key: model.get_params()[key] for key in DEFAULT_PARAMS}
        if params["n_rules"] == "auto":
            params["n_rules"] = model.n_rules_
        if params["random_state"] is None:
            params["random_state"] = self.params["random_state"]
        if outside := outside_ranges(params):
            key, (low, high) = outside[0], PARAM_RANGES[outside[0]]
            raise InputError(f"The model's {key} = {params[key]:,} is outside what this "
                             f"dashboard offers ({low:,} to {high:,}): load it in Python "
                             "(MLRClassifier.from_json) instead.")
        split = self.split
        model.set_params(**params)
        if resolved_max_specified(model.get_params(), len(split.train_idx),
                                  split.dataset.X.shape[1]) != model.max_specified_:
            # the rules keep their specificity limit ("auto" resolves per weighting and data);
            # left as saved otherwise, so that the model saves to the bytes it was read from
            model.set_params(max_specified=model.max_specified_)
        training = _training(model).start(*split.training(), warm_start=True)

        def adopt() -> None:
            if self.split is not split:
                raise InputError("The data changed since the rule set was read: load it "
                                 "again to continue training it on these data.")
            self._adopt(split, training, params)
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
        """Which model this session trains, in words: "the library's default (fitted rule
        weights), rules of at most 3 conditions" (the limit once the model has started)."""
        words = MODELS[self.params["weighting"]]
        training = self._training
        return words if training is None else (
            f"{words}, rules of at most {training.model.max_specified_} conditions")

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
        if self._refitting_now():
            return True
        if self._lock.acquire(blocking=False):
            self._lock.release()
            return False
        return True

    def step(self, n_iterations: int, wait: bool = True) -> None:
        """Advance exactly ``n_iterations`` and always add a curve point (a manual step).

        Without ``wait`` (the Step button) the point is made in a thread of its own, as a live
        tick's is: its refit of the rule weights took 1.8 s of a 2.3 s Step on ohsumed, and the
        page can show the new iteration at once and the point when it is made
        (`point_owed`). A point being made when the step ends is waited for in that thread."""
        self.learn(int(n_iterations))
        if wait:
            self.record(force=True)
            return
        with self._lock:
            self._owed += 1
            training = self._training
        threading.Thread(target=self._owed_point, args=(training,), name="step's curve point",
                         daemon=True).start()

    def _owed_point(self, training) -> None:
        try:
            self.record(force=True, of=training)
        except Exception:
            logging.getLogger("dashboard").exception(
                "unexpected error while refitting the weights for a step's curve point")
        finally:
            with self._lock:
                self._owed -= 1
                self._refitted.notify_all()

    def point_owed(self) -> bool:
        """Whether a Step's curve point is still being made: the live pages keep redrawing
        until it is drawn."""
        return self._owed > 0

    def trace_step(self):
        """One iteration through the engine's tracer (the Microscope page): what it did, with
        the rule bounds before it to draw the rules its record names."""
        from dashboard.microscope import Traced

        with self._lock:
            training = self._training_started()
            lower, upper = training.model.rule_bounds()
            trace = training.step_traced()
            self._changed()
            self.traced = Traced(trace, RuleBounds.of(lower, upper),
                                 int(self.split.train_idx[trace.row]),
                                 int(training.summary()["macro_size"]))
        return self.traced

    def learn(self, n_iterations: int) -> None:
        with self._lock:
            self._training_started().learn(n_iterations)
            self._changed()

    def record(self, force: bool = False, wait: bool = True, of=None) -> None:
        """Score training (a fixed sample) and held-out rows if a curve point is due.

        The model is refitted to the rules first (``tune_bipartition``: the rule weights, or the
        vote's threshold), so the curves are those of the model the library would predict with
        at this iteration. A refit's cost spaces the live points out (``REFIT_SHARE``), and so
        do other tabs training on the server (``Pacing.share``).

        Fitted weights (a second on ohsumed) are refitted, and the point scored, on a copy of
        the model outside the lock, so pages read the model meanwhile (they waited for the
        refit: Explain 6.6-7.2 s while training on ohsumed). Without ``wait`` (a live tick)
        that runs in a thread of its own and the tick goes on and ends: no script run of the
        tab lasts seconds for a refit (the tab's next ticks draw, without training until the
        point is made: ``busy``). A point being made is waited for (``wait``) or left to
        finish. If the model has not trained on meanwhile, the refitted copy becomes the model
        (the same bit for bit as one refitted in place); the point is dropped if the model was
        replaced, or is no longer ``of``'s `TrainingSession` when given.
        """
        with self._lock:
            while self._refitting_now():
                if not wait:
                    return
                self._refitted.wait()
            if of is not None and self._training is not of:
                return
            training = self._training_started()
            iteration, now = training.summary()["iteration"], time.perf_counter()
            if not self.curves.due(iteration, now, force):
                return
            snap = self.snapshot()  # taken first: pages read it while the point is made
            if training.answers_by_vote("agg"):  # the vote's threshold: fast, in place
                training.tune_bipartition()
                self._add_point(training, iteration, now,
                                self._scores(training.model, self.split), None)
                return
            twin = self._twin(training, iteration)
            point = (training, twin, iteration, now, snap, self.split, wait)
        if wait:
            self._point_of(*point)
        else:
            threading.Thread(target=self._point_of, args=point, name="curve point",
                             daemon=True).start()

    def _point_of(self, training, twin, iteration: int, now: float, snap: Snapshot,
                  split: DataSplit, wait: bool) -> None:
        """The curve point of ``twin`` (a copy of ``training``'s model at ``iteration``, trained
        on ``split``): refitted and scored outside the lock, added under it. In a thread of its
        own (not ``wait``) an error goes to the server log, as the pages' own do."""
        try:
            twin.tune_bipartition()
            scores = self._scores(twin.model, split)
        except BaseException as err:
            self._refit_over(training)
            if wait or not isinstance(err, Exception):
                raise
            logging.getLogger("dashboard").exception(
                "unexpected error while refitting the weights for a curve point")
            return
        with self._lock:
            if self._training is not training:
                self._refit_over(training)
                return  # replaced meanwhile (new data, a reset): the point is of another run
            self._points_rules = twin.model.rule_set_
            if self._take(training, twin, iteration):
                training, snap = twin, None
            self._add_point(training, iteration, now, scores, snap)

    def _twin(self, training, iteration: int):
        """(Under the lock) a `TrainingSession` of a copy of ``training``'s model (`_copy`), to
        refit outside the lock. Marks the refit under way (``_refitting``) until `_take` or
        `_refit_over`."""
        self._refitting = (training, iteration)
        return _training(_copy(training.model))

    def _take(self, training, twin, iteration: int) -> bool:
        """(Under the lock) end the refit of ``twin``, and make it the model if the model is
        still ``training``'s at ``iteration``: the same bit for bit as one refitted in place.
        The snapshot goes if the fit's one-condition rules joined the rules shown. In the
        same hold of the lock, so a page waiting for these weights (`_ready`) finds them."""
        self._refit_over(training)
        if self._training is not training or training.summary()["iteration"] != iteration:
            return False
        self._training = twin
        kept = self._snapshot
        if kept is not None and int(twin.model.population_.size[0]) != len(kept.rules):
            self._changed()
        return True

    def refit_behind(self) -> None:
        """Fit the weights to the rules as they are, in a thread of its own, if they are stale
        (after Pause: the pages that need them then answer at once, instead of the first one
        refitting on its click; one that asks before the refit is done waits for it). A curve
        point being made is waited for first: its copy is of an iteration the last tick
        trained past."""
        threading.Thread(target=self._refit_if_stale, name="refit", daemon=True).start()

    def _refit_if_stale(self) -> None:
        with self._lock:
            self._refitted.wait_for(lambda: not self._refitting_now())
            training = self._training
            if training is None or training.answers_by_vote("agg"):
                return
            iteration = int(training.summary()["iteration"])
            if not iteration or training.model.fitted_.is_current():
                return
            twin = self._twin(training, iteration)
        try:
            twin.tune_bipartition()
        except Exception:
            self._refit_over(training)
            logging.getLogger("dashboard").exception(
                "unexpected error while refitting the rule weights after a pause")
            return
        with self._lock:
            self._take(training, twin, iteration)

    @staticmethod
    def _scores(model, split: DataSplit) -> dict:
        """The measures of ``model`` on the training sample and the held-out rows of ``split``
        (the data it was trained on: a point made beside a tick may end after new data)."""
        sample = split.train_idx[:TRAIN_EVAL_ROWS]
        rows = np.concatenate([sample, split.test_idx])
        pred = model.predict(split.dataset.X[rows])  # one pass over both splits
        truth = split.dataset.Y[rows]
        measures = _measures()
        return {
            split: {name: float(getattr(measures, name)(truth[part], pred[part]))
                    for name in MEASURES}
            for split, part in (("training", slice(0, len(sample))),
                                ("held-out", slice(len(sample), None)))
        }

    def _add_point(self, training, iteration: int, now: float, scores: dict,
                   snap: Snapshot | None) -> None:
        """Add the point (under the lock); keep for time travel ``snap``, the rules it was
        scored on, or (None) the model as it is now."""
        self.curves.min_seconds = max(CURVE_EVERY_S, (time.perf_counter() - now)
                                      / REFIT_SHARE) / self.pacing.share
        self.curves.add(iteration, now, scores)
        self._changed()
        self.snapshots.keep(self.snapshot() if snap is None else snap)

    def settled(self, timeout: float | None = None) -> bool:
        """Wait until no refit of the model's weights is under way and no Step's curve point
        is owed (False if ``timeout`` seconds passed)."""
        with self._lock:
            return self._refitted.wait_for(
                lambda: not self._refitting_now() and not self._owed, timeout)

    def _refitting_now(self, iteration: int | None = None) -> bool:
        """Whether this session's model (at ``iteration``, if given) is being refitted; a
        refit of a model since replaced (new data, a reset) does not count."""
        refit = self._refitting
        return refit is not None and refit[0] is self._training and (
            iteration is None or refit[1] == iteration)

    def _refit_over(self, training) -> None:
        with self._lock:
            if self._refitting is not None and self._refitting[0] is training:
                self._refitting = None
            self._refitted.notify_all()

    def past_snapshots(self) -> list[Snapshot]:
        """The snapshots kept for time travel, oldest first, ending with the model as it is."""
        with self._lock:
            past = self.snapshots.snapshots()
            now = self.snapshot()
            return past + [now] if not past or past[-1].iteration < now.iteration else past

    # ------------------------------------------------------------------ reading

    def _changed(self) -> None:
        """The model or the curves moved on: the next read takes a new snapshot and cache."""
        self._snapshot = None
        self._cache = None

    def _ready(self):
        """The model, started, with its rule weights fitted to the rules as they are: live
        training refits them only for curve points, and predicting, explaining and saving
        refuse weights older than the rules. Refitting changes no evolved rule, so the snapshot
        stays, unless the fit's one-condition rules (0/1 features) join or leave the rules the
        model shows (``MLRClassifier.population_``): then the next read takes a new one."""
        with self._lock:
            while self._refitting_now(self.iteration):
                self._refitted.wait()  # a refit of these very rules is under way: it serves
            training = self._training_started()
            model = training.model
            if not _tuned(model) or not training.answers_by_vote("agg") and (
                    not model.fitted_.is_current()):
                training.tune_bipartition()
                kept = self._snapshot
                if kept is not None and int(model.population_.size[0]) != len(kept.rules):
                    self._changed()
            return model

    def last_fitted(self):
        """The rule set last tuned with fitted weights (its ``iteration`` says when), or None
        (the vote, or none tuned yet): while training, a page shows it at once and says from
        which iteration it is, rather than wait seconds for a refit that the next curve point
        makes anyway."""
        with self._lock:
            model = None if self._training is None else self._training.model
            if model is None or self._training.answers_by_vote("agg"):
                return None
            sets = [self._points_rules, getattr(model, "rule_set_", None)]
            return max((r for r in sets if r is not None), key=lambda r: r.iteration,
                       default=None)

    def model_cache(self) -> ModelCache:
        """What pages compute from the model as it is now (started and ready to predict). Ask
        again at each use: a new one replaces it as soon as the model changes."""
        with self._lock:
            if self._cache is None:
                self._cache = ModelCache(self._ready, self.split, self._lock, self._started)
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
                self._snapshot = self._last = self._take_snapshot()
            return self._snapshot
        finally:
            self._lock.release()

    def _take_snapshot(self) -> Snapshot:
        if self._training is None:  # not started: what a fresh model shows, without the engine
            d = self.split.dataset.X.shape[1]
            rules = pd.DataFrame({name: pd.Series(dtype=kind)
                                  for name, kind in RULE_COLUMNS.items()})
            return Snapshot(
                iteration=0, summary=dict(FRESH_SUMMARY), rules=rules.rename_axis("rule_id"),
                bounds=RuleBounds.empty(d), history=pd.DataFrame(), curves=self.curves.frame(),
            )
        model = self._training.model
        summary = self._training.summary()
        rules = model.rules_frame()
        lower, upper = model.rule_bounds()
        pop = model.population_
        model_ids = self.split.labelsets.ids_of(model.labelsets_)
        rules["labelset_id"] = model_ids[pop.ls[: len(rules)]]
        return Snapshot(
            iteration=summary["iteration"], summary=summary, rules=rules,
            bounds=RuleBounds.of(lower, upper), history=self._training.history(),
            curves=self.curves.frame(),
        )

    def read_model(self, snap: Snapshot, read: Callable[[object], T],
                   weights: bool = True) -> T:
        """``read(model)`` under the lock, on the model exactly as ``snap`` shows it: for engine
        helpers that need the model itself (the audit, exports of chosen rules), whose rule ids
        must name the snapshot's rules. ``read`` must not change the model. With ``weights``
        the model is ready to predict (stale rule weights refitted first); a read of the rules
        alone (matching, by the vote's rule set) passes ``weights=False`` and costs no refit."""
        with self._lock:
            model = self._started()
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

    def model_json(self) -> str:
        with self._lock:
            return self._ready().to_json()


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
        if first.curves.due(self.iteration, time.perf_counter()):
            for lane in self.lanes.values():
                lane.record(force=True)
        return done

    @property
    def iteration(self) -> int:
        return min(lane.iteration for lane in self.lanes.values())
