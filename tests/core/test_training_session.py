"""One estimator, one training session (issue 25): ``MLRClassifier`` is parameters, ``fit`` and
prediction over its fitted rule set; a ``TrainingSession`` trains it step by step."""

import numpy as np
import pytest

from mlr_core import InputError, MLRClassifier, TrainingSession


def data():
    r = np.random.default_rng(3)
    X = r.random((150, 3))
    return X, np.column_stack([X[:, 0] > 0.5, X[:, 1] + X[:, 2] > 1]).astype(int)


def test_fit_is_a_session_run_to_its_end():
    X, Y = data()
    fitted = MLRClassifier(n_rules=100, n_iter=2000, random_state=0).fit(X, Y)
    model = MLRClassifier(n_rules=100, n_iter=2000, random_state=0)
    session = TrainingSession(model).start(X, Y).learn(2000).tune_bipartition()
    assert session.model is model and session.run is model.run_
    assert session.summary() == fitted.run_.summary()
    np.testing.assert_array_equal(model.predict_proba(X), fitted.predict_proba(X))
    assert session.history().equals(fitted.run_.history())


def test_the_estimator_leaves_training_and_exports_to_others():
    for name in ("start", "learn", "step_traced", "tune_bipartition", "summary", "history",
                 "explain", "scorecard", "export_python", "export_sql", "compact"):
        assert not hasattr(MLRClassifier, name), name


def test_a_session_of_an_unstarted_model_says_what_to_do():
    with pytest.raises(InputError, match="start"):
        TrainingSession(MLRClassifier()).learn(10)
    with pytest.raises(InputError, match="start"):
        TrainingSession(MLRClassifier()).summary()


def test_restart_is_a_warm_start_on_the_rows_already_bound():
    """A copy scored the other way and restarted on its original's bound rows (shared, not
    copied) predicts as the same copy warm-started on the training rows, and trains on alike;
    a bound model's bad parameters are refused as by start."""
    import copy

    X, Y = data()
    model = MLRClassifier(n_rules=100, random_state=0)
    TrainingSession(model).start(X, Y).learn(1500)
    for weighting in ("vote", "fitted"):
        shared = copy.deepcopy(model, memo={id(model.run_.X): model.run_.X})
        again = copy.deepcopy(model)
        for twin in (shared, again):
            twin.set_params(weighting=weighting, max_specified=model.max_specified_)
        TrainingSession(shared).restart()
        TrainingSession(again).start(X, Y, warm_start=True)
        assert shared.run_.X is model.run_.X
        np.testing.assert_array_equal(shared.predict_proba(X), again.predict_proba(X))
        TrainingSession(shared).learn(300)
        TrainingSession(again).learn(300)
        assert shared.run_.summary() == again.run_.summary()
    model.set_params(nu=-1)
    with pytest.raises(ValueError, match="nu"):
        TrainingSession(model).restart()
    with pytest.raises(InputError, match="start"):
        TrainingSession(MLRClassifier()).restart()
