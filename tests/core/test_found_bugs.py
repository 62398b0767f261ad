"""One test per bug found in the first version, and models written by hand as JSON so that a
test controls exactly which rules exist (which instance is covered, which population is empty).
"""

import json
import tracemalloc

import numpy as np
import pytest

from mlr_core import InputError, MLRClassifier, TrainingSession, evaluate

LABELS = ["a", "b", "c"]


def hand_model(rules, data_min=(0.0, 0.0), data_max=(10.0, 10.0), **params):
    """A model from hand-written rules: ``(center, spread, labelset, fitness, numerosity)`` per
    rule, centre and spread on the [0, 1]-scaled axes (None = wildcard)."""
    d = len(data_min)
    labelsets = [r[2] for r in rules]
    m = len(labelsets[0]) if labelsets else len(LABELS)
    # no fills are written (the values missing ones read as), so missing ones fail tests
    model = MLRClassifier(n_rules=50, weighting="vote", missing="fail", **params)
    data = {
        "format": "mlr-studio-model",
        "version": 2,
        "params": model.get_params(),
        "label_dtype": "<i8",
        "rule_set": {
            "feature_names": [f"x{j}" for j in range(d)],
            "label_names": LABELS[:m] if m <= 3 else [f"l{j}" for j in range(m)],
            "data_min": list(data_min),
            "data_max": list(data_max),
            "binary": [False] * d,
            "rules": [
                {"condition": {"type": "hyperrectangle_csr", "center": list(center),
                               "spread": list(spread)},
                 "labelset": list(labelset), "fitness": fitness, "accuracy": 0.9,
                 "correct": 9.0, "numerosity": num, "experience": 10,
                 "correct_set_size": 1.0, "last_ga": 0, "birth": 0}
                for center, spread, labelset, fitness, num in rules
            ],
            "scorer": {"kind": "vote", "score_norm": model.score_norm},
            "bipartition": ["threshold", 0.5],
            "voting": {"min_vote_experience": model.min_vote_experience,
                       "n_nearest": model.n_nearest, "max_by": model.max_by},
            "iteration": 0,
        },
        "training": {
            "n_rules": 50,
            "max_specified": d,
            "label_cardinality": 1.0,
            "counters": [0] * 8,
            "rng_state": ["1", "2", "3", "4"],
            "history": {"every": 100, "next": 100, "rows": []},
        },
    }
    return MLRClassifier.from_json(json.dumps(data))


def two_corners(**params):
    """Rule A near the origin advocating {a}, rule B near (10, 10) advocating {b, c}."""
    return hand_model([((0.2, 0.2), (0.1, 0.1), (1, 0, 0), 0.9, 1),
                       ((0.8, 0.8), (0.1, 0.1), (0, 1, 1), 0.5, 2)], **params)


def test_an_uncovered_instance_gets_the_nearest_rules_answer():
    far = np.array([[3.5, 3.0]])  # scaled (0.35, 0.30): outside both rules, nearest to A
    model = two_corners(n_nearest=1)
    assert model.coverage(far) == 0.0
    explanation = model.rule_set_.explain(far[0])
    assert explanation.fallback and list(explanation.rule_ids) == [0]
    assert model.predict(far, prediction="max").tolist() == [[1, 0, 0]]
    assert model.predict(far).tolist() == [[1, 0, 0]]  # A alone: score 1 for a, 0 elsewhere

    both = two_corners(n_nearest=2)  # B votes too: F * num = 1.0 beats A's 0.9
    assert list(both.rule_set_.explain(far[0]).rule_ids) == [0, 1]  # nearest first
    assert np.allclose(both.predict_proba(far), [[0.9 / 1.9, 1.0 / 1.9, 1.0 / 1.9]])
    assert both.predict(far, prediction="max").tolist() == [[0, 1, 1]]
    inside = np.array([[2.0, 2.0]])
    assert both.coverage(inside) == 1.0 and not both.rule_set_.explain(inside[0]).fallback


def test_warm_start_with_a_larger_or_smaller_population_reallocates_safely():
    """The kernels do not check bounds: arrays sized for n_rules=50 and a configuration of 400
    once wrote past the population (the process aborted or hung)."""
    r = np.random.default_rng(0)
    X, Y = r.random((150, 4)), (r.random((150, 3)) < 0.4).astype(int)
    model = MLRClassifier(n_rules=50, n_iter=2000, random_state=0).fit(X, Y)
    rules_before = model.rules_frame()
    TrainingSession(model.set_params(n_rules=400)).start(X, Y, warm_start=True)
    assert model.run_.population.nspec.shape[0] == model.run_.config.n_rules + 3 == 403
    assert model.rules_frame().equals(rules_before)  # the rules moved over unchanged
    TrainingSession(model).learn(20_000)
    assert 50 < model.run_.summary()["micro_size"] <= 400
    TrainingSession(model.set_params(n_rules=20)).start(X, Y, warm_start=True)
    assert model.run_.summary()["micro_size"] <= 20
    assert model.run_.population.nspec.shape[0] == 23
    TrainingSession(model).learn(2000)
    assert model.run_.summary()["micro_size"] <= 20


def test_a_one_label_model_saves_and_loads():
    r = np.random.default_rng(1)
    X = r.random((100, 2))
    Y = (X[:, :1] > 0.5).astype(int)
    model = MLRClassifier(n_rules=60, n_iter=2000, random_state=0).fit(X, Y)
    loaded = MLRClassifier.from_json(model.to_json())
    assert np.array_equal(loaded.predict(X), model.predict(X))
    assert loaded.label_names_ == ["label0"]


def test_measures_of_one_label_column():
    """They raised a bare ValueError; now the bipartition measures are computed and the ranking
    measures, which need two labels to rank, are refused by name."""
    truth, pred = [[1], [0], [1], [0]], [[1], [1], [0], [0]]
    result = evaluate(truth, pred)
    assert result["hamming_loss"] == 0.5 and result["subset_accuracy"] == 0.5
    assert result["accuracy"] == result["f1"] == 0.5  # rows 1 and 4 right (4: both empty)
    assert result["precision"] == 0.5 and result["recall"] == 0.5
    assert result["micro_f1"] == result["macro_f1"] == 0.5  # tp 1, fp 1, fn 1
    paper = evaluate(truth, pred, paper_compatible=True)
    assert paper["accuracy"] == 0.25  # the authors' 0/0 = 0 for row 4
    with pytest.raises(InputError, match="ranking measures need at least two labels"):
        evaluate(truth, pred, scores=[[0.3], [0.2], [0.1], [0.0]])


def test_a_model_without_rules_answers_the_empty_labelset():
    empty = hand_model([])
    X = np.array([[1.0, 2.0], [5.0, 5.0]])
    for mode in ("agg", "max"):
        assert empty.predict(X, prediction=mode).tolist() == [[0, 0, 0], [0, 0, 0]]
    assert empty.coverage(X) == 0.0
    assert empty.rule_set_.explain(X[0]).max_labels == []


def test_an_impossible_population_is_refused_naming_its_memory():
    X, Y = np.random.default_rng(2).random((20, 2)), np.eye(2, dtype=int)[np.arange(20) % 2]
    with pytest.raises(InputError, match=r"n_rules=1,000,000,000,000 needs [\d,.]+ GiB"):
        MLRClassifier(n_rules=10**12).fit(X, Y)


@pytest.mark.parametrize(("name", "value"),
                         [("score_norm", "max"), ("min_vote_experience", 5), ("n_nearest", 2),
                          ("threshold", 0.3), ("bipartition", "rcut")])
def test_a_bipartition_tuned_under_other_parameters_is_never_reused(name, value):
    r = np.random.default_rng(3)
    X, Y = r.random((120, 3)), (r.random((120, 3)) < 0.4).astype(int)
    model = MLRClassifier(n_rules=80, n_iter=3000, random_state=0).fit(X, Y)
    model.set_params(**{name: value})
    with pytest.raises(InputError, match=f"{name} changed since the bipartition was tuned"):
        model.predict(X)
    fresh = MLRClassifier(n_rules=80, n_iter=3000, random_state=0, **{name: value}).fit(X, Y)
    assert TrainingSession(model).tune_bipartition().model.bipartition_ == fresh.bipartition_
    assert np.array_equal(model.predict(X), fresh.predict(X))


def test_constant_feature_rules_read_as_they_match():
    """A feature constant at 7 in training: a value of 7.2 must read inside the rule that
    matches it (the rule text once said ``x0 <= 7`` and matched 7.2)."""
    model = hand_model([((0.1,), (0.15,), (1, 0, 0), 0.9, 1)], data_min=(7.0,), data_max=(7.0,))
    lower, upper = model.rule_bounds()
    for value in (7.0, 7.2, 7.24, 7.26, 8.0):
        inside = lower[0, 0] <= value <= upper[0, 0]
        assert model.coverage([[value]]) == float(inside), value
    assert model.coverage([[7.2]]) == 1.0
    assert model.rules_frame()["rule"][0] == "IF x0 <= 7.25 THEN {a}"


def test_saving_keeps_the_label_dtype_and_the_training_history():
    r = np.random.default_rng(4)
    X, Y = r.random((80, 2)), r.random((80, 3)) < 0.4
    model = MLRClassifier(n_rules=60, n_iter=1500, history_every=100, random_state=0).fit(X, Y)
    loaded = MLRClassifier.from_json(model.to_json())
    assert loaded.predict(X).dtype == bool
    assert loaded.run_.history().equals(model.run_.history()) and len(model.run_.history()) == 15
    TrainingSession(loaded).start(X, Y, warm_start=True).learn(500)
    TrainingSession(model).start(X, Y, warm_start=True).learn(500)
    assert loaded.run_.history().equals(model.run_.history())


def test_many_distinct_labelsets_need_no_quadratic_table():
    """2,000 distinct labelsets of 100 labels: a labelset x labelset x label temporary took
    400 MB here, and would take hundreds of GB on a large upload. The vote, so that the peak
    is the labelsets' alone: fitted weights add a few rows x labels arrays (1.6 MB each here,
    ``mlr_core/calibration.py``), linear in both."""
    r = np.random.default_rng(5)
    Y = (r.random((2000, 100)) < 0.5).astype(np.uint8)
    X = r.random((2000, 3))
    model = MLRClassifier(n_rules=100, random_state=0, bipartition="rcut", weighting="vote")
    tracemalloc.start()
    try:
        TrainingSession(model).start(X, Y).learn(200)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(model.labelsets_) == 2000
    assert peak < 8 * 2000**2 / 4, peak  # a quarter of the float64 table alone
