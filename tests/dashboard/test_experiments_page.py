"""The Experiments page through AppTest: it shows a results folder (table with ranks, statistics,
CD diagram, EM vs HL curves) and runs a small comparison live."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from apptest import APP, shown, started
from streamlit.testing.v1 import AppTest

from mlr_core import make_hypercube_dataset
from mlr_core.evaluation.experiments import run_experiment
from mlr_core.evaluation.tables import write_results


def _page() -> AppTest:
    at = started()
    return at.switch_page("views/experiments.py").run()


@pytest.fixture
def results_root(monkeypatch):
    """Set the results root as ``--results-dir`` would at launch."""
    from dashboard import ui

    def set_root(path: Path) -> None:
        monkeypatch.setenv("MLR_RESULTS_DIR", str(path))
        ui.launch_options.cache_clear()

    yield set_root
    monkeypatch.delenv("MLR_RESULTS_DIR", raising=False)
    ui.launch_options.cache_clear()


def _table(at: AppTest, learners: set[str]) -> pd.DataFrame:
    """The paper-layout table of these learners (both tabs render, so there may be several)."""
    return next(df.value for df in at.dataframe
                if "avg rank" in df.value.columns and set(df.value.index) == learners)


def _no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A results folder as reproduce_paper.py lays it out: comparison/ and the EM vs HL CSV."""
    root = tmp_path_factory.mktemp("results")
    datasets = {f"c{m}": make_hypercube_dataset(n_samples=90, n_labels=m, random_state=m)
                for m in (3, 4)}
    results = run_experiment(["BR-LR", "LP-DT", "RAkELd-DT"], datasets, folds=2)
    write_results(results, root / "comparison")
    emhl = pd.DataFrame([{"learner": f, "dataset": f"m{m}-{k}", "fold": 0,
                          "hamming_loss": 0.01 * m + (0.01 if f == "HL" else 0.0) + 0.001 * k}
                         for f in ("EM", "HL") for m in (2, 3) for k in range(2)])
    emhl.to_csv(root / "emhl_synthetic.csv", index=False)
    return root


def test_shows_a_results_folder(folder, results_root):
    results_root(folder)
    at = _page()
    _no_exception(at)
    table = _table(at, {"BR-LR", "LP-DT", "RAkELd-DT"})
    assert list(table.columns) == ["c3", "c4", "avg rank"]
    assert all("(" in cell for cell in table["c3"])
    assert any("Iman-Davenport" in m.value for m in at.markdown)
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    names = [trace.get("name") for spec in specs for trace in spec["data"]]
    assert "EM (ours)" in names and "HL (paper)" in names
    cd_text = [a["text"] for spec in specs for a in spec["layout"].get("annotations", [])]
    assert any(text.startswith("LP-DT (") for text in cd_text)
    at.selectbox(key="folder_measure").set_value("f1").run()
    _no_exception(at)


def test_an_empty_folder_says_how_to_fill_it(tmp_path, results_root):
    (tmp_path / "empty").mkdir()
    results_root(tmp_path)
    at = _page()
    at.text_input(key="results_dir").set_value("empty").run()
    _no_exception(at)
    assert any("reproduce_paper.py" in info.value for info in at.info)


def test_a_missing_and_a_forbidden_folder_get_the_same_answer(folder, results_root, tmp_path):
    results_root(folder)
    (tmp_path / "secret").mkdir()
    at = _page()
    answers = []
    for name in ("no-such-folder", str(tmp_path / "secret"), "../" * 8 + "etc", "/etc"):
        at.text_input(key="results_dir").set_value(name).run()
        _no_exception(at)
        assert not at.dataframe and not at.info
        answers.append([w.value.replace(repr(name), "NAME") for w in at.warning])
    assert answers[0] == ["No results folder NAME under the results root."]
    assert all(answer == answers[0] for answer in answers)
    at.text_input(key="results_dir").set_value("comparison").run()  # inside: shown
    assert _table(at, {"BR-LR", "LP-DT", "RAkELd-DT"}) is not None


def test_the_bundled_results_say_where_they_come_from_and_name_every_learner():
    at = _page()
    _no_exception(at)
    captions = " ".join(c.value for c in at.caption)
    assert "commit" in captions and "reproduce_paper.py" in captions
    assert "folds.csv" not in captions and str(Path(APP).parents[1]) not in captions
    names = next(m.value for m in at.markdown if "**MLR_agg**" in m.value)
    learners = {"MLR", "MLR_agg", "MLR_max", "BR-LR", "MLkNN"}
    assert all(f"**{name}**:" in names for name in learners)
    assert "fitted weight" in names and "vote" in names


def test_the_bundled_results_draw_the_theory_in_the_apps_style_and_explain_the_ranks():
    at = _page()
    at.selectbox(key="folder_measure").set_value("hamming_loss").run()
    _no_exception(at)
    specs = {json.loads(c.proto.spec)["layout"]["title"]["text"]: json.loads(c.proto.spec)
             for c in at.get("plotly_chart")}
    engine = specs["The evolved population's mean fitness against a random rule's"]
    random_rules = specs["Expected fitness: random rules measured vs the paper's equations"]
    assert not at.get("imgs") and not at.get("image")  # charts, no PNG in plotly's own style
    axis = random_rules["layout"]["yaxis"]
    assert axis["type"] == "log" and len(axis["tickvals"]) == len(axis["ticktext"]) <= 8
    assert all(text.replace(".", "").replace(",", "").isdigit() or "10<sup>" in text
               for text in axis["ticktext"])  # 0.01, 0.02, 0.05, ...: no bare minor digits
    assert engine["layout"]["barmode"] == "group" and engine["layout"]["title"]["x"] == 0.0
    note = next(c.value for c in at.caption if c.value.startswith("Ranks are among"))
    assert "benchmarks/field.py" in note and "peers.csv" in note
    assert "BOOMER on genbase (hamming_loss 0.04" in note and "recall 0" in note


def test_runs_a_small_comparison_live():
    at = _page()
    at.multiselect(key="exp_learners").set_value(["BR-LR", "LP-DT", "MLkNN"])
    at.multiselect(key="exp_datasets").set_value(["hypercube_4d.csv"])
    at.slider(key="exp_folds").set_value(2)
    at.button(key="exp_run").click().run()
    _no_exception(at)
    results = at.session_state["experiment_results"]
    assert len(results) == 3 * 2 * 2 and set(results.learner) == {"BR-LR", "LP-DT", "MLkNN"}
    assert set(results.dataset) == {"hypercube_2d", "hypercube_4d"}
    table = _table(at, {"BR-LR", "LP-DT", "MLkNN"})
    assert list(table.columns) == ["hypercube_2d", "hypercube_4d", "avg rank"]
    assert any("(k = 3, N = 2)" in m.value for m in at.markdown)  # two datasets: the tests


def _messages(at: AppTest) -> list[str]:
    return [m.value for kind in (at.warning, at.error, at.caption) for m in kind]


@pytest.mark.parametrize("name", ["bad\x00name", "x" * 5000, "a/" * 3000])
def test_a_name_no_folder_can_have_gets_the_missing_folders_answer(folder, results_root, name):
    """A NUL byte (ValueError) or a name too long for the file system (OSError, with the
    server's path in its message) is a folder that is not there."""
    results_root(folder)
    at = _page()
    at.text_input(key="results_dir").set_value(name).run()
    _no_exception(at)
    assert not at.error and not at.dataframe
    (warning,) = at.warning
    assert warning.value.startswith("No results folder ") and len(warning.value) < 150
    assert str(folder) not in " ".join(_messages(at))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"learner,dataset\n1,2\n1,2,3,4\n", r"^bad/folds\.csv is not a CSV table \(Error "
                                             r"tokenizing data"),
        (b"", r"^bad/folds\.csv is not a CSV table \(No columns to parse"),
        (b"\xff\xfe\x00garbage", r"^bad/folds\.csv is not a CSV table"),
        (b"a,b\n1,2\n", r"^bad/folds\.csv is not a results table .* no column learner, dataset, "
                        r"fold\.$"),
        (b"learner,dataset,fold,hamming_loss\nA,d,0,low\n", r"^bad/folds\.csv holds no measure"),
    ],
)
def test_a_garbage_results_table_gets_a_short_message(tmp_path, results_root, content, message):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "folds.csv").write_bytes(content)
    (tmp_path / "bad" / "run.json").write_text("{not json")
    results_root(tmp_path)
    at = _page()
    at.text_input(key="results_dir").set_value("bad").run()
    _no_exception(at)
    (error,) = at.error
    assert re.match(message, error.value), error.value
    assert "Something went wrong" not in error.value and str(tmp_path) not in error.value
    assert at.tabs[1].label == "Run a comparison" and at.button(key="exp_run")  # the page goes on


def _open(root: Path, name: str, results_root) -> AppTest:
    results_root(root)
    at = _page()
    at.text_input(key="results_dir").set_value(name).run()
    _no_exception(at)
    assert at.tabs[1].label == "Run a comparison" and at.button(key="exp_run")  # the page goes on
    return at


def test_a_file_that_is_not_a_png_is_named_and_the_rest_of_the_page_draws(tmp_path,
                                                                         results_root):
    """A theory_x.png that is not a PNG showed "UnidentifiedImageError ... <_io.BytesIO object
    at 0x...>" and nothing after it (issue 33); a damaged one (cut short) likewise."""
    png = (Path(APP).parents[1] / "docs" / "results" / "theory_engine.png").read_bytes()
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "theory_a.png").write_bytes(png[:200])
    (tmp_path / "figures" / "theory_engine.png").write_bytes(png)
    (tmp_path / "figures" / "theory_x.png").write_bytes(b"not a png at all")
    at = _open(tmp_path, "figures", results_root)
    assert [e.value for e in at.error] == [
        f"figures/{name} is not a PNG image this page can show (not an image, or damaged)."
        for name in ("theory_a.png", "theory_x.png")]
    assert len(at.get("image")) == 1  # theory_engine.png, between the two


@pytest.mark.parametrize("run", [{"seconds": "x"}, {"learners": [1, 2]}, {"learners": "BR-LR"}])
def test_a_run_json_of_other_types_is_unknown_provenance(folder, tmp_path, results_root, run):
    """A run.json whose seconds were text, or whose learners were not names, stopped the page
    with a TypeError."""
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "folds.csv").write_bytes((folder / "comparison" / "folds.csv").read_bytes())
    (tmp_path / "odd" / "run.json").write_text(json.dumps({"runs": [run]}))
    at = _open(tmp_path, "odd", results_root)
    assert not at.error
    assert any("run.json is not the runner's" in c.value for c in at.caption)
    assert _table(at, {"BR-LR", "LP-DT", "RAkELd-DT"}) is not None


@pytest.mark.parametrize("dataset", [5, "m" + "9" * 30 + "-1"])
def test_em_vs_hl_results_of_other_datasets_are_named(tmp_path, results_root, dataset):
    """Dataset names that are numbers (an AttributeError) or a label count beyond any integer
    (an OverflowError) stopped the page."""
    (tmp_path / "emhl").mkdir()
    pd.DataFrame({"learner": ["EM", "HL"], "dataset": [dataset] * 2, "fold": [0, 0],
                  "hamming_loss": [0.1, 0.2]}).to_csv(tmp_path / "emhl" / "emhl_synthetic.csv",
                                                      index=False)
    at = _open(tmp_path, "emhl", results_root)
    (error,) = at.error
    assert shown(error.value) == ("emhl_synthetic.csv: EM vs HL results need datasets named "
                           "m<labels>-<k>")


def test_a_comparison_lacking_a_measure_is_named(folder, tmp_path, results_root):
    """A learner without a value on a dataset got "Something went wrong while showing the
    comparison"; the message names the file now."""
    results = pd.read_csv(folder / "comparison" / "folds.csv")
    results.loc[results.learner == "LP-DT", "hamming_loss"] = float("nan")
    (tmp_path / "gaps").mkdir()
    results.to_csv(tmp_path / "gaps" / "folds.csv", index=False)
    at = _open(tmp_path, "gaps", results_root)
    (error,) = at.error
    assert error.value.startswith("gaps/folds.csv: the table has missing values")
