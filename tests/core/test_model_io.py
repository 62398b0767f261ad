"""Saving and loading models as JSON: exact round trips, continued training, corrupted files."""

import json

import numpy as np
import pytest

from mlr_core import MLRClassifier, ModelFormatError


@pytest.fixture(scope="module")
def fitted():
    r = np.random.default_rng(0)
    X = r.normal(size=(150, 5)) * [1, 10, 100, 0.1, 1]
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] > 3, X[:, 2] < 0, X[:, 3] > 0]).astype(int)
    model = MLRClassifier(n_rules=200, n_iter=4000, random_state=3).fit(
        X, Y, feature_names=["a", "b", "c", "d", "e"], label_names=["w", "x", "y", "z"])
    return model, X, Y


def test_round_trip_gives_identical_predictions_and_rules(fitted):
    model, X, _ = fitted
    text = model.to_json()
    loaded = MLRClassifier.from_json(text)
    probe = np.vstack([X, X * 3 - 1])  # inside and outside the training range
    assert np.array_equal(loaded.predict_proba(probe), model.predict_proba(probe))
    for mode in ("agg", "max"):
        assert np.array_equal(loaded.predict(probe, prediction=mode),
                              model.predict(probe, prediction=mode))
    assert loaded.rules_frame().equals(model.rules_frame())
    assert loaded.get_params() == model.get_params()
    assert loaded.to_json() == text


def test_the_format_is_readable_and_versioned(fitted):
    model, _, _ = fitted
    data = json.loads(model.to_json())
    assert data["format"] == "mlr-studio-model" and data["version"] == 1
    assert data["feature_names"] == ["a", "b", "c", "d", "e"]
    rule = data["rules"][0]
    assert rule["condition"]["type"] == "hyperrectangle_csr"
    assert len(rule["condition"]["center"]) == 5
    assert {"fitness", "numerosity", "experience", "labelset"} <= set(rule)


def test_loaded_model_continues_training_as_the_original(fitted):
    model, X, Y = fitted
    loaded = MLRClassifier.from_json(model.to_json())
    original = MLRClassifier.from_json(model.to_json())
    loaded.start(X, Y, warm_start=True).learn(1000)
    original.start(X, Y, warm_start=True).learn(1000)
    assert loaded.summary() == original.summary()
    assert loaded.summary()["iteration"] == model.summary()["iteration"] + 1000
    with pytest.raises(Exception, match="features"):
        MLRClassifier.from_json(model.to_json()).start(X[:, :3], Y, warm_start=True)


def _corrupt(text, edit):
    data = json.loads(text)
    edit(data)
    return json.dumps(data)


CORRUPTIONS = {
    "not json": lambda t: t[: len(t) // 2],
    "not a model": lambda t: json.dumps({"hello": 1}),
    "future version": lambda t: _corrupt(t, lambda d: d.update(version=99)),
    "labelset too short": lambda t: _corrupt(t, lambda d: d["rules"][0].update(labelset=[1])),
    "labelset not 0/1": lambda t: _corrupt(t, lambda d: d["rules"][0].update(labelset=[2] * 4)),
    "negative spread": lambda t: _corrupt(
        t, lambda d: d["rules"][0]["condition"].update(
            spread=[-1.0] * 5, center=[0.5] * 5)),
    "wrong condition type": lambda t: _corrupt(
        t, lambda d: d["rules"][0]["condition"].update(type="ellipsoid")),
    "zero numerosity": lambda t: _corrupt(t, lambda d: d["rules"][0].update(numerosity=0)),
    "fitness above 1": lambda t: _corrupt(t, lambda d: d["rules"][0].update(fitness=3.0)),
    "missing field": lambda t: _corrupt(t, lambda d: d["rules"][0].pop("experience")),
    "too many copies": lambda t: _corrupt(t, lambda d: d["rules"][0].update(numerosity=10**6)),
    "unknown parameter": lambda t: _corrupt(t, lambda d: d["params"].update(bogus=1)),
    "bad parameter": lambda t: _corrupt(t, lambda d: d["params"].update(fitness="xx")),
    "scaling mismatch": lambda t: _corrupt(t, lambda d: d.update(data_min=[0.0])),
    "rules not a list": lambda t: _corrupt(t, lambda d: d.update(rules={"a": 1})),
    "counters": lambda t: _corrupt(t, lambda d: d.update(counters=[-1])),
    "rng": lambda t: _corrupt(t, lambda d: d.update(rng_state=["zz"])),
    "label dtype": lambda t: _corrupt(t, lambda d: d.update(label_dtype="O")),
    "history rows": lambda t: _corrupt(t, lambda d: d["history"].update(rows=[{"x": 1}])),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupted_model_raises_a_clear_error(fitted, name):
    model, _, _ = fitted
    with pytest.raises(ModelFormatError) as err:
        MLRClassifier.from_json(CORRUPTIONS[name](model.to_json()))
    assert len(str(err.value)) > 20
