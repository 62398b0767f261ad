"""The sparse-label generator: label density and cardinality where the docstring puts them,
every row labelled, weak but real signal in the informative features, seeded."""

import numpy as np
import pytest

from mlr_core.data.synthetic import make_sparse_label_dataset
from mlr_core.errors import InputError


@pytest.mark.parametrize("m, card", [(12, 1.1), (30, 1.8), (100, 3.0)])
def test_density_and_cardinality_near_their_targets(m, card):
    data = make_sparse_label_dataset(n_samples=1500, n_labels=m, cardinality=card,
                                     random_state=0)
    Y = data.Y
    assert data.X.shape == (1500, 300) and Y.shape == (1500, m)
    assert Y.sum(axis=1).min() >= 1
    assert abs(Y.sum(axis=1).mean() - card) < 0.1 * card
    assert 0.02 < Y.mean() < 0.11


def test_informative_features_shift_with_their_label_and_others_do_not():
    data = make_sparse_label_dataset(n_samples=3000, n_labels=10, cardinality=1.5,
                                     signal=(0.8, 0.8), random_state=1)
    j = int(data.Y.sum(axis=0).argmax())
    on = data.Y[:, j] == 1
    shift = data.X[on].mean(axis=0) - data.X[~on].mean(axis=0)
    informative = data.meta["informative"][j]
    assert np.all(np.abs(shift[informative]) > 0.5)
    others = np.setdiff1d(np.arange(300), data.meta["informative"].ravel())
    assert np.all(np.abs(shift[others]) < 0.3)


def test_same_seed_same_data():
    a, b = (make_sparse_label_dataset(n_samples=200, random_state=5) for _ in range(2))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.Y, b.Y)
    c = make_sparse_label_dataset(n_samples=200, random_state=6)
    assert not np.array_equal(a.Y, c.Y)


@pytest.mark.parametrize("kwargs", [dict(cardinality=0.5), dict(n_labels=1),
                                    dict(n_informative=400), dict(signal=(0.5, 0.2)),
                                    dict(n_samples=0)])
def test_bad_parameters_are_refused(kwargs):
    with pytest.raises(InputError):
        make_sparse_label_dataset(**kwargs)
