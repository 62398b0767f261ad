"""Page assembly: from a session's snapshot and the user's choices to what a page draws.

Pure (no Streamlit): the views call these functions and ``benchmarks/bench_dashboard.py`` times
the very same ones, so a live tick can be measured without a browser and never drifts from what
the pages do.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard import compare_figures, figures, frames, plot_axes
from dashboard.curves import MEASURES, CurveLog, run_name
from dashboard.snapshots import Snapshot
from dashboard.state import RACE_LANES, Race, Session

#: Rules in the Rules page's heatmap (the most numerous ones).
HEATMAP_RULES = 60


def rule_kinds(evolved: int, one_condition: int, *more: str, alone: bool = False) -> str:
    """The rules a model predicts with, by kind, in words (then ``more``, e.g. "the baseline"):
    the evolved ones and the one-condition rules (``x = 1`` on a 0/1 feature, a step at each of
    a numeric feature's deciles) that the rule weights' fit adds where they help
    (``mlr_core/rule_weights.py``), which the population does not hold; ``alone``: the
    one-condition rules answer alone (``RuleSet.feature_rules_alone``), which the evolved ones'
    count says, lest a reader think they weigh in."""
    parts = [f"{count:,} {kind}{'' if count == 1 else 's'}{note}"
             for count, kind, note in [
                 (evolved, "evolved rule", " (weighing 0: the weights' fit found they add "
                                           "nothing to the one-condition rules)" if alone else ""),
                 (one_condition, "one-condition rule",
                  " (`x = 1` on a 0/1 feature or a step at a decile of a numeric one, added "
                  "by the rule weights' fit)")]
             if count] + list(more)
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def one_condition_rules(snap: Snapshot) -> int:
    """How many of the rules ``snap`` shows are the weights' one-condition rules: beyond the
    population (its macro rules), while the fitted rule set holds them."""
    return max(len(snap.rules) - snap.summary["macro_size"], 0)


def train_charts(snap: Snapshot, point_owed: bool = False) -> list[go.Figure]:
    """The Train page's live charts: learning curves and the population over iterations (the
    page remakes them with each curve point, not at every tick); ``point_owed``: a Step's
    first point is being made, which the empty curves say."""
    if snap.curves.empty and snap.history.empty:
        return list(blank_train_charts(point_owed))
    return _train_charts(snap.curves, snap.history, point_owed)


#: Held while the blank charts are made: a new server's first run, which often asks for them
#: while the startup thread is still making them, waits for that thread's instead of making
#: its own beside it (under load 4 on 2 cores the two builds shared the interpreter for 0.5 s).
_BLANK_CHARTS_LOCK = threading.Lock()


def blank_train_charts(point_owed: bool) -> tuple[go.Figure, go.Figure]:
    """The Train page's charts before training, the same for every tab: made once per server
    (as it starts, ``streamlit_app.py``) and only read after (``st.plotly_chart`` copies a
    figure). Every new tab's first run made them again: 0.1-0.2 s of plotly on an idle machine,
    most of that run."""
    with _BLANK_CHARTS_LOCK:
        return _blank_train_charts(point_owed)


@functools.cache
def _blank_train_charts(point_owed: bool) -> tuple[go.Figure, go.Figure]:
    return tuple(_train_charts(CurveLog().frame(), pd.DataFrame(), point_owed))


def _train_charts(curves: pd.DataFrame, history: pd.DataFrame,
                  point_owed: bool) -> list[go.Figure]:
    empty = ("Fitting the rule weights for the first point…" if point_owed
             else "Press Start or Step to train")
    return [figures.learning_curves(curves, MEASURES, empty), figures.population_curves(history)]


def runs_chart(session: Session, snap: Snapshot) -> go.Figure:
    """Held-out curves of the earlier runs on this dataset beside the current one."""
    runs = {run.name: run.curves for run in session.runs}
    runs[f"{run_name(session.runs.number, session.params)} (this run)"] = snap.curves
    return compare_figures.runs_figure(runs, MEASURES, "Held-out curves: earlier runs and this "
                                                       "one (kept when you apply new parameters)")


def race_chart(race: Race) -> go.Figure:
    """The lanes' held-out curves on shared axes."""
    curves = {RACE_LANES[f]: lane.snapshot().curves for f, lane in race.lanes.items()}
    return compare_figures.runs_figure(
        curves, MEASURES, "Held-out curves: EM and HL fitness learning the same data",
        colors=dict(zip(curves, ("#D62728", "#1F77B4"), strict=True)))


def race_table(race: Race) -> pd.DataFrame:
    """Per lane: the latest held-out measures, and the population's mean fitness at ν = 1
    (match share × accuracy, as the Theory page measures it) beside what the paper's analysis
    expects of a random rule at the population's specificity τ under the lane's own fitness:
    E[F_em] exactly, E[F_hl] between its bounds.
    """
    from mlr_core import dataset_stats
    from mlr_core.evaluation import theory

    stats = dataset_stats(race.split.dataset.Y)
    d, m, dl = race.split.dataset.X.shape[1], stats["m"], stats["dl"]
    rows = []
    for fitness, lane in race.lanes.items():
        snap = lane.snapshot()
        rules = snap.evolved.rules  # the population's: not the weights' one-condition rules
        r0 = float(lane.params["r0"])
        tau = theory.population_specificity(rules["n_specified"], rules["numerosity"],
                                            d, lane.params["p_hash"], lane.max_specified())
        held_out = snap.curves[snap.curves["split"] == "held-out"].tail(1)
        n_rows = len(lane.split.train_idx)
        measured = (theory.measured_fitness(lane.match_counts(snap)[:len(rules)],
                                            rules["accuracy"], rules["numerosity"], n_rows)
                    if len(rules) else None)
        low, high = theory.random_rule_fitness_range(fitness, r0, d, tau, m, dl, stats["ahw"])
        rows.append({
            "fitness": RACE_LANES[fitness],
            "iteration": snap.iteration,
            **{name: (float(held_out[key].iloc[0]) if len(held_out) else np.nan)
               for key, name in MEASURES.items()},
            "rules": len(rules),
            "τ (specificity)": tau,
            "measured F (ν = 1)": measured[1] if measured else np.nan,
            "random rule E[F] ≥": low,
            "random rule E[F] ≤": high,
        })
    return pd.DataFrame(rows).set_index("fitness")


def default_features(snap: Snapshot) -> tuple[int, int]:
    """The two features the most evolved rules specify together (see ``frames.shared_pair``)."""
    return frames.shared_pair(snap.evolved.bounds, snap.evolved.rules["numerosity"])[0]


@dataclass(frozen=True)
class PopulationOptions:
    """What the Population page lets a user choose: projection, colouring, filters, cap."""

    features: tuple[int, int]
    color_by: str = "fitness"
    cap: int = 300
    labelset_ids: tuple[int, ...] = ()
    min_fitness: float = 0.0
    min_numerosity: int = 1
    min_experience: int = 0
    only_specified: bool = False
    #: Per axis, how a numeric feature is drawn (`plot_axes.AXIS_KINDS`; "auto": by its skew).
    axis_kinds: tuple[str, str] = ("auto", "auto")


@dataclass(frozen=True)
class PopulationPage:
    """The Population page at one snapshot: the drawn rules (one row per rectangle, indexed by
    rule), how many passed, the instances drawn (``frames.MAX_POINTS`` at most), both figures,
    and what the axes' caption says of them."""

    chosen: pd.DataFrame
    n_passed: int
    n_rules: int
    n_points: int
    projection: go.Figure
    histograms: go.Figure
    axes_words: str = ""

    @property
    def n_drawn(self) -> int:
        """Rules drawn (a rule's set on a category axis may be several rectangles)."""
        return self.chosen.index.nunique()


def population_page(session: Session, snap: Snapshot, opts: PopulationOptions) -> PopulationPage:
    """Filter and cap the rules, project them with the data on the chosen feature pair."""
    X, names = session.split.dataset.X, session.split.dataset.feature_names
    fx, fy = opts.features
    axes = plot_axes.axes_of(X, (fx, fy), snap.scaling, opts.axis_kinds)
    chosen, n_passed, axes = frames.projection(
        snap.rules, snap.bounds, X, (fx, fy), axes=axes, labelset_ids=list(opts.labelset_ids),
        min_fitness=opts.min_fitness, min_numerosity=opts.min_numerosity,
        min_experience=opts.min_experience, cap=opts.cap, only_specified=opts.only_specified,
    )
    of_instance = session.split.labelsets.of_instance
    points = frames.instance_points(X, of_instance, (fx, fy), axes=axes)
    projection = figures.population_figure(
        chosen, points, feature_names=(names[fx], names[fy]), axes=axes,
        color_by=opts.color_by, palette=figures.labelset_palette(session.split.palette_ids),
        labelset_names=session.split.labelsets.names,
        title=f"{chosen.index.nunique():,} of the {len(snap.rules):,} distinct rules, "
              f"iteration {snap.iteration:,}",
        selected=frames.point_of(points, X, of_instance, (fx, fy), session.selection.index,
                                 axes),
    )
    words = [axes[0].words(names[fx]), axes[1].words(names[fy]) if fy != fx else ""]
    return PopulationPage(chosen, n_passed, len(snap.rules), len(points), projection,
                          figures.population_histograms(snap.rules),
                          " ".join(w for w in words if w))


#: Features (columns) in the Rules page's heatmap at most: those the shown rules use most.
HEATMAP_FEATURES = 40


def rules_heatmap(snap: Snapshot, feature_names: list[str]) -> go.Figure | None:
    """Which features the most numerous rules specify, on the features those rules use
    (``None`` while there are no rules)."""
    rules = snap.rules
    if rules.empty:
        return None
    top = np.argsort(-rules["numerosity"].to_numpy(), kind="stable")[:HEATMAP_RULES]
    lower, _ = snap.bounds.rows(top)
    specified = frames.specified_matrix(lower)
    used = specified.sum(axis=0)
    columns = [j for j in np.argsort(-used, kind="stable")[:HEATMAP_FEATURES] if used[j]]
    columns.sort()
    return figures.rule_feature_heatmap(specified[:, columns], rules["numerosity"].to_numpy()[top],
                                        [feature_names[j] for j in columns], rules.index[top],
                                        n_features=len(feature_names))
