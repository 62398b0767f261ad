"""Every page through Streamlit's AppTest: it loads, trains, explains, and survives bad input.

AppTest never fires ``run_every`` timers: each ``run()`` is one tick of the live fragment.
"""

import json
import logging
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "mlr_dashboard" / "streamlit_app.py")
PAGES = ["train", "population", "explain", "rules", "theory", "data"]
TIMEOUT = 120  # the first run in a fresh checkout may compile the engine (numba cache)


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=TIMEOUT).run()


def _page(at: AppTest, name: str) -> AppTest:
    return at.switch_page(f"views/{name}.py").run()


def _session(at: AppTest):
    return at.session_state["session"]


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _specs(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture
def app() -> AppTest:
    """The app after one Step (200 iterations), so every page has rules to show."""
    at = _app()
    _no_exception(at)
    at.button(key="step").click().run()
    _no_exception(at)
    return at


def test_opens_on_the_sample_with_a_fresh_model():
    at = _app()
    _no_exception(at)
    session = _session(at)
    assert session.dataset.name == "hypercube_2d"
    assert _metric(at, "Iteration") == "0"
    assert at.button(key="start").disabled is False and at.button(key="pause").disabled is True
    assert len(session.test_idx) == round(0.2 * len(session.dataset.X))


@pytest.mark.parametrize("page", PAGES)
def test_every_page_loads(app, page):
    at = _page(app, page)
    _no_exception(at)
    assert at.title[0].value.startswith(page.capitalize()[:4])
    assert not at.error


def test_step_then_start_advance_and_pause_stops(app):
    assert _metric(app, "Iteration") == "200"
    session = _session(app)
    assert len(session.curves.points) == 1  # a manual step always records a curve point
    app.button(key="start").click().run()
    assert session.running
    first = session.snapshot().iteration
    assert first > 200
    app.run()  # one more tick of the live fragment
    assert session.snapshot().iteration > first
    app.button(key="pause").click().run()
    assert not session.running
    paused = session.snapshot().iteration
    app.run()
    assert session.snapshot().iteration == paused


def test_iterations_per_tick_caps_a_tick(app):
    app.select_slider(key="speed").set_value(100).run()
    app.button(key="start").click().run()
    assert _session(app).snapshot().iteration == 300


def test_reset_and_parameter_form(app):
    app.button(key="reset").click().run()
    assert _metric(app, "Iteration") == "0"
    n_rules = next(w for w in app.number_input if w.label.startswith("N:"))
    n_rules.set_value(300)
    app.button(key="apply").click().run()
    _no_exception(app)
    assert _session(app).params["n_rules"] == 300
    assert _session(app).snapshot().summary["micro_size"] == 0


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
    names = session.dataset.feature_names
    assert projection["layout"]["xaxis"]["title"]["text"] == names[0]
    assert projection["layout"]["yaxis"]["title"]["text"] == names[1]
    fills = [t for t in projection["data"] if t.get("fill") == "toself"]
    assert fills, "rules are drawn as filled traces"
    points = [t for t in projection["data"] if "customdata" in t]
    assert points and all(t["mode"] == "markers" for t in points)
    assert [a["text"] for a in histograms["layout"]["annotations"]] == [
        "Fitness", "Numerosity", "Generality"
    ]
    at.number_input(key="pop_cap").set_value(10).run()
    n_rules = len(session.snapshot().rules)
    assert any("fittest" in w.value for w in at.warning) == (n_rules > 10)


def test_population_colour_by_labelset_and_filters(app):
    at = _page(app, "population")
    at.segmented_control(key="pop_color").set_value("labelset").run()
    at.slider(key="pop_fit").set_value(0.5).run()
    _no_exception(at)
    projection = _specs(at)[0]
    assert "Labelset" in projection["layout"]["legend"]["title"]["text"]


def test_explain_shows_match_set_answers_and_scores(app):
    at = _page(app, "explain")
    at.number_input(key="instance_index").set_value(5).run()
    _no_exception(at)
    assert _session(at).selected == 5
    assert at.subheader[0].value.startswith("Instance #5")
    assert any("MLR_agg" in m.value for m in at.markdown)
    assert any("MLR_max" in m.value for m in at.markdown)
    scores = _specs(at)[0]
    assert scores["layout"]["title"]["text"].startswith("Label scores")
    assert scores["layout"]["yaxis"]["title"]["text"].startswith("aggregated score")
    assert len(at.dataframe) >= 2  # the picker table and the match set


def test_explain_says_when_the_fallback_answered():
    at = _app()  # a fresh model has no rules: nothing can match
    at = _page(at, "explain")
    _no_exception(at)
    assert any("nearest" in w.value for w in at.warning)


def test_rules_table_downloads_and_heatmap(app):
    at = _page(app, "rules")
    _no_exception(at)
    rules = _session(at).snapshot().rules
    assert len(at.dataframe[0].value) == len(rules)
    assert len(at.get("download_button")) == 2
    heatmap = _specs(at)[0]
    assert heatmap["data"][0]["type"] == "heatmap"
    assert list(heatmap["data"][0]["x"]) == _session(at).dataset.feature_names
    at.number_input(key="rules_num").set_value(2).run()
    assert (at.dataframe[0].value["numerosity"] >= 2).all()


def test_rules_json_upload_bad_keeps_model_good_replaces_it(app):
    at = _page(app, "rules")
    session = _session(at)
    before = session.snapshot()
    at.file_uploader(key="model_file").set_value(("broken.json", b"{not json", "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert at.error and session.snapshot() is before
    saved = session.model_json().encode()
    at.button(key="step").click().run()  # the saved model is 200 iterations behind now
    at.file_uploader(key="model_file").set_value(("model.json", saved, "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert not at.error
    loaded = session.snapshot()
    assert loaded.iteration == before.iteration == 200
    assert loaded.rules["rule"].tolist() == before.rules["rule"].tolist()
    at.button(key="step").click().run()  # continue training the loaded rule set
    _no_exception(at)
    assert session.snapshot().iteration == 400


def test_rules_json_of_another_dataset_is_refused(app):
    saved = _session(app).model_json().encode()  # 2 features
    at = _page(app, "data")
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    at.button(key="load_sample").click().run()
    at = _page(at, "rules")
    before = _session(at).snapshot()
    at.file_uploader(key="model_file").set_value(("model.json", saved, "application/json"))
    at.button(key="load_model").click().run()
    _no_exception(at)
    assert at.error and _session(at).snapshot() is before


def test_theory_curves_marks_and_caption(app):
    at = _page(app, "theory")
    _no_exception(at)
    by_dl, by_dens = _specs(at)
    assert by_dl["layout"]["xaxis"]["type"] == "log"
    assert "DL" in by_dl["layout"]["xaxis"]["title"]["text"]
    assert "Dens" in by_dens["layout"]["xaxis"]["title"]["text"]
    for spec in (by_dl, by_dens):
        assert any(t["name"].startswith("measured mean fitness") for t in spec["data"])
        assert any(a["text"] == "current dataset" for a in spec["layout"]["annotations"])
    assert any("Symbols" in c.value for c in at.caption)
    at.slider[0].set_value(12).run()  # m: the shaded region moves with it
    _no_exception(at)


def test_data_page_stats_sample_and_synthetic(app):
    at = _page(app, "data")
    _no_exception(at)
    assert _metric(at, "DL") == "7"
    assert _specs(at)[0]["layout"]["title"]["text"] == "Label frequencies"
    at.selectbox(key="sample_name").set_value("hypercube_4d.csv")
    at.button(key="load_sample").click().run()
    _no_exception(at)
    assert _session(at).dataset.name == "hypercube_4d"
    assert _metric(at, "m (labels)") == "4"
    at.button(key="generate").click().run()
    _no_exception(at)
    assert _session(at).dataset.name.startswith("hypercube")
    assert _session(at).snapshot().iteration == 0


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
    dataset, before = session.dataset, session.snapshot()
    at.file_uploader(key="data_files").set_value(files)
    at.button(key="load_upload").click().run()
    _no_exception(at)
    assert at.error, "a bad file must show an error"
    assert session.dataset is dataset and session.snapshot() is before
    assert session.snapshot().iteration == 200


def test_good_upload_switches_dataset(app, tmp_path):
    at = _page(app, "data")
    csv = b"f1,f2,label:a,label:b\n" + b"".join(
        f"{i / 50:.2f},{(i * 7 % 50) / 50:.2f},{i % 2},{int(i > 25)}\n".encode() for i in range(50)
    )
    at.file_uploader(key="data_files").set_value(("mine.csv", csv, "text/csv"))
    at.button(key="load_upload").click().run()
    _no_exception(at)
    assert not at.error
    assert _session(at).dataset.name == "mine"
    assert _session(at).dataset.label_names == ["a", "b"]


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
    logger = logging.getLogger("mlr_dashboard")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def _controls_present(at: AppTest) -> None:
    for key in ("start", "pause", "step", "reset"):
        assert at.button(key=key)


def test_an_unexpected_error_is_a_short_message_and_a_logged_traceback(app, monkeypatch,
                                                                        server_log):
    from mlr_dashboard import pages

    def broken(snap):
        raise RuntimeError("chart builder broke")

    monkeypatch.setattr(pages, "train_charts", broken)
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
    from mlr_dashboard import state

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
    assert _session(at).dataset.name == "hypercube_2d"
    labels = next(w for w in at.number_input if w.label == "Labels")
    assert labels.min == 2  # the generator cannot make one-label data either
