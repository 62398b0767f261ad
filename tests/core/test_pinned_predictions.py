"""Refactoring guard (issue 25): the library's default model, with fixed seeds, predicts
bit-identically on the five datasets before and after a change of structure.

Each case fits on two thirds of a dataset's rows and hashes ``predict`` and ``predict_proba``
(their bytes) on the held-out third. The default path is pinned with its fitted rule weights,
one-condition rules and tuned bipartition; ``n_iter`` is small so that each case takes seconds,
and flags also runs ``n_iter="auto"`` (the stopping rule). The vote and MLR_max are pinned on one
dataset each. The digests were computed on main at 263539e; a change that alters any prediction
fails here, and one that means to must say so and update them. The ``predict_proba`` digests of
the fitted weights were updated when the weights' ridge fit moved from scikit-learn's ``RidgeCV``
to one shared decomposition (``rule_weights.Basis``, branch sparse-speed): scores move by
rounding (within 1e-13), every ``predict`` digest stayed the same. The yeast and emotions
digests changed again, as meant, when the weights gained their second stage (issue 22,
``mlr_core/calibration.py``): there the logistic link ranks labels better on held-out folds and
is kept, so scores and the cut tuned on them change; the other cases keep the ridge totals
and their digests.
"""

import hashlib

import numpy as np
import pytest

from mlr_core import MLRClassifier

PINNED = {
    # "dataset sorted(params)": (digest of predict, digest of predict_proba)
    "yeast [('n_iter', 4000)]": ('5e39a5de9405b8eb', '4cebce9e724b3d3a'),
    "emotions [('n_iter', 4000)]": ('7e49082d8ae9fe73', '733f1761d24db28b'),
    "flags [('n_iter', 4000)]": ('7723034f972fbeb0', '46abcdda5e97c709'),
    'flags []': ('e94557d20fb609d9', 'f79851c6b2266db9'),
    "cal500 [('n_iter', 3000)]": ('e8f6e40644dd9fa6', 'e359466c2bfbe9dd'),
    "genbase [('n_iter', 4000)]": ('987009f1d49be999', 'bbc39f6e5adaf782'),
    "emotions [('n_iter', 4000), ('weighting', 'vote')]": ('aea069edceebded5', 'def63ec4387cda74'),
    "yeast [('n_iter', 4000), ('prediction', 'max')]": ('852f727ee4e110f9', '4cebce9e724b3d3a'),
}


def digest(array: np.ndarray) -> str:
    array = np.ascontiguousarray(array)
    text = f"{array.dtype.str}{array.shape}".encode() + array.tobytes()
    return hashlib.sha256(text).hexdigest()[:16]


CASES = [
    ("yeast", {"n_iter": 4000}),
    ("emotions", {"n_iter": 4000}),
    ("flags", {"n_iter": 4000}),
    ("flags", {}),  # n_iter="auto": the stopping rule picks the length
    ("cal500", {"n_iter": 3000}),
    ("genbase", {"n_iter": 4000}),
    ("emotions", {"n_iter": 4000, "weighting": "vote"}),
    ("yeast", {"n_iter": 4000, "prediction": "max"}),
]


def fitted(dataset, params):
    train = np.arange(len(dataset.X)) % 3 != 0
    model = MLRClassifier(random_state=0, **params).fit(dataset.X[train], dataset.Y[train])
    test = dataset.X[~train]
    return model.predict(test), model.predict_proba(test)


@pytest.mark.parametrize(("name", "params"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_predictions_are_pinned(real_datasets, name, params):
    labels, scores = fitted(real_datasets[name], params)
    assert labels.shape == real_datasets[name].Y[::3].shape
    key = f"{name} {sorted(params.items())}"
    assert (digest(labels), digest(scores)) == PINNED[key]
