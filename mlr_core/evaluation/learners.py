"""The field's multi-label learners as scikit-learn estimators, set up as
``../shared/field/README.md`` describes them, so that our runs can be checked against its
``peers.csv`` on the same folds.

Every estimator here takes ``X`` (n x d) and a 0/1 label matrix ``Y`` (n x m), and answers
``predict`` with a dense 0/1 matrix and ``predict_proba`` with an (n x m) matrix of label scores
(higher = more relevant), which is what the ranking measures need.

What comes from where
---------------------
- Binary relevance and the chains use scikit-learn (``MultiOutputClassifier``,
  ``ClassifierChain``), ML-kNN is scikit-multilearn-ng's, BOOMER is mlrl-boomer's (an optional
  extra: it pins scikit-learn < 1.8 and numpy < 2.4, so it is not in ``requirements.txt``).
- Written here, and why: `LabelPowerset` and `RAkEL`, because scikit-multilearn-ng's RAkEL draws
  its labelsets from Python's global ``random`` without a seed (runs are not reproducible, least of
  all across joblib workers), rounds the vote share with ``np.round`` (0.5 becomes 0, where MULAN
  predicts a label at a share >= 0.5) and has no ``predict_proba``; `EnsembleOfClassifierChains`,
  because scikit-learn has the chain but not the bagged ensemble; `SafeBinary`, because a training
  fold or a bootstrap bag often holds only one value of a rare label (genbase), on which
  ``LogisticRegression`` refuses to fit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from importlib import import_module
from importlib.util import find_spec

import numpy as np
from scipy.sparse import issparse
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.multioutput import ClassifierChain, MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state

from mlr_core.errors import InputError
from mlr_core.params import PAPER_AXIS

__all__ = [
    "EnsembleOfClassifierChains",
    "LabelPowerset",
    "LEARNERS",
    "MLkNN",
    "RAkEL",
    "SafeBinary",
    "available_learners",
    "label_scores",
    "make_learner",
]


def label_scores(model, X) -> np.ndarray:
    """(n x m) label scores of a fitted multi-label model, whatever shape its ``predict_proba``
    has: one matrix (most), a list of per-label (n x 2) matrices (``MultiOutputClassifier``) or a
    sparse matrix (scikit-multilearn)."""
    proba = model.predict_proba(X)
    if isinstance(proba, list):
        return np.column_stack([p[:, -1] if p.shape[1] > 1 else np.zeros(len(p)) for p in proba])
    if hasattr(proba, "toarray"):
        proba = proba.toarray()
    return np.asarray(proba, dtype=np.float64)


def _tree(random_state=None) -> DecisionTreeClassifier:
    """The J48-like tree of ``../shared/field/README.md``: entropy splits, two rows per leaf."""
    return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
                                  random_state=random_state)


def _logistic() -> LogisticRegression:
    return LogisticRegression(C=1.0, solver="liblinear")


class SafeBinary(ClassifierMixin, BaseEstimator):
    """A binary classifier that also fits a label with one value in its training rows: it then
    predicts that value with probability 1. Classes are always [0, 1], so chains and binary
    relevance see the same (n x 2) ``predict_proba`` either way."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        y = np.asarray(y).ravel().astype(int)
        self.classes_ = np.array([0, 1])
        values = np.unique(y)
        if len(values) == 1:
            self.constant_, self.estimator_ = int(values[0]), None
        else:
            self.constant_, self.estimator_ = None, clone(self.estimator).fit(X, y)
        return self

    def predict_proba(self, X):
        if self.estimator_ is not None:
            return self.estimator_.predict_proba(X)
        p = np.full(len(X), float(self.constant_))
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


class LabelPowerset(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Label powerset: every distinct training labelset is one class of a multi-class learner.

    ``predict`` answers the most probable labelset; ``predict_proba`` each label's marginal, the
    summed probability of the labelsets that contain it.
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, Y):
        Y = _label_matrix(Y)
        self.labelsets_, classes = np.unique(Y, axis=0, return_inverse=True)
        self.estimator_ = clone(self.estimator if self.estimator is not None else _tree())
        self.estimator_.fit(X, classes.ravel())
        return self

    def predict(self, X):
        return self.labelsets_[self.estimator_.predict(X)]

    def predict_proba(self, X):
        proba = self.estimator_.predict_proba(X)
        return proba @ self.labelsets_[self.estimator_.classes_].astype(np.float64)


class RAkEL(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """RAndom k-labELsets (Tsoumakas et al.) with MULAN's defaults: ``n_labelsets`` label powersets
    on random ``labelset_size``-subsets of the labels, a label predicted where the share of the
    subsets containing it that vote for it is at least ``threshold``.

    Parameters
    ----------
    estimator : classifier, default: the J48-like decision tree
        The multi-class base learner of each label powerset.
    labelset_size : int, default=3
    n_labelsets : int or None, default=None
        Overlapping: that many distinct random subsets, ``min(2 m, 100)`` when None (capped at the
        number of subsets there are); ignored when ``disjoint``.
    disjoint : bool, default=False
        RAkEL_d: one random partition of the labels into subsets of ``labelset_size``.
    threshold : float, default=0.5
    random_state : int, RandomState or None

    ``predict_proba`` is each label's mean marginal over the subsets that contain it (0 for a
    label no subset drew, which is then never predicted).
    """

    def __init__(self, estimator=None, labelset_size=3, n_labelsets=None, disjoint=False,
                 threshold=0.5, random_state=None):
        self.estimator = estimator
        self.labelset_size = labelset_size
        self.n_labelsets = n_labelsets
        self.disjoint = disjoint
        self.threshold = threshold
        self.random_state = random_state

    def _draw_subsets(self, m, rng) -> list[np.ndarray]:
        k = min(self.labelset_size, m)
        if self.disjoint:
            order = rng.permutation(m)
            return [np.sort(order[i:i + k]) for i in range(0, m, k)]
        wanted = min(2 * m, 100) if self.n_labelsets is None else self.n_labelsets
        wanted = min(wanted, math.comb(m, k))
        drawn: dict[tuple, None] = {}  # insertion-ordered set: same seed, same order
        while len(drawn) < wanted:
            drawn.setdefault(tuple(np.sort(rng.choice(m, k, replace=False))), None)
        return [np.array(s) for s in drawn]

    def fit(self, X, Y):
        Y = _label_matrix(Y)
        rng = check_random_state(self.random_state)
        self.n_labels_ = Y.shape[1]
        self.subsets_ = self._draw_subsets(self.n_labels_, rng)
        base = self.estimator if self.estimator is not None else _tree()
        self.models_ = []
        for subset in self.subsets_:
            learner = clone(base)
            if "random_state" in learner.get_params():
                learner.set_params(random_state=rng.randint(2**31 - 1))
            self.models_.append(LabelPowerset(learner).fit(X, Y[:, subset]))
        self.counts_ = np.zeros(self.n_labels_)
        for subset in self.subsets_:
            self.counts_[subset] += 1
        return self

    def _mean_over_subsets(self, X, answer) -> np.ndarray:
        total = np.zeros((len(X), self.n_labels_))
        for subset, model in zip(self.subsets_, self.models_, strict=True):
            total[:, subset] += answer(model, X)
        return np.divide(total, self.counts_, out=np.zeros_like(total), where=self.counts_ > 0)

    def predict(self, X):
        share = self._mean_over_subsets(X, lambda model, rows: model.predict(rows))
        return (share >= self.threshold).astype(np.uint8) * (self.counts_ > 0)

    def predict_proba(self, X):
        return self._mean_over_subsets(X, lambda model, rows: model.predict_proba(rows))


class EnsembleOfClassifierChains(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Ensemble of classifier chains (Read et al.): ``n_chains`` scikit-learn ``ClassifierChain``
    with random label orders, each fit on a bootstrap bag of the rows; a label's score is its mean
    probability over the chains and it is predicted at ``threshold`` or above."""

    def __init__(self, estimator=None, n_chains=10, threshold=0.5, random_state=None):
        self.estimator = estimator
        self.n_chains = n_chains
        self.threshold = threshold
        self.random_state = random_state

    def fit(self, X, Y):
        Y = _label_matrix(Y)
        X = np.asarray(X)
        rng = check_random_state(self.random_state)
        base = self.estimator if self.estimator is not None else _logistic()
        self.chains_ = []
        for _ in range(self.n_chains):
            bag = rng.randint(0, len(X), len(X))
            learner = clone(base)
            if "random_state" in learner.get_params():
                learner.set_params(random_state=rng.randint(2**31 - 1))
            chain = ClassifierChain(SafeBinary(learner), order="random",
                                    random_state=rng.randint(2**31 - 1))
            self.chains_.append(chain.fit(X[bag], Y[bag]))
        return self

    def predict_proba(self, X):
        return np.mean([chain.predict_proba(X) for chain in self.chains_], axis=0)

    def predict(self, X):
        return (self.predict_proba(X) >= self.threshold).astype(np.uint8)


def _mlknn_base():
    from skmultilearn.adapt import MLkNN as Base  # optional import: see MLkNN

    return Base


class MLkNN(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """ML-kNN (Zhang and Zhou 2007), scikit-multilearn-ng's implementation, with dense answers.

    scikit-multilearn-ng answers with sparse matrices and imports its whole package tree; this
    adapter keeps the import until ``fit`` and returns dense arrays like the other learners.
    """

    def __init__(self, k=10, s=1.0):
        self.k = k
        self.s = s

    def fit(self, X, Y):
        self.model_ = _mlknn_base()(k=self.k, s=self.s).fit(_rows(X), _label_matrix(Y))
        return self

    def predict(self, X):
        return self.model_.predict(_rows(X)).toarray().astype(np.uint8)

    def predict_proba(self, X):
        return self.model_.predict_proba(_rows(X)).toarray()


BOOMER_MODULES = ("mlrl.boosting", "mlrl.boomer")
"""Where mlrl-boomer keeps ``BoomerClassifier``: ``mlrl.boosting`` up to 0.12 (the last release
for Python 3.11), ``mlrl.boomer`` in later ones."""


def _boomer(random_state):
    for module in BOOMER_MODULES:
        if _importable(module):
            # BOOMER's seeds start at 1 (its default): seed 0 is its default run
            seed = None if random_state is None else random_state + 1
            return import_module(module).BoomerClassifier(random_state=seed)
    raise ImportError(
        "BOOMER needs the optional package mlrl-boomer (pip install mlrl-boomer; it pins "
        "scikit-learn < 1.8 and numpy < 2.4, so install it in a separate environment)"
    )


def _mlr(**params):
    """The paper's MLR_max / MLR_agg score by the rules' vote on the paper's min-max axis (cut
    tuned for accuracy at its best point, as when ``docs/results.md`` was made); "MLR" is this
    library's defaults (fitted rule weights, the rank axis, the cut at its plateau's middle)."""
    def make(random_state):
        from mlr_core.estimator import MLRClassifier

        return MLRClassifier(random_state=random_state, **params)

    return make


def _rows(X):
    """``X`` as an array, a scipy sparse matrix left as it is (ML-kNN's neighbours read it)."""
    return X if issparse(X) else np.asarray(X)


def _label_matrix(Y) -> np.ndarray:
    Y = np.asarray(Y)
    if Y.ndim != 2:
        raise InputError(f"Y must be a 2-D 0/1 label matrix, got shape {Y.shape}")
    return Y.astype(np.uint8)


LEARNERS: dict[str, Callable[[int | None], BaseEstimator]] = {
    "BR-LR": lambda seed: MultiOutputClassifier(SafeBinary(_logistic())),
    "LP-DT": lambda seed: LabelPowerset(_tree(seed)),
    "RAkELo-DT": lambda seed: RAkEL(_tree(), random_state=seed),
    "RAkELd-DT": lambda seed: RAkEL(_tree(), disjoint=True, random_state=seed),
    "MLkNN": lambda seed: MLkNN(k=10, s=1.0),
    "ECC-LR": lambda seed: EnsembleOfClassifierChains(_logistic(), random_state=seed),
    "ECC-DT": lambda seed: EnsembleOfClassifierChains(_tree(), random_state=seed),
    "BOOMER": _boomer,
    "MLR_max": _mlr(prediction="max", weighting="vote", target="accuracy", plateau_rows=0,
                    **PAPER_AXIS),
    "MLR_agg": _mlr(prediction="agg", weighting="vote", target="accuracy", plateau_rows=0,
                    **PAPER_AXIS),
    "MLR": _mlr(),
}
"""Every learner the runner knows, by the name ``../shared/field/peers.csv`` gives it (and the
paper's MLR_max / MLR_agg), as a factory of a fresh estimator seeded with ``random_state``."""

SHARED = {"MLR_max": ("MLR", {"prediction": "max"}), "MLR_agg": ("MLR", {"prediction": "agg"})}
"""Learners that one fit serves: name -> (the fit they share, their ``predict`` arguments)."""

OPTIONAL = {"MLkNN": ("skmultilearn",), "BOOMER": BOOMER_MODULES}
"""Learners whose package may be missing: the modules, any one of which each needs."""


def make_learner(name: str, random_state: int | None = 0) -> BaseEstimator:
    """A fresh, unfitted estimator for one of `LEARNERS`."""
    if name not in LEARNERS:
        raise InputError(f"unknown learner {name!r}; choose from {', '.join(LEARNERS)}")
    return LEARNERS[name](random_state)


def available_learners() -> list[str]:
    """The names of `LEARNERS` whose packages are installed here."""
    return [name for name in LEARNERS
            if name not in OPTIONAL or any(map(_importable, OPTIONAL[name]))]


def _importable(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ModuleNotFoundError, ValueError):  # the parent package is missing, or hidden
        return False
