"""RF-ML (multi-label ReliefF): relevant features outrank noise; the selector is a scikit-learn
transformer that fits in a Pipeline before MLRClassifier."""

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

from mlr_core import MLRClassifier, RFMLSelector
from mlr_core.errors import InputError
from mlr_core.feature_selection import rfml_weights


def relevant_and_noise(n=300, seed=0):
    """Labels depend on features 2 and 5 only; the other six are noise."""
    X = np.random.default_rng(seed).random((n, 8))
    Y = np.column_stack([X[:, 2] > 0.5, X[:, 5] > 0.5, X[:, 2] + X[:, 5] > 1.0]).astype(int)
    return X, Y


def test_relevant_features_get_the_largest_weights():
    X, Y = relevant_and_noise()
    weights = rfml_weights(X, Y)
    assert set(np.argsort(-weights)[:2]) == {2, 5}
    noise = np.delete(weights, [2, 5])
    assert weights[[2, 5]].min() > noise.max() + 0.05


def test_weights_ignore_feature_scale():
    """Features are min-max scaled inside, so multiplying one by 1000 changes nothing."""
    X, Y = relevant_and_noise()
    scaled = X.copy()
    scaled[:, 0] *= 1000.0
    assert np.allclose(rfml_weights(X, Y), rfml_weights(scaled, Y))


def test_selector_keeps_a_fraction_or_a_count():
    X, Y = relevant_and_noise()
    fraction = RFMLSelector(keep=0.25).fit(X, Y)
    assert sorted(fraction.get_support(indices=True)) == [2, 5]
    assert fraction.transform(X).shape == (300, 2)
    assert RFMLSelector(keep=3).fit(X, Y).transform(X).shape == (300, 3)
    assert RFMLSelector(keep=1.0).fit(X, Y).transform(X).shape == (300, 8)


def test_selector_in_a_pipeline_before_mlr():
    X, Y = relevant_and_noise()
    X_test, Y_test = relevant_and_noise(200, seed=1)
    pipe = make_pipeline(RFMLSelector(keep=0.25),
                         MLRClassifier(n_rules=300, n_iter=8000, random_state=0))
    pipe.fit(X, Y)
    assert pipe[-1].n_features_in_ == 2
    assert (pipe.predict(X_test) == Y_test).mean() > 0.9


def test_rows_of_x_and_y_must_agree():
    X, Y = relevant_and_noise()
    with pytest.raises(InputError, match="300 rows but Y has 299"):
        RFMLSelector().fit(X, Y[:-1])
