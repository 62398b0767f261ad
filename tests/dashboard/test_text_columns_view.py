"""A CSV in its own words through the dashboard (issue 32): a text column with empty cells, some
of its categories code (a newline and quote, ``--``, ``=``, markup), loads on the Data page,
trains, and reaches Rules, the compact model's scorecard and audit and Explain, every page
showing the categories as data."""

import csv
import io
import json

import numpy as np
import pandas as pd
from apptest import shown, started
from downloads import deferred_downloads, made_file
from plotly_spec import values
from stepping import step

from dashboard.page_registry import PAGES
from dashboard.plot_axes import SLOT_HALF
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
    made = deferred_downloads(monkeypatch)  # what the pages make on a click, by file name
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("shop.csv", shop(300, 0), "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    session = at.session_state["session"]
    data = session.split.dataset
    assert data.categories[1] == tuple(sorted(COLOURS))
    assert any("'colour' (6)" in shown(i.value) for i in at.info)  # the note says what was read
    step(at)

    at = at.switch_page("views/rules.py").run()
    assert not at.exception and not at.error
    rules = at.dataframe[0].value["rule"]
    assert rules.str.contains("colour ∈ {", regex=False).any()
    assert not rules.str.contains("\n", regex=False).any()  # a category ends no line
    at.button(key="run_audit").click().run()
    assert not at.exception and not at.error
    assert any(m.label == "Deciding rules" for m in at.metric)
    card = made_file(made, "-scorecard.csv")
    cells = [cell for row in csv.reader(io.StringIO(card)) for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    budget, k = at.session_state["rules_audit"], int(at.select_slider(key="rule_budget").value)
    report = report_html(budget.audits[k])  # the page makes it on the click
    assert "<script>alert(1)" not in report and "colour" in report
    model = budget.models[k]
    python = made_file(made, "-rules.py")
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
    for key in ("explain_pick", "explain_values"):  # the table and the values, opened
        at.session_state[key] = True
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

    # the compact model's JSON loads back as saved, downloads to the same bytes, and keeps
    # training on these data
    saved = made[next(name for name in made if name.endswith("-rules.json"))]().encode()
    at = at.switch_page("views/rules.py").run()
    at.file_uploader(key="model_file").set_value(("shop-model.json", saved, "application/json"))
    at.button(key="load_model").click().run()
    at.button(key="confirm_load").click().run()
    assert not at.exception and not at.error
    loaded = session.snapshot()
    rules = model.rule_set_
    assert len(loaded.rules) == rules.rule_count  # its rules as the compact model kept them
    assert session.read_model(loaded, lambda m: m.to_json()) == saved.decode()
    said = " ".join(shown(s.value) for s in at.success)
    assert "the model as saved" in said
    assert ("every one-condition rule of these data again" in said) == bool(
        rules.n_feature_rules), said
    for page in PAGES:  # every page draws the model as saved
        at = at.switch_page(page.path).run()
        assert not at.exception, (page.name, [e.value for e in at.exception])
        assert not at.error, (page.name, [e.value for e in at.error])
    step(at)  # training goes on: the weights' fit makes every one-condition rule of these data
    trained = session.snapshot()
    count, one_condition = session.read_model(trained, lambda m: (m.rule_set_.rule_count,
                                                                  m.rule_set_.n_feature_rules))
    assert len(trained.rules) == count and one_condition >= rules.n_feature_rules
    step(at)
    assert not at.exception and not at.error
    for page in PAGES:  # and every page draws on these data
        at = at.switch_page(page.path).run()
        assert not at.exception, (page.name, [e.value for e in at.exception])
        assert not at.error, (page.name, [e.value for e in at.error])


def odd_names(n: int, seed: int) -> bytes:
    """A CSV whose names hold the words a rule's text is made of: a feature "rock AND roll", a
    text column "taste THEN" of categories "salt THEN pepper" and "sweet AND sour", a label
    "a AND b"."""
    r = np.random.default_rng(seed)
    loud, taste = r.uniform(0, 10, n), r.choice(["salt THEN pepper", "sweet AND sour", "plain"], n)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["rock AND roll", "taste THEN", "label:a AND b", "label:c"])
    writer.writerows(zip(loud, taste, (loud > 5).astype(int), (taste == "plain").astype(int),
                         strict=True))
    return text.getvalue().encode()


def laid_out(code: str, rule) -> None:
    """``code`` is ``rule`` (a row of a rules table) one condition a line: as many lines as it
    has conditions, then its labelset, and read back together they are its text."""
    lines = code.splitlines()
    assert len(lines) == max(rule["n_specified"], 1) + 1, code
    assert [line[:5] for line in lines] == ["IF   ", *["AND  "] * (len(lines) - 2), "THEN "]
    assert "IF " + " AND ".join(line[5:] for line in lines[:-1]) + " " + lines[-1] == rule["rule"]


def test_names_holding_and_or_then_are_never_split_into_lines():
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("odd.csv", odd_names(300, 0), "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    step(at)
    session = at.session_state["session"]

    at = at.switch_page("views/rules.py").run()
    at.text_input(key="rules_text").set_value("rock AND roll").run()
    assert not at.exception and not at.error
    shown = at.dataframe[0].value
    assert len(shown) > 0
    rule = session.snapshot().rules.loc[shown.index[0]]  # the first row's rule, whole below
    laid_out(next(c.value for c in at.code if c.value.startswith("IF ")), rule)

    at = at.switch_page("views/explain.py").run()
    assert not at.exception and not at.error
    voters = next(d.value for d in at.dataframe if "vote_share" in d.value.columns)
    specified = session.snapshot().rules.loc[voters["rule_id"][0], "n_specified"]
    assert specified > 0  # its text names the instance's category: the voters table's text
    laid_out(next(c.value for c in at.code if c.value.startswith("IF ")),
             {"rule": voters["rule"][0], "n_specified": specified})


def _category_axes(at) -> list[list[str]]:
    """The tick texts of every chart axis the page draws that names a colour."""
    named = []
    for chart in at.get("plotly_chart"):
        layout = json.loads(chart.proto.spec)["layout"]
        named += [list(axis["ticktext"]) for key, axis in layout.items()
                  if key.startswith(("xaxis", "yaxis")) and "red" in axis.get("ticktext", ())]
    return named


def test_the_microscope_and_time_travel_draw_a_text_column_by_its_categories():
    """As the Population page does (``plot_axes``): one slot per category, named by it, not
    the categories' codes; the rows without a colour are drawn in the slot of the colour the
    model reads (``missing="typical"``), so there is no slot *missing*."""
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("shop.csv", shop(300, 0), "text/csv"))
    at.button(key="load_upload").click().run()
    for _ in range(2):  # two snapshots to travel between
        step(at)
    at = at.switch_page("views/population.py").run()
    assert not at.exception and not at.error
    (slots,) = _category_axes(at)  # colour on one axis
    assert {"blue", "ochre", "red"} < set(slots) and "missing" not in slots
    assert len(slots) == len(COLOURS)
    at = at.switch_page("views/microscope.py").run()
    for _ in range(30):  # until an iteration's rules test the colour most (else x and x)
        at.button(key="trace").click().run()
        assert not at.exception and not at.error
        if "**colour**" in at.caption[1].value:
            break
    axes = _category_axes(at)
    assert axes and all(ticks == slots for ticks in axes), at.caption[1].value
    at = at.switch_page("views/time_travel.py").run()
    assert not at.exception and not at.error
    assert _category_axes(at) == [slots]


def test_the_microscope_draws_traced_rules_on_features_named_like_rule_text():
    """The traced rules are drawn from the trace's bounds, not read back from their texts: a
    covering rule on "rock AND roll" and a "taste THEN" set allowing "salt THEN pepper" is
    outlined over the interval and the category slots it holds (its text split on " AND " named
    no feature: the page raised a KeyError)."""
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("odd.csv", odd_names(300, 0), "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    session = at.session_state["session"]
    tastes = session.split.dataset.categories[1]
    salt = tastes.index("salt THEN pepper")
    at = at.switch_page("views/microscope.py").run()
    for _ in range(40):  # until covering makes a rule on both features, salt among its tastes
        at.button(key="trace").click().run()
        assert not at.exception and not at.error
        t = session.traced.trace
        if t.covering is None:
            continue
        rule = t.bounds["covering"]
        on = dict(zip(rule.feature.tolist(), range(len(rule.feature)), strict=True))
        if set(on) == {0, 1} and int(rule.allowed[on[1]]) >> salt & 1:
            break
    else:
        raise AssertionError("no traced covering on both features allowed salt THEN pepper")
    assert "rock AND roll" in t.covering and "salt THEN pepper" in t.covering
    while at.subheader[0].value != "4. Covering":
        at.button(key="micro_next").click().run()
        assert not at.exception and not at.error
    assert "**rock AND roll** and **taste THEN**" in at.caption[1].value
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    (outline,) = [trace for trace in figure["data"] if trace.get("name") == "covering"]
    xs, ys = values(outline["x"]), values(outline["y"])  # rectangles, NaN between them
    np.testing.assert_allclose([np.nanmin(xs), np.nanmax(xs)],
                               [rule.lower[on[0]], rule.upper[on[0]]])
    codes = [k for k in range(len(tastes)) if int(rule.allowed[on[1]]) >> k & 1]
    assert salt in codes  # their slots' bands
    assert (np.nanmin(ys), np.nanmax(ys)) == (min(codes) - SLOT_HALF, max(codes) + SLOT_HALF)
