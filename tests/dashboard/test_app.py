"""Every page through Streamlit's AppTest: it loads, trains, explains, and survives bad input.

AppTest never fires ``run_every`` timers: each ``run()`` is one tick of the live fragment.
"""

import json
import logging
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from apptest import APP, TIMEOUT, shown, started
from downloads import deferred_downloads
from stepping import step
from streamlit.testing.v1 import AppTest

from dashboard import frames, pages, rules_audit, tables
from dashboard.page_registry import BY_NAME, PAGES
from mlr_core.rules import rule_lines


def _app() -> AppTest:
    return started()


def _page(at: AppTest, name: str) -> AppTest:
    return at.switch_page(BY_NAME[name].path).run()


def _session(at: AppTest):
    return at.session_state["session"]


def _saved(session) -> str:
    """The model as the Rules page saves it (weights refitted to the rules first)."""
    return session.read_model(session.snapshot(), lambda model: model.to_json())


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _specs(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _load(at: AppTest, key: str) -> AppTest:
    """Press a Data page load button, and confirm that the trained model may go if asked."""
    at.button(key=key).click().run()
    if any(b.key == "confirm_load" for b in at.button):
        at.button(key="confirm_load").click().run()
    return at


@pytest.fixture
def app() -> AppTest:
    """The app after one Step (200 iterations), so every page has rules to show."""
    at = _app()
    _no_exception(at)
    step(at)
    _no_exception(at)
    return at


def test_opens_on_the_sample_with_a_fresh_model():
    at = _app()
    _no_exception(at)
    session = _session(at)
    assert session.split.dataset.name == "hypercube_2d"
    assert _metric(at, "Iteration") == "0"
    assert at.button(key="start").disabled is False and at.button(key="pause").disabled is True
    assert len(session.split.test_idx) == round(0.2 * len(session.split.dataset.X))


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_page_loads_under_its_title(app, page):
    at = _page(app, page.name)
    _no_exception(at)
    assert at.title[0].value == page.title  # the navigation's title, from the page registry
    assert not at.error


def test_the_page_registry_declares_every_view_and_which_redraw_live():
    views = Path(APP).with_name("views")
    assert {page.name for page in PAGES} == {f.stem for f in views.glob("*.py")} - {"__init__"}
    for page in PAGES:  # the classroom benchmark waits for a live page's chart
        assert page.live == ("ui.live(" in (views / f"{page.name}.py").read_text()), page.name


def test_step_then_start_advance_and_pause_stops(app):
    assert _metric(app, "Iteration") == "200"
    session = _session(app)
    assert len(session.points.curves.points) == 1  # a manual step always records a curve point
    app.button(key="start").click().run()
    assert session.pacing.running
    first = session.snapshot().iteration
    assert first > 200
    app.run()  # one more tick of the live fragment
    assert session.snapshot().iteration > first
    app.button(key="pause").click().run()
    assert not session.pacing.running
    paused = session.snapshot().iteration
    app.run()
    assert session.snapshot().iteration == paused


def test_iterations_per_tick_caps_a_tick(app):
    app.select_slider(key="speed").set_value(100).run()
    app.button(key="start").click().run()
    assert _session(app).snapshot().iteration == 300


def test_train_page_warns_when_n_is_small_for_the_labelsets_the_vote_scores_by(app):
    assert not any("is small for the" in w.value for w in app.warning)
    session = _session(app)
    session.reset({**session.params, "n_rules": 10})  # fitted weights: a weight per label
    app.run()
    assert not any("is small for the" in w.value for w in app.warning)
    session.reset({**session.params, "n_rules": 10, "weighting": "vote"})
    app.run()
    n_labelsets = len(session.split.labelsets.names)
    assert any(f"N = 10 is small for the {n_labelsets} distinct labelsets" in w.value
               for w in app.warning)


def test_reset_and_parameter_form(app):
    app.button(key="reset").click().run()
    assert _metric(app, "Iteration") == "0"
    n_rules = next(w for w in app.number_input if w.label.startswith("N:"))
    n_rules.set_value(300)
    app.button(key="apply").click().run()
    _no_exception(app)
    assert _session(app).params["n_rules"] == 300
    assert _session(app).snapshot().summary["micro_size"] == 0


def test_out_of_range_parameters_are_named_and_none_is_applied(app):
    """N = 10^9, ν = 1e9, θ_GA = -5, seed = -1, then Apply: each named with its range, nothing
    applied, and the form shows the values in use (the fields were bounded: the browser kept
    the entries red and unsent, and Apply reset the model with the old values; here the
    widgets clamped N to 10 and the seed to 0 and applied that, in silence)."""
    session = _session(app)
    in_use, trained = dict(session.params), session.snapshot()
    entries = {"param_n_rules": 10**9, "param_nu": 1e9, "param_theta_ga": -5.0,
               "param_random_state": -1}
    for key, value in entries.items():
        app.number_input(key=key).set_value(value)
    app.button(key="apply").click().run()
    _no_exception(app)
    assert session.params == in_use and session.snapshot() is trained
    message = app.error[0].value
    for words in ("**N: max population (micro)** = 1,000,000,000 is outside 10 to 20,000",
                  "**ν: fitness pressure (F = acc^ν)** = 1,000,000,000.0 is outside 0.5 to 50",
                  "**θ_GA: GA threshold** = -5.0 is outside 0.0 to 1,000",
                  "**Seed** = -1 is outside 0 to 2,147,483,647"):
        assert words in message
    assert {key: app.number_input(key=key).value for key in entries} == {
        f"param_{name}": in_use[name] for name in ("n_rules", "nu", "theta_ga", "random_state")}
    app.number_input(key="param_n_rules").set_value(500)
    app.button(key="apply").click().run()
    assert not app.error and session.params["n_rules"] == 500


def test_learning_curves_chart_spec(app):
    specs = _specs(app)
    titles = [s["layout"]["title"]["text"] for s in specs]
    assert titles == ["Learning curves: training vs held-out", "Population over iterations"]
    curves = specs[0]
    assert {t["name"] for t in curves["data"]} == {"training", "held-out"}
    assert curves["layout"]["xaxis"]["title"]["text"] == "iteration"


def test_population_chart_spec_and_cap(app):
    at = _page(app, "population")
    _no_exception(at)
    projection, histograms = _specs(at)
    session = _session(at)
    names = session.split.dataset.feature_names
    assert projection["layout"]["xaxis"]["title"]["text"] == names[0]
    assert projection["layout"]["yaxis"]["title"]["text"] == names[1]
    fills = [t for t in projection["data"] if t.get("fill") == "toself"]
    assert fills, "rules are drawn as filled traces"
    points = [t for t in projection["data"] if "customdata" in t]
    assert points and all(t["mode"] == "markers" for t in points)
    assert [a["text"] for a in histograms["layout"]["annotations"]] == [
        "Fitness", "Numerosity (copies)", "Generality"
    ]
    at.number_input(key="pop_cap").set_value(10).run()
    n_rules = len(session.snapshot().rules)
    assert any("fittest" in w.value for w in at.warning) == (n_rules > 10)


def test_a_click_on_a_live_page_draws_first_then_trains(app):
    """While training, a click's run draws the page from the snapshot at hand before training
    its time slice (``ui.live``); the next run draws the model that slice trained."""
    at = _page(app, "population")
    session = _session(at)
    at.button(key="start").click().run()
    _no_exception(at)
    trained = session.iteration
    assert trained > 200
    assert "iteration 200" in _specs(at)[0]["layout"]["title"]["text"]  # drawn, then trained
    at.run()
    assert f"iteration {trained:,}" in _specs(at)[0]["layout"]["title"]["text"]
    assert session.iteration > trained


def _passing(at: AppTest) -> str:
    return next(t.value for t in [*at.caption, *at.warning] if "pass the filters" in t.value)


def test_population_colour_by_labelset_and_filters(app):
    at = _page(app, "population")
    at.segmented_control(key="pop_color").set_value("labelset").run()
    assert not at.slider and _passing(at).endswith("pass the filters.")  # drawn once opened
    at.session_state["pop_filters"] = True
    at.run()
    at.slider(key="pop_fit").set_value(0.5).run()
    _no_exception(at)
    projection = _specs(at)[0]
    assert projection["layout"]["legend"]["title"]["text"] == "Rules and instances<br>(labelset)"
    assert "pass the filters (fitness ≥ 0.5)" in _passing(at)
    at.session_state["pop_filters"] = False  # closed, the filter stays in use and is named
    at.run()
    _no_exception(at)
    assert not at.slider and "pass the filters (fitness ≥ 0.5)" in _passing(at)
    assert _specs(at)[0]["data"] == projection["data"]


def _ring(spec: dict) -> str:
    return next(t["name"] for t in spec["data"] if t["name"].startswith("selected"))


def test_population_ranks_features_and_rings_the_selected_instance(app):
    at = _page(app, "population")
    session = _session(at)
    snap = session.snapshot()
    ranked = frames.features_by_usage(snap.bounds.usage(snap.rules["numerosity"]))
    assert at.selectbox(key="pop_x").options == [
        at.selectbox(key="pop_x").format_func(j) for j in ranked]
    assert (at.selectbox(key="pop_x").value, at.selectbox(key="pop_y").value) == \
        pages.default_features(snap)
    assert _ring(_specs(at)[0]) == "selected: instance #0"
    session.selection.select(17)
    at.run()
    assert _ring(_specs(at)[0]) == "selected: instance #17"
    assert any("#17" in c.value and "ringed" in c.value for c in at.caption)


def test_population_only_rules_specifying_both_features(app):
    at = _page(app, "population")
    assert at.toggle(key="pop_both").value is False  # two features: wildcard bands are useful
    at.toggle(key="pop_both").set_value(True).run()
    _no_exception(at)
    snap = _session(at).snapshot()
    both = int(snap.bounds.specified([0, 1]).all(axis=1).sum())
    assert both < len(snap.rules)
    assert any(f"Showing all {both:,} rules that specify both features" in c.value
               for c in at.caption)
    assert not at.info


def test_population_says_when_no_rule_specifies_the_pair(app):
    from mlr_core import make_hypercube_dataset

    session = _session(app)
    session.set_dataset(make_hypercube_dataset(n_samples=200, n_relevant=2, n_irrelevant=20,
                                               random_state=0))
    session.step(5)  # a handful of rules over 22 features: many pairs nobody specifies
    at = _page(app, "population")
    snap = session.snapshot()
    unused = np.flatnonzero(snap.evolved.bounds.usage(snap.evolved.rules["numerosity"]) == 0)
    assert len(unused) and 0 < len(session.snapshot().rules)
    assert at.toggle(key="pop_both").value is True
    at.selectbox(key="pop_x").set_value(int(unused[0])).run()
    _no_exception(at)
    assert any("No rule specifies both" in i.value for i in at.info)


def test_population_counts_and_draws_the_population_alone(app):
    """Early in training the rule weights' fit keeps its one-condition rules (a step at each
    decile of each feature): the Population page counts and draws the evolved rules, and
    says what the others are."""
    from mlr_core import make_hypercube_dataset

    session = _session(app)
    session.set_dataset(make_hypercube_dataset(n_samples=200, n_relevant=2, n_irrelevant=20,
                                               random_state=0))
    session.step(5)
    snap = session.snapshot()
    macro, extra = snap.summary["macro_size"], len(snap.rules) - snap.summary["macro_size"]
    assert extra > 0 and len(snap.evolved.rules) == macro
    assert snap.evolved.bounds.n_rules == macro
    assert (snap.rules["n_specified"].iloc[macro:] == 1).all()
    at = _page(app, "population")
    _no_exception(at)
    text = " ".join(c.value for c in at.caption)
    assert f"holds {macro:,} distinct rules" in text
    assert f"{extra:,} one-condition rules" in text
    usage = snap.evolved.bounds.usage(snap.evolved.rules["numerosity"])
    x = at.selectbox(key="pop_x")
    assert x.format_func(x.value).endswith(f"· {usage[x.value]:,} rules")


def test_population_on_emotions_defaults_to_rules_on_both_features(app, shared_datasets_dir):
    at = _page(app, "data")
    at.file_uploader(key="data_files").set_value([
        ("emotions.arff", (shared_datasets_dir / "emotions.arff").read_bytes(), "text/plain"),
        ("emotions.xml", (shared_datasets_dir / "emotions.xml").read_bytes(), "text/xml"),
    ])
    _load(at, "load_upload")
    assert _session(at).split.dataset.name == "emotions"
    step(at)
    at = _page(at, "population")
    _no_exception(at)
    assert at.toggle(key="pop_both").value is True
    snap = _session(at).snapshot()
    fx, fy = pages.default_features(snap)
    both = snap.bounds.specified([fx, fy]).all(axis=1)
    assert 0 < both.sum() < 0.5 * len(snap.rules)  # most rules leave most features wild
    drawn = min(both.sum(), at.number_input(key="pop_cap").value)
    assert any(s["layout"]["title"]["text"].startswith(f"{drawn:,} of the ")
               for s in _specs(at)[:1])


def test_population_draws_a_said_sample_of_many_instances(app, shared_datasets_dir):
    """Yeast's 2,417 points took most of a live redraw in the browser: a fixed sample of
    ``frames.MAX_POINTS`` is drawn, and the caption says so."""
    at = _page(app, "data")
    at.file_uploader(key="data_files").set_value([
        ("yeast.arff", (shared_datasets_dir / "yeast.arff").read_bytes(), "text/plain"),
        ("yeast.xml", (shared_datasets_dir / "yeast.xml").read_bytes(), "text/xml"),
    ])
    _load(at, "load_upload")
    n = _session(at).split.dataset.X.shape[0]
    assert n > frames.MAX_POINTS
    step(at)
    at = _page(at, "population")
    _no_exception(at)
    drawn = sum(len(t["text"]) for t in _specs(at)[0]["data"]
                if t.get("mode") == "markers" and "customdata" in t)
    assert frames.MAX_POINTS <= drawn <= frames.MAX_POINTS + 1  # + the selected instance
    said = f"a fixed random sample of {frames.MAX_POINTS:,} of the {n:,} instances"
    assert any(said in c.value for c in at.caption)
    at = _page(at, "microscope")  # draws its points through the same sample: says so too
    at.button(key="trace").click().run()
    _no_exception(at)
    assert any(said in c.value for c in at.caption)


def test_explain_shows_match_set_answers_and_scores(app):
    at = _page(app, "explain")
    at.number_input(key="instance_index").set_value(5).run()
    _no_exception(at)
    assert _session(at).selection.index == 5
    assert at.subheader[0].value.startswith("Instance #5")
    assert any(i.value.startswith("**Shown: the rules being trained**") for i in at.info)
    assert any("MLR_agg" in m.value for m in at.markdown)
    assert any("MLR_max" in m.value for m in at.markdown)
    scores = _specs(at)[0]
    assert scores["layout"]["title"]["text"].startswith("Label scores")
    assert scores["layout"]["yaxis"]["title"]["text"].startswith("aggregated score")
    assert len(at.dataframe) >= 1  # the match set
    exp = _session(at).model_cache().explain(5)
    data = _session(at).split.dataset
    truth = [n for n, bit in zip(data.label_names, data.Y[5], strict=True) if bit]
    agg = next(m.value for m in at.markdown if m.value.startswith("**MLR_agg**"))
    missed = [label for label in truth if label not in exp.agg_labels]
    added = [label for label in exp.agg_labels if label not in truth]
    assert ("right" in agg) == (not missed and not added)
    assert not missed or f"misses {', '.join(missed)}" in agg
    assert not added or f"wrongly adds {', '.join(added)}" in agg
    paragraph = next(m.value for m in at.markdown if "instance #5" in m.value)
    assert "MLR_agg cuts by a threshold: the labels" in paragraph
    assert "The true labelset is" in paragraph
    voters = next(d.value for d in at.dataframe if "vote_share" in d.value.columns)
    assert voters["labelset"].notna().all() and len(voters) == len(exp.rule_ids)
    # the strongest voter's rule in full: every condition, then its labelset
    full = at.code[0].value
    assert full.startswith("IF") and full.splitlines()[-1] == f"THEN {voters['labelset'][0]}"
    assert full.replace("\n", " ").replace("IF   ", "IF ").replace("AND  ", "AND ") \
        == voters["rule"][0].replace(" THEN ", " THEN ")
    # the picker's table, the engine's report and the feature values: drawn once opened
    n_tables, n_codes = len(at.dataframe), len(at.code)
    for key in ("explain_pick", "explain_report", "explain_values"):
        at.session_state[key] = True
    at.run()
    _no_exception(at)
    assert (len(at.dataframe), len(at.code)) == (n_tables + 2, n_codes + 1)
    picker = next(d.value for d in at.dataframe if "split" in d.value.columns)
    assert len(picker) == data.X.shape[0]
    assert exp.text() in [c.value for c in at.code]


def test_explain_fits_rule_weights_on_request_and_refits_after_training(app):
    at = _page(app, "explain")
    at.number_input(key="instance_index").set_value(3).run()
    assert not any("fitted weights**" in m.value for m in at.markdown)  # nothing until asked
    at.toggle(key="fitted_weights").set_value(True).run()
    _no_exception(at)
    session = _session(at)
    model = session.model_cache().fitted_model()
    assert model.weighting == "fitted" and model.rule_weights_.coef.shape[0] == len(
        session.snapshot().rules)
    exp = model.rule_set_.explain(session.split.dataset.X[3])
    answer = next(m.value for m in at.markdown if m.value.startswith("**MLR_agg with fitted"))
    assert "{" + ", ".join(exp.agg_labels) + "}" in answer
    table = next(d.value for d in at.dataframe if "towards the answer" in d.value.columns)
    assert sorted(table["rule_id"]) == sorted(exp.match_set["rule_id"])
    assert table["towards the answer"].is_monotonic_decreasing
    waterfall = next(s for s in _specs(at) if "contribution" in s["layout"]["title"]["text"])
    assert waterfall["data"][0]["x"][0] == "baseline"
    # the table's "to the label" column is the waterfall's bar of each rule it names
    label = at.selectbox(key="waterfall_label").value
    bars = dict(zip(waterfall["data"][0]["x"], waterfall["data"][0]["y"], strict=True))
    named = [(rule, bars[f"rule {rule}"]) for rule in table["rule_id"] if f"rule {rule}" in bars]
    assert named
    to_label = table.set_index("rule_id")["to the label"]
    for rule, bar in named:
        assert to_label[rule] == pytest.approx(bar)
        assert to_label[rule] == pytest.approx(
            exp.match_set.set_index("rule_id").loc[rule, f"contribution: {label}"])
    assert any(i.value.startswith("**Shown: all") for i in at.info)
    at.get("segmented_control")[0].set_value(10).run()  # a compact model of at most 10 rules
    _no_exception(at)
    assert any(i.value.startswith("**Shown: a compact model of") for i in at.info)
    compact = at.session_state["rules_audit"].models[10]
    exp = compact.rule_set_.explain(session.split.dataset.X[3])
    table = next(d.value for d in at.dataframe if "towards the answer" in d.value.columns)
    assert sorted(table["rule_id"]) == sorted(exp.match_set["rule_id"])
    weights = model.rule_set_
    step(at)  # the rules move on: the weights are fitted again
    _no_exception(at)
    fitted = _session(at).model_cache().fitted_model()
    assert fitted.rule_set_ is not weights
    assert fitted.rule_set_.iteration == _session(at).iteration


def test_the_fitted_weights_switch_stays_on_across_pages_and_data(app):
    at = _page(app, "explain")
    at.toggle(key="fitted_weights").set_value(True).run()
    at = _page(at, "data")
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    _load(at, "load_sample")
    at = _page(at, "explain")
    _no_exception(at)
    assert at.toggle(key="fitted_weights").value is True
    # what the switch opens: the fitted answer, or (new data, no rules yet) what to do first
    assert any("MLR_agg with fitted weights" in m.value for m in at.markdown) or any(
        "No rules yet" in c.value for c in at.caption)


def test_explain_says_when_the_fallback_answered():
    at = _app()  # a fresh model has no rules: nothing can match
    at = _page(at, "explain")
    _no_exception(at)
    assert any("nearest" in w.value for w in at.warning)
    assert any(m.value.startswith("No rule matches instance #0") for m in at.markdown)


def _downloads(at: AppTest) -> list[str]:
    return [b.proto.label for b in at.get("download_button")]


def test_rules_table_order_filters_downloads_and_heatmap(app):
    at = _page(app, "rules")
    _no_exception(at)
    rules = _session(at).snapshot().rules
    table = at.dataframe[0].value
    assert len(table) == len(rules)
    assert table["trusted_accuracy"].is_monotonic_decreasing  # the sensible default order
    assert list(table.columns) == rules_audit.SHOWN  # what fits a 1,300 px window
    first = rules.loc[table.index[0]]
    assert any(c.value == rule_lines(first["conditions"], first["labelset"])  # read whole
               for c in at.code)
    assert _downloads(at) == [f"Download all {len(rules):,} rules (CSV)",
                              f"Download all {len(rules):,} rules as a model (JSON)"]
    heatmap = _specs(at)[0]
    assert heatmap["data"][0]["type"] == "heatmap"
    assert list(heatmap["data"][0]["x"]) == _session(at).split.dataset.feature_names
    assert heatmap["layout"]["xaxis"]["type"] == "category"  # names never read as numbers
    at.multiselect(key="rules_columns").set_value(["numerosity"]).run()
    assert list(at.dataframe[0].value.columns) == [*rules_audit.SHOWN[:-1], "numerosity",
                                                   "rule"]  # in the table's own order
    at.number_input(key="rules_num").set_value(2).run()
    assert (at.dataframe[0].value["numerosity"] >= 2).all()
    at.number_input(key="rules_exp").set_value(100).run()
    shown = at.dataframe[0].value
    assert (shown["experience"] >= 100).all() and (shown["numerosity"] >= 2).all()
    expected = int(((rules["experience"] >= 100) & (rules["numerosity"] >= 2)).sum())
    assert len(shown) == expected < len(rules)
    assert _downloads(at)[0] == f"Download these {expected:,} rules (CSV)"


def test_rules_page_of_a_fresh_model_offers_no_export_or_audit():
    at = _page(_app(), "rules")
    _no_exception(at)
    assert not at.get("download_button") and not [b for b in at.button if b.key == "run_audit"]
    assert any("No rules yet" in c.value for c in at.caption)


def test_rules_budget_behind_a_button_kept_until_the_model_changes(app):
    at = _page(app, "rules")
    assert not at.metric
    at.button(key="run_audit").click().run()
    _no_exception(at)
    session = _session(at)
    budget = at.session_state["rules_audit"]
    assert budget.snap is session.snapshot()
    slider = at.select_slider(key="rule_budget")
    assert [int(k) for k in slider.options] == budget.sizes and int(slider.value) in budget.sizes
    k = int(slider.value)
    assert any(i.value.startswith(f"**Shown: a compact model of {budget.n_rules(k)} rules**")
               for i in at.info)
    curve = next(s for s in _specs(at) if "against the number" in s["layout"]["title"]["text"])
    assert curve["data"][-1]["name"] == f"budget {k}"
    card = next(d.value for d in at.dataframe if "condition" in d.value.columns)
    assert len(card) == budget.n_rules(k) - 1 and len(card) <= k - 1
    summary = budget.audits[k].summary
    assert summary["n_rules"] == len(card) and summary["weighting"] == "fitted"
    assert _metric(at, "Deciding rules") == (f"{summary['n_deciding']:,} of "
                                             f"{summary['n_rules']:,}")
    assert _downloads(at)[2:] == ["Compact model (JSON)", "Scorecard (CSV)",
                                  "Audit report (HTML)", "Python function", "SQL for SQLite",
                                  "SQL for DuckDB"]
    # the audit's measures, held-out rows included, fit a 1,300 px window unscrolled (a
    # 1,400 px one hid the held-out columns: "held-out · this mo")
    table = next(d for d in at.dataframe if "deciding only" in d.value.columns)
    widths = {name: column["width"] for name, column in json.loads(table.proto.columns).items()
              if name != "_index"}
    assert set(widths) == {"measure", "rows", "this model", "pruned", "deciding only"}
    assert sum(widths.values()) <= tables.PAGE_PX
    assert set(table.value["rows"]) == {"train", "held-out"}
    at.select_slider(key="rule_budget").set_value(budget.sizes[0]).run()
    _no_exception(at)
    card = next(d.value for d in at.dataframe if "condition" in d.value.columns)
    assert len(card) <= budget.sizes[0] - 1
    assert at.session_state["rules_audit"] is budget  # one path serves every size
    assert not [b for b in at.button if b.key == "run_audit"]  # gone once it has run
    step(at)  # the model moved on: the old budget is not shown
    assert not at.metric and at.button(key="run_audit").label == "Compact and audit"


def test_a_compacted_rules_page_makes_its_files_only_when_asked(app, monkeypatch):
    """The compact model's files (JSON, scorecard, Python, SQL) are made on the download's
    click, not on every run of the page: made on each run, they were a quarter of the click
    that compacts and most of each later run (choosing a budget, selecting a row)."""
    made = deferred_downloads(monkeypatch)  # the page's deferred downloads, by file name
    calls = []

    def counted(owner, name):
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            calls.append(name)
            return original(*args, **kwargs)
        monkeypatch.setattr(owner, name, wrapper)

    from mlr_core import MLRClassifier, export, scorecard
    for owner, name in ((export, "to_python"), (export, "to_sql"), (scorecard, "csv_of"),
                        (MLRClassifier, "to_json")):
        counted(owner, name)
    at = _page(app, "rules")
    at.button(key="run_audit").click().run()
    _no_exception(at)
    budget = at.session_state["rules_audit"]
    at.select_slider(key="rule_budget").set_value(budget.sizes[0]).run()
    _no_exception(at)
    assert calls == []
    size = budget.n_rules(budget.sizes[0])
    files = {name: make() for name, make in made.items() if f"-{size}-rules" in name}
    assert sorted(calls) == sorted(["to_json", "csv_of", "to_python", "to_sql", "to_sql"])
    assert len(files) == 6 and all(files.values())


def test_rules_json_upload_bad_keeps_model_good_replaces_it_once_agreed(app):
    """A good file replaces a model that has trained only once the person agrees, as new data
    does (it replaced it without asking)."""
    at = _page(app, "rules")
    session = _session(at)
    before = session.snapshot()
    at.file_uploader(key="model_file").set_value(("broken.json", b"{not json", "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert at.error and session.snapshot() is before
    saved = _saved(session).encode()
    step(at)  # the saved model is 200 iterations behind now
    trained = session.snapshot()
    at.file_uploader(key="model_file").set_value(("model.json", saved, "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert session.snapshot() is trained and not at.success
    assert any("Loading model.json discards the model trained for 400 iterations" in shown(w.value)
               for w in at.warning)
    at.button(key="cancel_load").click().run()
    assert session.snapshot() is trained and not [b for b in at.button if b.key == "confirm_load"]
    at.button(key="load_model").click().run()
    at.button(key="confirm_load").click().run()
    _no_exception(at)
    assert not at.error and shown(at.success[0].value).startswith("Loaded model.json")
    loaded = session.snapshot()
    assert loaded.iteration == before.iteration == 200
    assert loaded.rules["rule"].tolist() == before.rules["rule"].tolist()
    step(at)  # continue training the loaded rule set
    _no_exception(at)
    assert session.snapshot().iteration == 400


def _genbase(at: AppTest, datasets) -> AppTest:
    """The app on genbase (0/1 features: the weights' fit adds a ``word = 1`` rule per word),
    after one Step."""
    at = _page(at, "data")
    at.file_uploader(key="data_files").set_value([
        ("genbase.arff", (datasets / "genbase.arff").read_bytes(), "text/plain"),
        ("genbase.xml", (datasets / "genbase.xml").read_bytes(), "text/xml"),
    ])
    _load(at, "load_upload")
    return step(at)


def test_rule_counts_agree_between_pages_or_say_why_on_words(shared_datasets_dir):
    """ohsumed: Train showed 980 macro rules, Rules 1,982, and the compact model's
    "19 evolved rules" were one-word rules such as ``pregnancy = 1``."""
    at = _genbase(_app(), shared_datasets_dir)
    snap = _session(at).snapshot()
    evolved, shown = snap.summary["macro_size"], len(snap.rules)
    extra = shown - evolved
    assert extra > 0
    kinds = f"{evolved:,} evolved rules and {extra:,} one-condition rules (`x = 1`"
    at = _page(at, "train")
    assert _metric(at, "Macro rules") == f"{evolved:,}"
    assert any(f"The model predicts with {shown:,} rules: {kinds}" in c.value
               for c in at.caption)
    at = _page(at, "rules")
    assert any(f"The model predicts with {shown:,} rules: {kinds}" in c.value
               for c in at.caption)
    at.button(key="run_audit").click().run()
    _no_exception(at)
    budget = at.session_state["rules_audit"]
    k = int(at.select_slider(key="rule_budget").value)
    rules = budget.models[k].rule_set_
    one_word = rules.rules_frame()["rule"].str.fullmatch(r"IF \S+ = 1 THEN .*")
    assert rules.n_feature_rules > 0 and one_word.sum() >= rules.n_feature_rules
    info = next(i.value for i in at.info if i.value.startswith("**Shown: a compact model"))
    assert f"{rules.n_feature_rules:,} one-condition rule" in info
    assert (f"{rules.n_evolved:,} evolved rule" in info) == (rules.n_evolved > 0)


def test_a_model_of_words_downloaded_loads_and_downloads_the_same_bytes(
        shared_datasets_dir, monkeypatch):
    """genbase (0/1 features: the fit adds a ``word = 1`` rule per word): the Rules page's
    "as a model (JSON)" download, loaded back with "Load a rule set", keeps its rule count and
    downloads to the same bytes (an ohsumed model grew from 1,982 to 2,984 rules and could not
    be saved again)."""
    made = deferred_downloads(monkeypatch)  # the page's deferred downloads, by file name
    at = _page(_genbase(_app(), shared_datasets_dir), "rules")
    session = _session(at)
    saved = made["genbase-model.json"]()
    rules = len(session.snapshot().rules)
    assert 0 < json.loads(saved)["rule_set"]["n_feature_rules"] < rules
    at.file_uploader(key="model_file").set_value(("genbase-model.json", saved.encode(),
                                                  "application/json"))
    at.button(key="load_model").click().run()
    at.button(key="confirm_load").click().run()
    _no_exception(at)
    assert not at.error and len(session.snapshot().rules) == rules
    assert f"Download all {rules:,} rules as a model (JSON)" in _downloads(at)
    assert made["genbase-model.json"]() == saved


def test_rules_json_of_another_dataset_is_refused(app):
    saved = _saved(_session(app)).encode()  # 2 features
    at = _page(app, "data")
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    _load(at, "load_sample")
    at = _page(at, "rules")
    before = _session(at).snapshot()
    at.file_uploader(key="model_file").set_value(("model.json", saved, "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert at.error and _session(at).snapshot() is before


def _refused_upload(app: AppTest, saved: dict) -> AppTest:
    """Upload a model file's JSON on the Rules page and see it refused: no "Loaded", the model
    as it was."""
    at = _page(app, "rules")
    before = _session(at).snapshot()
    at.file_uploader(key="model_file").set_value(("model.json", json.dumps(saved).encode(),
                                                  "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert not at.success and at.error and _session(at).snapshot() is before
    return at


@pytest.mark.parametrize(("n_rules", "message"), [
    (10**7, 'n_rules=10,000,000 the model file declares in "params" would take'),
    (10**6, "n_rules = 1,000,000 is outside what this dashboard offers"),
])
def test_rules_json_declaring_a_huge_population_is_refused(app, n_rules, message):
    """Such a file said "Loaded", then every run of the Train page failed (its N is beyond the
    form's range), or allocated a gigabyte on the warm start."""
    saved = json.loads(_saved(_session(app)))
    saved["params"]["n_rules"] = n_rules
    at = _refused_upload(app, saved)
    assert message in shown(at.error[0].value)
    at = _page(at, "train")
    step(at)
    _no_exception(at)
    assert not at.error and _session(at).snapshot().iteration == 400


def test_rules_json_with_a_tampered_history_is_refused_before_loaded(app):
    """A file whose history holds "x" everywhere said "Loaded", then every page showed a raw
    TypeError and the sidebar lost Start, Pause, Step and Reset (issue 33)."""
    saved = json.loads(_saved(_session(app)))
    for row in saved["training"]["history"]["rows"]:
        row.update(dict.fromkeys(row, "x"))
    at = _refused_upload(app, saved)
    assert "history row 0: iteration must be a whole number" in shown(at.error[0].value)
    for page in PAGES:
        at = _page(at, page.name)
        _no_exception(at)
        assert {"start", "pause", "step", "reset"} <= {b.key for b in at.button}, page.name
    step(at)
    _no_exception(at)
    assert _session(at).snapshot().iteration == 400


def test_theory_curves_marks_and_caption(app):
    at = _page(app, "theory")
    _no_exception(at)
    by_dl, by_dens = _specs(at)
    assert by_dl["layout"]["xaxis"]["type"] == "log"
    assert "DL" in by_dl["layout"]["xaxis"]["title"]["text"]
    assert "Dens" in by_dens["layout"]["xaxis"]["title"]["text"]
    assert list(by_dl["layout"]["xaxis"]["ticktext"]) == ["1", "2", "5"]  # m = 3: DL in 1..8
    for spec in (by_dl, by_dens):
        names = [t["name"] for t in spec["data"]]
        assert any(n.startswith("measured: this population") for n in names)
        assert any(n.startswith("this dataset") for n in names)
        assert not spec["layout"].get("annotations")  # nothing written over the curves
        assert spec["layout"]["yaxis"]["tickvals"]
    star = next(t for t in by_dl["data"] if t["name"].startswith("measured"))
    share, fitness = at.session_state["theory_measured"][1]
    assert star["y"][0] == fitness and 0 < fitness <= share <= 1
    assert any("measure the same thing" in i.value for i in at.info)
    assert any("Symbols" in c.value for c in at.caption)
    at.slider[0].set_value(12).run()  # m: the shaded region moves with it
    _no_exception(at)
    assert "1,000" in _specs(at)[0]["layout"]["xaxis"]["ticktext"]


def _metrics(at: AppTest, label: str) -> list[str]:
    return [m.value for m in at.metric if m.label == label]


def test_data_page_stats_sample_and_synthetic(app):
    at = _page(app, "data")
    _no_exception(at)
    assert _metrics(at, "DL")[-1] == "7"  # the current dataset's, after the preview's
    assert _specs(at)[-1]["layout"]["title"]["text"] == "Label frequencies"
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    _load(at, "load_sample")
    _no_exception(at)
    assert _session(at).split.dataset.name == "hypercube_4d"
    assert _metrics(at, "m (labels)")[-1] == "4"


def test_generator_previews_then_loads_what_it_previewed(app):
    at = _page(app, "data")
    at.number_input(key="gen_labels").set_value(6)
    at.number_input(key="gen_relevant").set_value(6)
    at.number_input(key="gen_cardinality").set_value(2.5).run()
    _no_exception(at)
    card, dl = float(_metrics(at, "Card")[0]), int(_metrics(at, "DL")[0])
    assert card == pytest.approx(2.5, abs=0.25) and dl > 6  # genuinely multi-label
    preview = next(s for s in _specs(at)
                   if s["layout"]["title"]["text"] == "Label frequencies of the preview")
    assert len(preview["data"][0]["x"]) == 6
    _load(at, "generate")
    _no_exception(at)
    data = _session(at).split.dataset
    assert data.name.startswith("hypercube") and data.Y.shape[1] == 6
    assert data.Y.sum(axis=1).mean() == pytest.approx(card, abs=0.005)  # the very dataset
    assert _session(at).snapshot().iteration == 0


def test_generator_mldatagen_sizing_and_a_bad_target(app):
    at = _page(app, "data")
    assert not any(s.label == "Half-edge range" for s in at.slider)
    at.toggle(key="gen_mldatagen").set_value(True).run()
    _no_exception(at)
    assert at.slider(key="gen_half_edges").value == (0.15, 0.35)
    at.toggle(key="gen_mldatagen").set_value(False).run()
    at.number_input(key="gen_cardinality").set_value(0.5).run()  # below 1 without empty rows
    _no_exception(at)
    assert any("cardinality" in e.value or "sum to" in e.value for e in at.error)
    assert not [b for b in at.button if b.key == "generate"]  # nothing to load
    at.checkbox(key="gen_empty").check().run()
    _no_exception(at)
    assert not at.error
    assert float(_metrics(at, "Card")[0]) == pytest.approx(0.5, abs=0.1)


@pytest.mark.parametrize(
    "files",
    [
        [("broken.arff", b"@relation x\n@attribute a numeric\n@data\n1,2,3\n", "text/plain")],
        [("labels.xml", b"<labels/>", "text/xml")],
        [("bad.csv", b"a,b\n1,\n", "text/csv")],
    ],
)
def test_bad_upload_shows_the_loader_message_and_keeps_state(app, files):
    at = _page(app, "data")
    session = _session(at)
    dataset, before = session.split.dataset, session.snapshot()
    at.file_uploader(key="data_files").set_value(files)
    at.button(key="load_upload").click().run()
    _no_exception(at)
    assert at.error, "a bad file must show an error"
    assert session.split.dataset is dataset and session.snapshot() is before
    assert session.snapshot().iteration == 200


def test_good_upload_switches_dataset(app, tmp_path):
    at = _page(app, "data")
    csv = b"f1,f2,label:a,label:b\n" + b"".join(
        f"{i / 50:.2f},{(i * 7 % 50) / 50:.2f},{i % 2},{int(i > 25)}\n".encode() for i in range(50)
    )
    at.file_uploader(key="data_files").set_value(("mine.csv", csv, "text/csv"))
    _load(at, "load_upload")
    _no_exception(at)
    assert not at.error
    assert _session(at).split.dataset.name == "mine"
    assert _session(at).split.dataset.label_names == ["a", "b"]


def test_loading_asks_before_discarding_a_trained_model(app):
    at = _page(app, "data")
    session = _session(at)
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    at.button(key="load_sample").click().run()
    _no_exception(at)
    assert session.split.dataset.name == "hypercube_2d" and session.iteration == 200
    assert any("discards the model trained for 200 iterations" in w.value for w in at.warning)
    at.button(key="cancel_load").click().run()
    assert session.iteration == 200 and not [b for b in at.button if b.key == "confirm_load"]
    at.button(key="load_sample").click().run()
    at.button(key="confirm_load").click().run()
    _no_exception(at)
    assert session.split.dataset.name == "hypercube_4d" and session.iteration == 0
    assert any("Loaded hypercube_4d" in shown(s.value) for s in at.success)


def test_loading_new_data_frees_the_old_data_and_every_view_of_it(app):
    """Pages keep a race, an audit, a trace of the old data: none may outlive the switch."""
    import gc
    import weakref

    session = _session(app)
    old_data, old_model = weakref.ref(session.split.dataset), weakref.ref(session._training.model)
    at = app
    for page in PAGES:
        at = _page(at, page.name)
    at = _page(at, "microscope")
    at.button(key="trace").click().run()
    at = _page(at, "rules")
    at.button(key="run_audit").click().run()
    at = _page(at, "data")
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    _load(at, "load_sample")
    _no_exception(at)
    gc.collect()
    assert session.split.dataset.name == "hypercube_4d"
    assert old_data() is None and old_model() is None


def test_data_folder_set_at_launch_lists_and_loads_its_datasets(monkeypatch, tmp_path,
                                                               shared_datasets_dir):
    from dashboard import ui

    for name in ("emotions.arff", "emotions.xml"):
        (tmp_path / name).write_bytes((shared_datasets_dir / name).read_bytes())
    (tmp_path / "notes.txt").write_text("not data")
    monkeypatch.setenv("MLR_DATA_DIR", str(tmp_path))
    ui.launch_options.cache_clear()
    try:
        at = _page(_app(), "data")
        picker = at.selectbox(key="folder_dataset")
        assert [str(o) for o in picker.options] == [
            "emotions.arff · MULAN (labels in emotions.xml) · 0.4 MB"]
        at.button(key="load_folder").click().run()  # untrained: no question asked
        _no_exception(at)
        assert _session(at).split.dataset.name == "emotions"
        assert _session(at).split.dataset.label_names[0] == "amazed-suprised"
        for name in ("flags.arff", "flags.xml"):
            (tmp_path / name).write_bytes((shared_datasets_dir / name).read_bytes())
        at = _page(at, "data")
        assert "flags.arff · MULAN (labels in flags.xml) · 11 kB" in [
            str(o) for o in at.selectbox(key="folder_dataset").options]  # was "0.0 MB"
        at.selectbox(key="folder_dataset").set_value(tmp_path / "flags.arff")
        _load(at, "load_folder")
        assert _session(at).split.dataset.name == "flags"
        at = _page(_page(at, "train"), "data")  # back on the page, the loaded one is offered
        assert at.selectbox(key="folder_dataset").value.stem == "flags"
    finally:
        ui.launch_options.cache_clear()


def test_without_a_data_folder_the_page_says_how_to_set_one(app):
    at = _page(app, "data")
    assert any("--data-dir" in i.value for i in at.info)


def test_two_sessions_are_independent(app):
    other = _app()
    assert _session(other) is not _session(app)
    assert _session(other).snapshot().iteration == 0
    assert _session(app).snapshot().iteration == 200


@pytest.fixture
def server_log():
    """Records of the dashboard's logger (Streamlit's loggers do not propagate to the root)."""
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("dashboard")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def _controls_present(at: AppTest) -> None:
    for key in ("start", "pause", "step", "reset"):
        assert at.button(key=key)


def test_an_unexpected_error_is_a_short_message_and_a_logged_traceback(app, monkeypatch,
                                                                        server_log):
    from dashboard import pages

    def broken(snap, point_owed=False):
        raise RuntimeError("chart builder broke")

    monkeypatch.setattr(pages, "train_charts", broken)
    app.session_state["train_charts"] = None  # the charts kept from the last run are made again
    before = _session(app)
    app.run()
    _no_exception(app)
    message = next(e.value for e in app.error if "Something went wrong" in e.value)
    assert "chart builder broke" in message and "session is kept" in message
    assert "Traceback" not in message
    assert _session(app) is before and before.snapshot().iteration == 200
    _controls_present(app)
    logged = [r for r in server_log if r.exc_info and "chart builder broke" in str(r.exc_info[1])]
    assert logged and logged[0].levelno == logging.ERROR


def test_a_failing_callback_keeps_the_session_and_the_controls(app, monkeypatch, server_log):
    from dashboard import state

    def broken(self, *args, **kwargs):
        raise ZeroDivisionError("reset broke")

    monkeypatch.setattr(state.Session, "reset", broken)
    app.button(key="reset").click().run()
    _no_exception(app)
    assert any("reset broke" in e.value for e in app.error)
    assert _session(app).snapshot().iteration == 200
    _controls_present(app)
    assert any("reset broke" in str(r.exc_info[1]) for r in server_log if r.exc_info)


def test_one_label_data_is_refused_at_the_door(app):
    at = _page(app, "data")
    csv = b"f1,f2,label:only\n" + b"".join(f"{i},{i % 7},{i % 2}\n".encode() for i in range(40))
    at.file_uploader(key="data_files").set_value(("one.csv", csv, "text/csv"))
    at.button(key="load_upload").click().run()
    _no_exception(at)
    assert any("at least two labels" in e.value for e in at.error)
    assert _session(at).split.dataset.name == "hypercube_2d"
    assert at.number_input(key="gen_labels").min == 2  # nor can the generator make such data


def test_while_the_kernels_load_the_page_says_so_and_step_waits_for_them(monkeypatch):
    from dashboard import warmup

    loading = threading.Event()
    waited = []
    monkeypatch.setattr(warmup, "_done", loading)
    monkeypatch.setattr(warmup, "start", lambda: None)

    def wait(timeout=None, sparse=False):
        waited.append((timeout, sparse))
        loading.set()  # the background compile finishes while the page waits
        return True

    monkeypatch.setattr(warmup, "wait", wait)
    at = _app()
    assert any("compiled kernels" in c.value for c in at.sidebar.caption)
    step(at)
    _no_exception(at)
    assert waited == [(None, False)] and _metric(at, "Iteration") == "200"  # dense data
    assert not any("compiled kernels" in c.value for c in at.sidebar.caption)


def test_the_first_page_does_not_import_the_engine():
    """A new tab's first page is drawn from the data alone: scikit-learn (and scipy.stats through
    it) and numba are imported by the background warm-up, not before the first answer."""
    script = f"""
import sys
from streamlit.testing.v1 import AppTest
from dashboard import warmup
warmup.start = lambda: None  # the background warm-up would import them on purpose
at = AppTest.from_file({APP!r}, default_timeout={TIMEOUT}).run()
assert not at.exception, at.exception
assert [m.value for m in at.metric][:1] == ["0"], at.metric
print(sorted(name for name in ("sklearn", "scipy.stats", "numba") if name in sys.modules))
"""
    root = Path(APP).parents[1]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
