"""Nominal features (issue 32): a table of numeric, string, pandas-category and bool columns is
learned as it comes, its rules test sets of categories, and every text and export reads them
in the data's words."""

import csv
import io
import json
import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pytest

from mlr_core import InputError, MLRClassifier
from mlr_core._engine.population import NO_SET, population_bytes
from mlr_core.compaction import compact
from mlr_core.errors import ModelFormatError
from mlr_core.export import sql_statements, to_python
from mlr_core.scorecard import to_csv

COLOURS = ["red", "blue", "ochre", "green"]


def table(n, seed, colours=COLOURS):
    """Mixed columns; label 0 is planted on colour (red or ochre: the first and third category),
    label 1 on x and flag, label 2 on the grade (3)."""
    r = np.random.default_rng(seed)
    colour = r.choice(colours, n)
    X = pd.DataFrame({
        "x": r.random(n),
        "colour": colour,
        "grade": pd.Categorical(r.choice([1, 2, 3], n), categories=[1, 2, 3]),
        "flag": r.random(n) < 0.5,
    })
    Y = np.column_stack([np.isin(colour, [colours[0], colours[2]]),
                         (X["x"] > 0.5) & X["flag"], X["grade"] == 3]).astype(int)
    return X, Y


@pytest.fixture(scope="module")
def mixed():
    X, Y = table(500, 0)
    model = MLRClassifier(n_rules=400, n_iter=8000, random_state=0).fit(X, Y)
    return model, X, Y


def test_fit_predict_and_the_rules_name_categories(mixed):
    model, X, Y = mixed
    X_test, Y_test = table(300, 1)
    assert model.predict(X_test).shape == Y_test.shape
    proba = model.predict_proba(X_test)
    assert ((proba >= 0) & (proba <= 1)).all()
    assert (model.predict(X_test) == Y_test).mean(axis=0)[0] >= 0.95  # the planted colours
    assert model.run_.scaling.categories[1] == tuple(sorted(COLOURS))
    assert model.run_.scaling.categories[2] == (1, 2, 3)
    assert model.run_.scaling.categories[3] == (False, True)
    rules = model.rules_frame()["rule"]
    assert rules.str.contains("colour ∈ {ochre, red}", regex=False).any()
    assert not rules.str.contains(r"colour\s*[<>]=", regex=True).any()


def test_an_unseen_category_fails_every_rule_that_tests_the_feature(mixed):
    model, X, _ = mixed
    row = X.iloc[[0]].copy()
    row["colour"] = "purple"
    rule_set = model.rule_set_
    xs = rule_set.scaled(row)
    matched = set(rule_set.matching(xs[0]).tolist())
    tests_colour = {i for i, tests in enumerate(rule_set.set_tests())
                    if any(j == 1 for j, _ in tests)}
    assert tests_colour and not matched & tests_colour
    assert model.predict(row).shape == (1, 3)


def test_explanation_names_the_rows_category(mixed):
    model, X, _ = mixed
    row = X.iloc[0]
    explanation = model.rule_set_.explain(row.tolist())
    assert f"colour = {row['colour']} ∈ {{" in " ".join(explanation.match_set["rule"])
    assert np.allclose(explanation.scores.to_numpy(), model.predict_proba(X.iloc[[0]])[0])


def test_save_and_load_keep_categories_and_predictions(mixed):
    model, X, _ = mixed
    loaded = MLRClassifier.from_json(model.to_json())
    assert loaded.run_.scaling.categories == model.run_.scaling.categories
    shares = model.run_.scaling.shares  # covering's sets: the categories' training shares
    colours = list(model.run_.scaling.categories[1])
    assert np.allclose(shares[1, :4], X["colour"].value_counts(normalize=True)[colours])
    assert (shares[0] == 0).all() and np.array_equal(loaded.run_.scaling.shares, shares)
    assert np.array_equal(loaded.predict(X), model.predict(X))
    assert np.array_equal(loaded.predict_proba(X), model.predict_proba(X))


@pytest.mark.parametrize("key, tamper, words", [
    ("categories", lambda c: c.__setitem__(1, ["blue", "blue", "ochre", "red"]), "twice"),
    ("categories", lambda c: c.__setitem__(1, ["blue", "green"]), "does not belong"),
    ("categories", lambda c: c.__setitem__(1, [f"v{i}" for i in range(65)]), "1 to 64"),
    ("categories", lambda c: c.pop(), "one per feature"),
    ("categories", lambda c: c.__setitem__(1, [["red"], "blue", "green", "ochre"]),
     "strings, numbers"),
    ("category_shares", lambda s: s.__setitem__(1, [0.5, 0.5, 0.5, 0.0]), "summing to at most 1"),
    ("category_shares", lambda s: s.__setitem__(1, [1.5, -0.5, 0.0, 0.0]), "each in"),
    ("category_shares", lambda s: s.__setitem__(1, [0.5, 0.5]), "4 numbers"),
    ("category_shares", lambda s: s.__setitem__(0, [1.0]), "one per feature"),
])
def test_a_tampered_category_list_or_share_is_refused(mixed, key, tamper, words):
    model, _, _ = mixed
    data = json.loads(model.to_json())
    tamper(data["rule_set"][key])
    with pytest.raises(ModelFormatError, match=words):
        MLRClassifier.from_json(json.dumps(data))


def test_a_file_without_category_shares_loads_with_equal_shares(mixed):
    model, X, _ = mixed
    data = json.loads(model.to_json())
    del data["rule_set"]["category_shares"]
    loaded = MLRClassifier.from_json(json.dumps(data))
    assert np.array_equal(loaded.run_.scaling.shares[1, :4], [0.25] * 4)
    assert np.array_equal(loaded.predict(X), model.predict(X))


def test_a_tampered_nominal_test_is_refused(mixed):
    model, _, _ = mixed
    data = json.loads(model.to_json())
    rule = next(r for r in data["rule_set"]["rules"] if r["condition"]["allowed"][1])
    rule["condition"]["allowed"][1] = [0, 9]  # colour has 4 categories
    with pytest.raises(ModelFormatError, match="category codes from 0 to 3"):
        MLRClassifier.from_json(json.dumps(data))


def run_python(rule_set, X):
    namespace: dict = {}
    exec(compile(to_python(rule_set), "<export>", "exec"), namespace)
    names = list(rule_set.label_names)
    out = np.zeros((len(X), len(names)), dtype=np.uint8)
    for r, row in enumerate(X.astype(object).to_dict("records")):
        for label in namespace["predict"](row):
            out[r, names.index(label)] = 1
    return out


def run_sql(rule_set, X, engine):
    frame = X.copy()
    frame["grade"] = frame["grade"].astype("Int64")  # a missing grade: NULL
    frame.insert(0, "row_id", np.arange(len(frame))[::-1])
    if engine == "sqlite":
        with sqlite3.connect(":memory:") as db:
            frame.to_sql("data", db, index=False)
            *setup, query = sql_statements(rule_set, engine="sqlite")
            db.executescript("\n".join(setup))
            rows = db.execute(query).fetchall()
    else:
        db = duckdb.connect()
        db.register("frame", frame)
        db.execute("CREATE TABLE data AS SELECT * FROM frame")
        rows = db.execute("\n".join(sql_statements(rule_set, engine="duckdb"))).fetchall()
        db.close()
    assert [row[0] for row in rows] == list(range(len(frame)))
    return np.array([row[1:] for row in rows][::-1], dtype=np.uint8)


def test_exports_give_predicts_labels_on_every_row(mixed):
    model, X, _ = mixed
    X_test, _ = table(200, 2)
    X_test.loc[0, "colour"] = "purple"  # unseen in training
    rule_set = model.rule_set_
    expected = model.predict(X_test)
    python = to_python(rule_set)
    assert "frozenset(('blue', 'green', " in python or "frozenset(('ochre', 'red', ))" in python
    assert np.array_equal(run_python(rule_set, X_test), expected)
    assert "\"colour\" IN ('ochre', 'red')" in "\n".join(sql_statements(rule_set))
    for engine in ("sqlite", "duckdb"):
        assert np.array_equal(run_sql(rule_set, X_test, engine), expected), engine


def test_compaction_keeps_the_nominal_tests(mixed):
    model, X, _ = mixed
    small = compact(model, 12)
    assert small.rule_set_.rule_count <= 12
    assert any(tests for tests in small.rule_set_.set_tests())
    assert np.array_equal(run_python(small.rule_set_, X), small.predict(X))


PAYLOADS = ["re'd\n; DROP TABLE data; --", '=HYPERLINK("http://x","y")', "o\"ch\\re */ --",
            "gr\r\u2028een", "<script>alert(1)</script>"]


def test_category_values_are_data_not_code(tmp_path):
    X, Y = table(400, 3, colours=PAYLOADS)
    model = MLRClassifier(n_rules=300, n_iter=5000, random_state=0).fit(X, Y)
    rule_set = model.rule_set_
    assert any(tests for tests in rule_set.set_tests())
    expected = model.predict(X)
    assert np.array_equal(run_python(rule_set, X), expected)
    for engine in ("sqlite", "duckdb"):
        assert np.array_equal(run_sql(rule_set, X, engine), expected), engine
    text = to_csv(rule_set, X)
    notes = int(text.split("\n", 1)[0].removeprefix("# notes: ").split()[0])
    rows = list(csv.reader(io.StringIO(text.split("\n", notes + 1)[-1], newline="")))
    header, cells = rows[0], [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert not any(row[column].startswith(("=", "+", "-", "@"))
                   for row in cells for column in ("condition", "bounds"))
    assert "bounds" in header and "condition" in header
    allowed = [json.loads(row["bounds"].removeprefix("'")).get("colour") for row in cells]
    assert any(test and test["in"] and set(test["in"]) <= set(PAYLOADS) for test in allowed)
    assert any("colour ∈ {" in row["condition"] for row in cells)
    loaded = MLRClassifier.from_json(model.to_json())
    assert np.array_equal(loaded.predict(X), expected)
    # the texts quote and escape them: no category ends a line or passes for a set's comma
    texts = " ".join(rule_set.rule_texts(X.iloc[0].tolist()))
    assert not any(c in texts for c in "\n\r\u2028")
    assert any(repr(p) in texts for p in PAYLOADS) and not any(f"{{{p}" in texts for p in PAYLOADS)
    from mlr_core.audit import audit
    from mlr_core.audit_report import report_html

    assert "<script>alert" not in report_html(audit(model, X, Y))


def test_a_column_of_a_million_values_is_refused_before_allocating():
    n = 1_000_000
    X = pd.DataFrame({"id": [f"id{i}" for i in range(n)], "x": np.zeros(n)})
    with pytest.raises(InputError, match="1,000,000 distinct values; a nominal feature takes at "
                                         "most 64"):
        MLRClassifier(n_iter=10).fit(X, np.zeros((n, 1), dtype=int))
    codes = pd.DataFrame({"id": pd.Categorical.from_codes(np.zeros(3, dtype=np.int64),
                                                         [f"id{i}" for i in range(n)])})
    with pytest.raises(InputError, match="distinct values"):
        MLRClassifier(n_iter=10).fit(codes, np.zeros((3, 1), dtype=int))


def test_numeric_data_keeps_its_population_layout():
    """Without nominal features the sets take no memory, and no slot holds one."""
    assert population_bytes(1000, 10) == 1000 * (10 * (4 + 8 + 8) + 4 + 4 + 8 * 8)
    assert population_bytes(1000, 10, sets=True) == population_bytes(1000, 10) + 1000 * 10 * 8
    r = np.random.default_rng(0)
    model = MLRClassifier(n_rules=50, n_iter=300, random_state=0).fit(
        r.random((40, 3)), (r.random((40, 2)) < 0.5).astype(int))
    assert model.population_.allowed.shape[1] == 0
    assert model.run_.scaling.categories is None and len(model.run_.config.levels) == 0
    assert NO_SET == np.uint64(2**64 - 1)


def test_predicting_needs_the_training_columns(mixed):
    model, X, _ = mixed
    with pytest.raises(InputError, match="DataFrame"):
        model.predict(X.to_numpy())


def test_the_audit_report_reads_the_categories(mixed):
    from mlr_core.audit import audit
    from mlr_core.audit_report import report_html

    model, X, Y = mixed
    result = audit(model, X, Y)
    assert result.rules["rule"].str.contains("colour ∈ {", regex=False).any()
    assert "colour ∈ {" in report_html(result)


def test_a_traced_step_names_the_sets(mixed):
    from mlr_core import TrainingSession

    model, X, Y = mixed
    session = TrainingSession(MLRClassifier(n_rules=100, random_state=1))
    session.start(X, Y)
    session.learn(300)
    for _ in range(200):  # until a GA's offspring test the colour
        trace = session.step_traced()
        if trace.ga and any("colour ∈ {" in rule for rule in trace.ga.after_mutation):
            break
    else:
        raise AssertionError("no traced offspring tested the colour")
    text = trace.text()
    assert "THEN" in text
    assert "{...}" not in text  # every rule's sets are recorded, the offspring's too
    mutated = trace.bounds["after_mutation"]  # as data: their sets on the colour
    colour = mutated.feature == list(X.columns).index("colour")
    assert colour.any() and (mutated.allowed[colour] != NO_SET).all()


def holed(X, seed, share=0.2):
    """``X`` with ``share`` of its numeric, string and category cells missing at random."""
    r = np.random.default_rng(seed)
    X = X.copy()
    for name in ("x", "colour", "grade"):
        X.loc[r.random(len(X)) < share, name] = np.nan
    return X


@pytest.mark.parametrize("missing", ["typical", "fail"])
def test_a_table_with_missing_cells_in_every_kind_of_column_fits_explains_and_exports(missing):
    """Issue 32's first target: numeric, string, category and NaN-holding columns at once; the
    Python export (None for a missing value) and the SQL export (NULL) give predict's labels on
    every row, in SQLite and DuckDB; a missing category reads as the most frequent one
    (typical) or is in no set (fail)."""
    X, Y = table(500, 4)
    X = holed(X, 5)
    model = MLRClassifier(n_rules=400, n_iter=8000, random_state=0, missing=missing).fit(X, Y)
    X_test = holed(table(200, 6)[0], 7)
    expected = model.predict(X_test)
    assert expected.any() and model.predict_proba(X_test).shape == expected.shape
    assert model.rules_frame()["rule"].str.contains("colour ∈ {", regex=False).any()
    at = int(np.flatnonzero(X_test["colour"].isna())[0])
    explanation = model.rule_set_.explain(X_test.iloc[at].tolist())
    if missing == "fail":
        assert not explanation.match_set["rule"].str.contains("colour", regex=False).any()
    else:  # as the row with its colour written in
        colour = X.columns.get_loc("colour")
        fill = model.run_.scaling.fill_value(colour)
        assert fill == X["colour"].value_counts().index[0]
        assert (colour, "colour", f"missing (read as {fill})") in explanation.missing
        written = X_test.iloc[at].tolist()
        written[colour] = fill
        assert np.array_equal(explanation.rule_ids, model.rule_set_.explain(written).rule_ids)
    rows = X_test.astype(object).where(X_test.notna(), None)
    assert np.array_equal(run_python(model.rule_set_, rows), expected)
    for engine in ("sqlite", "duckdb"):
        assert np.array_equal(run_sql(model.rule_set_, X_test, engine), expected), engine
    small = compact(model, 12)
    assert np.array_equal(run_python(small.rule_set_, rows), small.predict(X_test))
