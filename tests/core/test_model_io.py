"""Saving and loading models as JSON: exact round trips, continued training, corrupted files."""

import json
import re
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest

from mlr_core import MLRClassifier, ModelFormatError, TrainingSession
from mlr_core.data.loaders import load_dataset


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
    assert data["format"] == "mlr-studio-model" and data["version"] == 2
    assert data["rule_set"]["feature_names"] == ["a", "b", "c", "d", "e"]
    assert data["rule_set"]["scorer"]["kind"] == "fitted"
    rule = data["rule_set"]["rules"][0]
    assert rule["condition"]["type"] == "hyperrectangle_csr"
    assert len(rule["condition"]["center"]) == 5
    assert {"fitness", "numerosity", "experience", "labelset"} <= set(rule)


def test_a_file_without_rule_ids_numbers_its_rules_from_0(fitted):
    """Files written before rules kept their ids still load, predicting the same."""
    model, X, Y = fitted
    small = model.subset([3, 5, 40])
    data = json.loads(small.to_json())
    assert data["rule_set"]["rule_ids"] == [3, 5, 40]
    assert MLRClassifier.from_json(small.to_json()).rules_frame().index.tolist() == [3, 5, 40]
    del data["rule_set"]["rule_ids"]
    old = MLRClassifier.from_json(json.dumps(data))
    assert old.rules_frame().index.tolist() == [0, 1, 2]
    assert old.rules_frame()["rule"].tolist() == small.rules_frame()["rule"].tolist()
    assert np.array_equal(old.predict_proba(X), small.predict_proba(X))
    # training changes the rules: from then on a rule's id is its slot, as in any fresh run
    moved = TrainingSession(small).start(X, Y, warm_start=True).model.rules_frame().index.tolist()
    assert moved[:3] == [3, 5, 40]  # binding data changes no rule (the fit may add its own)
    assert len(moved) == 3 + small.rule_set_.n_feature_rules
    TrainingSession(small).learn(50)
    assert small.rules_frame().index.tolist() == list(range(small.rules_frame().shape[0]))


def test_loaded_model_continues_training_as_the_original(fitted):
    model, X, Y = fitted
    loaded = MLRClassifier.from_json(model.to_json())
    original = MLRClassifier.from_json(model.to_json())
    TrainingSession(loaded).start(X, Y, warm_start=True).learn(1000)
    TrainingSession(original).start(X, Y, warm_start=True).learn(1000)
    assert loaded.run_.summary() == original.run_.summary()
    assert loaded.run_.summary()["iteration"] == model.run_.summary()["iteration"] + 1000
    with pytest.raises(Exception, match="features"):
        TrainingSession(MLRClassifier.from_json(model.to_json())).start(X[:, :3], Y,
                                                                        warm_start=True)


SHARED_DATASETS = ("yeast", "emotions", "flags", "cal500", "genbase", "mediamill_small",
                   "slashdot", "ohsumed")


@pytest.mark.parametrize("name", SHARED_DATASETS)
def test_a_model_of_each_shared_dataset_is_saved_loaded_and_saved_to_the_same_bytes(
        shared_datasets_dir, name):
    """Saved, loaded, bound to its training rows (its weights refitted) and saved again: the
    same bytes; trained on and saved, it loads again. A loaded ohsumed model took the fit's
    one-condition rules (``word = 1``) into its evolving population, held them twice once
    refitted (2,984 rules) and could not be saved again (issue 34)."""
    data = load_dataset(shared_datasets_dir / f"{name}.arff")
    X, Y = data.X[:1000], data.Y[:1000]  # the kind of data, in seconds
    model = MLRClassifier(n_rules=200, n_iter=200, random_state=0).fit(X, Y)
    text = model.to_json()
    loaded = MLRClassifier.from_json(text)
    assert loaded.to_json() == text
    TrainingSession(loaded).start(X, Y, warm_start=True)
    assert loaded.run_.summary() == model.run_.summary()
    assert loaded.to_json() == text
    TrainingSession(loaded).learn(100).tune_bipartition()
    rules = loaded.rule_set_
    assert rules.n_evolved == loaded.run_.summary()["macro_size"]
    assert loaded.run_.summary()["micro_size"] <= 200
    again = loaded.to_json()
    assert MLRClassifier.from_json(again).to_json() == again


def _corrupt(text, edit):
    data = json.loads(text)
    edit(data)
    return json.dumps(data)


def _rule(edit):
    return lambda d: edit(d["rule_set"]["rules"][0])


def _set(part, **values):
    return lambda d: d[part].update(values)


CORRUPTIONS = {
    "not json": lambda t: t[: len(t) // 2],
    "not a model": lambda t: json.dumps({"hello": 1}),
    "deep nesting": lambda t: "[" * 100_000 + "]" * 100_000,
    "future version": lambda t: _corrupt(t, lambda d: d.update(version=99)),
    "labelset too short": lambda t: _corrupt(t, _rule(lambda r: r.update(labelset=[1]))),
    "labelset not 0/1": lambda t: _corrupt(t, _rule(lambda r: r.update(labelset=[2] * 4))),
    "negative spread": lambda t: _corrupt(t, _rule(lambda r: r["condition"].update(
        spread=[-1.0] * 5, center=[0.5] * 5))),
    "wrong condition type": lambda t: _corrupt(t, _rule(lambda r: r["condition"].update(
        type="ellipsoid"))),
    "zero numerosity": lambda t: _corrupt(t, _rule(lambda r: r.update(numerosity=0))),
    "fitness above 1": lambda t: _corrupt(t, _rule(lambda r: r.update(fitness=3.0))),
    "huge experience": lambda t: _corrupt(t, _rule(lambda r: r.update(experience=10**30))),
    "missing field": lambda t: _corrupt(t, _rule(lambda r: r.pop("experience"))),
    "too many copies": lambda t: _corrupt(t, _rule(lambda r: r.update(numerosity=10**6))),
    "unknown parameter": lambda t: _corrupt(t, lambda d: d["params"].update(bogus=1)),
    "bad parameter": lambda t: _corrupt(t, lambda d: d["params"].update(fitness="xx")),
    "scaling mismatch": lambda t: _corrupt(t, _set("rule_set", data_min=[0.0])),
    "binary of another length": lambda t: _corrupt(t, _set("rule_set", binary=[False])),
    "binary not booleans": lambda t: _corrupt(t, _set("rule_set", binary=[0, 1, 0, 0, 0])),
    "binary missing": lambda t: _corrupt(t, lambda d: d["rule_set"].pop("binary")),
    "binary on a numeric feature": lambda t: _corrupt(t, _set("rule_set", binary=[True] * 5)),
    "rules not a list": lambda t: _corrupt(t, _set("rule_set", rules={"a": 1})),
    "rule ids of other rules": lambda t: _corrupt(t, _set("rule_set", rule_ids=[0, 1])),
    "rule ids repeated": lambda t: _corrupt(t, lambda d: d["rule_set"].update(
        rule_ids=[0] * len(d["rule_set"]["rules"]))),
    "rule ids not integers": lambda t: _corrupt(t, lambda d: d["rule_set"].update(
        rule_ids=[0.5] * len(d["rule_set"]["rules"]))),
    "weights of other rules": lambda t: _corrupt(t, lambda d: d["rule_set"]["scorer"].update(
        coef=[[0.0] * 4])),
    "unknown scorer": lambda t: _corrupt(t, lambda d: d["rule_set"]["scorer"].update(
        kind="magic")),
    "rcut below one": lambda t: _corrupt(t, _set("rule_set", bipartition=["rcut", -5])),
    "rcut above the labels": lambda t: _corrupt(t, _set("rule_set",
                                                        bipartition=["rcut", 10**6])),
    "threshold not a number": lambda t: _corrupt(t, _set("rule_set",
                                                         bipartition=["threshold", "NaN"])),
    "threshold NaN": lambda t: re.sub(r'"bipartition": \["(\w+)", [^\]]+\]',
                                      '"bipartition": ["threshold", NaN]', t),
    "rules from another iteration": lambda t: _corrupt(t, _set("rule_set", iteration=1)),
    "more one-condition rules than rules": lambda t: _corrupt(t, lambda d: d["rule_set"].update(
        n_feature_rules=len(d["rule_set"]["rules"]) + 1)),
    "one-condition rules not a count": lambda t: _corrupt(t, _set("rule_set",
                                                                  n_feature_rules=True)),
    "counters": lambda t: _corrupt(t, _set("training", counters=[-1])),
    "huge counter": lambda t: _corrupt(t, _set("training", counters=[10**30] * 8)),
    "rng": lambda t: _corrupt(t, _set("training", rng_state=["zz"])),
    "label dtype": lambda t: _corrupt(t, lambda d: d.update(label_dtype="O")),
    "history rows": lambda t: _corrupt(t, lambda d: d["training"]["history"].update(
        rows=[{"x": 1}])),
    "n_rules of ten million": lambda t: _corrupt(t, _set("training", n_rules=10_000_000)),
    "a feature name twice": lambda t: _corrupt(t, _set("rule_set",
                                                       feature_names=["a", "b", "a", "d", "e"])),
    "a label name twice": lambda t: _corrupt(t, _set("rule_set", label_names=["w"] * 4)),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupted_model_raises_a_clear_error(fitted, name):
    model, _, _ = fitted
    with pytest.raises(ModelFormatError) as err:
        MLRClassifier.from_json(CORRUPTIONS[name](model.to_json()))
    assert len(str(err.value)) > 20


def _every_history_value(value):
    def edit(d):
        for row in d["training"]["history"]["rows"]:
            row.update(dict.fromkeys(row, value))
    return edit


def _last_history_row(**values):
    return lambda d: d["training"]["history"]["rows"][-1].update(values)


NAMED = {  # a tampered field, and the words of the refusal that name it
    "every history value 'x'": (_every_history_value("x"), "history row 0: iteration"),
    "a history value a string": (_last_history_row(mean_fitness="0.5"),
                                 "history row 39: mean_fitness"),
    "a history iteration ahead of the run": (_last_history_row(iteration=10**9),
                                             "history row 39: its iteration"),
    "history matches beyond the counters": (_last_history_row(_matched=10**9),
                                            "history row 39: its iteration and _matched"),
    "history not an object": (_set("training", history=[]), '"history" must be an object'),
    "history spacing a fraction": (lambda d: d["training"]["history"].update(every=1.5),
                                   'history "every"'),
    "a counter a fraction": (lambda d: d["training"]["counters"].__setitem__(-1, 2.5),
                             "counters[7]"),
    "a counter a string": (lambda d: d["training"]["counters"].__setitem__(-1, "x"),
                           "counters[7]"),
    "rng_state not words": (_set("training", rng_state=[1, 2, 3, 4]), "rng_state"),
    "rng_state beyond 64 bits": (_set("training", rng_state=["1" * 17] * 4), "rng_state"),
    "label_cardinality a string": (_set("training", label_cardinality="1.5"),
                                   "label_cardinality"),
    "n_rules a fraction": (_set("training", n_rules=200.5), "training n_rules"),
    "label_dtype not a name": (lambda d: d.update(label_dtype=["x"]), "label_dtype"),
    "label_dtype unknown": (lambda d: d.update(label_dtype="x"), "label_dtype 'x'"),
    "rule_set not an object": (lambda d: d.update(rule_set=[]), '"rule_set" must be an object'),
    "experience a fraction": (_rule(lambda r: r.update(experience=1.5)), "rule 0: experience"),
    "correct beyond experience": (_rule(lambda r: r.update(experience=0)),
                                  "rule 0: correct"),
    "a negative correct-set size": (_rule(lambda r: r.update(correct_set_size=-1.0)),
                                    "rule 0: correct_set_size"),
    "a labelset of lists": (_rule(lambda r: r.update(labelset=[[1], 0, 0, 0])),
                            "rule 0: labelset"),
    "weights not numbers": (lambda d: d["rule_set"]["scorer"].update(coef="x"),
                            "the scorer's coef"),
    "ragged weights": (lambda d: d["rule_set"]["scorer"].update(coef=[[0.0], [0.0, 1.0]]),
                       "the scorer's coef"),
    "alpha a string": (lambda d: d["rule_set"]["scorer"].update(alpha="1"), "the scorer's alpha"),
    "scorer kind a list": (lambda d: d["rule_set"]["scorer"].update(kind=[]), "scorer kind"),
    "n_nearest beyond what the vote allocates": (_set("params", n_nearest=10**7), "n_nearest"),
    "fitted_on_frame not a boolean": (lambda d: d.update(fitted_on_frame="yes"),
                                      '"fitted_on_frame"'),
    "min_vote_experience beyond int64": (
        lambda d: d["rule_set"]["voting"].update(min_vote_experience=10**30),
        "voting min_vote_experience"),
}


@pytest.mark.parametrize("name", NAMED)
def test_a_tampered_field_is_refused_naming_it(fitted, name):
    """Every field is checked before the model is used (a history of "x" used to load, then
    ``summary`` and ``learn`` raised a TypeError), and the refusal names the field."""
    model, _, _ = fitted
    edit, words = NAMED[name]
    with pytest.raises(ModelFormatError, match=re.escape(words)):
        MLRClassifier.from_json(_corrupt(model.to_json(), edit))


@pytest.mark.parametrize(("name", "largest"), [("n_nearest", 10**6),
                                               ("min_vote_experience", 2**62 - 1)])
def test_a_model_the_estimator_can_make_loads_back(name, largest):
    """The vote's parameters are bounded where the estimator takes them as where a file is
    read: a model with 10**7 nearest voters saved a file that did not load back, and one with
    a min_vote_experience beyond int64 failed to predict (OverflowError)."""
    from sklearn.utils._param_validation import InvalidParameterError

    X, Y = np.eye(3), np.eye(3, dtype=int)
    with pytest.raises(InvalidParameterError, match=name):
        MLRClassifier(**{name: largest + 1}).fit(X, Y)
    model = MLRClassifier(**{name: largest}, weighting="vote", n_iter=50, random_state=0)
    model.fit(X, Y)
    loaded = MLRClassifier.from_json(model.to_json())
    assert np.array_equal(loaded.predict_proba(X), model.predict_proba(X))
    assert loaded.to_json() == model.to_json()


def test_a_run_past_2_to_the_32_iterations_tunes_again(fitted):
    """The iteration seeds the weights' folds; a saved run at 2**40 iterations (within the
    counters' range) loaded, then its warm start failed in scikit-learn's 32-bit seeding."""
    model, X, Y = fitted

    def far_on(d):
        d["training"]["counters"][0] = d["rule_set"]["iteration"] = 2**40

    loaded = MLRClassifier.from_json(_corrupt(model.to_json(), far_on))
    TrainingSession(loaded).start(X, Y, warm_start=True).learn(10).tune_bipartition()
    assert loaded.run_.iteration == 2**40 + 10 and loaded.predict(X).shape == Y.shape


def test_a_model_file_is_checked_before_memory_is_allocated(fitted):
    """A 10,000,000-rule or 20,000-feature-per-rule claim is refused, not allocated: the
    specificity limit is clipped to the features the model has."""
    model, _, _ = fitted
    text = _corrupt(model.to_json(), _set("training", max_specified=20_000))
    tracemalloc.start()
    loaded = MLRClassifier.from_json(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert loaded.max_specified_ == 5 and peak < 50 * 2**20
    with pytest.raises(ModelFormatError, match="n_rules"):
        MLRClassifier.from_json(_corrupt(model.to_json(), _set("training", n_rules=10**7)))


@pytest.mark.parametrize("part", ["training", "params"])
def test_a_declared_capacity_is_refused_before_it_is_allocated(fitted, part):
    """A 38 kB file declaring 2e7 rule slots: ``training.n_rules`` sizes the population it is
    loaded into, ``params.n_rules`` the one a warm start reallocates to; either is checked
    against the memory budget before anything is allocated, naming the number and where."""
    model, X, Y = fitted
    text = _corrupt(model.to_json(), _set(part, n_rules=20_000_000))
    tracemalloc.start()
    with pytest.raises(ModelFormatError, match=f'n_rules=20,000,000 the model file declares in '
                                               f'"{part}" would take 2.6 GB'):
        MLRClassifier.from_json(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2**20
    # within the budget the declared N is what the warm start runs with
    loaded = MLRClassifier.from_json(_corrupt(model.to_json(), _set(part, n_rules=5000)))
    TrainingSession(loaded).start(X, Y, warm_start=True)
    assert loaded.n_rules_ == (5000 if part == "params" else 200)


def test_names_given_twice_in_a_model_file_are_named(fitted):
    model, _, _ = fitted
    text = _corrupt(model.to_json(), _set("rule_set", feature_names=["a", "b", "a", "b", "e"]))
    with pytest.raises(ModelFormatError, match="feature names 'a', 'b' appear more than once"):
        MLRClassifier.from_json(text)


def test_the_widest_intervals_allowed_still_save_and_load_back(fitted):
    """r0 and m0 are bounded so that every spread a run makes fits a model file (spreads below
    2**62): at the bound the model saves, loads and saves again to the same text; beyond it
    the parameter is refused before training."""
    _, X, Y = fitted
    model = MLRClassifier(n_rules=50, n_iter=500, r0=1e6, m0=1e6, random_state=0).fit(X, Y)
    text = model.to_json()
    assert MLRClassifier.from_json(text).to_json() == text
    for wide in ({"r0": 1e7}, {"m0": 1e7}):
        with pytest.raises(ValueError, match=next(iter(wide))):
            MLRClassifier(n_iter=10, **wide).fit(X, Y)


def test_a_model_fitted_on_a_dataframe_keeps_its_columns_through_a_file():
    """scikit-learn checks a DataFrame's columns at predict time against ``feature_names_in_``.
    A loaded model used to lack them, so predicting the frame it was trained on warned "X has
    feature names, but MLRClassifier was fitted without feature names"; a nominal model can
    only be given a frame."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"size": rng.normal(size=120),
                          "colour": rng.choice(["red", "ochre", "blue"], 120)})
    Y = np.c_[frame["colour"] == "red", frame["size"] > 0].astype(int)
    model = MLRClassifier(n_iter=200, random_state=0).fit(frame, Y)
    loaded = MLRClassifier.from_json(model.to_json())
    assert list(loaded.feature_names_in_) == ["size", "colour"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(loaded.predict(frame), model.predict(frame))
    assert loaded.to_json() == model.to_json()
    array_model = MLRClassifier(n_iter=50, random_state=0).fit(frame[["size"]].to_numpy(), Y)
    assert not hasattr(MLRClassifier.from_json(array_model.to_json()), "feature_names_in_")
