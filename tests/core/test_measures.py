"""Measures against values worked by hand, in standard and paper-compatible mode, with the edge
cases the issue lists: both sets empty, empty prediction, empty truth, a label never present (and
one never present but predicted), ties in scores; plus input validation."""

import numpy as np
import pytest
import sklearn.metrics as skm

from mlr_core.errors import InputError
from mlr_core.evaluation import measures

# Five instances, five labels. Label 3 is never relevant but predicted once; label 4 is never
# relevant nor predicted.
Y_TRUE = np.array(
    [
        [1, 0, 1, 0, 0],  # i0  L = {0, 2}
        [0, 1, 0, 0, 0],  # i1  L = {1}
        [0, 0, 0, 0, 0],  # i2  L = {}
        [1, 1, 0, 0, 0],  # i3  L = {0, 1}
        [0, 0, 0, 0, 0],  # i4  L = {}
    ]
)
Y_PRED = np.array(
    [
        [1, 0, 0, 0, 0],  # h = {0}:        |h&L| 1, |h| 1, |L| 2, |h|L| 2
        [0, 1, 1, 1, 0],  # h = {1, 2, 3}:  |h&L| 1, |h| 3, |L| 1, |h|L| 3
        [0, 0, 0, 0, 0],  # both empty
        [0, 0, 0, 0, 0],  # empty prediction, non-empty truth
        [0, 1, 0, 0, 0],  # non-empty prediction, empty truth
    ]
)
SCORES = np.array(
    [
        [0.9, 0.9, 0.2, 0.1, 0.0],  # top tie {0, 1}: one relevant, one not
        [0.1, 0.8, 0.3, 0.3, 0.2],  # top {1}, relevant
        [0.5, 0.1, 0.1, 0.1, 0.1],  # nothing relevant
        [0.2, 0.1, 0.7, 0.0, 0.0],  # top {2}, irrelevant
        [0.0, 0.0, 0.0, 0.0, 0.0],  # nothing relevant, all tied
    ]
)


def paper_f(p, r):
    return 2 * p * r / (p + r + 0.001)


STANDARD = {
    "hamming_loss": (1 + 2 + 0 + 2 + 1) / 25,
    "accuracy": (1 / 2 + 1 / 3 + 1 + 0 + 0) / 5,
    "precision": (1 + 1 / 3 + 1 + 0 + 0) / 5,
    "recall": (1 / 2 + 1 + 1 + 0 + 0) / 5,
    "f1": (2 / 3 + 1 / 2 + 1 + 0 + 0) / 5,
    # pooled: TP 2, FP 3, FN 3
    "micro_f1": 2 * 2 / (2 * 2 + 3 + 3),
    # per label F: 2/3, 1/2, 0, 0 (never relevant, predicted), 1 (never relevant nor predicted)
    "macro_f1": (2 / 3 + 1 / 2 + 0 + 0 + 1) / 5,
    "subset_accuracy": 1 / 5,
    # expected error of a random tie-break: i0 1/2, i3 1; no relevant label (i2, i4): an error
    "one_error": (0.5 + 0 + 1 + 1 + 1) / 5,
    # wrongly ordered (relevant, irrelevant) pairs, ties wrong: i0 2/6, i3 2/6
    "ranking_loss": (2 / 6 + 0 + 0 + 2 / 6 + 0) / 5,
    # rank of the lowest relevant label, pessimistic on ties: 3, 1, -, 3, -
    "coverage": (3 + 1 + 0 + 3 + 0) / 5,
    # i0: (1/2 + 2/3) / 2, i3: (1/2 + 2/3) / 2, no relevant label: 1
    "average_precision": (7 / 12 + 1 + 1 + 7 / 12 + 1) / 5,
}
PAPER = {
    **STANDARD,
    "accuracy": (1 / 2 + 1 / 3) / 5,  # 0/0 = 0 for i2
    "precision": (1 / 2 + 1 + 0 + 0 + 0) / 5,  # |h&L| / |L|, 0 when |L| = 0
    "recall": (1 + 1 / 3 + 0 + 0 + 0) / 5,  # |h&L| / |h|, 0 when |h| = 0
    "f1": (2 / 3 + 1 / 2) / 5,
    "micro_f1": paper_f(2 / (2 + 3 + 1), 2 / (2 + 3 + 1)),
    # per label TP / (TP + FP + 1): 1/2, 1/3, 0, 0, 0; TP / (TP + FN + 1): 1/3, 1/3, 0, 0, 0
    "macro_f1": paper_f((1 / 2 + 1 / 3) / 5, (1 / 3 + 1 / 3) / 5),
    # ties in favour; no relevant label is an error
    "one_error": (0 + 0 + 1 + 1 + 1) / 5,
}


@pytest.mark.parametrize(("paper", "expected"), [(False, STANDARD), (True, PAPER)])
def test_every_measure_against_hand_worked_values(paper, expected):
    result = measures.evaluate(Y_TRUE, Y_PRED, SCORES, paper_compatible=paper)
    assert list(result) == [*measures.MEASURES, *measures.RANKING_MEASURES]
    assert result == pytest.approx(expected, abs=1e-12)
    assert all(type(v) is float for v in result.values())


def test_without_scores_only_bipartition_measures():
    assert list(measures.evaluate(Y_TRUE, Y_PRED)) == list(measures.MEASURES)


@pytest.mark.parametrize(
    ("name", "value"),
    [("accuracy", 1.0), ("precision", 1.0), ("recall", 1.0), ("f1", 1.0), ("micro_f1", 1.0),
     ("macro_f1", 1.0), ("hamming_loss", 0.0), ("subset_accuracy", 1.0)],
)  # fmt: skip
def test_nothing_relevant_and_nothing_predicted_is_perfect(name, value):
    empty = np.zeros((3, 4), dtype=int)
    assert measures.evaluate(empty, empty)[name] == value
    assert measures.evaluate(empty, empty, paper_compatible=True)["accuracy"] == 0.0


def test_empty_prediction_earns_no_precision():
    # scikit-learn's zero_division=1 would give precision 1 to a learner that predicts nothing
    Y_true, Y_pred = np.array([[1, 0], [0, 1]]), np.zeros((2, 2), dtype=int)
    assert measures.precision(Y_true, Y_pred) == 0.0
    assert skm.precision_score(Y_true, Y_pred, average="samples", zero_division=1) == 1.0


def test_paper_mode_swaps_precision_and_recall():
    rng = np.random.default_rng(0)
    Y_true, Y_pred = rng.random((40, 6)) < 0.4, rng.random((40, 6)) < 0.3
    Y_true[:, 0] = Y_pred[:, 0] = True  # no empty labelset: conventions agree
    assert measures.precision(Y_true, Y_pred, paper_compatible=True) == pytest.approx(
        measures.recall(Y_true, Y_pred)
    )
    assert measures.recall(Y_true, Y_pred, paper_compatible=True) == pytest.approx(
        measures.precision(Y_true, Y_pred)
    )


@pytest.mark.parametrize("seed", range(3))
def test_agrees_with_direct_formulas_on_random_data(seed):
    rng = np.random.default_rng(seed)
    Y_true = (rng.random((50, 8)) < 0.3).astype(int)
    Y_pred = (rng.random((50, 8)) < 0.3).astype(int)
    inter = (Y_true & Y_pred).sum(axis=1)
    n_pred, n_true, union = Y_pred.sum(axis=1), Y_true.sum(axis=1), (Y_true | Y_pred).sum(axis=1)
    both_empty = union == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = {
            "accuracy": np.where(both_empty, 1, inter / union).mean(),
            "precision": np.where(n_pred > 0, inter / n_pred, both_empty).mean(),
            "recall": np.where(n_true > 0, inter / n_true, both_empty).mean(),
            "f1": np.where(both_empty, 1, 2 * inter / (n_pred + n_true)).mean(),
            "hamming_loss": (Y_true != Y_pred).mean(),
            "subset_accuracy": (Y_true == Y_pred).all(axis=1).mean(),
        }
    result = measures.evaluate(Y_true, Y_pred)
    assert {k: result[k] for k in expected} == pytest.approx(expected)


def test_one_error_ties_and_a_single_clear_winner():
    Y = [[1, 0, 0]]
    assert measures.one_error(Y, [[0.5, 0.5, 0.5]]) == pytest.approx(2 / 3)
    assert measures.one_error(Y, [[0.5, 0.5, 0.5]], paper_compatible=True) == 0.0
    assert measures.one_error(Y, [[0.2, 0.9, 0.1]]) == 1.0
    assert measures.one_error(Y, [[0.9, 0.2, 0.1]]) == 0.0


def test_ranking_measures_take_any_finite_scores():
    Y = [[1, 0], [0, 1]]
    assert measures.ranking_loss(Y, [[-5.0, -7.0], [3.0, 3.0]]) == 0.5


@pytest.mark.parametrize("levels", [2, 5, None])
def test_ranking_loss_is_scikit_learns_to_the_bit(levels):
    """The hand-written count (for speed) against scikit-learn's on rows with many ties
    (``levels`` distinct scores), with rows of no and of every relevant label."""
    rng = np.random.default_rng(levels or 0)
    for _ in range(40):
        n, m = rng.integers(1, 50), rng.integers(2, 30)
        Y = (rng.random((n, m)) < rng.random()).astype(np.uint8)
        Y[0] = 0
        Y[-1] = 1
        scores = rng.random((n, m)) if levels is None else rng.integers(0, levels, (n, m)) / 3
        assert measures.ranking_loss(Y, scores) == skm.label_ranking_loss(Y, scores)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((Y_TRUE, Y_PRED[:, :4]), r"Y_pred has shape \(5, 4\) but Y_true has shape \(5, 5\)"),
        ((Y_TRUE, Y_PRED[:3]), r"Y_pred has shape \(3, 5\)"),
        ((Y_TRUE, np.where(Y_PRED == 1, 2, 0)), r"Y_pred, row 0: label column 0 is 2"),
        ((Y_TRUE * 0.5, Y_PRED), r"Y_true, row 0: label column 0 is 0\.5"),
        ((Y_TRUE[0], Y_PRED[0]), r"Y_true must be a 2-D"),
        ((np.zeros((0, 5)), np.zeros((0, 5))), r"Y_true has no rows"),
        ((np.zeros((5, 0)), np.zeros((5, 0))), r"zero labels"),
        ((Y_TRUE, Y_PRED, SCORES[:, :2]), r"scores has shape \(5, 2\) but Y_true has shape"),
        ((Y_TRUE, Y_PRED, np.where(SCORES > 0.8, np.nan, SCORES)), r"scores, row 0, column 0"),
        ((Y_TRUE, Y_PRED, [["a"] * 5] * 5), r"scores must be a numeric matrix"),
    ],
)
def test_bad_input_raises_input_error(args, message):
    with pytest.raises(InputError, match=message):
        measures.evaluate(*args)


def test_lower_is_better_names_the_losses():
    assert measures.LOWER_IS_BETTER <= set(measures.MEASURES) | set(measures.RANKING_MEASURES)
    assert "hamming_loss" in measures.LOWER_IS_BETTER and "f1" not in measures.LOWER_IS_BETTER


@pytest.mark.parametrize("seed", range(4))
def test_bipartition_measures_are_scikit_learns(seed):
    """The measures count by hand (scikit-learn validates and counts again per call, most of
    an audit's time): they agree with its functions, under this module's conventions (0/0
    instances that predict and hold nothing are perfect; a label nobody has nor predicts has
    F1 1), on data with empty rows and empty label columns."""
    rng = np.random.default_rng(seed)
    Y_true = (rng.random((60, 7)) < 0.25).astype(np.uint8)
    Y_pred = (rng.random((60, 7)) < 0.25).astype(np.uint8)
    Y_true[:, 6] = Y_pred[:, 6] = 0  # a label nobody has nor predicts
    Y_true[:5], Y_pred[3:8] = 0, 0  # rows with both labelsets empty, and either one
    empty = ~(Y_true.any(axis=1) | Y_pred.any(axis=1))
    labels = np.arange(7)
    expected = {
        "hamming_loss": skm.hamming_loss(Y_true, Y_pred),
        "subset_accuracy": skm.accuracy_score(Y_true, Y_pred),
        "micro_f1": skm.f1_score(Y_true, Y_pred, average="micro", labels=labels,
                                 zero_division=1),
        "macro_f1": skm.f1_score(Y_true, Y_pred, average="macro", labels=labels,
                                 zero_division=1),
        **{name: score(Y_true, Y_pred, average="samples", zero_division=0) + empty.mean()
           for name, score in (("accuracy", skm.jaccard_score), ("precision", skm.precision_score),
                               ("recall", skm.recall_score), ("f1", skm.f1_score))},
    }
    assert measures.evaluate(Y_true, Y_pred) == pytest.approx(expected, abs=1e-12)
    paper = measures.evaluate(Y_true, Y_pred, paper_compatible=True)
    assert paper["precision"] == pytest.approx(
        skm.recall_score(Y_true, Y_pred, average="samples", zero_division=0), abs=1e-12)
    assert paper["accuracy"] == pytest.approx(
        skm.jaccard_score(Y_true, Y_pred, average="samples", zero_division=0), abs=1e-12)
