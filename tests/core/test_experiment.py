"""The paper's experiment: cross-validation without leakage, the paper's numbers as published, and
the statistics that reproduce its Friedman table (see ``mlr_core/evaluation/paper.py``)."""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from mlr_core import MLRClassifier, make_hypercube_dataset
from mlr_core.evaluation.measures import LOWER_IS_BETTER, MEASURES, RANKING_MEASURES
from mlr_core.evaluation.paper import (
    DATASETS,
    LEARNERS,
    PAPER_CHI2,
    PAPER_CRITICAL,
    PAPER_MEASURES,
    compare_with_paper,
    cross_validate,
    mlr_means,
    paper_table,
)
from mlr_core.evaluation.statistics import bonferroni_dunn_cd, friedman_test, rank_table

N_SPLITS = 3
CALLS = []  # (method name, rows it saw) of every _Spy call, in order


def _recorded(method):
    def call(self, X, *args, **kwargs):
        CALLS.append((method.__name__, frozenset(map(bytes, np.asarray(X)))))
        return method(self, X, *args, **kwargs)

    return call


class _Spy(MLRClassifier):
    """Records the rows that fitting and each prediction method see."""

    fit = _recorded(MLRClassifier.fit)
    predict = _recorded(MLRClassifier.predict)
    predict_proba = _recorded(MLRClassifier.predict_proba)
    coverage = _recorded(MLRClassifier.coverage)


@pytest.fixture(scope="module")
def data():
    return make_hypercube_dataset(n_samples=300, random_state=0)


@pytest.fixture(scope="module")
def spy_run(data):
    CALLS.clear()
    estimator = _Spy(n_rules=200, n_iter=3000, random_state=0)
    frame = cross_validate(estimator, data.X, data.Y, n_splits=N_SPLITS, random_state=0)
    return estimator, frame, list(CALLS)


def test_cross_validate_gives_one_row_per_fold_and_prediction(spy_run):
    _, frame, _ = spy_run
    assert len(frame) == 2 * N_SPLITS
    assert sorted(zip(frame.fold, frame.prediction, strict=True)) == [
        (fold, prediction) for fold in range(N_SPLITS) for prediction in ("agg", "max")
    ]
    assert {*MEASURES, *RANKING_MEASURES, "test_coverage", "fit_seconds"} <= set(frame.columns)


def test_cross_validate_measures_in_range(spy_run, data):
    _, frame, _ = spy_run
    unit = [*MEASURES, "one_error", "ranking_loss", "average_precision", "test_coverage"]
    assert frame[unit].to_numpy().min() >= 0 and frame[unit].to_numpy().max() <= 1
    assert frame.coverage.between(0, data.Y.shape[1]).all()
    assert (frame.fit_seconds > 0).all()
    assert frame.f1.mean() > 0.5  # the hypercube labels are learnable: a sanity check, not a bound


def test_ranking_measures_come_from_the_same_scores_in_both_rows(spy_run):
    _, frame, _ = spy_run
    by_mode = frame.set_index(["prediction", "fold"])[list(RANKING_MEASURES)]
    pd.testing.assert_frame_equal(by_mode.loc["agg"], by_mode.loc["max"])


def test_cross_validate_fits_clones_and_never_shows_test_rows_to_fit(spy_run, data):
    estimator, _, calls = spy_run
    with pytest.raises(NotFittedError):
        check_is_fitted(estimator)
    starts = [i for i, (name, _) in enumerate(calls) if name == "fit"]
    assert len(starts) == N_SPLITS
    everything = frozenset(map(bytes, data.X))
    tested = []
    for start, end in zip(starts, [*starts[1:], len(calls)], strict=True):
        train = calls[start][1]
        test = frozenset().union(*(rows for _, rows in calls[start + 1:end]))
        assert not train & test
        assert train | test == everything
        tested.append(test)
    assert sum(len(t) for t in tested) == len(everything)  # each row tested in exactly one fold


def test_paper_table_spot_values():
    hl = paper_table("hamming_loss")
    assert hl.shape == (8, 5)
    assert list(hl.index) == list(LEARNERS) and list(hl.columns) == list(DATASETS)
    assert hl.loc["MLR_agg", "yeast"] == 0.1816
    assert hl.loc["MLR_agg", "emotions"] == 0.2357
    assert paper_table("f1").loc["MLR_agg", "yeast"] == 0.6842
    assert paper_table("one_error").loc["LP", "cal500"] == 0.9832
    assert paper_table("recall").loc["RAkEL", "flags"] == 0.8716
    assert paper_table("hamming_loss", ranks=True).loc["MLR_agg"].tolist() == [2, 4, 2, 1, 2]
    with pytest.raises(ValueError, match="measure must be one of"):
        paper_table("subset_accuracy")


@pytest.mark.parametrize("measure", ["one_error", "ranking_loss"])
def test_paper_has_no_mlr_max_ranking(measure):
    assert "MLR_max" not in paper_table(measure).index
    assert paper_table(measure).shape == (7, 5)


@pytest.mark.parametrize("measure", PAPER_MEASURES)
def test_friedman_on_the_printed_ranks_reproduces_the_paper(measure):
    result = friedman_test(paper_table(measure, ranks=True))
    assert result.chi2 == pytest.approx(PAPER_CHI2[measure], abs=0.005)
    assert result.n_datasets == 5
    # the column the paper heads F_F is chi2_F; the Iman-Davenport F_F follows from it
    assert result.ff == pytest.approx(4 * result.chi2 / (5 * (result.k - 1) - result.chi2))


def test_friedman_on_the_values_differs_only_where_printed_ranks_are_wrong():
    for measure in PAPER_MEASURES:
        chi2 = friedman_test(paper_table(measure)).chi2
        expected = {"macro_f1": 13.60, "ranking_loss": 23.74}.get(measure, PAPER_CHI2[measure])
        assert chi2 == pytest.approx(expected, abs=0.005), measure


def test_paper_critical_value_is_chi2_for_k8_and_its_conclusions_hold():
    result = friedman_test(paper_table("hamming_loss"))
    assert result.k == 8
    assert math.floor(result.chi2_critical * 100) / 100 == PAPER_CRITICAL  # 14.067, truncated
    assert result.ff_critical == pytest.approx(2.359, abs=1e-3)  # F(0.95; 7, 28)
    rejected = {m for m in PAPER_MEASURES if PAPER_CHI2[m] > PAPER_CRITICAL}
    assert set(PAPER_MEASURES) - rejected == {"recall", "macro_f1"}  # as the paper's text says
    macro = friedman_test(paper_table("macro_f1", ranks=True))
    assert macro.ff == pytest.approx(2.46, abs=0.005) and macro.ff > macro.ff_critical
    assert friedman_test(paper_table("one_error")).k == 7


def test_rank_table_averages_ties_and_follows_direction():
    table = pd.DataFrame({"a": [0.1, 0.2, 0.2, 0.4], "b": [0.3, 0.3, 0.3, 0.1]},
                         index=["w", "x", "y", "z"])
    low = rank_table(table, lower_is_better=True)
    assert low.a.tolist() == [1, 2.5, 2.5, 4] and low.b.tolist() == [3, 3, 3, 1]
    assert low.avg_rank.tolist() == [2, 2.75, 2.75, 2.5]
    assert rank_table(table, lower_is_better=False).a.tolist() == [4, 2.5, 2.5, 1]
    with pytest.raises(ValueError, match="missing values"):
        rank_table(table.where(table > 0.1), lower_is_better=True)


def test_rank_table_matches_the_papers_ranks_but_for_its_two_slips():
    wrong = 0
    for measure in PAPER_MEASURES:
        ranks = rank_table(paper_table(measure), measure in LOWER_IS_BETTER)
        printed = paper_table(measure, ranks=True)
        wrong += int((ranks.drop(columns="avg_rank") != printed).to_numpy().sum())
    assert wrong == 5  # macro-F1 on flags (3 learners), ranking loss on emotions (2)


@pytest.mark.parametrize(("k", "alpha", "q"), [(8, 0.05, 2.690), (2, 0.05, 1.960),
                                               (5, 0.05, 2.498), (8, 0.10, 2.450)])
def test_bonferroni_dunn_cd_matches_demsar_table(k, alpha, q):
    n = 5
    assert bonferroni_dunn_cd(k, n, alpha) == pytest.approx(q * math.sqrt(k * (k + 1) / (6 * n)),
                                                            abs=1e-3)


def test_compare_with_paper_replaces_only_the_mlr_rows():
    perfect = {name: {m: 0.0 if m in LOWER_IS_BETTER else 1.0
                      for m in PAPER_MEASURES} for name in ("yeast", "flags")}
    ours = {"MLR_agg": perfect, "MLR_max": perfect}
    comparisons = compare_with_paper(ours)
    assert set(comparisons) == set(PAPER_MEASURES)
    hl = comparisons["hamming_loss"]
    assert list(hl.table.columns) == ["yeast", "flags"]
    assert hl.table.loc["MLR_agg"].tolist() == [0.0, 0.0]
    assert hl.table.loc["ECC", "flags"] == paper_table("hamming_loss").loc["ECC", "flags"]
    assert hl.ranks.loc["MLR_agg", "avg_rank"] == 1.5  # tied with MLR_max for first
    assert hl.friedman.k == 8 and hl.friedman.n_datasets == 2
    assert hl.cd == pytest.approx(bonferroni_dunn_cd(8, 2))
    assert "MLR_max" not in comparisons["one_error"].table.index
    assert compare_with_paper({"MLR_agg": {"yeast": perfect["yeast"]}})["f1"].friedman is None


def test_mlr_means_feeds_compare_with_paper(spy_run):
    _, frame, _ = spy_run
    means = mlr_means({"yeast": frame})
    assert set(means) == {"MLR_agg", "MLR_max"}
    f1 = frame.groupby("prediction").f1.mean()
    assert means["MLR_agg"]["yeast"]["f1"] == pytest.approx(f1["agg"])
    table = compare_with_paper(means)["f1"].table
    assert table.loc["MLR_max", "yeast"] == pytest.approx(f1["max"])
