"""The rule weights' second stage (mlr_core/calibration.py) and the logistic link
(mlr_core/links.py) that every reader of a rule set applies alike."""

import json
from dataclasses import replace

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import label_ranking_loss

from mlr_core import MLRClassifier, make_hypercube_dataset
from mlr_core.calibration import OWN_C, _logistic, calibrate
from mlr_core.errors import ModelFormatError
from mlr_core.export import to_python
from mlr_core.links import FLOOR, Clip, Logistic
from mlr_core.rule_set import WeightScorer


def rare_and_common(n=600, seed=0):
    """A common label whose totals sit around 0.5 and a rare one whose totals stay small even
    when it holds (least squares' way with a rare label): each ranks its own rows right, but
    the rare label's positives score below the common label's negatives."""
    r = np.random.default_rng(seed)
    truth = np.column_stack([r.random(n) < 0.5, r.random(n) < 0.05]).astype(np.uint8)
    totals = np.column_stack([0.3 + 0.4 * truth[:, 0], 0.02 + 0.2 * truth[:, 1]])
    totals += r.normal(0, 0.08, totals.shape)
    return totals, truth


def test_the_logistic_link_is_kept_where_it_ranks_labels_better():
    totals, truth = rare_and_common()
    rules = np.random.default_rng(1).random((600, 4)) < 0.5  # any rules: the algebra
    ridge = WeightScorer(np.random.default_rng(2).normal(size=(4, 2)), np.array([0.3, 0.02]), 1.0)
    weights, scores = calibrate(ridge, totals, truth, seed=0)
    assert weights.link == "logistic" and weights.alpha == ridge.alpha
    held_out = label_ranking_loss(truth, scores)
    assert held_out < label_ranking_loss(truth, Clip.apply(totals)) / 2
    assert ((scores > 0) & (scores < 1)).all()
    # the log-odds are linear in the rule weights: a row's log-odds from the new weights are
    # an affine map, per label, of its ridge totals (own slopes here: one label's totals each)
    ridge_totals = rules @ ridge.coef + ridge.intercept
    log_odds = rules @ weights.coef + weights.intercept
    for j in range(2):
        design = np.column_stack([np.ones(600), ridge_totals])
        fit = np.linalg.lstsq(design, log_odds[:, j], rcond=None)
        assert np.allclose(design @ fit[0], log_odds[:, j])


def test_platts_scaling_is_a_candidate_beside_stacking(monkeypatch):
    """With rows enough for stacking, each label's own slope is compared too (it ranks better
    where stacking's many slopes do not: ``docs/field.md``, the sparse stand-ins), and the
    scores the cut is tuned on are the kept candidate's held-out ones."""
    import mlr_core.calibration as cal

    totals, truth = rare_and_common()
    assert len(truth) >= cal.ROWS_PER_LABEL * truth.shape[1]  # rows enough for stacking
    tried = []
    fit = cal._logistic

    def spy(F, Y, kind, C, warm=None):
        tried.append((kind, C, len(F)))
        return fit(F, Y, kind, C, warm=warm)

    monkeypatch.setattr(cal, "_logistic", spy)
    ridge = WeightScorer(np.eye(2), np.zeros(2), 1.0)
    weights, scores = cal.calibrate(ridge, totals, truth, seed=0)
    on_folds = [(kind, C) for kind, C, rows in tried if rows < len(truth)]
    assert set(on_folds) == {*(("all", C) for C in cal.STACKED_CS), ("own", cal.OWN_C)}
    assert weights.link == "logistic" and tried[-1][2] == len(truth)  # the kept one, refit
    assert label_ranking_loss(truth, scores) < label_ranking_loss(truth, Clip.apply(totals))


def test_with_few_rows_per_label_each_label_reads_its_own_total_only():
    """Fewer than ROWS_PER_LABEL rows per label: Platt's scaling, a slope per label (no
    labels x labels slopes), so a label's log-odds move with its own total alone."""
    r = np.random.default_rng(4)
    n, m = 150, 20
    truth = (r.random((n, m)) < 0.1).astype(np.uint8)
    truth[:, 0] = r.random(n) < 0.5  # a common label beside rare ones
    totals = 0.05 + 0.25 * truth + r.normal(0, 0.05, (n, m))
    totals[:, 0] += 0.3
    ridge = WeightScorer(np.eye(m), np.zeros(m), 1.0)  # rule j is label j's total
    weights, _ = calibrate(ridge, totals, truth, seed=0)
    assert weights.link == "logistic"
    assert np.count_nonzero(weights.coef - np.diag(np.diag(weights.coef))) == 0
    assert (np.diag(weights.coef) > 0).all()


def test_the_ridge_totals_stay_where_nothing_ranks_better():
    truth = np.random.default_rng(3).random((300, 3)) < 0.3
    totals = truth.astype(np.float64)  # already a perfect ranking: nothing beats it
    ridge = WeightScorer(np.zeros((2, 3)), np.zeros(3), 10.0)
    weights, scores = calibrate(ridge, totals, truth, seed=0)
    assert weights is ridge and weights.link == "clip"
    assert np.array_equal(scores, totals)


def test_one_label_has_nothing_to_rank_against():
    totals, truth = rare_and_common()
    ridge = WeightScorer(np.zeros((2, 1)), np.zeros(1), 1.0)
    weights, scores = calibrate(ridge, totals[:, 1:], truth[:, 1:], seed=0)
    assert weights.link == "clip" and np.array_equal(scores, Clip.apply(totals[:, 1:]))


def mostly_constant(n=13, m=60, seed=5):
    """Centred totals and labels on few rows, most labels constant there (never present, or
    on every row) as on few rows and many labels, ten that vary with noisy totals."""
    r = np.random.default_rng(seed)
    truth = np.zeros((n, m), dtype=np.uint8)
    truth[:, :10] = r.random((n, 10)) < 0.4
    truth[:3, :10], truth[3:6, :10] = 1, 0  # every one of the ten has both values
    truth[:, 10:15] = 1
    totals = 0.1 + 0.2 * truth + r.normal(0, 0.15, (n, m))
    return totals - totals.mean(axis=0), truth


def test_a_label_constant_on_the_rows_gets_its_fits_limit_and_no_say():
    """With Platt's scaling a label without a positive (a negative) has no finite fit: it
    gets the limit, slope 0 and log-odds at the link's floor (its opposite), and the labels
    that vary are fitted the same whatever the constant ones are."""
    F, Y = mostly_constant()
    positives = Y.sum(axis=0)
    varies = (positives > 0) & (positives < len(Y))
    assert varies.sum() == 10
    w, b = _logistic(F, Y, "own", OWN_C)
    assert not w[~varies].any() and (w[varies] > 0).all()
    assert np.array_equal(b[~varies], np.where(positives[~varies] == 0, FLOOR, -FLOOR))
    assert np.array_equal(Logistic.apply(b[~varies]) == 1.0, positives[~varies] > 0)
    flipped = Y.copy()
    flipped[:, ~varies] = 1 - flipped[:, ~varies]  # never present <-> always present
    w_flipped, b_flipped = _logistic(F, flipped, "own", OWN_C)
    np.testing.assert_allclose(w_flipped, w, rtol=1e-12)
    np.testing.assert_allclose(b_flipped[varies], b[varies], rtol=1e-12)
    assert np.array_equal(b_flipped[~varies], -b[~varies])


def test_platts_scaling_beside_constant_labels_is_scikit_learns():
    """The labels that vary get each its own logistic regression on its own total (as
    scikit-learn fits it: the same C, the intercept unpenalised), to its tolerance. A label
    the totals separate (the weak penalty lets its slope grow large, where full Newton steps
    overshoot) is fitted the same."""
    F, Y = mostly_constant()
    separable = (F[:, 10] > np.median(F[:, 10])).astype(Y.dtype)
    F, Y = np.column_stack([F[:, :10], F[:, 10]]), np.column_stack([Y[:, :10], separable])
    W, b = _logistic(F, Y, "own", OWN_C)
    for j in range(11):
        fit = LogisticRegression(C=OWN_C, tol=1e-12, max_iter=10_000).fit(F[:, [j]], Y[:, j])
        np.testing.assert_allclose([W[j], b[j]], [fit.coef_[0, 0], fit.intercept_[0]],
                                   rtol=1e-5, atol=1e-6)


def test_labels_never_seen_score_lowest_with_the_logistic_link():
    """Through `calibrate` (folds and all): a rare label beside a common one makes the
    logistic link rank better, and the labels absent from every row (their ridge totals 0)
    score as low as the link goes, on the fitting rows and from the weights alike."""
    totals, truth = rare_and_common(n=300)
    m = 500
    totals = np.column_stack([totals, np.zeros((300, m - 2))])
    truth = np.column_stack([truth, np.zeros((300, m - 2), dtype=np.uint8)])
    ridge = WeightScorer(np.random.default_rng(2).normal(size=(4, m)), np.zeros(m), 1.0)
    ridge = replace(ridge, coef=ridge.coef * (np.arange(m) < 2))  # none for the absent labels
    weights, scores = calibrate(ridge, totals, truth, seed=0)
    assert weights.link == "logistic"
    lowest = Logistic.apply(np.array([FLOOR]))[0]
    assert (scores[:, 2:] == lowest).all() and (scores[:, :2] > lowest).all()
    assert not weights.coef[:, 2:].any() and (weights.intercept[2:] == FLOOR).all()


@pytest.fixture(scope="module")
def logistic_model():
    """A fitted model whose weights are read through the logistic link (its weights then are
    log-odds): what every reader must apply alike."""
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, n_irrelevant=3,
                                  random_state=0)
    fitted = MLRClassifier(n_iter=3000, random_state=0).fit(data.X, data.Y)
    scorer = fitted.rule_set_.scorer
    model = fitted.with_rule_set(fitted.rule_set_.with_scorer(
        replace(scorer, coef=scorer.coef * 8, intercept=scorer.intercept * 8 - 3,
                link="logistic"), ("threshold", 0.3)))
    return model, data


def test_python_export_gives_predict_proba_to_the_bit(logistic_model):
    model, data = logistic_model
    namespace: dict = {}
    exec(compile(to_python(model.rule_set_), "<export>", "exec"), namespace)
    scores = np.array([namespace["scores"](list(map(float, x))) for x in data.X])
    assert np.array_equal(scores, model.predict_proba(data.X))
    assert 0.1 < model.predict(data.X).mean() < 0.9  # the cut is exercised both ways


def test_the_link_is_saved_and_a_tampered_one_refused(logistic_model):
    model, data = logistic_model
    text = model.to_json()
    loaded = MLRClassifier.from_json(text)
    assert loaded.rule_set_.scorer.link == "logistic"
    assert np.array_equal(loaded.predict_proba(data.X), model.predict_proba(data.X))
    saved = json.loads(text)
    found = []

    def tamper(node, value):
        if isinstance(node, dict):
            if node.get("kind") == "fitted" and "link" in node:
                node["link"] = value
                found.append(node)
            for child in node.values():
                tamper(child, value)
        elif isinstance(node, list):
            for child in node:
                tamper(child, value)
    tamper(saved, "__import__('os')")
    assert found
    with pytest.raises(ModelFormatError, match="link among"):
        MLRClassifier.from_json(json.dumps(saved))
    for node in found:  # a file written before the link was saved: the clip
        del node["link"]
    older = MLRClassifier.from_json(json.dumps(saved))
    assert older.rule_set_.scorer.link == "clip"


def test_huge_log_odds_stay_finite():
    totals = np.array([-1e6, -800.0, 0.0, 800.0, 1e6])
    floor = 1.0 / (1.0 + np.exp(700.0))
    assert np.array_equal(Logistic.apply(totals), [floor, floor, 0.5, 1.0, 1.0])


def totals_of_uneven_scale(n=800, m=12, seed=6):
    """Labels' totals as stacking sees them: correlated (rules shared between labels) and of
    scales from 1 down to 0.01 (a rare label's totals stay small), labels from 50% to 2%."""
    r = np.random.default_rng(seed)
    truth = (r.random((n, m)) < np.linspace(0.5, 0.02, m)).astype(np.uint8)
    shared = r.normal(size=(n, 1))
    totals = (truth + 0.6 * shared + r.normal(0, 0.5, (n, m))) * np.logspace(0, -2, m)
    return totals - totals.mean(axis=0), truth


@pytest.mark.parametrize("C", [1.0, 10.0])
def test_stacking_is_scikit_learns_logistic_regression_on_all_totals(C):
    """Each label's slopes on every label's totals and its intercept are scikit-learn's
    logistic regression's (the same C, the intercept unpenalised), to its tolerance, however
    uneven the totals' scales: ``_fit_stacked`` stops at the optimum, not at an iteration
    count (on the raw slopes, 100 L-BFGS iterations stopped short of it)."""
    F, Y = totals_of_uneven_scale()
    W, b = _logistic(F, Y, "all", C)
    for j in range(Y.shape[1]):
        fit = LogisticRegression(C=C, tol=1e-12, max_iter=100_000).fit(F, Y[:, j])
        np.testing.assert_allclose(W[:, j], fit.coef_[0], rtol=1e-3, atol=1e-3 * np.abs(
            fit.coef_).max())
        np.testing.assert_allclose(b[j], fit.intercept_[0], rtol=1e-3, atol=1e-3)


def test_stacking_started_from_another_penalty_reaches_the_same_fit():
    """`calibrate` starts each fold's weaker penalty from the stronger one's fit: that only
    saves iterations, the fit is the one from slopes 0."""
    F, Y = totals_of_uneven_scale()
    strong = _logistic(F, Y, "all", 1.0)
    cold, warm = _logistic(F, Y, "all", 10.0), _logistic(F, Y, "all", 10.0, warm=strong)
    scale = np.abs(cold[0]).max()
    np.testing.assert_allclose(warm[0], cold[0], atol=1e-3 * scale)
    np.testing.assert_allclose(warm[1], cold[1], atol=1e-3)
    assert not np.allclose(strong[0], cold[0], atol=1e-3 * scale)  # the start was elsewhere


def test_stacking_gives_the_same_bits_on_one_thread_or_two():
    """Every product of stacking's fit runs on one BLAS thread (as the ridge weights' do), so
    the weights do not depend on the machine's cores: on mediamill's 2,000 x 101 totals, the
    eigendecomposition left outside that moved the weights by 3e-12 between one thread and two."""
    from threadpoolctl import threadpool_limits

    F, Y = totals_of_uneven_scale(n=2000, m=101, seed=7)  # big enough for BLAS to split
    fits = []
    for threads in (1, 2):
        with threadpool_limits(limits=threads):
            fits.append(_logistic(F, Y, "all", 10.0))
    assert np.array_equal(fits[0][0], fits[1][0]) and np.array_equal(fits[0][1], fits[1][1])
