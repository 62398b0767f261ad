"""Log-odds from the ridge totals: the rule weights' second stage.

The ridge fit (`rule_weights`) gives each label a total, its baseline plus the weights of the
matching rules, that estimates the label's probability by least squares. Across labels those
totals rank badly where labels are rare: least squares spends its fit on the many rows
without the label, and a rare label's total stays near its small mean whatever the row. A
logistic regression per label on the totals (their leave-one-out values, so that it sees
totals of rows the weights did not fit) puts them on one scale of log-odds:

- ``all``: each label on every label's total (stacking), which also reads what the other
  labels say about it, at the penalties of `STACKED_CS`; with at least `ROWS_PER_LABEL`
  fitting rows per label, and labels few enough for `STACK_WORK`;
- ``own``: each label on its own total (Platt's scaling): a slope and an intercept per
  label (a label constant on the rows fitted gets the fit's limit instead, see `_logistic`).
  Always a candidate: where labels are rare and shift many features a little (the sparse
  stand-ins of ``benchmarks/field.py``), stacking's many slopes rank no better than the
  totals, while a label's own slope puts its shrunken totals on the others' scale.

Both stay rule weights: a total is linear in the rules' weights, so the log-odds are too, and
the rule set keeps one weight per rule and label with the logistic link
(``mlr_core/links.py``). Whether the ridge totals as they are (clipped) or a candidate above is
kept is decided by ranking loss on `FOLDS` folds of the fitting rows, and the cut is tuned on
the kept candidate's out-of-fold scores: no row's score comes from a fit that saw it.

Measured on folds 0 and 1 of the shared folds, ranking loss of the clipped totals -> kept:
mediamill 0.059 -> 0.047 and 0.071 -> 0.051, slashdot 0.070 -> 0.063 and 0.087 -> 0.075,
ohsumed 0.092 -> 0.086 and 0.094 -> 0.088, emotions 0.130 -> 0.113 and 0.146 -> 0.141, yeast
0.176 -> 0.171 (fold 1 keeps the totals), genbase keeps them. Tried and not kept: the totals
standardised per label before the fit (mediamill 0.049 and 0.054: rare labels' small totals
then got the same penalty as the others). Platt's scaling beside stacking was left out at first
(on slashdot fold 1 it was chosen where stacking ranked better on the test rows, 0.079 against
0.075); over five folds of the eight datasets it moves no rank down and takes the five's
one-error and ranking-loss ranks from 2.4 and 2.2 to 2.2 and 1.8 (``docs/field.md``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.optimize import minimize
from sklearn.model_selection import KFold

from mlr_core import links
from mlr_core._engine.jit import njit
from mlr_core.evaluation.measures import label_ranking_loss
from mlr_core.rule_weights import one_blas_thread
from mlr_core.scorers import WeightScorer

FOLDS = 3
"""Folds of the fitting rows on which the candidates are compared."""

OWN_C = 1000.0
"""The penalty of Platt's scaling (scikit-learn's C, on centred totals): nearly none, two
numbers per label."""

STACKED_CS = (1.0, 10.0)
"""The penalties tried for stacking (scikit-learn's C, on centred totals), the strongest first:
each fold's fit at a penalty starts from its fit at the one before (`calibrate`)."""

STACK_WORK = 5e7
"""Stacking's product of rows x labels by labels x labels, at most this many multiply-adds
(mediamill's 2,000 x 101 x 101 is 2e7, about 20 ms; 200 of them per fit): with more labels
(bibtex's 159, delicious's 983) its fits would cost more than the rest of the fit, and Platt's
scaling, which costs rows x labels, is tried instead."""

MAX_ITER = 500
"""L-BFGS iterations at most per fit (stacking): a guard; its fits stop at L-BFGS's tolerance
in 6-90 on the shared datasets (`_fit_stacked`)."""

NEWTON_STEPS = 50
"""Newton steps at most per label (Platt's scaling); a handful reach rounding."""

ROWS_PER_LABEL = 10
"""Stacking fits as many slopes per label as there are labels: tried only with at least this
many fitting rows per label (cal500's 400 rows and 174 labels lost ranking loss to it,
0.168 -> 0.176, and took 27 s with scikit-learn's fits)."""


def calibrate(weights: WeightScorer, totals: np.ndarray, truth: np.ndarray,
              seed: int) -> tuple[WeightScorer, np.ndarray]:
    """The weights with the link that ranks best (see the module's docstring), and the scores
    of the fitting rows the cut is tuned on. ``totals``: the fitting rows' leave-one-out
    totals (unclipped); ``truth``: their 0/1 labels. The weights' ``coef`` is taken over: with
    Platt's scaling it is scaled in place (at 50,000 labels a new rules x labels array took
    1.2 CPU s of page faults, more than the fits)."""
    truth = np.asarray(truth, dtype=np.uint8)
    n, m = truth.shape
    clipped = links.Clip.apply(totals)
    if n < 2 * FOLDS or m < 2:  # no folds to compare on, or no labels to rank against others
        return weights, clipped
    mean = totals.mean(axis=0)
    F = totals - mean
    stack = n >= ROWS_PER_LABEL * m and n * m * m <= STACK_WORK
    candidates = [*(("all", c) for c in STACKED_CS if stack), ("own", OWN_C)]
    # scikit-learn takes 32-bit seeds; the run's iteration (the seed) may pass 2**32
    folds = list(KFold(FOLDS, shuffle=True, random_state=seed % 2**32).split(F))
    best, best_loss, best_scores = None, label_ranking_loss(truth, clipped), clipped
    stacked = {}  # per fold, stacking's last fit: the next (weaker) penalty's start there
    start = None  # of the kept candidate's fit on all rows
    for candidate in candidates:  # one candidate's held-out scores at a time: memory
        own = candidate[0] == "own"
        scores = np.empty((n, m))
        for k, (fit_rows, test_rows) in enumerate(folds):
            W, b = _logistic(F[fit_rows], truth[fit_rows], *candidate,
                             warm=None if own else stacked.get(k))
            if not own:
                stacked[k] = W, b
            scores[test_rows] = links.Logistic.apply(_times(F[test_rows], W) + b)
        loss = label_ranking_loss(truth, scores)
        if loss < best_loss:
            best, best_loss, best_scores = candidate, loss, scores
            if not own:  # stacking on all rows starts from the folds' mean fit
                start = tuple(np.mean(fits, axis=0) for fits in zip(*stacked.values(), strict=True))
    if best is None:
        return weights, clipped
    W, b = _logistic(F, truth, *best, warm=start)
    if W.ndim == 1:  # in place: a new rules x labels array cost more than the fits (many labels)
        coef = weights.coef
        coef *= W
    else:
        coef = weights.coef @ W
    intercept = _times(weights.intercept - mean, W) + b
    return replace(weights, coef=coef, intercept=intercept, link=links.Logistic.name), \
        best_scores


def _logistic(F: np.ndarray, Y: np.ndarray, kind: str, C: float, warm=None):
    """Per label, a logistic regression with an L2 penalty (scikit-learn's convention:
    ``C`` weighs the summed log-loss against half the squared slopes) on its own column of
    ``F`` (``kind`` "own") or on all of them ("all"): (slopes, per label or labels x labels,
    see `_times`; intercepts).

    With Platt's scaling ("own") a label constant on these rows (no positive, or no
    negative) has no fit to find: its log-loss keeps falling as its intercept runs to minus
    (plus) infinity, and the penalty pulls its slope to 0 as it goes. It is not fitted but
    given that limit: slope 0 and the intercept the link's `links.FLOOR` (its opposite), a
    score of 1e-304 (1) on every row. L-BFGS left such intercepts wherever the other labels
    converged (-45 to -112 on 13 rows), at points that differ with the label's totals, and on
    a fold's fitting rows those are non-zero just for labels of its held-out rows (the ridge
    weights saw every row): the held-out scores so told those labels apart by a hair, which
    is how the sparse labels of ``benchmarks/many_labels.py`` kept the logistic link (now the
    ridge totals). On few rows and many labels most labels are constant (on 20 rows of those
    50,000 all but a few dozen), and fitting them took 96% of the fit (issue 33). Stacking
    ("all") fits every label as before: it runs only with `ROWS_PER_LABEL` rows per label and
    labels few enough for `STACK_WORK`, where constant labels cost little, and left so its
    measured results stand (genbase, the one of the eight shared datasets with such labels
    there, would move its scores by up to 1e-3 on two of five folds, its labels not).

    Stacking's labels are fitted in one L-BFGS run (scipy) because they share ``F``: the
    gradient of every label's loss is one product ``F' (P - Y)``. scikit-learn fits one label
    at a time: with its fits the whole fit on slashdot (fold 0, 22 labels) took 12.5 CPU s,
    with this 2.8. Platt's labels are independent problems of two unknowns each: `_platt`.
    ``warm``: stacking's (slopes, intercepts) on the same rows at another penalty, to start
    from (`_fit_stacked`)."""
    n, m = Y.shape
    positives = Y.sum(axis=0)
    share = (positives + 0.5) / (n + 1.0)  # with half a row added each way
    if kind == "all":
        return _fit_stacked(F, Y, C, share, warm)
    varies = (positives > 0) & (positives < n)
    intercepts = np.where(positives == 0, links.FLOOR, -links.FLOOR)
    slopes = np.zeros(m)
    if not varies.any():
        return slopes, intercepts
    # all labels fitted (the usual case): the arrays themselves, so that the sums stay the same
    fit = slice(None) if varies.all() else np.flatnonzero(varies)
    slopes[fit], intercepts[fit] = _platt(np.asfortranarray(F[:, fit]),
                                          np.asfortranarray(Y[:, fit], dtype=np.float64),
                                          C, np.log(share[fit] / (1.0 - share[fit])))
    return slopes, intercepts


def _fit_stacked(F: np.ndarray, Y: np.ndarray, C: float, share: np.ndarray, warm=None):
    """Stacking's fit of every label of ``Y`` (``share``: each one's share of the rows) on all
    of ``F``'s columns, to L-BFGS's tolerance, from slopes 0 and the share's log-odds, or from
    ``warm``, the (slopes, intercepts) of a fit at another penalty.

    L-BFGS runs in coordinates where the loss's curvature is about the same in every
    direction (an exact change of variables: the optimum is the same). Label ``j``'s Hessian
    in its slopes is ``F' diag(p (1 - p)) F + I / C``; with ``p (1 - p)`` taken as the label's
    ``s_j = share (1 - share)`` it is ``V (s_j Λ + I / C) V'``, where ``V`` and ``Λ`` are the
    eigenvectors and eigenvalues of ``F' F``, which every label shares. Label ``j``'s slopes
    in ``V``'s basis, scaled by ``sqrt(s_j Λ + 1 / C)``, and its intercept, by
    ``sqrt(n s_j)`` (all by ``1 / sqrt(n)`` for the loss per row), have a Hessian of about
    the identity, which L-BFGS's first steps assume. On the raw slopes every fit on mediamill
    (2,000 rows, 101 labels) stopped at 100 iterations with its loss up to 7e-4 above the
    optimum; here mediamill's reach it in 28-34 (the weaker penalty started from the stronger
    one's fit on each fold, the fit on all rows from the folds' mean fit), in under two thirds
    of the time, and the shared datasets' fits in 6-90 (``docs/fit_time.md``)."""
    with one_blas_thread():  # every product here: its bits then do not depend on the cores
        n, m = Y.shape
        Yf = Y.astype(np.float64)
        curvature, V = np.linalg.eigh(F.T @ F / n)  # the loss below is per row
        s = share * (1.0 - share)
        scale = np.sqrt(s * np.maximum(curvature, 0.0)[:, None] + 1.0 / (C * n))  # basis x labels
        scale_b = np.sqrt(s)
        G = F @ V  # the totals in V's basis
        k = m * m

        def loss(theta):  # in place where it can: three n x m arrays per call
            W = theta[:k].reshape(m, m) / scale  # slopes in V's basis
            b = theta[k:] / scale_b
            Z = G @ W
            Z += b
            softplus = _softplus(Z)
            value = softplus.sum() - np.vdot(Yf, Z) + np.square(W).sum() / (2.0 * C)
            R = np.exp(np.subtract(Z, softplus, out=Z), out=Z)
            R -= Yf  # the probabilities, minus the labels
            slopes = (G.T @ R + W / C) / scale
            return value / n, np.concatenate([slopes.ravel(), R.sum(axis=0) / scale_b]) / n

        if warm is None:
            theta = np.concatenate([np.zeros(k), np.log(share / (1.0 - share)) * scale_b])
        else:
            theta = np.concatenate([((V.T @ warm[0]) * scale).ravel(), warm[1] * scale_b])
        theta = minimize(loss, theta, jac=True, method="L-BFGS-B",
                         options={"maxiter": MAX_ITER}).x
        return V @ (theta[:k].reshape(m, m) / scale), theta[k:] / scale_b


def _softplus(Z: np.ndarray) -> np.ndarray:
    """``log(1 + exp(Z))`` without overflow: ``max(Z, 0) + log1p(exp(-|Z|))``, the identity
    numpy's ``logaddexp(0, Z)`` computes element by element, in whole-array operations, which
    numpy vectorises: on 3,333 x 23 totals 0.7 ms against ``logaddexp``'s 3.2 ms, which was 80%
    of a stacking loss evaluation and a stacking calibration makes hundreds (ohsumed: 687)."""
    softplus = np.abs(Z)
    np.negative(softplus, out=softplus)
    np.exp(softplus, out=softplus)
    np.log1p(softplus, out=softplus)
    softplus += np.maximum(Z, 0.0)
    return softplus


@njit
def _platt(F, Y, C, start):
    """Platt's scaling of each label (a column of ``F`` and ``Y``) on its own: slope and
    intercept minimising its summed log-loss plus ``slope**2 / (2 C)``, by Newton's method
    with backtracking, from slope 0 and the intercept ``start``. Each label's problem has two
    unknowns and is strictly convex, so a few Newton steps solve it to rounding; one L-BFGS
    run over all labels at once (as stacking does) needed about 55 passes over the rows x
    labels and L-BFGS's own work on twice the labels' count, which at 50,000 labels on 20
    rows took three times the rest of the fit (`benchmarks/many_labels.py`). Written by hand
    because neither scipy nor scikit-learn fits many small independent logistic regressions
    at once."""
    n, m = F.shape
    slopes, intercepts = np.zeros(m), start.copy()
    for j in range(m):
        w, b = 0.0, start[j]
        value = _platt_loss(F, Y, C, j, w, b)
        for _ in range(NEWTON_STEPS):
            gw, gb, hww, hwb, hbb = w / C, 0.0, 1.0 / C, 0.0, 0.0
            for i in range(n):
                p = _sigmoid(F[i, j] * w + b)
                r, s = p - Y[i, j], p * (1.0 - p)
                gw += F[i, j] * r
                gb += r
                hww += F[i, j] * F[i, j] * s
                hwb += F[i, j] * s
                hbb += s
            det = hww * hbb - hwb * hwb
            if not det > 0.0:
                break
            dw, db = -(hbb * gw - hwb * gb) / det, -(hww * gb - hwb * gw) / det
            slope = gw * dw + gb * db  # the directional derivative, negative
            if not slope < 0.0:
                break
            t = 1.0
            while True:  # backtracking (Armijo): saturated rows make full steps overshoot
                trial = _platt_loss(F, Y, C, j, w + t * dw, b + t * db)
                if trial <= value + 1e-4 * t * slope or t < 1e-10:
                    break
                t *= 0.5
            if not trial < value:
                break
            w, b, value = w + t * dw, b + t * db, trial
        slopes[j], intercepts[j] = w, b
    return slopes, intercepts


@njit
def _platt_loss(F, Y, C, j, w, b):
    """Label ``j``'s summed log-loss at slope ``w`` and intercept ``b``, plus the penalty."""
    value = w * w / (2.0 * C)
    for i in range(F.shape[0]):
        z = F[i, j] * w + b
        value += max(z, 0.0) + np.log1p(np.exp(-abs(z))) - Y[i, j] * z
    return value


@njit
def _sigmoid(z):
    e = np.exp(-abs(z))
    return (1.0 if z > 0 else e) / (1.0 + e)


def _times(A: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``A`` times the slopes ``W``: a labels x labels matrix, or per label (a vector: the
    diagonal, applied without building the matrix)."""
    return A * W if W.ndim == 1 else A @ W
