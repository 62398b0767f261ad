"""Compact models (``max_rules``, ``compact``, ``compaction_path``), the scorecard they read as,
the explanation that adds up to the scores, and the exports that predict without this package.
"""

import ast
import csv
import io
import json
import math
import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from mlr_core import InputError, MLRClassifier, export, load_dataset, make_hypercube_dataset
from mlr_core import bipartition as bp
from mlr_core import scorecard as scorecard_file
from mlr_core.compaction import compact, compaction_path, importance_order, selection_path
from mlr_core.export import python_labels, sql_statements
from mlr_core.rule_weights import fit_rule_weights

DATA = __import__("pathlib").Path(__file__).resolve().parents[3] / "shared" / "datasets"


@pytest.fixture(scope="module")
def emotions():
    """A real dataset with long feature names, fitted with the defaults, quickly."""
    data = load_dataset(DATA / "emotions.arff")
    X, Y = data.X[:400], data.Y[:400]
    model = MLRClassifier(n_iter=20_000, random_state=0).fit(
        X, Y, feature_names=data.feature_names, label_names=data.label_names)
    return model, X, Y, data


def test_every_label_keeps_its_best_rule():
    """The per-label ranking: a rule that is the strongest for a rare label ranks ahead of
    rules that are only second best for a common one."""
    coef = np.array([[0.9, 0.0], [0.8, 0.0], [0.7, 0.0], [0.0, 0.2]])
    A = np.tile([[1.0], [0.0]], (5, 4))
    assert list(importance_order(coef, A)[:2]) == [0, 3]


def test_the_selection_path_is_nested_and_refitted():
    r = np.random.default_rng(0)
    A = (r.random((120, 60)) < 0.3).astype(float)
    Y = (A[:, :3] + (r.random((120, 3)) < 0.1) > 0).astype(np.uint8)
    path = selection_path(A, Y, fit_rule_weights(A, Y)[0], [40, 10, 3])
    assert [len(path[k][0]) for k in (40, 10, 3)] == [40, 10, 3]
    assert set(path[3][0]) <= set(path[10][0]) <= set(path[40][0])
    ids, scorer, loo = path[10]
    refit, refit_loo = fit_rule_weights(A[:, ids], Y)
    assert np.array_equal(scorer.coef, refit.coef) and np.array_equal(loo, refit_loo)
    assert set(range(3)) <= set(path[3][0])  # the three rules that make the labels


def test_a_size_has_the_same_rules_alone_or_on_a_path(emotions):
    model, X, _, _ = emotions
    path = compaction_path(model)
    for k in (20, 100):
        alone = compact(model, k)
        assert alone.rules_frame()["rule"].tolist() == path[k].rules_frame()["rule"].tolist()
        assert np.array_equal(alone.predict(X), path[k].predict(X))


def test_max_rules_is_a_parameter_and_compact_agrees(emotions):
    model, X, Y, _ = emotions
    small = MLRClassifier(n_iter=20_000, random_state=0, max_rules=20).fit(
        X, Y, feature_names=model.feature_names_, label_names=model.label_names_)
    count = small.rule_set_.rule_count
    assert count <= 19 and len(small.rules_frame()) == count
    assert clone(small).get_params()["max_rules"] == 20
    assert np.array_equal(small.predict(X), compact(model, 20).predict(X))
    with pytest.raises(InputError, match="weighting='fitted'"):
        MLRClassifier(n_iter=500, weighting="vote", max_rules=5, random_state=0).fit(X, Y)


def test_compact_models_save_load_and_explain_exactly(emotions):
    model, X, _, _ = emotions
    small = compact(model, 50)
    loaded = MLRClassifier.from_json(small.to_json())
    assert np.array_equal(loaded.predict_proba(X), small.predict_proba(X))
    scores = small.predict_proba(X)
    for r in (0, 5, 17, 123):
        e = small.rule_set_.explain(X[r])
        steps = e.waterfall()
        assert list(steps.index) == ["baseline", *(f"rule {i}" for i in e.rule_ids)]
        added = np.clip(steps.iloc[-1].to_numpy(), 0.0, 1.0)
        assert np.array_equal(added, scores[r]) and np.array_equal(e.scores.to_numpy(), added)
        assert np.allclose(steps.diff().iloc[1:].to_numpy(),
                           e.match_set.filter(like="contribution: ").to_numpy())


def test_the_scorecard_reads_in_the_datas_units(emotions):
    model, X, _, data = emotions
    small = compact(model, 20)
    card = small.rule_set_.scorecard(X)
    assert len(card) == small.rule_set_.rule_count
    assert card.filter(like="weight: ").shape[1] == len(data.label_names)
    named = card["condition"].str.contains("|".join(data.feature_names))
    assert named.all() and not card["condition"].str.contains(r"\bx\d").any()
    matched = small.rule_set_.match_counts(X)
    assert matched.shape == (len(X),) and card["support"].sum() == matched.sum()
    assert np.allclose(card["coverage"], card["support"] / len(X))


@pytest.mark.parametrize("size", [10, 50])
def test_exported_python_and_sql_predict_the_same_labels(emotions, size):
    model, _, _, data = emotions
    small = compact(model, size)
    X = data.X  # all 593 rows: 193 of them unseen in training
    expected = small.predict(X).astype(np.uint8)
    assert np.array_equal(python_labels(export.to_python(small.rule_set_), X, data.feature_names),
                          expected)
    with sqlite3.connect(":memory:") as db:
        frame = pd.DataFrame(X, columns=data.feature_names)
        frame.insert(0, "row_id", np.arange(len(X)))
        frame.to_sql("data", db, index=False)
        *setup, query = sql_statements(small.rule_set_)
        db.executescript("\n".join(setup))
        got = pd.read_sql_query(query, db)
    assert got["row_id"].tolist() == list(range(len(X)))
    assert np.array_equal(got.drop(columns="row_id").to_numpy(dtype=np.uint8), expected)


def test_compacting_needs_training_data_and_a_sensible_budget(emotions):
    model, _, _, _ = emotions
    loaded = MLRClassifier.from_json(model.to_json())
    with pytest.raises(InputError, match="training data"):
        compact(loaded, 10)
    with pytest.raises(InputError, match="at least 1"):
        compact(model, 0)
    assert compact(model, 1).rule_set_.rule_count == 0  # the baseline alone


def test_compact_models_keep_the_full_models_rule_ids(emotions):
    """Rule 17 of a compact model is rule 17 of the full model (its rules table), at every
    size, in the scorecard, the explanation and the saved file."""
    model, X, _, _ = emotions
    full = model.rules_frame()
    path = compaction_path(model, [20, 50])
    for small in path.values():
        ids = small.rule_set_.rule_ids
        frame = small.rules_frame()
        assert frame.index.tolist() == ids.tolist() and ids.max() >= len(ids)  # not 0..k-1
        pd.testing.assert_frame_equal(frame, full.loc[ids])
        assert small.rule_set_.scorecard(X).index.tolist() == ids.tolist()
        e = small.rule_set_.explain(X[7])
        assert set(e.rule_ids) <= set(ids) and len(e.rule_ids)
        assert e.match_set["rule"].tolist() == full.loc[e.rule_ids, "rule"].tolist()
        assert list(e.waterfall().index[1:]) == [f"rule {i}" for i in e.rule_ids]
        assert MLRClassifier.from_json(small.to_json()).rules_frame().index.equals(frame.index)
    assert set(path[20].rule_set_.rule_ids) <= set(path[50].rule_set_.rule_ids)
    smaller = compact(path[50], 10)  # compacting a compact model: still the full model's ids
    assert set(smaller.rule_set_.rule_ids) <= set(path[50].rule_set_.rule_ids)
    assert np.array_equal(path[50].subset(path[20].rule_set_.rule_ids[:3]).rule_set_.rule_ids,
                          path[20].rule_set_.rule_ids[:3])
    with pytest.raises(InputError, match="not one of the 49 rules"):
        path[50].subset([int(np.setdiff1d(full.index, path[50].rule_set_.rule_ids)[0])])


def note_count(text: str) -> int:
    """How many notes follow a scorecard CSV's first line, as that line says."""
    return int(text.split("\n", 1)[0].removeprefix("# notes: ").split()[0])


def split_scorecard(text: str) -> tuple[list[str], str]:
    """A scorecard CSV's notes (the first line and the lines it counts) and the CSV after them."""
    *notes, table = text.split("\n", 1 + note_count(text))
    return notes, table


def scorecard_notes_and_rows(text: str) -> tuple[list[str], list[dict]]:
    """A scorecard CSV's notes and its table's rows (header to cell, as text), read as its
    notes say: text cells with their first apostrophe dropped. With the csv module alone: no
    import of this package."""
    notes, table = split_scorecard(text)
    header, *rows = [[cell.removeprefix("'") for cell in row]
                     for row in csv.reader(io.StringIO(table, newline=""))]
    return notes, [dict(zip(header, row, strict=True)) for row in rows]


def scorecard_labels(text: str, rows: np.ndarray, feature_names) -> np.ndarray:
    """``predict``'s labels of ``rows`` (raw feature values) from a scorecard CSV's text alone,
    read with the csv module as its notes say: no import of this package."""
    notes, table = scorecard_notes_and_rows(text)
    link = notes[-2].removeprefix("# link: ")
    method, value = notes[-1].removeprefix("# cut: ").split(" ", 1)
    weights = [column for column in table[0] if column.startswith("weight: ")]
    baseline = [float(table[0][w]) for w in weights]
    rules = sorted(table[1:], key=lambda rule: int(rule["rule_id"]))
    parsed = [(json.loads(rule["bounds"]), [float(rule[w]) for w in weights]) for rule in rules]
    out = np.zeros((len(rows), len(weights)), dtype=np.uint8)
    for r, raw in enumerate(rows):
        row = dict(zip(feature_names, raw.tolist(), strict=True))
        total = list(baseline)
        for bounds, add in parsed:
            if all((lo is None or lo <= row[f]) and (hi is None or row[f] <= hi)
                   for f, (lo, hi) in bounds.items()):
                total = [t + a for t, a in zip(total, add, strict=True)]
        scores = ([min(max(t, 0.0), 1.0) for t in total] if link == "clip"
                  else [1.0 / (1.0 + math.exp(-max(t, -700.0))) for t in total])
        if method == "rcut":
            order = sorted(range(len(scores)), key=lambda j: -scores[j])[:int(value)]
            chosen = [j for j in order if scores[j] > 0]
        else:  # a floored top fallback's value is (threshold, floor), as Python writes it
            threshold, floor = (ast.literal_eval(value) if method == "threshold_or_top_floor"
                                else (float(value), 0.0))
            chosen = [j for j, s in enumerate(scores) if s >= threshold]
            if (method.startswith("threshold_or_top") and not chosen
                    and max(scores) > 0 and max(scores) >= floor):
                chosen = [scores.index(max(scores))]
        out[r, chosen] = 1
    return out


@pytest.mark.parametrize(("which", "cut"), [  # every kind of cut the tuning chooses
    ("compact 80", "threshold"), ("all rules", "threshold_or_top"),
    ("compact 50", "threshold_or_top_floor"), ("rcut, compact 20", "rcut")])
def test_the_scorecard_csv_alone_gives_predicts_labels(emotions, which, cut):
    """The CSV states the link and the cut in words and as notes a program reads; with
    the exact bounds and weights it reproduces ``predict`` on every row, unseen ones too."""
    model, X, Y, data = emotions
    if which.startswith("rcut"):
        model = MLRClassifier(n_iter=20_000, random_state=0, bipartition="rcut").fit(
            X, Y, feature_names=data.feature_names, label_names=data.label_names)
    small = model if which == "all rules" else compact(model, int(which.split()[-1]))
    shown = small.rule_set_.rule_ids[::-1]  # any order: the notes say to add in id order
    text = scorecard_file.to_csv(small.rule_set_, X, order=shown)
    method, value = small.bipartition_
    assert f"# cut: {method} {value!r}" in text.splitlines()
    link = small.rule_set_.scorer.link
    assert f"# link: {link}" in text.splitlines()
    assert f"each sum (total) is then {small.rule_set_.scorer.squash.words}" in text
    assert bp.words(small.bipartition_) in text
    notes, _ = scorecard_notes_and_rows(text)
    assert notes == text.splitlines()[:len(notes)] and notes[-2:] == [
        f"# link: {link}", f"# cut: {method} {value!r}"]
    assert all(note.startswith("# ") for note in notes)
    card = read_scorecard(text)
    assert card["rule_id"].tolist() == ["baseline", *map(str, shown)]
    pd.testing.assert_frame_equal(  # exact weights, support, coverage and conditions
        card.iloc[1:].set_index(card["rule_id"].iloc[1:].astype(np.int64)).drop(
            columns=["rule_id", "bounds"]),
        small.rule_set_.scorecard(X).loc[shown], check_dtype=False, check_index_type=False)
    expected = small.predict(data.X).astype(np.uint8)  # all 593 rows: 193 unseen
    assert np.array_equal(scorecard_labels(text, data.X, data.feature_names), expected)
    assert method == cut


def read_scorecard(text: str, **read_csv) -> pd.DataFrame:
    """The scorecard's table by pandas, the notes skipped by the count on the first line, text
    cells with their first apostrophe dropped (as the notes say)."""
    card = pd.read_csv(io.StringIO(text), skiprows=1 + note_count(text), **read_csv)
    text_columns = card.select_dtypes(exclude="number").columns
    card[text_columns] = card[text_columns].apply(lambda column: column.str.removeprefix("'"))
    return card.rename(columns=lambda name: name.removeprefix("'"))


FORGING = ("f\n# cut: threshold 0.99\n", "l\n# link: logistic\n# cut: threshold 0.99\n")
"""A feature and a label name that plant link and cut lines wherever they start a line."""

FORMULAS = ('=HYPERLINK("http://example.com/x","click")', "+1+2", "@SUM(1,2)", "\tf",
            "'quoted")
"""Feature names (and, after ``weight: ``, label names) a spreadsheet would run or strip."""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A compact model of names from a CSV header (where such names come in) that forge notes
    or start formulas, the features shifted so that some bounds are negative, its rows, its
    scorecard CSV and the names."""
    data = make_hypercube_dataset(n_samples=200, n_relevant=2, n_labels=3, n_irrelevant=3,
                                  random_state=0)
    features = [FORMULAS[0], FORGING[0], *FORMULAS[1:4]]
    labels = [FORGING[1], "-lab", FORMULAS[4]]
    path = tmp_path_factory.mktemp("names") / "names.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([*features, *(f"label:{name}" for name in labels)])
        writer.writerows(np.hstack([data.X - 0.5, data.Y]).tolist())
    data = load_dataset(path)
    assert data.feature_names == features and data.label_names == labels
    model = compact(MLRClassifier(n_iter=3000, random_state=0).fit(
        data.X, data.Y, feature_names=features, label_names=labels), 15)
    return model, data.X, scorecard_file.to_csv(model.rule_set_, data.X), features, labels


def test_names_that_forge_notes_stay_in_their_cells(hostile):
    """A name holding a line break and ``# cut: threshold 0.99`` puts such lines in the file,
    inside its quoted cell after the counted notes: every reader that counts takes the real
    link and cut, and the scorecard gives predict's labels on every row."""
    model, X, text, features, labels = hostile
    notes, rows = scorecard_notes_and_rows(text)
    planted = text.splitlines()[len(notes):]  # lines of the quoted names
    assert "# cut: threshold 0.99" in planted and "# link: logistic" in planted
    assert [line for line in text.splitlines() if line.startswith("# cut: ")][-1] == (
        "# cut: threshold 0.99")  # what a reader that ignores the count would take
    method, value = model.bipartition_
    assert notes[-2:] == [f"# link: {model.rule_set_.scorer.link}", f"# cut: {method} {value!r}"]
    assert (method, value) != ("threshold", 0.99) and model.rule_set_.scorer.link != "logistic"
    assert list(rows[0])[4:-1] == [f"weight: {name}" for name in labels]
    expected = model.predict(X).astype(np.uint8)
    assert 0 < expected.sum() < expected.size
    assert np.array_equal(scorecard_labels(text, X, features), expected)
    for read in ({}, {"comment": "#"}):  # pandas honours the quotes, comment or not
        card = read_scorecard(text, **read)
        assert card.columns[4:-1].tolist() == [f"weight: {name}" for name in labels]
        assert card["rule_id"].tolist() == ["baseline", *map(str, model.rule_set_.rule_ids)]
        assert card.filter(like="weight: ").to_numpy().tolist() == [
            model.rule_set_.scorer.intercept.tolist(), *model.rule_set_.scorer.coef.tolist()]


def test_no_text_cell_starts_a_formula(hostile):
    """Text cells that would start with =, +, -, @, a tab (or an apostrophe) start with one
    more apostrophe, which a reader drops; numbers, negative ones too, stay unquoted numbers."""
    model, X, text, _, _ = hostile
    notes, table = split_scorecard(text)
    raw = list(csv.reader(io.StringIO(table, newline="")))
    quoted = [cell for row in raw for cell in row if not is_number(cell)]
    assert not [cell for cell in quoted if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert {cell[1] for cell in quoted if cell.startswith("'")} == {"=", "-"}
    assert "'quoted" in raw[0][-2]  # a label after "weight: " is not at a cell's start
    card = model.rule_set_.scorecard(X)
    conditions = [row[1].removeprefix("'") for row in raw[2:]]
    assert conditions == card["condition"].tolist()
    assert any(c.startswith("-") for c in conditions) and any(
        c.startswith(FORMULAS[0]) for c in conditions)
    weights = np.array([[float(cell) for cell in row[4:-1]] for row in raw[1:]])
    assert (weights < 0).any() and np.array_equal(weights[1:], model.rule_set_.scorer.coef)
    assert "'" not in "".join(cell for row in raw[1:] for cell in row[2:-1])  # numbers
    assert "apostrophe" in notes[-3]  # the notes say how, before the link and the cut


@pytest.mark.parametrize(("cell", "written"), [
    ("=1+2", "'=1+2"), ("+1", "'+1"), ("-0.5 <= x", "'-0.5 <= x"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("'x", "''x"), ("x = 1", "x = 1"), ("", ""),
    ("{}", "{}"), ("baseline", "baseline"), (" =1", " =1")])
def test_a_text_cell_is_neutralised_only_where_it_starts_as_a_formula(cell, written):
    assert scorecard_file.neutralised(cell) == written
    assert written.removeprefix("'") == cell  # the notes' reading: drop one apostrophe


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("budget", [2.5, True, "10", "abc", float("nan"), float("inf"), 0, -3,
                                    np.float64(10)])
def test_a_rule_budget_is_a_whole_number_as_learn_takes(emotions, budget):
    """Refused as ``learn`` refuses a count (one check, validation.check_count): never rounded,
    parsed or converted, and the model is left as it was."""
    model, X, _, _ = emotions
    before = model.predict(X)
    with pytest.raises(InputError, match=r"compact\(\) takes a whole number of rules .* of "
                                         r"at least 1, got"):
        compact(model, budget)
    with pytest.raises(InputError, match=r"compaction_path\(\) takes a whole number of rules"):
        compaction_path(model, [20, budget])
    assert np.array_equal(model.predict(X), before)


@pytest.mark.parametrize("sizes", [5, "abc", None])
def test_compaction_path_takes_a_list_of_budgets(emotions, sizes):
    model, _, _, _ = emotions
    with pytest.raises(InputError, match=r"compaction_path\(\) takes a list of rule budgets"):
        compaction_path(model, sizes)
