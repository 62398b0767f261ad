"""Votes to labels: normalising the votes into scores, cutting the scores by threshold or by rank
(MLR_agg), taking the winning labelset (MLR_max), and choosing the cut on training data.

The choice is one function, `tune`, of (scores, truth, target): which candidates it tries and
which measure it maximises can be replaced without touching the estimator. The default target,
`guarded_accuracy`, is derived in ``docs/field.md`` ("The bipartition").
"""

from collections import namedtuple

import numpy as np

Bipartition = namedtuple("Bipartition", "method value")
Bipartition.__doc__ = """How MLR_agg cuts scores: ``("threshold", t)`` keeps the labels scoring at
least t; ``("threshold_or_top", t)`` the same, or the best-scoring label when none reaches t;
``("rcut", k)`` keeps the k best-scoring labels; ``("rcut", 0)`` predicts no label (`EMPTY`)."""

METHODS = ("threshold", "threshold_or_top", "rcut")

EMPTY = Bipartition("rcut", 0)
"""No label for any row: the baseline a cut must beat in Hamming loss (`guarded_accuracy`)."""

THRESHOLDS = np.round(np.arange(0.10, 0.9001, 0.05), 2)
"""The thresholds `tune` tries when none is given: 0.10, 0.15, ..., 0.90."""


def normalise(label_votes: np.ndarray, total: np.ndarray, norm: str) -> np.ndarray:
    """Scores in [0, 1]: a label's share of the total vote (``"total"``) or of the top label's
    vote (``"max"``, the authors' code)."""
    denom = total if norm == "total" else label_votes.max(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = label_votes / denom[:, None]
    return np.nan_to_num(scores, nan=0.0)


def by_threshold(scores: np.ndarray, threshold: float) -> np.ndarray:
    """Labels whose score reaches the threshold."""
    return (scores >= threshold).astype(np.uint8)


def by_rank(scores: np.ndarray, k: int) -> np.ndarray:
    """The k best-scoring labels (RCut); ties broken by label order. Zero-score labels never
    count (they are outside the union of the voters' labelsets)."""
    out = np.zeros(scores.shape, dtype=np.uint8)
    if k <= 0:
        return out
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    np.put_along_axis(out, top, 1, axis=1)
    return out & (scores > 0)


def or_top(labels: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``labels``, with the best-scoring label added to rows that have none (and some score):
    an empty answer scores 0 in accuracy and F1 whenever the truth is not empty."""
    empty = (labels.sum(axis=1) == 0) & (scores.max(axis=1, initial=0.0) > 0)
    labels[empty, scores[empty].argmax(axis=1)] = 1
    return labels


def apply(scores: np.ndarray, bipartition: Bipartition) -> np.ndarray:
    """MLR_agg's 0/1 labels from scores."""
    method, value = bipartition
    if method == "rcut":
        return by_rank(scores, value)
    labels = by_threshold(scores, value)
    return or_top(labels, scores) if method == "threshold_or_top" else labels


def words(bipartition: Bipartition) -> str:
    """Which labels ``bipartition`` keeps, in words and numbers (what `apply` does, ties
    included): the one phrasing of the cut for every place that shows or exports a
    prediction. Thresholds print exactly (``repr``)."""
    method, value = bipartition
    if method == "rcut":
        if value == 0:
            return "no label (a rank cut at 0 labels)"
        best = "the best-scoring label" if value == 1 else f"the {value} best-scoring labels"
        return (f"a rank cut: {best} (the earlier label first on ties), each only if it "
                "scores above 0")
    text = f"a threshold: the labels scoring at least {float(value)!r}"
    if method == "threshold_or_top":
        text += ("; when none does, the best-scoring one (the earlier label on ties) if it "
                 "scores above 0 (top fallback)")
    return text


def max_labels(chosen: np.ndarray, labelsets: np.ndarray) -> np.ndarray:
    """MLR_max's labels: row i is ``labelsets[chosen[i]]``, the empty labelset where
    ``chosen[i] < 0`` (no rule voted, as in an empty population)."""
    labels = np.zeros((len(chosen), labelsets.shape[1]), dtype=np.uint8)
    voted = chosen >= 0
    labels[voted] = labelsets[chosen[voted]]
    return labels


def example_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """Mean per-instance F1 (1 when both sets are empty). By hand because scikit-learn's
    ``average="samples"`` refuses a single label column, which is legal here."""
    hits = (truth & pred).sum(axis=1)
    sizes = truth.sum(axis=1) + pred.sum(axis=1)
    return float(np.where(sizes > 0, 2 * hits / np.maximum(sizes, 1), 1.0).mean())


def example_accuracy(truth: np.ndarray, pred: np.ndarray) -> float:
    """Mean per-instance Jaccard index |h & L| / |h | L| (1 when both sets are empty)."""
    hits = (truth & pred).sum(axis=1)
    union = (truth | pred).sum(axis=1)
    return float(np.where(union > 0, hits / np.maximum(union, 1), 1.0).mean())


def label_agreement(truth: np.ndarray, pred: np.ndarray) -> float:
    """1 - Hamming loss: the fraction of label bits predicted right."""
    return float(np.mean(truth == pred))


def micro_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """F1 of the true and false positives and negatives pooled over all labels (1 when there
    are none of the first three): one threshold for every label moves all of them at once."""
    hits = 2 * int((truth & pred).sum())
    wrong = int((truth != pred).sum())
    return hits / (hits + wrong) if hits + wrong else 1.0


def macro_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """Mean over labels of each label's F1 (1 for a label with no true or predicted row, as
    ``mlr_core.evaluation.measures.macro_f1``)."""
    hits = 2 * (truth & pred).sum(axis=0)
    wrong = (truth != pred).sum(axis=0)
    return float(np.where(hits + wrong > 0, hits / np.maximum(hits + wrong, 1), 1.0).mean())


def balanced(truth: np.ndarray, pred: np.ndarray) -> float:
    """Example-based accuracy minus 3 x Hamming loss: the default before `guarded_accuracy`,
    the factor chosen on the five shared datasets (``docs/field.md``)."""
    return example_accuracy(truth, pred) - 3.0 * (1.0 - label_agreement(truth, pred))


def beats_empty(truth: np.ndarray, pred: np.ndarray) -> bool:
    """Whether ``pred`` makes fewer label errors than predicting no label by at least one
    standard error of the paired per-row difference (the one-standard-error rule, Hastie et al.,
    The Elements of Statistical Learning, 2nd ed., section 7.10): a cut chosen among many on
    these rows must win by more than their noise to be trusted on new rows. The empty prediction
    itself passes."""
    if not pred.any():
        return True
    gain = (truth != pred).sum(axis=1) - truth.sum(axis=1)  # per row: errors minus empty's
    spread = gain.std(ddof=1) / np.sqrt(len(gain)) if len(gain) > 1 else 0.0
    return bool(gain.mean() + spread <= 0)


def guarded_accuracy(truth: np.ndarray, pred: np.ndarray) -> float:
    """Example-based accuracy minus the Hamming loss in units of the empty prediction's (the
    label density), for cuts that `beats_empty`; any other cut scores below every such cut
    (below -2, lower the more errors it makes).

    Why this exchange rate: a label found adds about 1/cardinality to a row's accuracy, a wrong
    bit costs 1/m of the row's Hamming loss. Dividing the Hamming loss by the density
    (cardinality / m) prices a wrong bit like a label found, at any density; a fixed factor (3
    in `balanced`) makes wrong bits ever cheaper (3/m against 1/cardinality) as labels get
    sparse, until a top label right one time in three pays for two wrong bits in three rows.
    With no label in ``truth`` only the Hamming loss counts."""
    errors = 1.0 - label_agreement(truth, pred)
    density = float(truth.mean())
    if density == 0.0:
        return -errors
    relative = errors / density
    if not beats_empty(truth, pred):
        return -2.0 - relative
    return example_accuracy(truth, pred) - relative


TARGETS = {"guarded": guarded_accuracy, "balanced": balanced, "hamming_loss": label_agreement,
           "f1": example_f1, "accuracy": example_accuracy, "micro_f1": micro_f1,
           "macro_f1": macro_f1}
"""What `tune` can maximise, by the estimator's ``target`` names (higher is better for each;
by hand, like `example_f1`, so that one label column works)."""


def candidates(method: str, threshold: float | None, k: int,
               with_top: bool = False) -> list[Bipartition]:
    """What `tune` may choose from for the estimator's ``bipartition`` and ``threshold``
    parameters: the given threshold or all of `THRESHOLDS` (each also as
    ``threshold_or_top`` when ``with_top``), plus `EMPTY` (first, so that it wins ties) and
    RCut at k for ``"auto"``; RCut alone for ``"rcut"``."""
    if method == "rcut":
        return [Bipartition("rcut", int(k))]
    thresholds = THRESHOLDS if threshold is None else [threshold]
    kinds = ("threshold", "threshold_or_top") if with_top else ("threshold",)
    found = [Bipartition(kind, float(t)) for t in thresholds for kind in kinds]
    if method == "auto":  # EMPTY first: a cut that predicts nothing on the tuning rows ties
        found = [EMPTY, *found, Bipartition("rcut", int(k))]  # with it and may not elsewhere
    return found


def tune(scores: np.ndarray, truth: np.ndarray, options: list[Bipartition],
         target=example_f1) -> Bipartition:
    """The option whose labels score best by ``target(truth, labels)`` (the first on ties)."""
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda option: target(truth, apply(scores, option)))
