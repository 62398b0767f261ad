"""The rank axis (``axis="rank"``, the default since issue 31): the engine learns from each
feature's order, so a strictly increasing map of the features leaves the model as it is, while
conditions stay exact intervals in the data's units; the paper's min-max axis stays reachable
(``PAPER_AXIS``) and old files load."""

import json

import numpy as np
import pytest

from mlr_core import MLRClassifier
from mlr_core.data.synthetic import make_hypercube_dataset
from mlr_core.rule_set import MAX_KNOTS, Scaling, rank_knots

MAPS = {
    "exp(8u)": lambda u: np.exp(8.0 * u),
    "u**6": lambda u: u**6,
    "1000u - 7": lambda u: 1000.0 * u - 7.0,
}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", sorted(MAPS))
def test_predictions_hardly_move_under_a_strictly_increasing_map(seed, name):
    """The defaults fitted on X and on map(X): the training rows sit at the same axis
    positions, so the two fits are the same model (the same scores on the training rows, to
    the bit); held-out rows between two training values interpolate in other units, and at
    least 97% of their predicted label cells stay the same."""
    data = make_hypercube_dataset(n_samples=300, n_relevant=3, n_labels=3, n_irrelevant=1,
                                  label_noise=0.05, random_state=seed)
    train = np.arange(len(data.X)) % 3 != 0
    X, Y = data.X - data.X.min(axis=0), data.Y  # u >= 0, for u**6
    mapped = MAPS[name](X)
    assert (np.diff(mapped[np.argsort(X[:, 0]), 0]) >= 0).all()
    fits = [MLRClassifier(n_iter=1500, random_state=seed).fit(Z[train], Y[train])
            for Z in (X, mapped)]
    np.testing.assert_array_equal(fits[0].predict_proba(X[train]),
                                  fits[1].predict_proba(mapped[train]))
    same = fits[0].predict(X[~train]) == fits[1].predict(mapped[~train])
    assert same.mean() >= 0.97


def test_the_rank_axis_places_training_values_at_their_mid_ranks_and_is_monotone():
    column = np.array([5.0, 1.0, 1.0, 1.0, 2.0, 100.0, 2.0, 1e6])
    values, positions = rank_knots(column)
    np.testing.assert_array_equal(values, [1.0, 2.0, 5.0, 100.0, 1e6])
    mid = np.array([0 + 3 / 2, 3 + 2 / 2, 5 + 1 / 2, 6 + 1 / 2, 7 + 1 / 2])  # below + half equal
    np.testing.assert_allclose(positions, (mid - mid[0]) / (mid[-1] - mid[0]))
    scaling = Scaling.of(column[:, None], "rank")
    np.testing.assert_array_equal(scaling.transform(values[:, None])[:, 0], positions)
    grid = np.sort(np.concatenate([np.linspace(-10, 2e6, 5001), values,
                                   np.nextafter(values, np.inf), np.nextafter(values, -np.inf)]))
    on_axis = scaling.transform(grid[:, None])[:, 0]
    assert (np.diff(on_axis) >= 0).all() and on_axis[0] == 0.0 and on_axis[-1] == 1.0
    np.testing.assert_array_equal(scaling.positions(grid, np.zeros(len(grid), int)), on_axis)


def test_0_1_and_constant_features_read_the_same_on_both_axes():
    X = np.array([[0.0, 3.0, 0.0], [1.0, 3.0, 2.0], [1.0, 3.0, 9.0], [0.0, 3.0, 4.0]])
    rank, minmax = Scaling.of(X, "rank"), Scaling.of(X, "minmax")
    assert rank.knots[0] is None and rank.knots[1] is None and rank.knots[2] is not None
    probe = np.array([[0.0, 2.0, 1.0], [1.0, 3.0, 5.0], [0.5, 5.0, 20.0]])
    np.testing.assert_array_equal(rank.transform(probe)[:, :2], minmax.transform(probe)[:, :2])


def test_knots_are_capped_at_quantiles_keeping_both_ends():
    column = np.random.default_rng(0).lognormal(size=5000)
    values, positions = rank_knots(column)
    assert len(values) <= MAX_KNOTS
    assert values[0] == column.min() and values[-1] == column.max()
    assert positions[0] == 0.0 and positions[-1] == 1.0
    assert (np.diff(values) > 0).all() and (np.diff(positions) > 0).all()


def test_conditions_are_exact_intervals_in_the_data_units_on_the_rank_axis():
    """Each rule's bounds (`RuleSet.tests`) accept a value exactly when the rule's condition
    does on the axis: probed at the bounds and the floats beside them."""
    X = np.random.default_rng(1).lognormal(sigma=2.0, size=(200, 3))
    Y = np.column_stack([X[:, 0] > 1, X[:, 1] * X[:, 2] > 2]).astype(int)
    rule_set = MLRClassifier(n_iter=1000, random_state=0, axis="rank").fit(X, Y).rule_set_
    scaling, pop = rule_set.scaling, rule_set.rules
    for i, tests in enumerate(rule_set.tests()):
        for slot, (j, lower, upper, _) in enumerate(tests):
            probes = np.array([b for bound in (lower, upper) if np.isfinite(bound)
                               for b in (np.nextafter(bound, -np.inf), bound,
                                         np.nextafter(bound, np.inf))])
            if not len(probes):
                continue
            on_axis = scaling.positions(probes, np.full(len(probes), j))
            matches = np.abs(on_axis - pop.center[i, slot]) <= pop.spread[i, slot]
            np.testing.assert_array_equal(matches, (lower <= probes) & (probes <= upper))


def test_the_axis_is_saved_and_a_file_without_knots_loads_as_min_max():
    X = np.random.default_rng(2).exponential(size=(120, 3))
    Y = (X[:, :2] > 1).astype(int)
    rank = MLRClassifier(n_iter=500, random_state=0, axis="rank").fit(X, Y)
    text = rank.to_json()
    assert len(json.loads(text)["rule_set"]["knots"]) == 3
    loaded = MLRClassifier.from_json(text)
    assert loaded.to_json() == text
    np.testing.assert_array_equal(loaded.predict_proba(X), rank.predict_proba(X))
    minmax = MLRClassifier(n_iter=500, random_state=0, axis="minmax").fit(X, Y)
    old = json.loads(minmax.to_json())
    assert "knots" not in old["rule_set"]  # the rule set as min-max models were always saved
    del old["params"]["axis"]  # as files written before the axis was a parameter
    loaded = MLRClassifier.from_json(json.dumps(old))
    assert loaded.axis == "minmax" and loaded.rule_set_.scaling.axis == "minmax"
    np.testing.assert_array_equal(loaded.predict_proba(X), minmax.predict_proba(X))
