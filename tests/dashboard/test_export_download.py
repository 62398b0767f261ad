"""The Rules page's "Python function" and "SQL query" downloads of data whose column names are
code (issue 23): uploaded as a CSV, trained, compacted and audited through Streamlit's AppTest,
the downloaded files run no name and give the compact model's labels; the scorecard's names
plant no note (issue 33)."""

import csv
import io
import sqlite3

import duckdb
import numpy as np
import pandas as pd
from apptest import started
from downloads import deferred_downloads, made_file
from stepping import step

from mlr_core import make_hypercube_dataset


def test_downloads_of_names_that_are_code_run_no_name(tmp_path, monkeypatch):
    made = deferred_downloads(monkeypatch)  # what the page makes on a click, by file name
    marker = tmp_path / "ran"
    features = [f"a\nopen({str(marker)!r}, 'w').close()\n#",
                f"b\r__import__('os').mkdir({str(marker)!r})\r#", "c */ -- \u2028 '\"\\",
                'd"; DROP TABLE data; --', *(f"x{j}" for j in range(4))]
    labels = ["l1\nimport os", "l2 */ --", "l3 ü\n# cut: threshold 0.99\n"]
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, n_irrelevant=6,
                                  random_state=0)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([*features, *(f"label:{name}" for name in labels)])
    writer.writerows(np.hstack([data.X, data.Y]).tolist())

    at = started()
    at = at.switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("names.csv", text.getvalue().encode(),
                                                  "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    session = at.session_state["session"]
    assert session.split.dataset.feature_names == features
    step(at)
    at = at.switch_page("views/rules.py").run()
    at.button(key="run_audit").click().run()
    assert not at.exception
    budget = at.session_state["rules_audit"]
    model = budget.models[int(at.select_slider(key="rule_budget").value)]
    X = session.split.dataset.X
    expected = model.predict(X).astype(np.uint8)
    assert model.rule_set_.rule_count > 0 and expected.any()

    python = made_file(made, "-rules.py")
    namespace: dict = {}
    exec(compile(python, "download.py", "exec"), namespace)
    names = np.array(labels, dtype=object)
    assert [namespace["predict"](dict(zip(features, row, strict=True))) for row in X] == [
        list(names[bits.astype(bool)]) for bits in expected]
    frame = pd.DataFrame(X, columns=features)
    frame.insert(0, "row_id", np.arange(len(X)))
    for engine in ("sqlite", "duckdb"):  # each script as its reader runs it: a whole file
        sql = made_file(made, f"-rules-{engine}.sql")
        if engine == "sqlite":
            db = sqlite3.connect(":memory:")
            frame.to_sql("data", db, index=False)
            *setup, query = _statements(sql)
            db.executescript("".join(setup))
            cursor = db.execute(query)
        else:
            db = duckdb.connect()
            db.register("frame", frame)
            db.execute("CREATE TABLE data AS SELECT * FROM frame")
            cursor = db.execute(sql)
        got = np.array([row[1:] for row in cursor.fetchall()], dtype=np.uint8)
        assert [d[0] for d in cursor.description] == ["row_id", *labels]
        assert db.execute("SELECT COUNT(*) FROM data").fetchone()[0] == len(X)
        db.close()
        assert np.array_equal(got, expected), engine
    assert not marker.exists()
    card = made_file(made, "-scorecard.csv")
    count = int(card.split(maxsplit=3)[2])  # "# notes: <count> lines follow this one, ..."
    method, value = model.bipartition_
    assert card.split("\n", 1 + count)[count] == f"# cut: {method} {value!r}" != (
        "# cut: threshold 0.99")
    assert "# cut: threshold 0.99" in card.splitlines()[1 + count:]  # in its quoted cell
    table = pd.read_csv(io.StringIO(card), skiprows=1 + count)
    assert table.filter(like="weight: ").columns.tolist() == [f"weight: {n}" for n in labels]
    assert table["rule_id"].iloc[0] == "baseline"  # then the rules in the order shown
    assert sorted(table["rule_id"].iloc[1:].astype(int)) == model.rule_set_.rule_ids.tolist()


def _statements(script: str) -> list[str]:
    """The script's statements as SQLite reads a file, line by line until a statement is whole:
    the last is the query whose rows the file's reader sees."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending)
            pending = ""
    assert not pending.strip()
    return statements
