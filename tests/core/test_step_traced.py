"""A traced training iteration: the same run as an untraced one, and a record that agrees with
the model's own counters and rules."""

import joblib
import numpy as np
import pytest

from mlr_core import InputError, MLRClassifier, TrainingSession
from mlr_core.rules import labelset_text

PARAMS = {"n_rules": 30, "theta_ga": 0, "correct_set_subsumption": True, "theta_sub": 5,
          "acc0": 0.5, "random_state": 0}  # small and busy: covering, GA, subsumption, deletion


@pytest.fixture(scope="module")
def data():
    r = np.random.default_rng(0)
    X = r.random((60, 3))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.3, X[:, 2] < 0.4]).astype(int)
    return X, Y


def test_a_traced_iteration_changes_the_model_exactly_as_an_untraced_one(data):
    X, Y = data
    plain = TrainingSession(MLRClassifier(**PARAMS)).start(X, Y).model
    traced = TrainingSession(MLRClassifier(**PARAMS)).start(X, Y).model
    for step in range(400):
        TrainingSession(plain).learn(1)
        TrainingSession(traced).step_traced()
        if step % 50 == 0 or step == 399:
            assert joblib.hash(traced.run_) == joblib.hash(plain.run_), step
    assert traced.run_.summary() == plain.run_.summary()
    assert joblib.hash(traced) == joblib.hash(plain)


def test_the_record_agrees_with_the_counters_and_the_rules(data):
    X, Y = data
    model = TrainingSession(MLRClassifier(**PARAMS)).start(X, Y).learn(200).model
    names = np.array(model.label_names_)
    seen = {"covering": 0, "ga": 0, "subsumed": 0, "deleted": 0}
    for _ in range(300):
        before = model.run_.summary()
        lower, upper = model.rule_bounds()
        trace = TrainingSession(model).step_traced()
        after = model.run_.summary()
        x = X[trace.row]
        assert trace.iteration == before["iteration"] and after["iteration"] == trace.iteration + 1
        assert trace.labelset == list(names[Y[trace.row] == 1])
        inside = ~((x < lower) | (x > upper)).any(axis=1)  # NaN bounds (wildcards) pass
        assert sorted(trace.match_set) == list(np.flatnonzero(inside))
        assert set(trace.correct_set) <= set(trace.match_set)
        wanted = labelset_text(Y[trace.row], model.label_names_)
        labelsets = trace.rules_before["labelset"]
        assert all((labelsets[i] == wanted) == (i in trace.correct_set) for i in trace.match_set)
        assert (trace.covering is not None) == (not trace.correct_set)
        assert (after["n_covering"] - before["n_covering"]) == (trace.covering is not None)
        assert (after["n_ga"] - before["n_ga"]) == (trace.ga is not None)
        assert after["n_deletion"] - before["n_deletion"] == len(trace.deleted)
        by_parents = sum(f != "inserted" for f in trace.ga.fates) if trace.ga else 0
        assert after["n_subsumption"] - before["n_subsumption"] == by_parents + len(trace.subsumed)
        if trace.ga:
            assert all(f"THEN {wanted}" in rule for rule in trace.ga.after_mutation)
            assert [s is None for s in trace.ga.stored] == [f != "inserted" for f in trace.ga.fates]
        seen["covering"] += trace.covering is not None
        seen["ga"] += trace.ga is not None
        seen["subsumed"] += len(trace.subsumed) + by_parents
        seen["deleted"] += len(trace.deleted)
    assert all(count > 0 for count in seen.values()), seen  # every kind of event was checked
    assert "[M]:" in trace.text()


def test_tracing_needs_bound_data(data):
    X, Y = data
    loaded = MLRClassifier.from_json(MLRClassifier(**PARAMS).fit(X, Y).to_json())
    with pytest.raises(InputError, match="start"):
        TrainingSession(loaded).step_traced()


def test_offsprings_unspecified_features_are_read_as_wildcards_whatever_they_hold(data,
                                                                                 monkeypatch):
    """The GA's dense rows keep, for a feature a child leaves unspecified, whatever an earlier
    child left there (inf included): the trace reads those entries as wildcards without
    computing bounds from them (``inf - inf`` warned "invalid value encountered in
    subtract"), and the offspring's texts are the same as from clean rows."""
    import warnings

    import mlr_core.training_session as ts

    X, Y = data
    real = ts.describe

    def leftovers(trace, *args):
        clean = real(trace, *args)
        unspecified = trace.offspring[:, :, 0] == 0
        for k in (1, 2):  # centre, spread
            trace.offspring[:, :, k][unspecified] = np.inf
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            dirty = real(trace, *args)
        assert (dirty.ga is None) == (clean.ga is None)
        if clean.ga:
            assert dirty.ga.after_crossover == clean.ga.after_crossover
            assert dirty.ga.after_mutation == clean.ga.after_mutation
        return dirty

    monkeypatch.setattr(ts, "describe", leftovers)
    session = TrainingSession(MLRClassifier(**PARAMS)).start(X, Y)
    assert sum(session.step_traced().ga is not None for _ in range(30)) > 0
