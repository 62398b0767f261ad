"""Defaults that follow the data: N from the number of training rows, and the bipartition tuned
for the measure the user names."""

import numpy as np
import pytest

from mlr_core import MLRClassifier, TrainingSession
from mlr_core.bipartition import TARGETS
from mlr_core.errors import InputError
from mlr_core.params import auto_n_rules


def noisy_labels(n, seed):
    """Three labels, each a half-plane of the unit square with 15% of its bits flipped: no rule
    set is exact, so where the bipartition cuts matters."""
    r = np.random.default_rng(seed)
    X = r.random((n, 2))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.5, X.sum(axis=1) > 1.2]).astype(int)
    flip = r.random(Y.shape) < 0.15
    return X, np.where(flip, 1 - Y, Y)


def test_auto_n_rules_follows_the_training_rows():
    assert [auto_n_rules(n) for n in (10, 500, 1000, 1800, 5000)] == [1000, 1000, 1500, 2700,
                                                                     3000]
    X, Y = noisy_labels(1200, 0)
    model = MLRClassifier(n_iter=200, random_state=0).fit(X, Y)
    assert model.n_rules_ == 1800
    assert model.run_.population.nspec.shape[0] >= 1800  # the training population's room
    assert MLRClassifier(n_rules=700, n_iter=200, random_state=0).fit(X, Y).n_rules_ == 700


def test_auto_n_rules_survives_json():
    X, Y = noisy_labels(900, 1)
    model = MLRClassifier(n_iter=2000, random_state=0).fit(X, Y)
    loaded = MLRClassifier.from_json(model.to_json())
    assert loaded.n_rules_ == model.n_rules_ == 1350
    assert (loaded.predict(X) == model.predict(X)).all()


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_bipartition_is_best_for_its_target_on_the_training_rows(target):
    """One population, tuned three ways: each target's bipartition scores best on its own
    measure, and the Hamming-loss cut sits higher than the F1 cut on noisy labels."""
    X, Y = noisy_labels(600, 2)
    # the min-max axis: on the rank axis this population's votes tie all three cuts at 0.35;
    # plateau_rows=0: the best cut on these rows, not the middle of its plateau
    model = MLRClassifier(n_rules=400, n_iter=15_000, bipartition="threshold", axis="minmax",
                          weighting="vote", plateau_rows=0, random_state=0).fit(X, Y)
    cuts, scores = {}, {}
    for name in TARGETS:
        TrainingSession(model.set_params(target=name)).tune_bipartition()
        cuts[name] = model.bipartition_.value
        scores[name] = {m: TARGETS[m](Y, model.predict(X)) for m in TARGETS}
    for name in TARGETS:
        assert scores[target][target] >= scores[name][target] - 1e-12, (target, name)
    assert cuts["hamming_loss"] > cuts["f1"]


def test_changing_the_target_asks_for_a_new_tuning():
    X, Y = noisy_labels(300, 3)
    model = MLRClassifier(n_rules=200, n_iter=2000, random_state=0).fit(X, Y)
    assert model.target == "guarded"
    model.set_params(target="f1")
    with pytest.raises(InputError, match="target changed"):
        model.predict(X)
