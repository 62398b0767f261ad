"""A CSV in its own words through the dashboard (issue 32): a text column with empty cells, some
of its categories code (a newline and quote, ``--``, ``=``, markup), loads on the Data page,
trains, and reaches Rules, the compact model's scorecard and audit and Explain, every page
showing the categories as data."""

import csv
import io

import numpy as np
import pandas as pd
from apptest import started
from downloads import kept_downloads
from stepping import step

from dashboard.page_registry import PAGES
from mlr_core.audit_report import report_html
from mlr_core.rules import category_text

COLOURS = ["red", "ochre", "blue", "re'd\n; DROP TABLE data; --", "=1+2",
           "<script>alert(1)</script>"]


def shop(n: int, seed: int) -> bytes:
    """Label a planted on colour in {red, ochre}, b on x > 0.5; a fifth of x's cells and a
    tenth of colour's empty."""
    r = np.random.default_rng(seed)
    colour, x = r.choice(COLOURS, n), r.random(n)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["x", "colour", "label:a", "label:b"])
    for value, name, gap_x, gap_colour in zip(x, colour, r.random(n) < 0.2, r.random(n) < 0.1,
                                              strict=True):
        writer.writerow(["" if gap_x else value, "" if gap_colour else name,
                         int(name in ("red", "ochre")), int(value > 0.5)])
    return text.getvalue().encode()


def test_a_csv_with_a_text_column_trains_and_reads_in_its_words(monkeypatch):
    files = kept_downloads(monkeypatch)  # what the page offers for download, by file name
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("shop.csv", shop(300, 0), "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    session = at.session_state["session"]
    data = session.split.dataset
    assert data.categories[1] == tuple(sorted(COLOURS))
    assert any("'colour' (6)" in i.value for i in at.info)  # the note says what was read
    step(at)

    at = at.switch_page("views/rules.py").run()
    assert not at.exception and not at.error
    rules = at.dataframe[0].value["rule"]
    assert rules.str.contains("colour ∈ {", regex=False).any()
    assert not rules.str.contains("\n", regex=False).any()  # a category ends no line
    at.button(key="run_audit").click().run()
    assert not at.exception and not at.error
    assert any(m.label == "Deciding rules" for m in at.metric)
    card = files[next(name for name in files if name.endswith("-scorecard.csv"))].decode()
    cells = [cell for row in csv.reader(io.StringIO(card)) for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    budget, k = at.session_state["rules_audit"], int(at.select_slider(key="rule_budget").value)
    report = report_html(budget.audits[k])  # the page makes it on the click
    assert "<script>alert(1)" not in report and "colour" in report
    model = budget.models[k]
    python = files[next(name for name in files if name.endswith("-rules.py"))].decode()
    namespace: dict = {}
    exec(compile(python, "download.py", "exec"), namespace)
    frame = data.to_frame()
    rows = frame[data.feature_names].astype(object).where(frame[data.feature_names].notna(), None)
    expected = model.predict(data.features()).astype(bool)
    assert [namespace["predict"](row) for row in rows.to_dict("records")] == [
        [label for label, bit in zip(data.label_names, bits, strict=True) if bit]
        for bits in expected]

    # Explain: a row whose colour a voter tests, then one with a missing value
    cache = session.model_cache()
    known = next(i for i in range(len(data.X)) if not np.isnan(data.X[i, 1])
                 and cache.explain(i).match_set["rule"].str.contains("colour =").any())
    at = at.switch_page("views/explain.py").run()
    at.number_input(key="instance_index").set_value(known).run()
    assert not at.exception and not at.error
    value = category_text(data.categories[1][int(data.X[known, 1])])
    voters = next(d.value for d in at.dataframe if "vote_share" in d.value.columns)
    assert voters["rule"].str.contains(f"colour = {value} ∈ {{", regex=False).any()
    holed = int(np.flatnonzero(np.isnan(data.X[:, 1]))[0])
    at.number_input(key="instance_index").set_value(holed).run()
    assert not at.exception and not at.error
    values = next(d.value for d in at.dataframe if list(d.value.columns) == ["feature", "value"])
    training = data.X[at.session_state["session"].split.train_idx, 1]  # its most frequent
    codes, counts = np.unique(training[~np.isnan(training)], return_counts=True)
    fill = category_text(data.categories[1][int(codes[np.argmax(counts)])])
    assert values.set_index("feature").loc["colour", "value"] == f"missing (read as {fill})"
    picker = next(d.value for d in at.dataframe if "split" in d.value.columns)
    assert set(picker["colour"].dropna()) <= {category_text(c) for c in COLOURS}
    assert pd.isna(picker["colour"][holed])
    at.toggle(key="fitted_weights").set_value(True).run()  # scored with fitted weights
    assert not at.exception and not at.error

    # the compact model's JSON loads back and keeps training on these data
    saved = files[next(name for name in files if name.endswith("-rules.json"))]
    at = at.switch_page("views/rules.py").run()
    at.file_uploader(key="model_file").set_value(("shop-model.json", saved, "application/json"))
    at.button(key="load_model").click().run()
    at.button(key="confirm_load").click().run()
    assert not at.exception and not at.error
    loaded = session.snapshot()
    assert len(loaded.rules) == model.rule_set_.rule_count
    step(at)
    assert not at.exception and not at.error
    for page in PAGES:  # and every page draws on these data
        at = at.switch_page(page.path).run()
        assert not at.exception, (page.name, [e.value for e in at.exception])
        assert not at.error, (page.name, [e.value for e in at.error])
