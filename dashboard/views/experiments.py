"""Experiments: browse a results folder (tables with ranks, statistics, CD diagrams, EM vs HL
curves) and run a small cross-validated comparison live, with a progress bar.

The folder is what ``benchmarks/reproduce_paper.py`` writes (``docs/results`` by default) or
what ``python -m mlr_core.evaluation.experiments --out ...`` writes (its ``folds.csv`` directly).
"""

from pathlib import Path

import pandas as pd
import streamlit as st

from dashboard import state, tables, ui
from mlr_core.evaluation.cd_diagram import cd_figure
from mlr_core.evaluation.experiments import (
    REPORTED,
    mean_table,
    paper_layout,
    run_experiment,
    statistics_text,
)
from mlr_core.evaluation.learners import available_learners
from mlr_core.evaluation.measures import LOWER_IS_BETTER
from mlr_core.evaluation.report import emhl_figure, emhl_summary

REPO = Path(__file__).resolve().parents[2]  # the repository (dashboard/views/..)
DEFAULT_FOLDER = REPO / "docs" / "results"
QUICK_LEARNERS = ["BR-LR", "LP-DT", "MLkNN", "MLR_agg", "MLR"]  # MLR: the library's defaults
MAX_RUN_ROWS = 5000  # a live run on more rows than this is a job for the command line


def comparison_file(folder: Path) -> Path | None:
    """The per-fold results of a comparison in ``folder``: its own ``folds.csv`` or that of its
    ``comparison/`` subfolder."""
    for path in (folder / "folds.csv", folder / "comparison" / "folds.csv"):
        if path.is_file():
            return path
    return None


def show_comparison(results: pd.DataFrame, key: str) -> None:
    """One measure at a time: the paper-layout table, the tests and the CD diagram."""
    measures = [m for m in REPORTED if m in results.columns]
    measure = st.selectbox("Measure", measures, key=f"{key}_measure")
    table = mean_table(results, measure)
    lower = measure in LOWER_IS_BETTER
    st.caption(f"Fold means, rank in parentheses (1 = best; {'lower' if lower else 'higher'} "
               "is better), average rank last.")
    layout = paper_layout(table, lower)
    st.dataframe(layout, column_config=tables.fit_columns(layout))
    if table.shape[1] >= 2 and table.shape[0] >= 3:
        st.markdown(statistics_text(table))
        st.plotly_chart(cd_figure(table, lower, title=f"{measure}: critical difference"),
                        key=f"{key}_cd")
    else:
        st.info("The statistics and the CD diagram need at least three learners and two "
                "datasets.")


def browse(folder: Path) -> None:
    path = comparison_file(folder)
    found = False
    if path is not None:
        found = True
        st.subheader("Comparison")
        results = pd.read_csv(path)
        st.caption(f"{path}: {results.learner.nunique()} learners, "
                   f"{results.dataset.nunique()} datasets, {results.fold.nunique()} folds.")
        show_comparison(results, "folder")
    emhl = folder / "emhl_synthetic.csv"
    if emhl.is_file():
        found = True
        st.subheader("EM vs HL fitness on synthetic data")
        st.plotly_chart(emhl_figure(emhl_summary(pd.read_csv(emhl))), key="emhl")
    for image in sorted(folder.glob("theory_*.png")):
        found = True
        st.image(str(image), caption=image.stem.replace("_", " "))
    if not found:
        st.info(f"No results in {folder}: run `python benchmarks/reproduce_paper.py` or "
                "`python -m mlr_core.evaluation.experiments --out FOLDER`.")


def run_live(session: state.Session) -> None:
    """Cross-validate a few learners on the dataset loaded in the app and any sample datasets
    (two or more datasets give the ranks a meaning, and the tests and CD diagram)."""
    current = session.dataset
    with st.form("experiment"):
        learners = st.multiselect("Learners", available_learners(),
                                  default=[n for n in QUICK_LEARNERS if n in available_learners()],
                                  key="exp_learners",
                                  help="MLR_agg and MLR_max: the paper's MLR, scored by the "
                                  "rules' vote. MLR: this library's defaults (fitted rule "
                                  "weights, at most 3 features per rule).")
        samples = [name for name in ui.sample_names() if Path(name).stem != current.name]
        extra = st.multiselect(f"Datasets besides {current.name} (samples)", samples,
                               key="exp_datasets")
        n_folds = st.slider("Folds", 2, 5, 3, key="exp_folds")
        submitted = st.form_submit_button("Run", key="exp_run")
    if submitted:
        datasets = {current.name: current}
        for name in extra:
            data = ui.load_sample(name)
            datasets[data.name] = data
        big = [d.name for d in datasets.values() if d.n_samples > MAX_RUN_ROWS]
        if big:
            st.warning(f"{', '.join(big)}: more than {MAX_RUN_ROWS:,} rows; run that from the "
                       "command line (python -m mlr_core.evaluation.experiments).")
        elif len(learners) < 1:
            st.warning("Pick at least one learner.")
        else:
            bar = st.progress(0.0, text="Starting...")

            def advance(done, total, row):
                bar.progress(done / total, text=f"{done}/{total}: {row['learner']} on "
                             f"{row['dataset']}, fold {row['fold'] + 1}")

            try:
                st.session_state["experiment_results"] = run_experiment(
                    learners, datasets, folds=n_folds, progress=advance)
            except ValueError as err:  # e.g. too few rows of a label for the folds asked
                st.error(f"Could not run: {err}")
            bar.empty()
    results = st.session_state.get("experiment_results")
    if results is not None:
        show_comparison(results, "live")
        seconds = results.groupby("learner", sort=False)[["fit_seconds", "predict_seconds"]].mean()
        st.dataframe(seconds, column_config=tables.fit_columns(seconds))


st.title("Experiments")
browse_tab, run_tab = st.tabs(["Results folder", "Run a comparison"])
with browse_tab:
    folder = Path(st.text_input("Results folder", str(DEFAULT_FOLDER), key="results_dir"))
    if folder.is_dir():
        browse(folder)
    else:
        st.warning(f"{folder} is not a folder.")
with run_tab:
    run_live(ui.session())
