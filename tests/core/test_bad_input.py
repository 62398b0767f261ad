"""Bad arrays get a specific error whose message says what to fix."""

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from mlr_core import InputError, MLRClassifier, TrainingSession


@pytest.fixture(scope="module")
def good():
    r = np.random.default_rng(0)
    return r.random((30, 3)), (r.random((30, 3)) < 0.5).astype(int)


def bad_X(X, value):
    X = X.copy()
    X[4, 1] = value
    return X


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda X, Y: (bad_X(X, np.inf), Y), "infinity"),
        (lambda X, Y: (X[:, 0], Y), "2D array"),
        (lambda X, Y: (X, Y[:, 0]), "1-D"),
        (lambda X, Y: (X, Y[:, :0]), "no label columns"),
        (lambda X, Y: (X, Y[:20]), "30 rows but Y has 20"),
        (lambda X, Y: (X, Y * 2), "labels must be 0 or 1"),
        (lambda X, Y: (X, Y - 0.5), "Unknown label type.*labels must be 0 or 1"),
        (lambda X, Y: (X, None), "requires y"),
        (lambda X, Y: (X[:0], Y[:0]), "0 sample"),
        (lambda X, Y: (np.array([["a", "b", "c"]] * 30), Y), "could not convert"),
    ],
)
def test_fit_refuses_bad_arrays(good, make, message):
    X, Y = make(*good)
    with pytest.raises(InputError, match=message):
        MLRClassifier(n_iter=10).fit(X, Y)


def test_predict_refuses_bad_arrays_after_fit(good):
    X, Y = good
    model = MLRClassifier(n_rules=50, n_iter=200, random_state=0).fit(X, Y)
    with pytest.raises(InputError, match="X has 2 features, but MLRClassifier is expecting 3"):
        model.predict(X[:, :2])
    with pytest.raises(InputError, match="infinity"):
        model.predict_proba(bad_X(X, -np.inf))
    with pytest.raises(InputError, match="infinite value"):
        model.rule_set_.explain(np.array([np.inf, 0, 0]))


def test_bad_parameters_and_misuse_are_named(good):
    X, Y = good
    with pytest.raises(ValueError, match="fitness"):
        MLRClassifier(fitness="accuracy").fit(X, Y)
    with pytest.raises(ValueError, match="n_rules"):
        MLRClassifier(n_rules=0).fit(X, Y)
    with pytest.raises(InputError, match="start"):
        TrainingSession(MLRClassifier()).learn(10)
    with pytest.raises(InputError, match="2 names for 3 label"):
        MLRClassifier(n_iter=10).fit(X, Y, label_names=["a", "b"])


def test_constant_and_huge_features_are_handled(good):
    X, Y = good
    X = np.column_stack([X, np.full(len(X), 7.0), X[:, 0] * 1e12])
    model = MLRClassifier(n_rules=60, n_iter=2000, random_state=0).fit(X, Y)
    assert np.isfinite(model.predict_proba(X)).all()
    lower, upper = model.rule_bounds()
    assert np.all(np.isnan(lower[:, 3]) | (lower[:, 3] == 7.0))


@pytest.mark.parametrize("count", [-5, 2.7, "10", True, 10**30])
def test_learn_takes_a_whole_number_of_iterations_in_range(good, count):
    X, Y = good
    model = MLRClassifier(n_rules=50, n_iter=0, random_state=0).fit(X, Y)
    with pytest.raises(InputError, match="whole number of iterations"):
        TrainingSession(model).learn(count)
    assert model.run_.summary()["iteration"] == 0
    with pytest.raises(ValueError, match="n_iter"):
        MLRClassifier(n_iter=10**30).fit(X, Y)


def test_a_parameter_changed_before_a_warm_start_is_applied_or_refused(good):
    X, Y = good
    model = MLRClassifier(n_rules=50, n_iter=200, max_specified=2, random_state=0).fit(X, Y)
    model.set_params(max_specified=3)
    with pytest.raises(InputError, match="max_specified"):
        TrainingSession(model).start(X, Y, warm_start=True)
    model.set_params(max_specified=2, n_rules=80, nu=5)
    TrainingSession(model).start(X, Y, warm_start=True)
    assert model.n_rules_ == 80 and model.run_.config.nu == 5.0


def entry(model, method):
    """``fit`` or a training session's ``start``: the two ways data comes in."""
    return model.fit if method == "fit" else TrainingSession(model).start


@pytest.mark.parametrize("method", ["fit", "start"])
def test_names_given_twice_are_refused_naming_them(good, method):
    """Two features (or labels) of one name: an export addresses columns by name, so it could not
    reproduce predict. Refused where the names enter, listing the repeated ones."""
    X, Y = good
    model = MLRClassifier(n_rules=50, n_iter=10, random_state=0)
    with pytest.raises(InputError, match="feature name 'a' appears twice"):
        entry(model, method)(X, Y, feature_names=["a", "b", "a"])
    with pytest.raises(InputError, match="label names 'p', 'q' appear more than once"):
        entry(model, method)(np.column_stack([X, X]), np.column_stack([Y, Y[:, :1]]),
                             label_names=["p", "q", "p", "q"])
    assert not hasattr(model, "run_")
    with pytest.raises(InputError, match="Expected unique column names"):
        entry(model, method)(pd.DataFrame(X, columns=["a", "b", "a"]), Y)


@pytest.mark.parametrize("method", ["fit", "start"])
def test_a_refused_fit_leaves_a_fitted_model_as_it_was(good, method):
    """Checking X (scikit-learn's validate_data) sets n_features_in_ before Y and the names are
    checked: a refusal after it left a model expecting the refused X's width."""
    X, Y = good
    fitted = MLRClassifier(n_rules=50, n_iter=200, random_state=0).fit(X, Y)
    before, run = fitted.predict(X), fitted.run_
    X4 = np.column_stack([X, X[:, 0]])
    for feature_names, labels, message in ((["a", "b", "a", "c"], Y, "feature name 'a'"),
                                           (None, Y * 2, "labels must be 0 or 1"),
                                           (None, Y[:10], "30 rows but Y has 10")):
        with pytest.raises(InputError, match=message):
            entry(fitted, method)(X4, labels, feature_names=feature_names)
        assert fitted.n_features_in_ == 3 and fitted.run_ is run
        assert np.array_equal(fitted.predict(X), before)


@pytest.mark.parametrize("name", ["to_json", "rules_frame", "rule_bounds", "rule_sets", "run_",
                                  "rule_set_", "bipartition_", "n_rules_", "max_specified_",
                                  "data_min_", "data_max_", "population_", "labelsets_",
                                  "rule_weights_"])
def test_a_model_before_fit_raises_not_fitted(name):
    """NotFittedError (scikit-learn's), not an AttributeError about a missing attribute."""
    with pytest.raises(NotFittedError, match="not fitted yet"):
        attribute = getattr(MLRClassifier(), name)
        if callable(attribute):
            attribute()
