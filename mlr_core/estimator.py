"""MLRClassifier: the scikit-learn estimator, with an incremental API for watching it learn."""

import math
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from mlr_core import io
from mlr_core._engine import population as popmod
from mlr_core._engine import rng
from mlr_core._engine.cycle import (
    EPOCH,
    ITERATION,
    N_COUNTERS,
    N_COVERING,
    N_DELETION,
    N_GA,
    N_MATCHED,
    N_SUBSUMPTION,
    POSITION,
    Config,
    run_iterations,
)
from mlr_core._engine.update import score_table
from mlr_core._engine.voting import vote, voters
from mlr_core.bipartition import by_rank, by_threshold, normalise
from mlr_core.errors import InputError
from mlr_core.explain import Explanation, contributions
from mlr_core.rules import rule_texts, rules_frame
from mlr_core.validation import check_features, check_labels

_THRESHOLDS = np.round(np.arange(0.10, 0.9001, 0.05), 2)
_MAX_HISTORY = 1000


class MLRClassifier(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Multi-label classification rules: a UCS-style learning classifier system whose rules are
    ``if x in [c - s, c + s] then labelset y`` (Nazmi et al.).

    Parameters
    ----------
    n_rules : int, default=1000
        N, the maximum micro-population (sum of numerosities).
    n_iter : int, default=50_000
        Training iterations (one instance each) run by ``fit``.
    fitness : {"hl", "em"}, default="hl"
        Per-match score: 1 - Hamming loss of the rule's labelset, or exact match.
    prediction : {"agg", "max"}, default="agg"
        MLR_agg (aggregated label scores, then a bipartition) or MLR_max (one labelset).
    max_rule : {"vote", "fittest"}, default="vote"
        MLR_max's choice: the labelset with the largest summed F * num in [M] (the authors'
        code), or the labelset of the single fittest rule (the paper's equation).
    score_norm : {"total", "max"}, default="total"
        Aggregated scores as each label's share of the total vote, or of the top label's vote.
    bipartition : {"auto", "threshold", "rcut"}, default="auto"
        How MLR_agg turns scores into labels; ``auto`` picks the better on the training data.
    threshold : float or None, default=None
        Fixed threshold; None tunes it in [0.1, 0.9] (step 0.05) by F1 on the training data.
    p_hash : float, default=0.33
        P#, probability that covering makes a feature a wildcard.
    max_specified : int or "auto", default="auto"
        Rule specificity limit: at most this many features specified per rule. ``auto`` is
        ceil(log2(n_train)), so a maximally specific rule can still single out one instance
        while rules in high dimension keep matching.
    r0 : float, default=0.5
        Mean side length of a covered interval on the [0, 1]-scaled axis.
    nu : float, default=10
        Fitness pressure: F = accuracy ** nu.
    beta : float, default=0.2
        Learning rate of the correct-set size estimate.
    theta_ga : int, default=25
        GA threshold on the mean iterations since the correct set's last GA.
    selection : {"tournament", "roulette"}, default="tournament"
    tau : float, default=0.4
        Tournament size as a fraction of the correct set.
    chi : float, default=0.8
        Crossover probability.
    mu : float or "auto", default="auto"
        Mutation probability per feature. ``auto`` is min(0.04, 4 / d): about four features
        mutated per offspring, as UCS's 0.04 does on ~100 features. A flat 0.04 on genbase's
        1,185 features rewrites ~47 features per offspring and measured a Hamming loss of 0.034
        against 0.006 with ``auto`` (two folds, ``benchmarks/paper_tables.py`` setup).
    m0 : float, default=0.1
        Largest change of an interval's centre or spread in a mutation.
    ga_subsumption : bool, default=True
    theta_sub : int, default=20
        Experience a rule needs to subsume others.
    acc0 : float, default=0.99
        Accuracy a rule needs to subsume others (on the fitness mode's score).
    theta_del : int, default=20
        Experience after which a rule of low fitness gets a larger deletion vote.
    delta : float, default=0.1
        Fitness fraction of the mean below which that larger deletion vote applies.
    correct_set_subsumption : bool, default=False
    min_vote_experience : int, default=0
        Rules with less experience vote only when no experienced rule matches (0: all vote).
    n_nearest : int, default=5
        Rules that vote, by distance, when no rule matches an instance.
    history_every : int, default=100
        Iterations between two rows of the training history (doubled whenever the bounded
        history fills up, so it always spans the whole run).
    random_state : int, RandomState or None, default=None

    Examples
    --------
    >>> import numpy as np
    >>> from mlr_core import MLRClassifier
    >>> X = np.random.default_rng(0).random((200, 2))
    >>> Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.5]).astype(int)
    >>> model = MLRClassifier(n_rules=300, n_iter=5000, random_state=0).fit(X, Y)
    >>> model.predict(X[:3]).shape
    (3, 2)
    """

    _parameter_constraints = {
        "n_rules": [Interval(Integral, 1, None, closed="left")],
        "n_iter": [Interval(Integral, 0, None, closed="left")],
        "fitness": [StrOptions({"hl", "em"})],
        "prediction": [StrOptions({"agg", "max"})],
        "max_rule": [StrOptions({"vote", "fittest"})],
        "score_norm": [StrOptions({"total", "max"})],
        "bipartition": [StrOptions({"auto", "threshold", "rcut"})],
        "threshold": [Interval(Real, 0, 1, closed="both"), None],
        "p_hash": [Interval(Real, 0, 1, closed="both")],
        "max_specified": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "r0": [Interval(Real, 0, None, closed="neither")],
        "nu": [Interval(Real, 0, None, closed="neither")],
        "beta": [Interval(Real, 0, 1, closed="right")],
        "theta_ga": [Interval(Real, 0, None, closed="left")],
        "selection": [StrOptions({"tournament", "roulette"})],
        "tau": [Interval(Real, 0, 1, closed="right")],
        "chi": [Interval(Real, 0, 1, closed="both")],
        "mu": [Interval(Real, 0, 1, closed="both"), StrOptions({"auto"})],
        "m0": [Interval(Real, 0, None, closed="left")],
        "ga_subsumption": ["boolean"],
        "theta_sub": [Interval(Real, 0, None, closed="left")],
        "acc0": [Interval(Real, 0, 1, closed="both")],
        "theta_del": [Interval(Real, 0, None, closed="left")],
        "delta": [Interval(Real, 0, 1, closed="both")],
        "correct_set_subsumption": ["boolean"],
        "min_vote_experience": [Interval(Integral, 0, None, closed="left")],
        "n_nearest": [Interval(Integral, 1, None, closed="left")],
        "history_every": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_rules=1000,
        n_iter=50_000,
        fitness="hl",
        prediction="agg",
        max_rule="vote",
        score_norm="total",
        bipartition="auto",
        threshold=None,
        p_hash=0.33,
        max_specified="auto",
        r0=0.5,
        nu=10,
        beta=0.2,
        theta_ga=25,
        selection="tournament",
        tau=0.4,
        chi=0.8,
        mu="auto",
        m0=0.1,
        ga_subsumption=True,
        theta_sub=20,
        acc0=0.99,
        theta_del=20,
        delta=0.1,
        correct_set_subsumption=False,
        min_vote_experience=0,
        n_nearest=5,
        history_every=100,
        random_state=None,
    ):
        self.n_rules = n_rules
        self.n_iter = n_iter
        self.fitness = fitness
        self.prediction = prediction
        self.max_rule = max_rule
        self.score_norm = score_norm
        self.bipartition = bipartition
        self.threshold = threshold
        self.p_hash = p_hash
        self.max_specified = max_specified
        self.r0 = r0
        self.nu = nu
        self.beta = beta
        self.theta_ga = theta_ga
        self.selection = selection
        self.tau = tau
        self.chi = chi
        self.mu = mu
        self.m0 = m0
        self.ga_subsumption = ga_subsumption
        self.theta_sub = theta_sub
        self.acc0 = acc0
        self.theta_del = theta_del
        self.delta = delta
        self.correct_set_subsumption = correct_set_subsumption
        self.min_vote_experience = min_vote_experience
        self.n_nearest = n_nearest
        self.history_every = history_every
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.non_deterministic = False
        return tags

    # ----------------------------------------------------------------- training

    def fit(self, X, Y, feature_names=None, label_names=None):
        """Train on ``X`` (n x d) and ``Y`` (n x m 0/1) for ``n_iter`` iterations.

        Returns
        -------
        self
        """
        self.start(X, Y, feature_names=feature_names, label_names=label_names)
        return self.learn(self.n_iter)

    def start(self, X, Y, feature_names=None, label_names=None, warm_start=False):
        """Bind training data and begin a run (a fresh population unless ``warm_start``, which
        keeps a fitted or loaded model's rules, scaling and counters). Returns self."""
        self._validate_params()
        keep = warm_start and hasattr(self, "population_")
        X = check_features(self, X, reset=not keep)
        raw_Y = Y
        Y = check_labels(Y, X.shape[0])
        if keep and Y.shape[1] != len(self.label_names_):
            raise InputError(
                f"Y has {Y.shape[1]} labels but the model was trained on "
                f"{len(self.label_names_)}."
            )
        if not keep:
            self._init_state(X, Y, feature_names, label_names)
            self.label_dtype_ = _label_dtype(raw_Y)
        self._X_train = self._scale(X)
        self._y_ids = self._labelset_ids(Y, extend=True)
        self._card = float(Y.sum(axis=1).mean())
        self._order = np.arange(X.shape[0], dtype=np.int64)
        rng.shuffle(self._rng, self._order)
        self._counters[POSITION] = 0
        self._config = self._make_config(self.max_specified_, self.n_features_in_)
        self._tuned = None
        return self

    def learn(self, n_iterations):
        """Advance training by ``n_iterations`` iterations (call ``start`` or ``fit`` first).
        Can be called again and again; ``fit`` is ``start`` plus one call. Returns self."""
        if not hasattr(self, "_X_train"):
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        remaining = int(n_iterations)
        while remaining > 0:
            due = self._next_record - int(self._counters[ITERATION])
            step = min(remaining, max(due, 1))
            run_iterations(
                self.population_, self._X_train, self._y_ids, self._scores, self._order,
                self._counters, self._rng, self._config, step,
            )
            remaining -= step
            if int(self._counters[ITERATION]) >= self._next_record:
                self._record()
        return self

    def summary(self):
        """A cheap snapshot of the run for a live display.

        ``coverage`` is the fraction of the recent training iterations whose instance some rule
        matched before covering (exact coverage of any data: :meth:`coverage`)."""
        check_is_fitted(self, "population_")
        pop = popmod.live(self.population_)
        c = self._counters
        micro = int(pop.micro[0])
        last = self._history[-1] if self._history else None
        span = int(c[ITERATION]) - (last["iteration"] if last else 0)
        if span > 0:
            matched = int(c[N_MATCHED]) - (last["_matched"] if last else 0)
            coverage = matched / span
        else:
            coverage = last["coverage"] if last else float("nan")
        n_train = len(self._order) if hasattr(self, "_order") else 0
        return {
            "iteration": int(c[ITERATION]),
            "epoch": int(c[ITERATION]) / n_train if n_train else float(c[EPOCH]),
            "macro_size": len(pop.num),
            "micro_size": micro,
            "mean_fitness": float(pop.fit @ pop.num / micro) if micro else 0.0,
            "mean_generality": float(self._generality() @ pop.num / micro) if micro else 0.0,
            "coverage": coverage,
            "n_covering": int(c[N_COVERING]),
            "n_ga": int(c[N_GA]),
            "n_subsumption": int(c[N_SUBSUMPTION]),
            "n_deletion": int(c[N_DELETION]),
        }

    def history(self):
        """The recorded training curve: one row every ``history_every`` iterations (thinned and
        spaced out as the run grows, at most 1,000 rows), columns as in :meth:`summary`."""
        check_is_fitted(self, "population_")
        frame = pd.DataFrame(self._history)
        return frame.drop(columns="_matched") if "_matched" in frame else frame

    # --------------------------------------------------------------- prediction

    def predict(self, X, prediction=None):
        """0/1 label matrix (n x m, in the training labels' dtype) by MLR_agg or MLR_max
        (``prediction`` overrides the constructor's choice for this call)."""
        prediction = prediction or self.prediction
        votes = self._vote(X)
        if prediction == "max":
            return self._max_labels(votes).astype(self.label_dtype_)
        scores = normalise(votes[0], votes[1], self.score_norm)
        method, value = self._bipartition()
        labels = by_threshold(scores, value) if method == "threshold" else by_rank(scores, value)
        return labels.astype(self.label_dtype_)

    def predict_proba(self, X):
        """Aggregated per-label scores (n x m, in [0, 1]); they also rank the labels."""
        votes = self._vote(X)
        return normalise(votes[0], votes[1], self.score_norm)

    def coverage(self, X):
        """Fraction of the rows of X that at least one rule matches."""
        return float(self._vote(X)[4].mean())

    def bipartition_(self):
        """The bipartition in force: ``("threshold", t)`` or ``("rcut", k)``."""
        return self._bipartition()

    def explain(self, x):
        """The voters for one instance (a 1-D array of d features) and how their votes became
        MLR_agg's and MLR_max's answers. See :class:`Explanation`."""
        x = np.asarray(x, dtype=np.float64).reshape(1, -1)
        votes = self._vote(x)
        scaled = self._scale(check_features(self, x, reset=False))[0]
        slots = np.empty(self.population_.nspec.shape[0], dtype=np.int64)
        count, covered = voters(self.population_, scaled, int(self.min_vote_experience),
                                int(self.n_nearest), slots)
        slots = slots[:count]
        pop = self.population_
        frame = self.rules_frame().iloc[slots].reset_index()
        sets = self.labelsets_[pop.ls[slots]]
        share = contributions(pop.fit[slots], pop.num[slots], sets, votes[1][0], self.label_names_)
        scores = normalise(votes[0], votes[1], self.score_norm)
        method, value = self._bipartition()
        agg = by_threshold(scores, value) if method == "threshold" else by_rank(scores, value)
        names = np.array(self.label_names_, dtype=object)
        return Explanation(
            match_set=pd.concat([frame, share], axis=1),
            rule_ids=slots,
            fallback=not covered,
            union=list(names[sets.any(axis=0)]),
            scores=pd.Series(scores[0], index=self.label_names_, name="score"),
            bipartition=(method, value),
            agg_labels=list(names[agg[0].astype(bool)]),
            max_labels=list(names[self._max_labels(votes)[0].astype(bool)]),
        )

    # ------------------------------------------------------------------- rules

    def rule_bounds(self):
        """(lower, upper): one row per rule (``rules_frame`` order), one column per feature,
        in the data's original units; NaN where the feature is a wildcard."""
        check_is_fitted(self, "population_")
        lower, upper = popmod.dense_bounds(self.population_, len(self.feature_names_))
        span = self.data_max_ - self.data_min_
        return self.data_min_ + lower * span, self.data_min_ + upper * span

    def rules_frame(self):
        """The population as a DataFrame: readable rule text, labelset, fitness, accuracy,
        numerosity, experience, generality, ... one row per macro rule."""
        check_is_fitted(self, "population_")
        pop = popmod.live(self.population_)
        scaled = popmod.dense_bounds(self.population_, len(self.feature_names_))
        lower, upper = self.rule_bounds()
        sets = self.labelsets_[pop.ls]
        texts = rule_texts(lower, upper, *scaled, sets, self.feature_names_, self.label_names_)
        return rules_frame(pop, texts, sets, self._generality(), self.label_names_)

    def to_json(self):
        """The model as versioned JSON text (see :mod:`mlr_core.io`)."""
        check_is_fitted(self, "population_")
        return io.to_json(self)

    @classmethod
    def from_json(cls, text):
        """A model saved by :meth:`to_json`; raises ModelFormatError if the text is not one.
        It predicts at once; ``start(X, Y, warm_start=True)`` continues its training."""
        return io.from_json(cls, text)

    # ---------------------------------------------------------------- internals

    def _init_state(self, X, Y, feature_names, label_names):
        n, d = X.shape
        self.feature_names_ = _names(feature_names, getattr(self, "feature_names_in_", None),
                                     d, "x")
        self.label_names_ = _names(label_names, None, Y.shape[1], "label")
        self.classes_ = np.arange(Y.shape[1])  # label indices, as scikit-learn's multi-label
        self.data_min_ = X.min(axis=0)
        self.data_max_ = X.max(axis=0)
        self.labelsets_ = np.zeros((0, Y.shape[1]), dtype=np.uint8)
        seed = check_random_state(self.random_state).randint(0, 2**31 - 1)
        self._rng = rng.new_state(seed)
        self.max_specified_ = (
            min(d, max(1, math.ceil(math.log2(max(n, 2)))))
            if self.max_specified == "auto"
            else min(d, int(self.max_specified))
        )
        self.population_ = popmod.new_population(self.n_rules + 3, self.max_specified_)
        self._counters = np.zeros(N_COUNTERS, dtype=np.int64)
        self._history = []
        self._record_every = self.history_every
        self._next_record = self.history_every

    def _make_config(self, max_specified, n_features):
        """The kernels' view of the parameters (with ``auto`` values resolved)."""
        mu = min(0.04, 4.0 / n_features) if self.mu == "auto" else float(self.mu)
        return Config(
            n_rules=int(self.n_rules), p_hash=float(self.p_hash), r0=float(self.r0),
            max_specified=int(max_specified), nu=float(self.nu), beta=float(self.beta),
            theta_ga=float(self.theta_ga), tau=float(self.tau),
            roulette=self.selection == "roulette", chi=float(self.chi), mu=mu,
            m0=float(self.m0), ga_subsumption=bool(self.ga_subsumption),
            theta_sub=float(self.theta_sub), acc0=float(self.acc0),
            theta_del=float(self.theta_del), delta=float(self.delta),
            correct_set_subsumption=bool(self.correct_set_subsumption),
        )

    def _scale(self, X):
        span = self.data_max_ - self.data_min_
        span = np.where(span > 0, span, 1.0)  # a constant feature maps to 0
        scaled = X - self.data_min_  # the one copy; the rest is in place
        scaled /= span
        return np.clip(scaled, 0.0, 1.0, out=scaled)

    def _labelset_ids(self, Y, extend):
        """Index each row of Y in ``labelsets_`` (adding unseen labelsets when ``extend``)."""
        known = {row.tobytes(): i for i, row in enumerate(self.labelsets_)}
        ids = np.empty(len(Y), dtype=np.int32)
        new = []
        for r, row in enumerate(Y):
            key = row.tobytes()
            if key not in known:
                if not extend:
                    raise InputError(f"Row {r} has a labelset the model has never seen.")
                known[key] = len(known)
                new.append(row)
            ids[r] = known[key]
        if new:
            self.labelsets_ = np.vstack([self.labelsets_, np.array(new, dtype=np.uint8)])
        self._scores = score_table(self.labelsets_, self.fitness)
        return ids

    def _generality(self):
        return popmod.generality(self.population_, len(self.feature_names_))

    def _record(self):
        """Append a history row; thin the history and double its spacing when it is full."""
        row = self.summary()
        row["_matched"] = int(self._counters[N_MATCHED])
        self._history.append(row)
        if len(self._history) >= _MAX_HISTORY:
            self._history = self._history[1::2]
            self._record_every *= 2
        self._next_record = row["iteration"] + self._record_every

    def _vote(self, X):
        check_is_fitted(self, "population_")
        Xs = self._scale(check_features(self, X, reset=False))
        return vote(self.population_, Xs, self.labelsets_, int(self.min_vote_experience),
                    int(self.n_nearest))

    def _max_labels(self, votes):
        """MLR_max's labelsets: the vote winner or the fittest voter's (``max_rule``); the empty
        labelset where nobody voted (an empty population)."""
        chosen = votes[2] if self.max_rule == "vote" else votes[3]
        labels = self.labelsets_[np.maximum(chosen, 0)]
        labels[chosen < 0] = 0
        return labels

    def _bipartition(self):
        """The fixed or tuned bipartition, tuned lazily on the training data (once per
        iteration count) so that live training pays for it only when something predicts."""
        if self.bipartition == "threshold" and self.threshold is not None:
            return "threshold", float(self.threshold)
        if not hasattr(self, "_X_train"):  # loaded from JSON: the saved choice
            return self._frozen_bipartition
        k = int(round(self._card))
        if self.bipartition == "rcut":
            return "rcut", k
        key = (int(self._counters[ITERATION]), self.bipartition, self.threshold)
        if self._tuned is None or self._tuned[0] != key:
            self._tuned = (key, self._tune(k))
        return self._tuned[1]

    def _tune(self, k):
        """Best threshold (or RCut for ``auto``) by example-based F1 on the training data."""
        votes = vote(self.population_, self._X_train, self.labelsets_,
                     int(self.min_vote_experience), int(self.n_nearest))
        scores = normalise(votes[0], votes[1], self.score_norm)
        truth = self.labelsets_[self._y_ids]
        candidates = [("threshold", float(t)) for t in _THRESHOLDS]
        if self.threshold is not None:
            candidates = [("threshold", float(self.threshold))]
        if self.bipartition == "auto":
            candidates.append(("rcut", k))

        def f1(choice):
            method, value = choice
            pred = by_threshold(scores, value) if method == "threshold" else by_rank(scores, value)
            return _example_f1(truth, pred)

        return max(candidates, key=f1)


def _example_f1(truth, pred):
    """Mean per-instance F1 (1 when both sets are empty). By hand because scikit-learn's
    ``average="samples"`` refuses a single label column, which is legal here."""
    hits = (truth & pred).sum(axis=1)
    sizes = truth.sum(axis=1) + pred.sum(axis=1)
    return float(np.where(sizes > 0, 2 * hits / np.maximum(sizes, 1), 1.0).mean())


def _label_dtype(Y):
    """Predictions come back in the dtype of the training labels (int, bool or float)."""
    dtype = np.asarray(getattr(Y, "values", Y)).dtype
    return dtype if dtype.kind in "biuf" else np.dtype(np.int64)


def _names(given, from_frame, count, prefix):
    """Feature or label names: given, else a DataFrame's columns, else ``prefix0, prefix1...``."""
    names = given if given is not None else from_frame
    if names is None:
        return [f"{prefix}{i}" for i in range(count)]
    names = [str(n) for n in names]
    if len(names) != count:
        raise InputError(f"Got {len(names)} names for {count} {prefix} columns.")
    return names
