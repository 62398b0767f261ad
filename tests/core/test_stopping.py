"""``n_iter="auto"``: the budget scales with the rows, the plateau rule reads training signals only,
and a fit that stops on its own is exactly ``learn`` of that many iterations."""

import joblib
import numpy as np
import pytest

from mlr_core import MLRClassifier, TrainingSession, stopping
from mlr_core.stopping import Budget, auto_budget, plateaued


@pytest.fixture(scope="module")
def data():
    r = np.random.default_rng(0)
    X = r.random((300, 4))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.3, X[:, 2] + X[:, 3] < 0.8]).astype(int)
    return X, Y


def test_the_budget_scales_with_the_rows_within_its_bounds():
    small, medium, large = auto_budget(100), auto_budget(2000), auto_budget(1_000_000)
    assert (small.min_iter, small.max_iter) == (stopping.MIN_ITER, stopping.MIN_ITER)
    assert (medium.min_iter, medium.max_iter) == (20_000, 80_000)
    assert (large.min_iter, large.max_iter) == (stopping.MAX_ITER, stopping.MAX_ITER)
    assert medium.check_every == 4000 and small.check_every == stopping.CHECK_EVERY


@pytest.mark.parametrize("params, by_vote", [({}, False), ({"weighting": "vote"}, True),
                                             ({"prediction": "max"}, True)])
def test_a_model_that_predicts_by_the_vote_may_train_to_the_former_budget(data, monkeypatch,
                                                                            params, by_vote):
    assert auto_budget(2000, by_vote=True).max_iter == stopping.MAX_ITER
    assert auto_budget(2000, by_vote=True).min_iter == auto_budget(2000).min_iter
    budgets = []
    monkeypatch.setattr("mlr_core.training_session.learn_until_stable",
                        lambda run, budget: budgets.append(budget))
    MLRClassifier(n_rules=100, random_state=0, **params).fit(*data)
    assert budgets == [auto_budget(len(data[0]), by_vote)]


def test_a_plateau_is_no_gain_over_the_best_before_for_patience_checks():
    p = stopping.PATIENCE
    assert not plateaued([0.3] * p)  # nothing before the window to compare with
    assert plateaued([0.3] * (p + 1))
    assert not plateaued([0.3, *[0.3] * (p - 1), 0.2])  # the last check still gained
    assert plateaued([0.3, 0.2, *[0.199] * p])  # a gain below MIN_GAIN does not count


def test_an_auto_fit_is_learn_of_the_iterations_it_chose(data):
    X, Y = data
    auto = MLRClassifier(n_rules=200, random_state=0).fit(X, Y)
    budget = auto_budget(len(X))
    assert budget.min_iter <= auto.n_iter_ <= budget.max_iter
    assert auto.n_iter_ == auto.run_.iteration
    fixed = MLRClassifier(n_rules=200, n_iter=auto.n_iter_, random_state=0).fit(X, Y)
    assert fixed.n_iter_ == auto.n_iter_
    assert joblib.hash(fixed.run_) == joblib.hash(auto.run_)
    assert np.array_equal(fixed.predict_proba(X), auto.predict_proba(X))


def test_training_stops_at_the_first_plateau_after_the_minimum(data, monkeypatch):
    X, Y = data
    model = TrainingSession(MLRClassifier(n_rules=200, random_state=0)).start(X, Y).model
    seen = []

    def flat(run):
        seen.append(run.iteration)
        return 0.25

    monkeypatch.setattr(stopping, "training_signal", flat)
    signals = stopping.learn_until_stable(model.run_, Budget(3000, 20_000, 1000))
    # checks at 1000, 2000, ...: flat signals are a plateau once PATIENCE follow the first
    checks = stopping.PATIENCE + 1
    assert seen == [1000 * (k + 1) for k in range(checks)] and len(signals) == checks
    assert model.run_.iteration == 1000 * checks


def test_auto_accepts_what_fit_accepts(data):
    X, Y = data
    model = MLRClassifier(n_rules=100, random_state=0).fit(X.tolist(), Y.tolist())
    assert auto_budget(len(X)).min_iter <= model.n_iter_ <= auto_budget(len(X)).max_iter


def test_an_int_n_iter_runs_exactly_that_many(data):
    X, Y = data
    model = MLRClassifier(n_rules=100, n_iter=1234, random_state=0).fit(X, Y)
    assert model.n_iter_ == model.run_.iteration == 1234


def test_the_signal_is_the_population_s_own_training_hamming_loss(data):
    X, Y = data
    model = MLRClassifier(n_rules=200, n_iter=3000, random_state=0).fit(X, Y)
    before = joblib.hash(model.run_)
    signal = stopping.training_signal(model.run_)
    assert joblib.hash(model.run_) == before  # reading it changes nothing, draws nothing
    max_hl = np.mean(model.predict(X, prediction="max") != Y)
    assert signal == pytest.approx(max_hl)
