"""The exports (``mlr_core/export.py``): names are data and never code, in Python and SQL, by
every route a name reaches a model (fit, model JSON, a CSV header); the Python and the SQL give
``predict``'s labels on every row of the five real datasets' full models, in SQLite and DuckDB,
and for every kind of cut; the headers say the cut and the clipping."""

import ast
import csv
import io
import json
import math
import sqlite3
import tokenize
from dataclasses import replace

import duckdb
import numpy as np
import pandas as pd
import pytest

from mlr_core import InputError, MLRClassifier, load_dataset, make_hypercube_dataset
from mlr_core.compaction import compact
from mlr_core.export import MODEL_TABLES, NESTED, python_labels, sql_statements, to_python, to_sql

ENGINES = ("sqlite", "duckdb")
RUNS = (("sqlite", "sqlite"), ("sqlite", "duckdb"), ("duckdb", "duckdb"))
"""The scripts run (the engine a script is written for, the engine that runs it): SQLite's
runs in both, as the default script a user may hand to either."""


def payloads(marker) -> list[str]:
    """Feature names that break out of a comment, a string or an identifier if pasted as code;
    the first two would create ``marker`` if a line of them ran."""
    return [
        f"a\nopen({str(marker)!r}, 'w').close()\n#",
        f"b\r__import__('os').mkdir({str(marker)!r} + 'dir')\r#",
        "c\u2028line\u2029para\x85nel",
        "d ' \" ''' \"\"\" \\ \\n \\\\",
        "e */ /* -- # ;",
        'f"; DROP TABLE data; --',
        "SELECT * FROM data WHERE 1 = 1",
        "naïve 中文 🚀 \u202eevil\u202c",
        "g\x0c\x0b\t\x1b[0m",
    ]


LABELS = ["la\nbel'); DROP TABLE data; --", "lb\"*/\r\u2028", "lc \\ 'x' ü"]


def run_sql(statements, X, feature_names, engine, key="row_id") -> np.ndarray:
    """The SQL's labels for rows X, put in a table ``data`` with keys in reverse order (the
    output is by key), as a matrix in the order of X: SQLite runs the statements one by one
    (Python's module takes one per call), DuckDB the whole script, as a file is run."""
    frame = pd.DataFrame(np.asarray(X, dtype=float), columns=list(feature_names))
    frame.insert(0, key, np.arange(len(frame))[::-1])
    if engine == "sqlite":
        with sqlite3.connect(":memory:") as db:
            frame.to_sql("data", db, index=False)
            *setup, query = statements
            db.executescript("\n".join(setup))
            cursor = db.execute(query)
            names = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
            assert db.execute("SELECT COUNT(*) FROM data").fetchone()[0] == len(frame)
    else:
        db = duckdb.connect()
        db.register("frame", frame)
        db.execute("CREATE TABLE data AS SELECT * FROM frame")
        cursor = db.execute("\n".join(statements))
        names = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        assert db.execute("SELECT COUNT(*) FROM data").fetchone()[0] == len(frame)
        db.close()
    keys = [row[0] for row in rows]
    assert names[0] == key and keys == sorted(keys) == list(range(len(frame)))
    return np.array([row[1:] for row in rows][::-1], dtype=np.uint8).reshape(len(frame), -1)


def assert_exports_predict(rule_set, X, marker=None):
    """Both exports give the rule set's labels on X; nothing in a name ran."""
    expected = rule_set.labels(X)
    source = to_python(rule_set)
    namespace: dict = {}
    exec(compile(source, "<export>", "exec"), namespace)
    assert list(namespace["FEATURES"]) == list(rule_set.feature_names)
    assert list(namespace["LABELS"]) == list(rule_set.label_names)
    rows = [dict(zip(rule_set.feature_names, map(float, x), strict=True)) for x in X]
    names = np.array(rule_set.label_names, dtype=object)
    assert [namespace["predict"](row) for row in rows] == [
        list(names[bits.astype(bool)]) for bits in expected]
    assert np.array_equal(python_labels(source, X, rule_set.feature_names), expected)
    for written_for, engine in RUNS:
        statements = sql_statements(rule_set, engine=written_for)
        assert np.array_equal(run_sql(statements, X, rule_set.feature_names, engine),
                              expected), (written_for, engine)
    if marker is not None:
        assert not marker.exists() and not marker.with_name(marker.name + "dir").exists()


@pytest.fixture(scope="module")
def cube():
    return make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, n_irrelevant=7,
                                  random_state=0)


def fitted(cube, feature_names, label_names):
    return MLRClassifier(n_iter=3000, random_state=0).fit(
        cube.X, cube.Y, feature_names=feature_names, label_names=label_names)


def test_names_from_fit_are_data_not_code(cube, tmp_path):
    marker = tmp_path / "ran"
    model = fitted(cube, payloads(marker), LABELS)
    rule_set = model.rule_set_
    assert rule_set.rule_count > 20
    assert_exports_predict(rule_set, cube.X, marker)
    source = to_python(model.rule_set_)
    for name in [*payloads(marker), *LABELS]:
        assert repr(name) in source  # each name as a literal
    tree = ast.parse(source)
    called = {node.func.id for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert called <= {"abs", "chosen", "dict", "enumerate", "float", "len", "list", "max", "min",
                      "range", "scores", "sorted", "zip"}
    comments = [tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                if tok.type == tokenize.COMMENT]
    assert comments and not any(word in comment for comment in comments
                                for word in ("open(", "__import__", "DROP", "naïve", "mkdir"))


def test_names_from_a_tampered_model_json_are_data_not_code(cube, tmp_path):
    marker = tmp_path / "ran"
    text = fitted(cube, None, None).to_json()
    data = json.loads(text)

    def rename(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "feature_names":
                    node[key] = payloads(marker)
                elif key == "label_names":
                    node[key] = LABELS
                else:
                    rename(value)
        elif isinstance(node, list):
            for value in node:
                rename(value)

    rename(data)
    model = MLRClassifier.from_json(json.dumps(data))
    assert model.feature_names_ == payloads(marker) and model.label_names_ == LABELS
    assert_exports_predict(model.rule_set_, cube.X, marker)


def test_names_from_a_csv_header_are_data_not_code(cube, tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "names.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)  # quotes the multi-line names, as a spreadsheet would
        writer.writerow(payloads(marker) + LABELS)
        writer.writerows(np.hstack([cube.X, cube.Y]).tolist())
    assert "\n" in path.read_text(encoding="utf-8").split("\r\n")[0]
    data = load_dataset(path, labels=len(LABELS))
    assert list(data.feature_names) == payloads(marker)
    model = MLRClassifier(n_iter=3000, random_state=0).fit(
        data.X, data.Y, feature_names=data.feature_names, label_names=data.label_names)
    assert_exports_predict(model.rule_set_, data.X, marker)


def test_sql_table_and_key_are_data_not_code(cube):
    """The caller's table and key names are quoted identifiers and never reach a comment: a
    line break in them cannot end a comment and run the rest as SQL."""
    rule_set = fitted(cube, None, None).rule_set_
    table, key = "data\nCREATE TABLE planted (x); --", "id\nCREATE TABLE planted_too (x); --"
    sql = to_sql(rule_set, table=table, key=key)
    X = cube.X[:60]
    frame = pd.DataFrame(X, columns=rule_set.feature_names)
    frame.insert(0, key, np.arange(len(X)))
    with sqlite3.connect(":memory:") as db:
        frame.to_sql(table, db, index=False)
        *setup, query = sql_statements(rule_set, table, key)
        db.executescript("\n".join(setup))
        got = db.execute(query).fetchall()
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert tables == {table}
    assert np.array_equal(np.array([row[1:] for row in got], dtype=np.uint8), rule_set.labels(X))
    db = duckdb.connect()
    db.register("frame", frame)
    db.execute(f'CREATE TABLE "{table}" AS SELECT * FROM frame')
    got = db.execute(sql).fetchall()
    assert {row[0] for row in db.execute("SELECT table_name FROM duckdb_tables()").fetchall()
            if not row[0].startswith("mlr_")} == {table}
    assert np.array_equal(np.array([row[1:] for row in got], dtype=np.uint8), rule_set.labels(X))
    assert not any("planted" in line for line in sql.split("\n") if line.lstrip().startswith("--"))


def test_sql_refuses_names_no_sql_can_hold(cube):
    model = fitted(cube, [f"f{j}" for j in range(9)], ["a", "b", "c"])
    rule_set = model.rule_set_
    nul = replace(rule_set, label_names=("a\0", "b", "c"))
    with pytest.raises(InputError, match="NUL"):
        to_sql(nul)
    assert "'a\\x00'" in to_python(nul)  # Python escapes it
    twins = replace(rule_set, feature_names=("Age", "age", *rule_set.feature_names[2:]))
    with pytest.raises(InputError, match="same column"):
        to_sql(twins)
    with pytest.raises(InputError, match="empty"):
        to_sql(rule_set, key="")
    vote = MLRClassifier(n_iter=500, weighting="vote", random_state=0).fit(cube.X, cube.Y)
    with pytest.raises(InputError, match="scorecard"):
        to_sql(vote.rule_set_)


@pytest.mark.parametrize("cut", [("threshold", 0.3), ("threshold_or_top", 0.95),
                                 ("threshold_or_top", 0.0), ("threshold_or_top_floor", (0.95, 0.6)),
                                 ("rcut", 2), ("rcut", 0), ("rcut", 3)])
def test_every_cut_and_its_header(cube, cut):
    model = fitted(cube, None, None)
    rule_set = model.rule_set_
    rule_set = rule_set.with_scorer(rule_set.scorer, cut)
    X = np.vstack([cube.X, cube.X * 3 - 1])  # rows off the training range clip
    labels = rule_set.labels(X)
    assert labels.any() or cut == ("rcut", 0)
    assert_exports_predict(rule_set, X)
    python, sql = to_python(rule_set), to_sql(rule_set)
    docstring = python.split('"""')[1]
    for text in (docstring, sql.split("WITH")[0]):
        assert rule_set.scorer.squash.words in text
        assert {"threshold": "a threshold", "threshold_or_top": "top fallback",
                "threshold_or_top_floor": "at least 0.6 (top fallback)",
                "rcut": "rank cut"}[cut[0]] in text
        assert all((f"{v!r}" if cut[0] != "rcut" else f"{v}") in text
                   for v in np.atleast_1d(cut[1]).tolist())


def test_a_compact_model_exports_its_rules_by_their_full_model_ids(cube):
    model = fitted(cube, None, None)
    small = compact(model, 10).rule_set_
    assert small.rule_ids.tolist() != list(range(small.rule_count))  # kept, not renumbered
    namespace: dict = {}
    exec(compile(to_python(small), "<scorecard>", "exec"), namespace)
    assert [rule[0] for rule in namespace["RULES"]] == small.rule_ids.tolist()
    assert [rule[1] for rule in namespace["RULES"]] == small.rule_texts()
    sql = to_sql(small)
    assert all(f"\n  ({rid}, " in sql for rid in small.rule_ids)  # the weights' rows


def test_an_empty_scorecard_exports_its_baseline(cube):
    rule_set = fitted(cube, None, None).rule_set_.subset([])
    assert rule_set.rule_count == 0
    assert_exports_predict(rule_set, cube.X[:50])


def test_sql_numbers_read_back_to_the_same_bits(cube):
    """Each rule's weights read back exactly, negated for a rule counted where it fails, whose
    weights the baseline row then holds (the intercept plus them, rounded once). Two rules
    are made to test nothing, so that they match every row and are counted where they fail."""
    rule_set = fitted(cube, None, None).rule_set_
    rule_set = rule_set.subset(np.arange(rule_set.rule_count))
    rule_set.rules.nspec[[0, 5]] = 0
    rule_set.rules.spread[[0, 5]] = np.inf
    frame = pd.DataFrame(cube.X[:5], columns=rule_set.feature_names).assign(row_id=range(5))
    setup = "\n".join(sql_statements(rule_set)[:-1])
    query = "SELECT * FROM mlr_weight ORDER BY rule"
    coef, intercept = rule_set.scorer.coef, rule_set.scorer.intercept
    with sqlite3.connect(":memory:") as db:
        frame.to_sql("data", db, index=False)
        db.executescript(setup)
        got = np.array(db.execute(query).fetchall())
    db = duckdb.connect()
    db.register("frame", frame)
    db.execute("CREATE TABLE data AS SELECT * FROM frame")
    db.execute(setup)
    assert np.array_equal(np.array(db.execute(query).fetchall()), got)
    assert np.array_equal(got[:, 0], [-1, *rule_set.rule_ids])
    negated = (got[1:, 1:] == -coef).all(axis=1) & (coef != 0).any(axis=1)
    assert np.array_equal(got[1:, 1:][~negated], coef[~negated])
    assert 0 < negated.sum() < rule_set.rule_count  # both sides are exercised
    assert np.array_equal(got[0, 1:], [math.fsum([intercept[c], *coef[negated, c]])
                                       for c in range(len(intercept))])


def test_sql_keeps_the_model_in_temporary_tables_only(cube):
    """Run twice in one session, the script replaces its own tables and leaves the user's
    tables of those names alone; a data table of such a name is refused."""
    rule_set = fitted(cube, None, None).rule_set_
    X = cube.X[:40]
    frame = pd.DataFrame(X, columns=rule_set.feature_names).assign(row_id=np.arange(len(X)))
    *setup, query = sql_statements(rule_set)
    with sqlite3.connect(":memory:") as db:
        frame.to_sql("data", db, index=False)
        db.execute("CREATE TABLE mlr_weight (mine TEXT)")
        db.execute("INSERT INTO mlr_weight VALUES ('kept')")
        for _ in range(2):
            db.executescript("\n".join(setup))
            got = np.array([row[1:] for row in db.execute(query).fetchall()], dtype=np.uint8)
            assert np.array_equal(got, rule_set.labels(X))
        assert db.execute("SELECT * FROM main.mlr_weight").fetchall() == [("kept",)]
    for name in (*MODEL_TABLES, "MLR_Test"):
        with pytest.raises(InputError, match="temporary tables"):
            to_sql(rule_set, table=name)


@pytest.fixture(scope="module")
def full_models(real_datasets):
    """Each real dataset's full model, the defaults fitted on its first half."""
    out = {}
    for name, data in real_datasets.items():
        half = len(data.X) // 2
        out[name] = MLRClassifier(random_state=0).fit(
            data.X[:half], data.Y[:half], feature_names=data.feature_names,
            label_names=data.label_names)
    return out


@pytest.mark.parametrize("name", ["yeast", "emotions", "flags", "cal500", "genbase"])
def test_full_models_export_predicts_labels_on_every_row(real_datasets, full_models, name):
    data, model = real_datasets[name], full_models[name]
    rule_set = model.rule_set_
    assert rule_set.rule_count >= 300
    expected = model.predict(data.X).astype(np.uint8)
    assert np.array_equal(python_labels(to_python(model.rule_set_), data.X, data.feature_names),
                          expected)
    for written_for, engine in RUNS:
        got = run_sql(sql_statements(rule_set, engine=written_for), data.X, data.feature_names,
                      engine)
        assert np.array_equal(got, expected), (written_for, engine)


def test_python_reads_only_the_features_its_rules_test(cube):
    """The exported predict reads the features in TESTED and no other: rows holding only those
    get predict's labels, and TESTED is what the rules test."""
    rule_set = compact(fitted(cube, None, None), 3).rule_set_
    namespace: dict = {}
    exec(compile(to_python(rule_set), "<export>", "exec"), namespace)
    pop = rule_set.rules
    tested = sorted({int(pop.feat[i, k]) for i in range(rule_set.rule_count)
                     for k in range(pop.nspec[i])})
    assert list(namespace["TESTED"]) == tested and len(tested) < len(rule_set.feature_names)
    names = np.array(rule_set.label_names, dtype=object)
    rows = [{rule_set.feature_names[j]: float(x[j]) for j in tested} for x in cube.X]
    assert [namespace["predict"](row) for row in rows] == [
        list(names[bits.astype(bool)]) for bits in rule_set.labels(cube.X)]


def test_a_rule_that_tests_nothing_matches_every_row_in_both_exports(cube):
    rule_set = fitted(cube, None, None).rule_set_
    rule_set = rule_set.subset(np.arange(rule_set.rule_count))
    rule_set.rules.nspec[[0, 5]] = 0  # two rules now hold on every row: no slot specified
    rule_set.rules.spread[[0, 5]] = np.inf  # (an empty slot passes every value)
    assert rule_set.labels(cube.X).any()
    assert_exports_predict(rule_set, cube.X)


def test_rules_of_more_tests_than_one_join_holds_are_counted_where_they_fail(cube):
    """A rule counted where it matches is one join of twice its tests' tables (SQLite joins at
    most 64): a rule of more than NESTED tests is counted where it fails, with the same labels."""
    model = MLRClassifier(n_iter=3000, max_specified=2 * NESTED, random_state=0).fit(
        cube.X, cube.Y)
    lengths = {len(tests) for tests in model.rule_set_.tests()}
    assert max(lengths) > NESTED and min(lengths) <= NESTED
    sql = to_sql(model.rule_set_)
    assert f"t{NESTED} " in sql and f"t{NESTED + 1} " not in sql
    assert_exports_predict(model.rule_set_, cube.X)


def test_duckdbs_script_leaves_out_the_indexes_it_would_not_read(cube):
    """DuckDB joins by hashing: its script makes no index (they cost it 60 MB on genbase),
    SQLite's makes the two its lookups read (values by feature, tests by rule); any other
    engine is refused by name."""
    rule_set = fitted(cube, None, None).rule_set_
    for engine, indexes in (("duckdb", 0), ("sqlite", 2)):
        db = duckdb.connect()
        frame = pd.DataFrame(cube.X, columns=list(rule_set.feature_names))
        frame.insert(0, "row_id", np.arange(len(frame)))
        db.register("frame", frame)
        db.execute("CREATE TABLE data AS SELECT * FROM frame")
        db.execute("\n".join(sql_statements(rule_set, engine=engine)))
        assert db.execute("SELECT COUNT(*) FROM duckdb_indexes()").fetchone()[0] == indexes
        db.close()
    with pytest.raises(InputError, match="postgres"):
        sql_statements(rule_set, engine="postgres")
