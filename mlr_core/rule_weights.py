"""Rule weights: what each rule adds to each label's score, fitted once the rules have evolved.

The paper's MLR_agg scores a label by its share of the matched rules' vote (F * num of the rules
whose labelset holds it). Those shares are not probabilities: a general rule with a wrong
labelset keeps a high HL fitness and dilutes every vote, and the best cut moves from fold to
fold. Here the evolved rules are kept as they are and each becomes a 0/1 feature (does it match
x?); one ridge regression per label on those features gives each rule a weight per label, so a
label's score is ``intercept + sum of the weights of the rules that match x``, clipped to
[0, 1]: an estimate of the probability of the label.

The one penalty for all labels is chosen by exact leave-one-out error (scikit-learn's
``RidgeCV``, generalised cross-validation: no refits). Its leave-one-out predictions come for
free and are scores for rows the weights did not see; the bipartition is tuned on them. Measured
on the shared folds (``docs/field.md``): a shared penalty did as well as one per label, a
logistic link no better at ten times the time, the vote shares as extra features nothing.
"""

import functools

import numpy as np
from sklearn.linear_model import Ridge, RidgeCV
from threadpoolctl import ThreadpoolController

from mlr_core.rule_set import WeightScorer

ALPHAS = np.logspace(-1, 4, 11)
"""Penalties tried, 0.1 to 10,000; the chosen one ranged from 1 (genbase) to 10,000 (yeast)."""

MAX_ROWS = 5000
"""At most this many training rows (a seeded sample) fit the weights: the leave-one-out solve
costs O(n^2 N) or O(n N^2), and 5,000 rows already pin down a few thousand weights."""


def fitting_rows(n: int, seed: int) -> np.ndarray:
    """The training rows the weights are fitted on: all, or a seeded sample of `MAX_ROWS`."""
    if n <= MAX_ROWS:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, MAX_ROWS, replace=False))


@functools.cache
def _blas_controller() -> ThreadpoolController:
    """The loaded BLAS libraries, found once: finding them costs milliseconds, as much as a
    compact model's smaller refits."""
    return ThreadpoolController()


def one_blas_thread():
    """A context in which BLAS uses one thread: the weights' bits then do not depend on the
    machine's cores (threads split the sums differently), and on a busy machine a second thread
    cost 3x the time (docs/fit_time.md)."""
    return _blas_controller().limit(limits=1, user_api="blas")


def ranking_weights(A: np.ndarray, Y: np.ndarray, alpha: float) -> np.ndarray:
    """The rules x labels weights of a ridge fit with a given penalty, nothing else: enough to
    rank rules by importance. One Cholesky solve of the rules' Gram matrix (its product is
    BLAS's fastest kind of work) instead of the leave-one-out decomposition, which costs
    several times more."""
    ridge = Ridge(alpha=alpha, solver="cholesky")
    with one_blas_thread():
        ridge.fit(A, Y.astype(np.float64))
    return ridge.coef_.T.reshape(A.shape[1], Y.shape[1])


def fit_rule_weights(A: np.ndarray, Y: np.ndarray) -> tuple[WeightScorer, np.ndarray]:
    """Fit the weights on a rows x rules 0/1 match matrix ``A`` and the rows' 0/1 labels.

    Returns
    -------
    (weights, loo_scores)
        ``loo_scores``: each row's leave-one-out scores, in [0, 1].
    """
    n, n_rules = A.shape
    Yf = Y.astype(np.float64)
    if n_rules == 0 or n < 3:  # nothing to weigh, or no leave-one-out to choose with
        mean = Yf.mean(axis=0)
        weights = WeightScorer(np.zeros((n_rules, Y.shape[1])), mean, 0.0)
        return weights, np.tile(mean, (n, 1))
    # With more rows than rules (a compact model's refits), scikit-learn 1.9's automatic choice
    # decomposes the covariance in Python-level batches; the SVD of the design matrix gives the
    # same leave-one-out solution in 0.38 s instead of 0.90 s (1,956 rows x 796 rules, one
    # thread). With more rules than rows the Gram matrix's eigendecomposition stays cheapest.
    mode = "svd" if n >= n_rules else None
    ridge = RidgeCV(alphas=ALPHAS, scoring="neg_mean_squared_error", store_cv_results=True,
                    gcv_mode=mode)
    with one_blas_thread():
        ridge.fit(A, Yf)
    chosen = int(np.flatnonzero(ALPHAS == ridge.alpha_)[0])
    # with a scoring given, cv_results_ holds the leave-one-out predictions (rows x labels x alphas)
    loo = ridge.cv_results_.reshape(n, Y.shape[1], len(ALPHAS))[:, :, chosen]
    weights = WeightScorer(ridge.coef_.T.reshape(n_rules, Y.shape[1]).copy(),
                           np.atleast_1d(ridge.intercept_).astype(np.float64),
                           float(ridge.alpha_))
    return weights, np.clip(loo, 0.0, 1.0)
