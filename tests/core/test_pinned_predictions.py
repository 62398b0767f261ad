"""Refactoring guard (issue 25): the library's default model, with fixed seeds, predicts the
same on the five datasets before and after a change of structure.

Each case fits on two thirds of a dataset's rows and checks, on the held-out third:

- the evolved rules (each rule's conditions, labelset, numerosity and experience) and the
  ``predict`` labels, **exactly**, by digest. Evolution is numba's own arithmetic (no BLAS, no
  fast-math, a seeded generator), so it is the same bits on any CPU. The labels are pinned
  exactly as well: a score would have to sit within rounding of its cut to flip, and the run
  on another machine that issue 33 reports kept every label;
- ``predict_proba`` **within a stated tolerance**, by two fingerprints (the mean score, and the
  scores weighted by a seeded generator's numbers, so that scores moved between cells show).
  The scores come from a ridge fit (LAPACK through numpy/scipy) and, for the logistic link,
  scipy's L-BFGS-B (``mlr_core/calibration.py``): another CPU, BLAS or scipy moves them in their
  last bits (issue 33: a run on a busier 2-core machine changed the old bytewise digest of
  emotions' scores while every label stayed). A relative tolerance of 1e-6 admits rounding and
  an optimiser's stopping point, and still fails any change that moves a score meaningfully.

The vote and MLR_max are pinned on one dataset each; flags also runs ``n_iter="auto"`` (the
stopping rule). A change that alters a prediction fails here, and one that means to must say so
and update the pins (``python tests/core/test_pinned_predictions.py`` prints them).
"""

import hashlib
import math

import numpy as np
import pytest

from mlr_core import MLRClassifier

PINNED = {
    # "dataset sorted(params)": (digest of the rules, digest of predict,
    #                            (mean score, weighted score sum) of predict_proba)
    "yeast [('n_iter', 4000)]": ('d86cddf900a685f6', '8e6df381b4f601f1',
        (0.30294563795145024, 1706.2161400064272)),
    "emotions [('n_iter', 4000)]": ('ff46c1017c777ffd', '85b3d74c65735a22',
        (0.309869798376568, 192.57181905531874)),
    "flags [('n_iter', 4000)]": ('12a39d1a14a39644', 'c1459b32676b1b0c',
        (0.4747120800827082, 115.57851742999114)),
    'flags []': ('dc98e7e96a8f0b1b', '4767effc19bac221',
        (0.4745890376882527, 115.45489571165126)),
    "cal500 [('n_iter', 3000)]": ('f168be495f67be93', 'fe8a8e860391c756',
        (0.14985407238617596, 2212.9729078175924)),
    "genbase [('n_iter', 4000)]": ('2b95be725e236c23', '3344626276b662fa',
        (0.04796930097293641, 148.35034366022379)),
    "emotions [('n_iter', 4000), ('weighting', 'vote')]": ('091bf1633d6d3087', 'c8ee80782a954191',
        (0.3002170049493371, 186.055088374166)),
    "yeast [('n_iter', 4000), ('prediction', 'max')]": ('d86cddf900a685f6', '32f181c67e2acbd2',
        (0.30294563795145024, 1706.2161400064272)),
}

SCORE_TOLERANCE = 1e-6  # relative; why: the module's docstring
RULE_FIELDS = ("feat", "center", "spread", "nspec", "ls", "num", "exp")

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


def digest(*arrays: np.ndarray) -> str:
    text = b""
    for array in arrays:
        array = np.ascontiguousarray(array)
        text += f"{array.dtype.str}{array.shape}".encode() + array.tobytes()
    return hashlib.sha256(text).hexdigest()[:16]


def fingerprint(scores: np.ndarray) -> tuple[float, float]:
    """The mean score and the scores weighted by fixed pseudo-random numbers (PCG64 gives the
    same numbers everywhere), both summed exactly (``math.fsum``: no order of summation)."""
    weights = np.random.default_rng(0).random(scores.shape)
    return (math.fsum(scores.ravel()) / scores.size, math.fsum((scores * weights).ravel()))


def pins(dataset, params):
    train = np.arange(len(dataset.X)) % 3 != 0
    model = MLRClassifier(random_state=0, **params).fit(dataset.X[train], dataset.Y[train])
    test = dataset.X[~train]
    labels, scores = model.predict(test), model.predict_proba(test)
    assert labels.shape == dataset.Y[~train].shape
    rules = model.run_.population  # evolved; no one-condition rules of the weights' fit
    size = int(rules.size[0])
    evolved = digest(*(getattr(rules, name)[:size] for name in RULE_FIELDS))
    return evolved, digest(labels), fingerprint(scores)


@pytest.mark.parametrize(("name", "params"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_predictions_are_pinned(real_datasets, name, params):
    evolved, labels, scores = pins(real_datasets[name], params)
    pinned_rules, pinned_labels, pinned_scores = PINNED[f"{name} {sorted(params.items())}"]
    assert evolved == pinned_rules, "the evolved rules changed"
    assert labels == pinned_labels, "the predicted labels changed"
    assert scores == pytest.approx(pinned_scores, rel=SCORE_TOLERANCE, abs=0.0)


if __name__ == "__main__":  # prints the pins of the code as it is, to paste above
    from pathlib import Path

    from mlr_core.data.loaders import load_dataset

    shared = Path(__file__).resolve().parents[3] / "shared" / "datasets"
    data = {name: load_dataset(shared / f"{name}.arff") for name, _ in CASES}
    for name, params in CASES:
        evolved, labels, (mean, weighted) = pins(data[name], params)
        print(f"    {f'{name} {sorted(params.items())}'!r}: ({evolved!r}, {labels!r},\n"
              f"        ({mean!r}, {weighted!r})),")
