"""Experiments: browse the results (tables with ranks, statistics, CD diagrams, EM vs HL
curves) and run a small cross-validated comparison live, with a progress bar.

Results are read only under one root: the project's ``docs/results`` (what
``benchmarks/reproduce_paper.py`` writes) or the folder set at launch with ``--results-dir``; a
folder the visitor names is looked up under it, and a missing and a forbidden one get the same
answer (nothing about the server's other folders leaks). A file there that is not what the
runner writes gets one short message naming it under the root, never a traceback.
"""

import json
from pathlib import Path

import pandas as pd
import streamlit as st

from dashboard import state, tables, theory_figures, ui
from dashboard.markdown_text import literal
from mlr_core.errors import DatasetError
from mlr_core.evaluation.cd_diagram import cd_figure
from mlr_core.evaluation.experiments import run_experiment
from mlr_core.evaluation.journal import KEY
from mlr_core.evaluation.learners import available_learners
from mlr_core.evaluation.measures import LOWER_IS_BETTER
from mlr_core.evaluation.report import emhl_figure, emhl_summary
from mlr_core.evaluation.tables import REPORTED, mean_table, paper_layout, statistics_text

REPO = Path(__file__).resolve().parents[2]  # the repository (dashboard/views/..)
DEFAULT_ROOT = REPO / "docs" / "results"
QUICK_LEARNERS = ["BR-LR", "LP-DT", "MLkNN", "MLR_agg", "MLR"]  # MLR: the library's defaults
MAX_RUN_ROWS = 5000  # a live run on more rows than this is a job for the command line
SHOWN_NAME = 80  # characters of a typed folder name quoted back
#: What each learner's name stands for (their settings: mlr_core/evaluation/learners.py).
LEARNER_NAMES = {
    "MLR": "this library's defaults, `MLRClassifier()`: the evolved rules with a fitted weight "
           "per rule and label, at most 3 features per rule, the cut tuned for accuracy and "
           "Hamming loss together",
    "MLR_agg": "the paper's MLR: each label's score is the share of the matching rules' vote "
               "(fitness × numerosity), then a threshold",
    "MLR_max": "the paper's MLR answering one labelset: the one its matching rules back most",
    "BR-LR": "binary relevance: one logistic regression per label",
    "LP-DT": "label powerset: every distinct labelset one class of a decision tree (J48-like)",
    "RAkELo-DT": "RAkEL: overlapping random 3-labelsets, a label powerset tree each, vote ≥ 0.5",
    "RAkELd-DT": "RAkEL with disjoint 3-labelsets",
    "MLkNN": "ML-kNN, the 10 nearest neighbours",
    "ECC-LR": "an ensemble of 10 classifier chains in random orders, logistic regression",
    "ECC-DT": "the same ensemble of chains with the J48-like tree",
    "BOOMER": "gradient-boosted multi-label rules (mlrl-boomer's defaults)",
}
#: What the figures in a results folder show (a caption, not a file name).
FIGURE_CAPTIONS = {
    "theory_random_rules": "Random rules on generated data: their measured fitness against the "
                           "paper's expected fitness and its bounds",
    "theory_engine": "The evolved population's mean fitness against a random rule's, per "
                     "generated dataset",
}


def results_root() -> Path:
    return (ui.launch_options().results_dir or DEFAULT_ROOT).resolve()


def folder_under(root: Path, name: str) -> Path | None:
    """The folder ``name`` names under ``root``, or None: whether it is missing, outside the
    root (``..``, an absolute path, a link out) or a name no folder can have (a NUL byte, too
    long for the file system) the answer is the same."""
    try:
        folder = (root / name.strip()).resolve()
        return folder if folder.is_relative_to(root) and folder.is_dir() else None
    except (ValueError, OSError):
        return None


def shown(path: Path) -> str:
    """A results file as messages name it: its folder's name and its own, never the server's
    path to them."""
    return f"{path.parent.name}/{path.name}"


def read_table(path: Path, columns) -> pd.DataFrame:
    """A CSV the runner wrote, with ``columns``, or a DatasetError naming it (`shown`)."""
    where = shown(path)
    try:
        table = pd.read_csv(path)
    except OSError as err:
        raise DatasetError(f"{where} cannot be read.") from err
    except ValueError as err:  # pandas' ParserError and EmptyDataError; not UTF-8
        reason = " ".join(str(err).split())[:120] or type(err).__name__
        raise DatasetError(f"{where} is not a CSV table ({reason}).") from err
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise DatasetError(f"{where} is not a results table of the experiment runner: it has no "
                           f"column {', '.join(missing)}.")
    return table


def read_results(path: Path) -> pd.DataFrame:
    """A comparison's per-fold results (``folds.csv``): its learner, dataset and fold columns and
    at least one measure of numbers (other measure columns are left out)."""
    results = read_table(path, KEY)
    text = [m for m in REPORTED if m in results and not pd.api.types.is_numeric_dtype(results[m])]
    results = results.drop(columns=text)
    if not any(m in results for m in REPORTED):
        raise DatasetError(f"{shown(path)} holds no measure of numbers "
                           f"({', '.join(REPORTED)}).")
    return results


def learner_names(learners) -> None:
    """Each learner's name explained, in the order of the table."""
    with st.expander("What the learners' names mean", icon=":material/help:"):
        st.markdown("\n".join(f"- **{name}**: {LEARNER_NAMES.get(name, 'see learners.py')}"
                              for name in learners))


def provenance(folder: Path) -> None:
    """The commit, date and settings the results come from (the runner's ``run.json``)."""
    path = folder / "run.json"
    if not path.is_file():
        return
    try:
        runs = json.loads(path.read_text())["runs"]
    except (OSError, ValueError, RecursionError, KeyError, TypeError):
        runs = None
    if not isinstance(runs, list) or not all(map(_runner_run, runs)):
        st.caption("Where these results come from is unknown: run.json is not the runner's.")
        return
    lines = [f"{', '.join(run.get('learners', []))}: commit {run.get('commit', '?')}, "
             f"{run.get('date', '?')}, {run.get('seconds', 0) / 60:.1f} min on "
             f"{run.get('n_jobs', '?')} workers" for run in runs]
    if lines:
        st.caption("Made by `benchmarks/reproduce_paper.py` with every learner's defaults "
                   "(seed 0) on the fixed folds of `../shared/field/folds`; later runs replace "
                   "the rows of the learners they name.  \n" + "  \n".join(lines))


def _runner_run(run) -> bool:
    """Whether one entry of ``run.json`` is what the runner writes: an object whose learners
    are names and whose seconds a number."""
    if not isinstance(run, dict):
        return False
    learners, seconds = run.get("learners", []), run.get("seconds", 0)
    return (isinstance(learners, list) and all(isinstance(name, str) for name in learners)
            and type(seconds) in (int, float))


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
    learner_names(table.index)
    lower = measure in LOWER_IS_BETTER
    st.caption(f"Fold means, rank in parentheses (1 = best; {'lower' if lower else 'higher'} "
               "is better), average rank last.")
    layout = paper_layout(table, lower)
    st.dataframe(layout, column_config=tables.fit_columns(layout),
                 height=tables.height_for(len(layout)))
    st.caption(rank_note(results, table, measure))
    if table.shape[1] >= 2 and table.shape[0] >= 3:
        st.markdown(statistics_text(table))
        st.plotly_chart(cd_figure(table, lower, title=f"{measure}: critical difference"),
                        key=f"{key}_cd")
    else:
        st.info("The statistics and the CD diagram need at least three learners and two "
                "datasets.")


def rank_note(results: pd.DataFrame, table: pd.DataFrame, measure: str) -> str:
    """Why these ranks need not be the README's: a rank depends on who is compared, and a
    learner that found no true label on a dataset (mean recall 0) ranks near the end there."""
    note = (f"Ranks are among the {table.shape[0]} learners above. The README's ranks come from "
            "`benchmarks/field.py`: MLR against the nine peers measured in "
            "`../shared/field/peers.csv` (SeCo among them; MLR_agg and MLR_max not) on the same "
            "folds, so they differ where the learners compared or their numbers differ.")
    if "recall" not in results.columns:
        return note
    recall = results.groupby(["learner", "dataset"])["recall"].mean()
    blank = [f"{learner} on {dataset} ({measure} {table.loc[learner, dataset]:.4g})"
             for (learner, dataset), value in recall.items()
             if value == 0 and learner in table.index and dataset in table.columns]
    if blank:
        note += (f" Here {', '.join(blank)} found no true label in any fold (mean recall 0): "
                 "its rank there is that of predicting nothing.")
    return note


def browse(folder: Path) -> None:
    path = comparison_file(folder)
    found = False
    if path is not None:
        found = True
        st.subheader("Comparison")
        try:
            results = read_results(path)
        except DatasetError as err:
            st.error(str(err), icon=":material/error:")
        else:
            st.caption(f"{results.learner.nunique()} learners on {results.dataset.nunique()} "
                       f"datasets, {results.fold.nunique()} folds each.")
            provenance(path.parent)
            with ui.shielded("showing the comparison"):
                try:
                    show_comparison(results, "folder")
                except ValueError as err:  # e.g. a measure missing for a learner on a dataset
                    st.error(f"{shown(path)}: {err}", icon=":material/error:")
    emhl = folder / "emhl_synthetic.csv"
    if emhl.is_file():
        found = True
        st.subheader("EM vs HL fitness on synthetic data")
        try:
            summary = emhl_summary(read_table(emhl, [*KEY, "hamming_loss"]))
        except DatasetError as err:
            st.error(literal(err), icon=":material/error:")
        except (ValueError, TypeError) as err:  # e.g. datasets not named m<labels>-<k>
            st.error(literal(f"{emhl.name}: {err}"), icon=":material/error:")
        else:
            st.plotly_chart(emhl_figure(summary), key="emhl")
    theory_csv = folder / "theory.csv"
    if theory_csv.is_file():  # drawn here in the app's style; the PNGs are for the report
        found = True
        st.subheader("The theory checked")
        try:
            t = read_table(theory_csv, theory_figures.THEORY_COLUMNS)
            figures = [theory_figures.engine_fitness_figure(t),
                       theory_figures.random_rules_figure(t)]
        except DatasetError as err:
            st.error(literal(err), icon=":material/error:")
        except (ValueError, TypeError) as err:  # columns of text where numbers belong
            st.error(literal(f"{theory_csv.name}: {err}"), icon=":material/error:")
        else:
            for figure, key in zip(figures, ("theory_engine", "theory_random_rules"),
                                   strict=True):
                st.plotly_chart(figure, key=key)
    else:
        for image in sorted(folder.glob("theory_*.png")):
            found = True
            show_image(image)
    if not found:
        st.info("No results in this folder: run `python benchmarks/reproduce_paper.py` or "
                "`python -m mlr_core.evaluation.experiments --out FOLDER`.")


def show_image(path: Path) -> None:
    """A PNG of the report, or a message naming it when it is not an image (or is damaged):
    the rest of the page draws either way."""
    with ui.shielded(f"showing {shown(path)}"):  # e.g. a decompression bomb
        try:
            st.image(str(path), caption=FIGURE_CAPTIONS.get(path.stem, "The theory checked"))
        except (OSError, ValueError):  # PIL's UnidentifiedImageError is an OSError
            st.error(f"{shown(path)} is not a PNG image this page can show (not an image, or "
                     "damaged).", icon=":material/error:")


def run_live(session: state.Session) -> None:
    """Cross-validate a few learners on the dataset loaded in the app and any sample datasets
    (two or more datasets give the ranks a meaning, and the tests and CD diagram)."""
    current = session.split.dataset
    with st.form("experiment"):
        learners = st.multiselect("Learners", available_learners(),
                                  default=[n for n in QUICK_LEARNERS if n in available_learners()],
                                  key="exp_learners",
                                  help="MLR_agg and MLR_max: the paper's MLR, scored by the "
                                  "rules' vote. MLR: this library's defaults (fitted rule "
                                  "weights, at most 3 features per rule).")
        samples = [name for name in ui.sample_names() if Path(name).stem != current.name]
        extra = st.multiselect(f"Datasets besides {literal(current.name)} (samples)", samples,
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
        st.dataframe(seconds, column_config=tables.fit_columns(seconds),
                     height=tables.height_for(len(seconds)))


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Experiments")
    browse_tab, run_tab = st.tabs(["Results folder", "Run a comparison"])
    with browse_tab:
        root = results_root()
        name = st.text_input("Results folder", "", key="results_dir", placeholder="(the root)",
                             help="A folder under the results root set at launch (`-- "
                                  "--results-dir PATH`, by default the project's docs/results).")
        folder = folder_under(root, name)
        if folder is None:
            typed = name.strip()
            typed = typed if len(typed) <= SHOWN_NAME else typed[:SHOWN_NAME] + "..."
            st.warning(f"No results folder {typed!r} under the results root.")
        else:
            browse(folder)
    with run_tab:
        run_live(ui.session())


main()
