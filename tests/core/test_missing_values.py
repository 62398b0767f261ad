"""Missing values (NaN, ARFF ``?``, empty CSV cells), natively (``mlr_core/missing.py``): read as
their feature's typical training value (``missing="typical"``, the default) or failing every test
(``missing="fail"``), the same in ``predict``, the explanations, the scorecard, the compact model,
the audit, a saved model and both exports; covering and mutation never centre an interval on
one; inf is still refused."""

import functools
import json
import math
import re
import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from test_export import RUNS, run_sql

from mlr_core import InputError, MLRClassifier, ModelFormatError, TrainingSession, audit
from mlr_core._engine.matching import distance
from mlr_core.compaction import compact
from mlr_core.data.loaders import load_dataset_bytes
from mlr_core.export import python_labels, sql_statements, to_python
from mlr_core.missing import with_missing
from mlr_core.scaling import Scaling
from mlr_core.scorecard import missing_note
from mlr_core.scorecard import to_csv as scorecard_csv
from mlr_core.sparse_rows import SparseRows


def planted(n=400, d=6, seed=0):
    """Two labels planted on features 0 and 1, the other features noise."""
    r = np.random.default_rng(seed)
    X = r.random((n, d))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] < 0.4]).astype(np.uint8)
    return X, Y


SEMANTICS = ("typical", "fail")


@functools.cache
def fitted_holed(missing: str):
    """A model fitted on rows with 20% of their cells missing under ``missing``, and test rows
    holed alike."""
    X, Y = planted()
    X_train, X_test = with_missing(X[:300], 0.2, 1), with_missing(X[300:], 0.2, 2)
    model = MLRClassifier(n_rules=300, n_iter=6000, random_state=0,
                          missing=missing).fit(X_train, Y[:300])
    return model, X_train, X_test, Y[300:]


@pytest.fixture(params=SEMANTICS)
def holed(request):
    """`fitted_holed` once per semantics."""
    return fitted_holed(request.param)


def read(rule_set, X) -> np.ndarray:
    """X as the semantics reads it: each missing value replaced by its feature's fill
    (``typical``), or left NaN (``fail``)."""
    fills = rule_set.scaling.fills
    return X if fills is None else np.where(np.isnan(X), fills, X)


def expected_matches(rule_set, X) -> np.ndarray:
    """Rows x rules: the rule matches when each of its tests reads a known value within its
    bounds (a missing one read as the semantics says, `read`), from the tests in the data's
    units (`RuleSet.tests`), not from the engine."""
    X = read(rule_set, X)
    out = np.ones((len(X), rule_set.rule_count), dtype=bool)
    for i, tests in enumerate(rule_set.tests()):
        for j, lower, upper, _ in tests:
            out[:, i] &= ~np.isnan(X[:, j]) & (lower <= X[:, j]) & (X[:, j] <= upper)
    return out


def test_fit_and_predict_take_nan_and_learn_the_planted_labels(holed):
    model, _, X_test, Y_test = holed
    labels, scores = model.predict(X_test), model.predict_proba(X_test)
    assert labels.shape == Y_test.shape and np.isfinite(scores).all()
    known = ~np.isnan(X_test[:, :2]).any(axis=1)  # rows whose planted features are known
    assert (labels[known] == Y_test[known]).mean() > 0.85


def test_a_missing_value_is_read_as_its_semantics_says(holed):
    """``typical``: as its fill; ``fail``: every test on it fails."""
    model, _, X_test, _ = holed
    rule_set = model.rule_set_
    assert np.isnan(X_test).any() and any(rule_set.tests())
    assert (rule_set.scaling.fills is None) == (model.missing == "fail")
    expected = expected_matches(rule_set, X_test)
    assert np.array_equal(rule_set.match_counts(X_test), expected.sum(axis=1))
    for r in np.flatnonzero(np.isnan(X_test).any(axis=1))[:20]:
        ids = rule_set.explain(X_test[r]).rule_ids
        assert np.array_equal(ids, rule_set.rule_ids[np.flatnonzero(expected[r])])


def test_no_rule_tests_a_feature_missing_in_every_training_row():
    """Covering and mutation centre no interval on NaN: a column all NaN in training is tested
    by no rule, its range is 0 to 0, and rows with or without a value there predict alike."""
    X, Y = planted(seed=1)
    X[:, 3] = np.nan
    model = MLRClassifier(n_rules=300, n_iter=4000, random_state=0).fit(X, Y)
    lower, _ = model.rule_bounds()
    assert np.isnan(lower[:, 3]).all() and not np.isnan(lower).all()
    assert model.run_.scaling.data_min[3] == model.run_.scaling.data_max[3] == 0.0
    filled = X.copy()
    filled[:, 3] = 5.0
    assert np.array_equal(model.predict(X), model.predict(filled))


@pytest.mark.parametrize("missing", SEMANTICS)
def test_nan_only_at_predict_time_reads_as_missing(missing):
    X, Y = planted(seed=2)
    model = MLRClassifier(n_rules=300, n_iter=4000, random_state=0, missing=missing).fit(X, Y)
    holes = with_missing(X, 0.3, 3)
    expected = expected_matches(model.rule_set_, holes)
    assert np.array_equal(model.rule_set_.match_counts(holes), expected.sum(axis=1))
    assert np.isfinite(model.predict_proba(holes)).all()
    all_missing = np.full((1, X.shape[1]), np.nan)
    if missing == "fail":  # only the rules that test nothing match
        untested = sum(not tests for tests in model.rule_set_.tests())
        assert model.rule_set_.match_counts(all_missing)[0] == untested
    else:  # the row of the training means
        means = X.mean(axis=0, keepdims=True)
        assert np.array_equal(model.run_.scaling.fills, means[0])
        assert np.array_equal(model.predict_proba(all_missing), model.predict_proba(means))


def test_infinity_is_refused_with_its_cell():
    X, Y = planted()
    X[7, 2] = np.inf
    with pytest.raises(InputError, match="infinity"):
        MLRClassifier(n_iter=10).fit(X, Y)


def test_the_nearest_rules_measure_known_features_only(holed):
    """With the vote, a row no rule matches is answered by the nearest rules; a missing value
    adds no distance (else every distance to a rule testing it would be NaN)."""
    model, X_train, X_test, _ = holed
    pop = model.rule_set_.rules
    x = model.run_.scaling.transform(X_test[:1] * 0.0 + 3.0)[0]  # beyond the range: clipped
    x[[0, 2]] = np.nan
    lower, upper = model.rule_set_.bounds()
    gap = np.maximum(np.maximum(lower - x, x - upper), 0.0)
    expected = np.sqrt(np.where(np.isnan(gap), 0.0, gap ** 2).sum(axis=1))
    got = [distance(pop, i, x) for i in range(model.rule_set_.rule_count)]
    assert np.allclose(got, expected, rtol=0, atol=1e-12) and np.isfinite(got).all()
    vote = MLRClassifier(n_rules=300, n_iter=3000, weighting="vote", random_state=0)
    vote.fit(X_train, model.run_.truth())
    assert np.isfinite(vote.predict_proba(np.full((3, X_train.shape[1]), np.nan))).all()


@pytest.mark.parametrize("axis", ["minmax", "rank"])
def test_scaling_reads_the_known_values_and_keeps_nan(axis):
    X = np.array([[0.0, np.nan], [np.nan, 1.0], [4.0, 2.0], [2.0, 3.0], [1.0, np.nan]])
    scaling = Scaling.of(X, axis)
    assert scaling.data_min.tolist() == [0.0, 1.0] and scaling.data_max.tolist() == [4.0, 3.0]
    scaled = scaling.transform(X)
    assert np.array_equal(np.isnan(scaled), np.isnan(X))
    assert ((scaled[~np.isnan(X)] >= 0) & (scaled[~np.isnan(X)] <= 1)).all()
    if axis == "rank":
        assert scaling.knots[0][0].tolist() == [0.0, 1.0, 2.0, 4.0]
    binary = Scaling.of(np.array([[0.0, np.nan], [np.nan, np.nan], [1.0, np.nan]]))
    assert binary.binary.tolist() == [True, False]


def test_python_export_reads_none_and_nan_as_predict_does(holed):
    model, _, X_test, _ = holed
    rule_set = model.rule_set_
    source = to_python(rule_set)
    expected = rule_set.labels(X_test)
    assert np.array_equal(python_labels(source, X_test.tolist()), expected)
    as_none = [[None if math.isnan(v) else v for v in row] for row in X_test.tolist()]
    assert np.array_equal(python_labels(source, as_none), expected)
    namespace: dict = {}
    exec(compile(source, "<scorecard>", "exec"), namespace)
    row = dict(zip(rule_set.feature_names, as_none[0], strict=True))
    names = np.array(rule_set.label_names)
    assert namespace["predict"](row) == list(names[expected[0].astype(bool)])


@pytest.mark.parametrize(("written_for", "engine"), RUNS)
def test_sql_export_reads_null_as_predict_does(holed, written_for, engine):
    model, _, X_test, _ = holed
    rule_set = model.rule_set_
    statements = sql_statements(rule_set, engine=written_for)
    got = run_sql(statements, X_test, rule_set.feature_names, engine)
    assert np.array_equal(got, rule_set.labels(X_test))


def test_saved_compact_and_audited_models_agree_on_missing_values(holed):
    model, X_train, X_test, _ = holed
    text = model.to_json()
    loaded = MLRClassifier.from_json(text)
    assert loaded.to_json() == text  # saved, loaded and saved again: the same bytes
    assert loaded.missing == model.missing
    assert np.array_equal(loaded.predict_proba(X_test), model.predict_proba(X_test))
    small = compact(model, 10)
    assert np.array_equal(small.predict(X_test), small.rule_set_.labels(X_test))
    expected = expected_matches(small.rule_set_, X_test)
    card = small.rule_set_.scorecard(X_test)
    assert card["support"].tolist() == expected.sum(axis=0).tolist()
    decisions = audit.rule_decisions(model, X_test)
    assert decisions.loc[model.rule_set_.rule_ids, "n_matched"].tolist() == expected_matches(
        model.rule_set_, X_test).sum(axis=0).tolist()
    assert audit.rows_matched(model).sum() == expected_matches(model.rule_set_,
                                                               X_train).sum()


def test_a_training_session_trains_on_missing_values():
    X, Y = planted(seed=4)
    holes = with_missing(X, 0.2, 5)
    session = TrainingSession(MLRClassifier(n_rules=200, random_state=0)).start(holes, Y)
    session.learn(1500)
    session.tune_bipartition()
    assert session.summary()["n_covering"] > 0
    assert np.isfinite(session.model.predict_proba(holes)).all()
    frame = session.model.rules_frame()
    assert frame["rule"].str.len().gt(0).all()


ARFF = """@relation r
@attribute a numeric
@attribute b {x, y, z}
@attribute c {yes, no}
@attribute L1 {0, 1}
@attribute L2 {0, 1}
@data
1.5, x, yes, 1, 0
?, y, no, 0, 1
0, ?, ?, 0, 0
"""


def test_arff_question_marks_load_as_nan():
    data = load_dataset_bytes(ARFF.encode(), "m.arff", labels=2)
    assert data.feature_names == ["a", "b=x", "b=y", "b=z", "c"]
    X = data.X
    assert math.isnan(X[1, 0]) and np.isnan(X[2, 1:]).all() and not np.isnan(X[:2, 1:]).any()
    assert X[0].tolist() == [1.5, 1.0, 0.0, 0.0, 1.0]


def test_empty_csv_cells_load_as_nan_and_train():
    text = "a,b,label:y\n" + "".join(
        f"{i / 40},{'' if i % 5 == 0 else (i * 7) % 11},{int(i >= 20)}\n" for i in range(40))
    data = load_dataset_bytes(text.encode(), "m.csv")
    assert np.isnan(data.X[::5, 1]).all() and np.isnan(data.X).sum() == 8
    model = MLRClassifier(n_rules=100, n_iter=1500, random_state=0).fit(data.X, data.Y)
    assert model.predict(data.X).shape == (40, 1)
    def refuse(constant):
        raise AssertionError(f"the model file holds {constant}")

    json.loads(model.to_json(), parse_constant=refuse)  # no NaN in a model trained on NaN


@pytest.mark.parametrize("missing", SEMANTICS)
def test_words_missing_read_alike_in_predict_and_both_exports(missing):
    """On 0/1 word features the weights also fit one rule per word (``feature_rules``, matched
    in NumPy, not by the kernel): a missing word reads as there too (its more frequent value,
    or failing), in predict and the exports."""
    r = np.random.default_rng(6)
    X = (r.random((300, 40)) < 0.15).astype(float)
    Y = np.column_stack([X[:, 0] + X[:, 1] > 0, X[:, 2] > 0]).astype(np.uint8)
    X = with_missing(X, 0.2, 7)
    model = MLRClassifier(n_rules=200, n_iter=3000, random_state=0, missing=missing).fit(X, Y)
    if missing == "typical":
        assert model.run_.scaling.fills.tolist() == [0.0] * 40  # each word mostly absent
    expected = model.rule_set_.labels(X)
    assert np.array_equal(model.predict(X), expected)
    assert np.array_equal(python_labels(to_python(model.rule_set_), X.tolist()), expected)
    statements = sql_statements(model.rule_set_)
    assert np.array_equal(run_sql(statements, X, model.rule_set_.feature_names, "sqlite"),
                          expected)


def test_the_fills_are_the_typical_training_values():
    """A numeric feature's mean of its known values, a 0/1 feature's more frequent value (1 on
    a tie), a nominal feature's most frequent category, NaN for a feature never known."""
    nan = np.nan
    X = np.array([[1.0, 0.0, 1.0, nan],
                  [nan, 1.0, 0.0, nan],
                  [4.0, 1.0, nan, nan],
                  [2.5, nan, 1.0, nan],
                  [nan, 1.0, 0.0, nan]])
    assert np.array_equal(Scaling.of(X, missing="typical").fills, [2.5, 1.0, 1.0, nan],
                          equal_nan=True)
    assert Scaling.of(X).fills is None  # "fail" reads no fills
    frame = pd.DataFrame({"colour": ["red", None, "ochre", "ochre", "blue", None],
                          "x": [0.5, 1.0, 1.5, 2.0, 2.5, nan]})
    model = MLRClassifier(n_rules=50, n_iter=200, random_state=0).fit(
        frame, np.array([[1, 0], [0, 1]] * 3))
    scaling = model.run_.scaling
    assert scaling.fill_value(0) == "ochre" and scaling.fill_value(1) == 1.5
    assert scaling.fill_text(0) == "missing (read as ochre)"


def test_typical_reads_a_missing_value_as_its_fill_in_fit_and_predict():
    """A row with NaN predicts as the row with the fills written in; and, on the min-max axis,
    whose range is that of the known values (the fills lie within it), a model fitted on the
    holed rows learns what a model fitted on the rows with the fills written in learns (on the
    rank axis the written-in fills would move the knots: the holed rows' axis is their known
    values')."""
    X, Y = planted(seed=8)
    X_train, X_test = with_missing(X[:300], 0.2, 9), with_missing(X[300:], 0.2, 10)
    model = MLRClassifier(n_rules=300, n_iter=4000, random_state=0, axis="minmax").fit(
        X_train, Y[:300])
    fills = model.run_.scaling.fills
    assert np.isfinite(fills).all()
    filled_test = np.where(np.isnan(X_test), fills, X_test)
    assert np.array_equal(model.predict_proba(X_test), model.predict_proba(filled_test))
    imputed = MLRClassifier(n_rules=300, n_iter=4000, random_state=0, axis="minmax",
                            missing="fail").fit(np.where(np.isnan(X_train), fills, X_train),
                                                Y[:300])
    assert np.array_equal(model.predict_proba(X_test), imputed.predict_proba(filled_test))
    assert model.rules_frame()["rule"].tolist() == imputed.rules_frame()["rule"].tolist()
    failing = MLRClassifier(n_rules=300, n_iter=4000, random_state=0, axis="minmax",
                            missing="fail").fit(X_train, Y[:300])
    assert not np.array_equal(failing.predict_proba(X_test), model.predict_proba(X_test))


@pytest.mark.parametrize("missing", SEMANTICS)
def test_complete_data_learns_alike_under_both_semantics(missing):
    X, Y = planted(seed=11)
    model = MLRClassifier(n_rules=200, n_iter=2000, random_state=0, missing=missing).fit(X, Y)
    other = MLRClassifier(n_rules=200, n_iter=2000, random_state=0,
                          missing=SEMANTICS[missing == "typical"]).fit(X, Y)
    assert np.array_equal(model.predict_proba(X), other.predict_proba(X))


def test_both_exports_read_a_missing_category_as_predict_does():
    """A nominal feature's missing value reads as its most frequent category (typical), in the
    Python export (None) and the SQL export (NULL), in SQLite and DuckDB."""
    r = np.random.default_rng(12)
    colour = r.choice(["red", "ochre", "blue"], 300, p=[0.5, 0.3, 0.2]).astype(object)
    x = r.random(300)
    Y = np.column_stack([colour == "red", x > 0.5]).astype(np.uint8)
    colour[r.random(300) < 0.2] = None
    frame = pd.DataFrame({"colour": colour, "x": np.where(r.random(300) < 0.2, np.nan, x)})
    model = MLRClassifier(n_rules=200, n_iter=3000, random_state=0).fit(frame, Y)
    expected = model.predict(frame)
    assert model.run_.scaling.fill_value(0) == "red"
    assert any(sets for sets in model.rule_set_.set_tests())
    rows = [[None if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in row]
            for row in frame.itertuples(index=False)]
    assert np.array_equal(python_labels(to_python(model.rule_set_), rows), expected)
    table = frame.assign(row_id=np.arange(len(frame)))
    with sqlite3.connect(":memory:") as db:
        table.to_sql("data", db, index=False)
        *setup, query = sql_statements(model.rule_set_)
        db.executescript("\n".join(setup))
        got = np.array([row[1:] for row in db.execute(query).fetchall()])
    assert np.array_equal(got, expected)
    db = duckdb.connect()
    db.register("frame", table)
    db.execute("CREATE TABLE data AS SELECT * FROM frame")
    got = db.execute("\n".join(sql_statements(model.rule_set_, engine="duckdb"))).fetchall()
    db.close()
    assert np.array_equal(np.array([row[1:] for row in got]), expected)


def test_explain_and_the_scorecard_say_what_a_missing_value_reads_as(holed):
    model, _, X_test, _ = holed
    r = int(np.flatnonzero(np.isnan(X_test).any(axis=1))[0])
    j = int(np.flatnonzero(np.isnan(X_test[r]))[0])
    explanation = model.rule_set_.explain(X_test[r])
    fills = model.run_.scaling.fills
    reading = "missing" if fills is None else f"missing (read as {fills[j]:g})"
    assert (j, f"x{j}", reading) in explanation.missing
    assert f"x{j} = {reading}" in explanation.text()
    note = missing_note(model.rule_set_)
    if fills is None:
        assert "fails" in note
    else:
        tested = {model.rule_set_.feature_names[k] for tests in model.rule_set_.tests()
                  for k, *_ in tests}
        assert json.loads(note[note.index("{"):]) == {
            name: fills[k] for k, name in enumerate(model.rule_set_.feature_names)
            if name in tested}
    assert note in scorecard_csv(model.rule_set_, X_test)


def test_a_sparse_nan_at_predict_time_reads_as_its_fill():
    """A sparse row storing NaN (typical): read as the fill, as a dense row; refused under
    ``fail``, in training and in predict."""
    r = np.random.default_rng(13)
    X = (r.random((300, 30)) < 0.2).astype(float)
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] > 0]).astype(np.uint8)
    model = MLRClassifier(n_rules=200, n_iter=2000, random_state=0).fit(sp.csr_matrix(X), Y)
    holed = with_missing(X[:50], 0.2, 14)
    stored = sp.csr_matrix(np.where(np.isnan(holed), np.nan, holed))
    assert np.isnan(stored.data).any()
    assert np.array_equal(model.predict_proba(stored), model.predict_proba(holed))
    filled = np.where(np.isnan(holed), model.run_.scaling.fills, holed)
    assert np.array_equal(model.predict_proba(stored), model.predict_proba(filled))
    refusal = re.escape("A sparse X cannot hold missing values (NaN) with missing='fail': "
                        "pass the rows dense, fill the missing cells, or fit with "
                        "missing='typical'")
    with pytest.raises(InputError, match=refusal):
        MLRClassifier(n_rules=200, n_iter=10, missing="fail").fit(stored, Y[:50])
    failing = MLRClassifier(n_rules=200, n_iter=2000, random_state=0, missing="fail").fit(
        sp.csr_matrix(X), Y)
    with pytest.raises(InputError, match=refusal):
        failing.predict(stored)
    with pytest.raises(InputError, match=refusal):
        TrainingSession(failing).start(stored, Y[:50], warm_start=True)


def holed_words(seed=15):
    """Sparse word counts (some negative, so a feature's 0 is not its axis's start) storing NaN
    for a fifth of their stored values, and, dense, the same cells: column 3 stores NaN only
    (its known values are its 0s not stored), column 4 NaN in every row (no value known)."""
    r = np.random.default_rng(seed)
    X = (r.random((240, 12)) < 0.3) * r.integers(1, 4, (240, 12)).astype(float)
    X[:, 5] *= -1.0
    X[:, 4] = 1.0
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] > 0]).astype(np.uint8)
    stored = sp.csr_matrix(X)
    stored.data[r.random(stored.nnz) < 0.2] = np.nan
    stored.data[np.isin(stored.indices, [3, 4])] = np.nan
    return stored, stored.toarray(), Y


@pytest.mark.parametrize("axis", ["minmax", "rank"])
def test_a_sparse_fit_with_stored_nan_is_the_dense_fit(axis):
    """Under typical, sparse rows storing NaN learn what their densified twin learns (the same
    ranges, knots, fills, rules and predictions, bytes of the model file alike), the 0s not
    stored counted as known values, while the bound rows stay sparse."""
    stored, dense, Y = holed_words()
    assert np.isnan(stored.data).any() and np.isnan(dense).sum() == np.isnan(stored.data).sum()
    sparse_model = MLRClassifier(n_rules=300, n_iter=1500, random_state=0, axis=axis)
    sparse_model.fit(stored, Y)
    dense_model = MLRClassifier(n_rules=300, n_iter=1500, random_state=0, axis=axis)
    dense_model.fit(dense, Y)
    assert sparse_model.to_json() == dense_model.to_json()
    assert np.array_equal(sparse_model.predict_proba(stored), dense_model.predict_proba(dense))
    assert isinstance(sparse_model.run_.X, SparseRows)
    assert len(sparse_model.run_.X.data) == stored.nnz
    fills = sparse_model.run_.scaling.fills
    known = ~np.isnan(dense)
    means = np.where(known, dense, 0.0).sum(axis=0) / np.maximum(known.sum(axis=0), 1)
    assert np.array_equal(fills[5:], means[5:])  # numeric: the mean of the known values
    assert fills[3] == 0.0 and np.isnan(fills[4])  # only 0s known; nothing known
    lower, _ = sparse_model.rule_bounds()
    assert np.isnan(lower[:, 4]).all()  # no rule tests a feature never known


def holed_arff(seed=17) -> tuple[str, np.ndarray, np.ndarray]:
    """`holed_words` written as a sparse ARFF (a stored NaN written ``?``) with a nominal
    colour, ``?`` in some rows and absent in others (its first declared value, red), then the
    two labels; and, dense, the features the file holds (the colour one-hot, NaN in each of its
    columns where ``?``) and the labels."""
    stored, dense, Y = holed_words(seed)
    colour = np.random.default_rng(seed).choice(["", "?", "blue", "green"], len(Y))
    d = stored.shape[1]
    lines = ["@relation holes", *(f"@attribute w{j} numeric" for j in range(d)),
             "@attribute colour {red,blue,green}", "@attribute L1 {0,1}",
             "@attribute L2 {0,1}", "@data"]
    for i, row in enumerate(stored):
        cells = [f"{j} {'?' if np.isnan(v) else f'{v:g}'}" for j, v in zip(row.indices, row.data,
                                                                          strict=True)]
        cells += [f"{d} {colour[i]}"] if colour[i] else []
        cells += [f"{d + 1 + k} 1" for k in np.flatnonzero(Y[i])]
        lines.append("{" + ", ".join(cells) + "}")
    one_hot = np.column_stack([np.where(colour == "?", np.nan, colour == value)
                               for value in ("", "blue", "green")])
    return "\n".join(lines) + "\n", np.hstack([dense, one_hot]), Y


def test_a_sparse_arff_reads_a_question_mark_as_a_stored_nan():
    """Read sparse, a ``?`` is a stored NaN (a missing nominal's in each of its one-hot
    columns) and a cell not given a 0 not stored: the file's features, as its dense reading
    gives them."""
    text, features, Y = holed_arff()
    sparse = load_dataset_bytes(text.encode(), "holes.arff", labels=2, sparse=True)
    dense = load_dataset_bytes(text.encode(), "holes.arff", labels=2)
    assert sp.issparse(sparse.X) and isinstance(dense.X, np.ndarray)
    assert np.array_equal(dense.X, features, equal_nan=True)
    assert np.array_equal(sparse.X.toarray(), features, equal_nan=True)
    assert np.isnan(features[:, -3:]).any() and (features[:, -3] == 1).any()  # "?", absent
    assert sparse.X.nnz == np.count_nonzero(features)  # NaN stored, no 0
    assert np.isnan(sparse.X.data).sum() == np.isnan(features).sum() > 0
    assert np.array_equal(sparse.Y, Y) and np.array_equal(dense.Y, Y)


def test_a_sparse_arff_with_question_marks_fits_as_its_dense_reading():
    """Under ``missing="typical"`` (the default) the sparse reading fits the dense reading's
    model; ``missing="fail"`` refuses it, saying what to do."""
    text, _, _ = holed_arff()
    sparse = load_dataset_bytes(text.encode(), "holes.arff", labels=2, sparse=True)
    dense = load_dataset_bytes(text.encode(), "holes.arff", labels=2)
    models = [MLRClassifier(n_rules=300, n_iter=1500, random_state=0).fit(data.X, data.Y)
              for data in (sparse, dense)]
    assert models[0].to_json() == models[1].to_json()
    assert np.array_equal(models[0].predict_proba(sparse.X), models[1].predict_proba(dense.X))
    with pytest.raises(InputError, match=re.escape(
            "A sparse X cannot hold missing values (NaN) with missing='fail': pass the rows "
            "dense, fill the missing cells, or fit with missing='typical'")):
        MLRClassifier(n_rules=300, n_iter=10, missing="fail").fit(sparse.X, sparse.Y)


def test_a_training_session_starts_and_warm_starts_on_sparse_rows_storing_nan():
    stored, dense, Y = holed_words(16)
    sessions = [TrainingSession(MLRClassifier(n_rules=200, random_state=0)).start(rows, Y)
                for rows in (stored, dense)]
    for session, rows in zip(sessions, (stored, dense), strict=True):
        session.learn(500).tune_bipartition()
        session.start(rows, Y, warm_start=True).learn(300).tune_bipartition()
    sparse_model, dense_model = (session.model for session in sessions)
    assert sparse_model.to_json() == dense_model.to_json()
    assert np.array_equal(sparse_model.predict(stored), dense_model.predict(dense))


def edited(text, edit) -> str:
    data = json.loads(text)
    edit(data)
    return json.dumps(data)


def test_a_file_written_before_the_fills_loads_as_fail():
    """A model file without ``missing`` in its parameters and without fills: a test on a
    missing value fails, as when it was written, and its predictions are kept."""
    model, _, X_test, _ = fitted_holed("fail")
    old = edited(model.to_json(), lambda d: d["params"].pop("missing"))
    loaded = MLRClassifier.from_json(old)
    assert loaded.missing == "fail" and loaded.run_.scaling.fills is None
    assert np.array_equal(loaded.predict_proba(X_test), model.predict_proba(X_test))


TAMPERED = {
    "a fill beyond the range": (lambda d: d["rule_set"]["fills"].__setitem__(0, 1e9),
                                "fills: feature 'x0'"),
    "a fill not a number": (lambda d: d["rule_set"]["fills"].__setitem__(0, "x"),
                            "fills must be 6 numbers"),
    "a fill infinite": (lambda d: d["rule_set"]["fills"].__setitem__(0, float("inf")),
                        "fills must be finite"),
    "a fill null for a known feature": (lambda d: d["rule_set"]["fills"].__setitem__(0, None),
                                        "fills: feature 'x0'"),
    "fills of another length": (lambda d: d["rule_set"].update(fills=[0.5]),
                                "fills must be a list of 6"),
    "fills gone": (lambda d: d["rule_set"].pop("fills"), "holds no fills"),
    "fills under fail": (lambda d: d["params"].update(missing="fail"), "holds fills"),
}


@pytest.mark.parametrize("name", TAMPERED)
def test_tampered_fills_are_refused(name):
    model = fitted_holed("typical")[0]
    edit, words = TAMPERED[name]
    with pytest.raises(ModelFormatError, match=re.escape(words)):
        MLRClassifier.from_json(edited(model.to_json(), edit))


def test_a_warm_start_keeps_the_semantics_it_learned_with(holed):
    model, X_train, _, _ = holed
    copy = MLRClassifier.from_json(model.to_json())
    copy.set_params(missing=SEMANTICS[model.missing == "typical"])
    with pytest.raises(InputError, match="missing is"):
        TrainingSession(copy).start(X_train, planted()[1][:300], warm_start=True)
    assert copy.to_json() == model.to_json().replace(  # refused: the model as it was
        f'"missing": "{model.missing}"', f'"missing": "{copy.missing}"')
