"""One fitted state (issue 35): a `FittedState` holds what fitting leaves, a `TrainingSession` is
its only writer, the estimator reads it, and one `is_current` says whether the weights are those
of the rules as they are now."""

import numpy as np
import pandas as pd
import pytest

from mlr_core import InputError, MLRClassifier, TrainingSession, make_hypercube_dataset
from mlr_core.fitted_state import FittedState
from mlr_core.training_run import TrainingRun


@pytest.fixture(scope="module")
def fitted():
    """A fitted model, its training rows and its labels (bool: predictions come back so)."""
    cube = make_hypercube_dataset(n_samples=160, n_relevant=2, n_labels=2, random_state=5)
    Y = cube.Y.astype(bool)
    return MLRClassifier(n_rules=100, n_iter=1500, random_state=0).fit(cube.X, Y), cube.X, Y


def test_fit_leaves_its_parameters_and_one_fitted_state(fitted):
    model, X, Y = fitted
    assert set(vars(model)) == set(model.get_params()) | {"fitted_"}
    state = model.fitted_
    assert isinstance(state, FittedState) and state.is_current()
    assert model.run_ is state.run and model.rule_set_ is state.rule_set
    assert model.feature_names_ == ["x0", "x1"] and model.label_names_ == ["label0", "label1"]
    assert model.n_features_in_ == 2 and model.classes_.tolist() == [0, 1]
    assert model.label_dtype_ == np.dtype(bool) and model.predict(X).dtype == bool
    assert model.n_iter_ == 1500 and not hasattr(model, "feature_names_in_")
    with pytest.raises(AttributeError):
        model.rule_set_ = model.rule_set_  # read only: the session writes the state


def test_is_current_follows_training_and_tuning(fitted):
    _, X, Y = fitted
    model = MLRClassifier(n_rules=100, random_state=0)
    session = TrainingSession(model).start_untuned(X, Y)
    assert not model.fitted_.is_current() and not hasattr(model, "rule_set_")
    with pytest.raises(InputError, match="not tuned yet"):
        model.predict(X)
    session.tune_bipartition()
    assert model.fitted_.is_current()
    session.learn(10)
    assert not model.fitted_.is_current()
    with pytest.raises(InputError, match="rules changed since their weights"):
        model.predict(X)
    np.testing.assert_array_equal(model.predict(X, prediction="max").shape, Y.shape)
    session.tune_bipartition()
    assert model.fitted_.is_current() and model.rule_set_.iteration == 10


def test_a_data_frame_s_columns_are_recorded_in_the_state(fitted):
    _, X, Y = fitted
    frame = pd.DataFrame(X, columns=["a", "b"])
    model = MLRClassifier(n_rules=100, n_iter=300, random_state=0).fit(frame, Y)
    assert model.feature_names_in_.tolist() == model.feature_names_ == ["a", "b"]
    assert model.subset(model.rules_frame().index[:3]).feature_names_in_.tolist() == ["a", "b"]
    with pytest.warns(UserWarning, match="feature names"):
        model.predict(X)


def test_refused_data_leaves_the_model_as_it_was(fitted):
    model, X, Y = fitted
    state = model.fitted_
    with pytest.raises(InputError, match="rows but Y has"):
        TrainingSession(model).start(X[:10], Y)
    assert model.fitted_ is state


def test_a_subset_copies_the_run_without_a_json_round_trip(fitted, monkeypatch):
    """``with_rule_set`` copies the run it is made from (counters, random state, history, bound
    rows), and predicts and trains on as the model saved and loaded would."""
    model, X, Y = fitted
    ids = model.rules_frame().index[::2]
    monkeypatch.setattr(TrainingRun, "to_dict", lambda run: pytest.fail("a JSON round trip"))
    small = model.subset(ids)
    monkeypatch.undo()
    assert small.run_ is not model.run_ and small.run_.X is model.run_.X
    assert small.run_.summary()["iteration"] == model.run_.iteration
    loaded = MLRClassifier.from_json(small.to_json())
    assert loaded.to_json() == small.to_json()
    np.testing.assert_array_equal(loaded.predict_proba(X), small.predict_proba(X))
    TrainingSession(loaded).start(X, Y, warm_start=True).learn(200).tune_bipartition()
    TrainingSession(small).learn(200).tune_bipartition()
    assert loaded.to_json() == small.to_json()


def test_the_renamed_public_names_still_work_and_warn(fitted):
    model, X, Y = fitted
    with pytest.warns(FutureWarning, match="current_rule_set is deprecated"):
        assert model.current_rule_set() is model.rule_set_
    with pytest.warns(FutureWarning, match="scaled is deprecated"):
        np.testing.assert_array_equal(model.scaled(X), model.rule_set_.scaled(X))
    fresh = MLRClassifier(n_rules=100, random_state=0)
    with pytest.warns(FutureWarning, match="bind is deprecated.*start_untuned"):
        TrainingSession(fresh).bind(X, Y)
    assert fresh.run_.bound and not hasattr(fresh, "rule_set_")


def test_the_estimator_s_own_methods_are_scikit_learn_s_and_reading_ones():
    """Beside scikit-learn's methods and the fitted attributes (``name_``), the estimator's
    public names read the model or make a new one from it; the plumbing went private (the
    deprecated names excepted)."""
    from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin

    inherited = set(dir(BaseEstimator)) | set(dir(ClassifierMixin)) | set(dir(MultiOutputMixin))
    own = {name for name in dir(MLRClassifier) if not name.startswith("_")
           and not name.endswith("_") and name not in inherited
           and not name.startswith("set_")}  # set_fit_request...: scikit-learn's routing
    assert own == {"fit", "predict", "predict_proba", "coverage", "rules_frame", "rule_bounds",
                   "rule_sets", "rule_bound_pairs", "subset", "with_rule_set", "to_json",
                   "from_json", "current_rule_set", "scaled"}  # the last two deprecated, see above
