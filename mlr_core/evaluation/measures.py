"""The multi-label measures of the paper's tables, by their standard definitions.

The measures of a bipartition are ratios of per-instance or per-label counts, computed here
(`_counts`) and held to scikit-learn's values by the tests; coverage and average precision are
scikit-learn's, the ranking loss scikit-learn's to the bit (`label_ranking_loss`). This module
fixes the conventions scikit-learn leaves open, validates inputs with messages that name the
argument, row and column at fault, and adds the ``paper_compatible`` variants that reproduce the
authors' own evaluation code (see ``docs/mlr-spec.md``, "What the authors' own code does
differently").

With ``h`` the predicted labelset and ``L`` the true one of an instance:

- ``hamming_loss``: mean over instances of ``|h xor L| / m``.
- ``accuracy`` (Jaccard) ``|h & L| / |h | L|``, ``precision`` ``|h & L| / |h|``, ``recall``
  ``|h & L| / |L|``, ``f1`` ``2 |h & L| / (|h| + |L|)``: averaged over instances.
- ``micro_f1``: F1 of the counts pooled over all labels; ``macro_f1``: mean over labels of each
  label's F1.
- ``subset_accuracy``: fraction of instances with ``h == L`` exactly.
- From scores (higher = more relevant): ``one_error`` (the top-ranked label is not relevant),
  ``ranking_loss`` (fraction of relevant/irrelevant label pairs ordered wrongly, ties count as
  wrong), ``coverage`` (scikit-learn's ``coverage_error``: how far down the ranking one must go to
  cover every relevant label, counting from 1, ties resolved pessimistically; subtract 1 for the
  MULAN/Zhang-Zhou convention) and ``average_precision`` (label ranking average precision).

Conventions for 0/0 (standard mode)
-----------------------------------
- ``accuracy``, ``precision``, ``recall`` and ``f1`` of an instance whose predicted and true
  labelsets are both empty are 1 (a perfect answer). When only the prediction is empty, precision
  is 0 (not scikit-learn's ``zero_division``, which would reward predicting nothing); when only
  the truth is empty, recall is 0.
- ``micro_f1`` is 1 when nothing is relevant and nothing predicted anywhere; in ``macro_f1`` a
  label never present and never predicted scores 1 (as in MULAN), one never present but predicted
  scores 0.
- Ranking measures: an instance with no relevant label cannot be ranked wrongly: ranking loss 0,
  average precision 1 and coverage 0 (scikit-learn), one-error 0. One with every label relevant
  has ranking loss 0 (no pair to order).
- ``one_error`` with tied top scores: the expected error when the tie is broken at random, that is
  the fraction of irrelevant labels among those sharing the top score. Ties are exact equality.

``paper_compatible=True`` (the authors' code)
---------------------------------------------
Precision and recall swapped (``|h & L| / |L|`` is called precision); every example-based 0/0 is 0;
micro and macro precision and recall add 1 to their denominators (``TP / (TP + FP + 1)``) and F is
``2PR / (P + R + 0.001)``, so macro-F1 is the F of the macro-averaged P and R; one-error counts a
tie in favour (no error when any top-scored label is relevant). Hamming loss, subset accuracy and
the other ranking measures are the same in both modes. Their ranking loss also returned ``|L|``
(not a fraction) for an instance with every label relevant; that is a bug and is not reproduced.
"""

from __future__ import annotations

import numpy as np
import sklearn.metrics as skm

from mlr_core._engine.jit import njit
from mlr_core.errors import InputError
from mlr_core.validation import check_label_matrix

MEASURES = (
    "hamming_loss",
    "accuracy",
    "precision",
    "recall",
    "f1",
    "micro_f1",
    "macro_f1",
    "subset_accuracy",
)
"""Measures of a bipartition (predicted 0/1 labels), in the order `evaluate` returns them."""

RANKING_MEASURES = ("one_error", "ranking_loss", "coverage", "average_precision")
"""Measures of label scores, returned by `evaluate` when scores are given."""

LOWER_IS_BETTER = frozenset({"hamming_loss", "one_error", "ranking_loss", "coverage"})
"""The measures that are losses; for every other measure higher is better."""

_PAPER_EPSILON = 0.001  # added to P + R in the authors' F-measure


def _labels_pair(Y_true, Y_pred) -> tuple[np.ndarray, np.ndarray]:
    Y_true = check_label_matrix(Y_true, "Y_true")
    Y_pred = check_label_matrix(Y_pred, "Y_pred")
    if Y_true.shape != Y_pred.shape:
        raise InputError(f"Y_pred has shape {Y_pred.shape} but Y_true has shape {Y_true.shape}")
    return Y_true, Y_pred


def _labels_and_scores(Y_true, scores) -> tuple[np.ndarray, np.ndarray]:
    Y_true = check_label_matrix(Y_true, "Y_true")
    if Y_true.shape[1] < 2:
        raise InputError(
            "Y_true has one label column: the ranking measures need at least two labels to rank "
            "(evaluate without scores gives the other measures)"
        )
    try:
        scores = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise InputError(f"scores must be a numeric matrix: {err}") from err
    if scores.shape != Y_true.shape:
        raise InputError(f"scores has shape {scores.shape} but Y_true has shape {Y_true.shape}")
    bad = ~np.isfinite(scores)
    if bad.any():
        i, j = (int(k) for k in np.argwhere(bad)[0])
        raise InputError(f"scores, row {i}, column {j}: {scores[i, j]} is not a finite number")
    return Y_true, scores


def hamming_loss(Y_true, Y_pred) -> float:
    """Fraction of wrongly predicted label bits (lower is better)."""
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    return float(np.mean(Y_true != Y_pred))


def subset_accuracy(Y_true, Y_pred) -> float:
    """Fraction of instances whose predicted labelset equals the true one exactly."""
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    return float(np.mean((Y_true == Y_pred).all(axis=1)))


_PAPER_NAME = {"precision": "recall", "recall": "precision"}  # the authors' swap


def _counts(Y_true: np.ndarray, Y_pred: np.ndarray, axis: int):
    """``(|h & L|, |h|, |L|)`` per instance (``axis=1``) or, as true positives, predicted and
    relevant counts, per label (``axis=0``), as floats.

    The measures are ratios of these counts, written out rather than asked of scikit-learn:
    each of its calls validates and re-counts the whole matrix (30-60 ms on yeast's test
    rows), and an audit asks for 48 measures, every curve point of the dashboard for six.
    ``tests/core/test_measures.py`` holds them to scikit-learn's values."""
    both = np.count_nonzero(Y_true & Y_pred, axis=axis).astype(np.float64)
    return (both, np.count_nonzero(Y_pred, axis=axis).astype(np.float64),
            np.count_nonzero(Y_true, axis=axis).astype(np.float64))


def _ratio(numerator, denominator, when_zero) -> np.ndarray:
    """``numerator / denominator``, ``when_zero`` where the denominator is 0."""
    out = np.asarray(np.broadcast_to(when_zero, np.shape(numerator)), dtype=np.float64).copy()
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _example_based(measure: str, Y_true, Y_pred, paper_compatible: bool) -> float:
    """Average over instances, with this module's 0/0 convention (1 when both labelsets are
    empty, else 0) or the authors' (0/0 = 0)."""
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    if paper_compatible:
        measure = _PAPER_NAME.get(measure, measure)
    both, predicted, relevant = _counts(Y_true, Y_pred, axis=1)
    numerator, denominator = {
        "accuracy": (both, predicted + relevant - both),
        "precision": (both, predicted),
        "recall": (both, relevant),
        "f1": (2.0 * both, predicted + relevant),
    }[measure]
    perfect = 0.0 if paper_compatible else (predicted + relevant == 0)
    return float(np.mean(_ratio(numerator, denominator, perfect)))


def accuracy(Y_true, Y_pred, paper_compatible: bool = False) -> float:
    """Example-based accuracy (Jaccard index) ``|h & L| / |h | L|``, averaged over instances."""
    return _example_based("accuracy", Y_true, Y_pred, paper_compatible)


def precision(Y_true, Y_pred, paper_compatible: bool = False) -> float:
    """Example-based precision ``|h & L| / |h|`` (the authors': ``|h & L| / |L|``)."""
    return _example_based("precision", Y_true, Y_pred, paper_compatible)


def recall(Y_true, Y_pred, paper_compatible: bool = False) -> float:
    """Example-based recall ``|h & L| / |L|`` (the authors': ``|h & L| / |h|``)."""
    return _example_based("recall", Y_true, Y_pred, paper_compatible)


def f1(Y_true, Y_pred, paper_compatible: bool = False) -> float:
    """Example-based F1 ``2 |h & L| / (|h| + |L|)``, averaged over instances."""
    return _example_based("f1", Y_true, Y_pred, paper_compatible)


def _label_based_f1(Y_true, Y_pred, average: str, paper_compatible: bool) -> float:
    """Standard: F1 = 2 TP / (2 TP + FP + FN), 1 where nothing is relevant nor predicted
    (pooled, ``micro``; per label then averaged, ``macro``). The authors': P = TP / (TP + FP +
    1), R likewise, averaged per label for ``macro``, and F = 2PR / (P + R + eps)."""
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    tp, predicted, relevant = _counts(Y_true, Y_pred, axis=0)
    if average == "micro":
        tp, predicted, relevant = tp.sum(), predicted.sum(), relevant.sum()
    if paper_compatible:
        p = np.mean(tp / (predicted + 1.0))
        r = np.mean(tp / (relevant + 1.0))
        return float(2.0 * p * r / (p + r + _PAPER_EPSILON))
    return float(np.mean(_ratio(2.0 * tp, predicted + relevant, 1.0)))


def micro_f1(Y_true, Y_pred, paper_compatible: bool = False) -> float:
    """F1 of the true/false positive and negative counts pooled over all labels."""
    return _label_based_f1(Y_true, Y_pred, "micro", paper_compatible)


def macro_f1(Y_true, Y_pred, paper_compatible: bool = False) -> float:
    """Mean over labels of each label's F1 (the authors': F of the macro-averaged P and R)."""
    return _label_based_f1(Y_true, Y_pred, "macro", paper_compatible)


def one_error(Y_true, scores, paper_compatible: bool = False) -> float:
    """Fraction of instances whose top-scored label is not relevant (lower is better).

    scikit-learn has no one-error. Ties at the top score count as the expected error of a random
    tie-break (``paper_compatible``: no error if any tied label is relevant); an instance with no
    relevant label is an error in both modes (its top label cannot be relevant), as the field's
    peers were measured (``../shared/field/README.md``, "The measures").
    """
    Y_true, scores = _labels_and_scores(Y_true, scores)
    top = scores == scores.max(axis=1, keepdims=True)
    relevant_top = (top & (Y_true == 1)).sum(axis=1)
    if paper_compatible:
        return float(np.mean(relevant_top == 0))
    return float(np.mean(1.0 - relevant_top / top.sum(axis=1)))


def ranking_loss(Y_true, scores) -> float:
    """Fraction of (relevant, irrelevant) label pairs with the irrelevant one scored at least as
    high, averaged over instances (lower is better)."""
    Y_true, scores = _labels_and_scores(Y_true, scores)
    return label_ranking_loss(Y_true, scores)


def label_ranking_loss(Y_true: np.ndarray, scores: np.ndarray) -> float:
    """scikit-learn's ``label_ranking_loss`` of checked 0/1 labels and finite scores, to the
    bit: the same pair counts, divided and averaged by the same numpy operations.

    Written by hand because scikit-learn's loops over the rows in Python (``np.unique`` per
    row): 0.3 s on 5,000 rows of 23 labels, and the rule weights' calibration
    (``mlr_core/calibration.py``) asks for three of them per refit, which a live dashboard
    makes at every curve point."""
    Y_true = np.ascontiguousarray(Y_true, dtype=np.uint8)
    loss = _pairs_ranked_wrongly(Y_true, np.ascontiguousarray(scores, dtype=np.float64))
    n_labels = Y_true.shape[1]
    n_positives = np.count_nonzero(Y_true, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss /= (n_labels - n_positives) * n_positives
    loss[(n_positives == 0) | (n_positives == n_labels)] = 0.0
    return float(np.average(loss))


@njit
def _pairs_ranked_wrongly(Y, S):
    """Per row, the (relevant, irrelevant) label pairs whose irrelevant label scores at least
    as high, counted as scikit-learn does: over the row's distinct scores in ascending order,
    the relevant labels scored at most that high times the irrelevant ones scored at it."""
    n, m = S.shape
    counts = np.zeros(n)
    for i in range(n):
        order = np.argsort(S[i])
        below, pairs, k = 0, 0, 0
        while k < m:
            level, relevant, irrelevant = S[i, order[k]], 0, 0
            while k < m and S[i, order[k]] == level:
                if Y[i, order[k]]:
                    relevant += 1
                else:
                    irrelevant += 1
                k += 1
            below += relevant
            pairs += below * irrelevant
        counts[i] = pairs
    return counts


def coverage(Y_true, scores) -> float:
    """Mean rank (from 1, pessimistic on ties) of the lowest-ranked relevant label."""
    Y_true, scores = _labels_and_scores(Y_true, scores)
    return float(skm.coverage_error(Y_true, scores))


def average_precision(Y_true, scores) -> float:
    """Label ranking average precision: for each relevant label, the fraction of labels ranked at
    or above it that are relevant, averaged."""
    Y_true, scores = _labels_and_scores(Y_true, scores)
    return float(skm.label_ranking_average_precision_score(Y_true, scores))


def evaluate(Y_true, Y_pred, scores=None, paper_compatible: bool = False) -> dict[str, float]:
    """Every measure at once, by name.

    Parameters
    ----------
    Y_true, Y_pred : array-like of shape (n_samples, n_labels)
        True and predicted 0/1 labels.
    scores : array-like of shape (n_samples, n_labels), optional
        Label scores (higher = more relevant), e.g. ``predict_proba``; adds `RANKING_MEASURES`.
    paper_compatible : bool
        Reproduce the authors' definitions (see the module docstring) instead of the standard ones.

    Returns
    -------
    dict of str to float
        The keys of `MEASURES`, then those of `RANKING_MEASURES` when ``scores`` is given.

    Raises
    ------
    InputError
        Shapes differ, labels are not 0/1, scores are not finite, a matrix is empty, or scores
        are given for a single label column (nothing to rank).

    Examples
    --------
    >>> evaluate([[1, 0], [0, 1]], [[1, 0], [1, 1]])["hamming_loss"]
    0.25
    """
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    result = {
        "hamming_loss": hamming_loss(Y_true, Y_pred),
        "accuracy": accuracy(Y_true, Y_pred, paper_compatible),
        "precision": precision(Y_true, Y_pred, paper_compatible),
        "recall": recall(Y_true, Y_pred, paper_compatible),
        "f1": f1(Y_true, Y_pred, paper_compatible),
        "micro_f1": micro_f1(Y_true, Y_pred, paper_compatible),
        "macro_f1": macro_f1(Y_true, Y_pred, paper_compatible),
        "subset_accuracy": subset_accuracy(Y_true, Y_pred),
    }
    if scores is not None:
        Y_true, scores = _labels_and_scores(Y_true, scores)
        result.update(
            one_error=one_error(Y_true, scores, paper_compatible),
            ranking_loss=ranking_loss(Y_true, scores),
            coverage=coverage(Y_true, scores),
            average_precision=average_precision(Y_true, scores),
        )
    return result
