"""Page assembly: from a session's snapshot and the user's choices to what a page draws.

Pure (no Streamlit): the views call these functions and ``benchmarks/bench_dashboard.py`` times
the very same ones, so a live tick can be measured without a browser and never drifts from what
the pages do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from mlr_dashboard import compare_figures, figures, frames
from mlr_dashboard.state import MEASURES, Session, Snapshot, run_name

#: Rules in the Rules page's heatmap (the most numerous ones).
HEATMAP_RULES = 60


def train_charts(snap: Snapshot) -> list[go.Figure]:
    """The Train page's live charts: learning curves and the population over iterations."""
    return [figures.learning_curves(snap.curves, MEASURES),
            figures.population_curves(snap.history)]


def runs_chart(session: Session, snap: Snapshot) -> go.Figure:
    """Held-out curves of the earlier runs on this dataset beside the current one."""
    runs = {run.name: run.curves for run in session.runs}
    runs[f"{run_name(session.run_number, session.params)} (this run)"] = snap.curves
    return compare_figures.runs_figure(runs, MEASURES, "Held-out curves: earlier runs and this "
                                                       "one (kept when you apply new parameters)")


def default_features(snap: Snapshot) -> tuple[int, int]:
    """The two features the rules specify most (one feature: projected on itself)."""
    return feature_pair(snap.lower, snap.rules["numerosity"])


def feature_pair(lower: np.ndarray, numerosity) -> tuple[int, int]:
    """The two features these rules specify most, in data order."""
    chosen = sorted(frames.most_specified(lower, numerosity))
    chosen += chosen[-1:] * (2 - len(chosen))
    return chosen[0], chosen[1]


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


@dataclass(frozen=True)
class PopulationPage:
    """The Population page at one snapshot: the drawn rules, how many passed, both figures."""

    chosen: pd.DataFrame
    n_passed: int
    n_rules: int
    projection: go.Figure
    histograms: go.Figure


def population_page(session: Session, snap: Snapshot, opts: PopulationOptions) -> PopulationPage:
    """Filter and cap the rules, project them with the data on the chosen feature pair."""
    X, names = session.dataset.X, session.dataset.feature_names
    fx, fy = opts.features
    chosen, n_passed, ranges = frames.projection(
        snap.rules, snap.lower, snap.upper, X, (fx, fy), labelset_ids=list(opts.labelset_ids),
        min_fitness=opts.min_fitness, min_numerosity=opts.min_numerosity,
        min_experience=opts.min_experience, cap=opts.cap, only_specified=opts.only_specified,
    )
    of_instance = session.labelsets.of_instance
    selected = frames.instance_points(X[[session.selected]], of_instance[[session.selected]],
                                      (fx, fy)).assign(index=session.selected)
    projection = figures.population_figure(
        chosen, frames.instance_points(X, of_instance, (fx, fy)),
        feature_names=(names[fx], names[fy]), ranges=ranges, color_by=opts.color_by,
        palette=figures.labelset_palette(session.palette_ids),
        labelset_names=session.labelsets.names,
        title=f"{len(chosen):,} rules at iteration {snap.iteration:,}", selected=selected,
    )
    return PopulationPage(chosen, n_passed, len(snap.rules), projection,
                          figures.population_histograms(snap.rules))


def rules_heatmap(snap: Snapshot, feature_names: list[str]) -> go.Figure | None:
    """Which features the most numerous rules specify (``None`` while there are no rules)."""
    rules = snap.rules
    if rules.empty:
        return None
    top = np.argsort(-rules["numerosity"].to_numpy(), kind="stable")[:HEATMAP_RULES]
    return figures.rule_feature_heatmap(frames.specified_matrix(snap.lower[top]),
                                        rules["numerosity"].to_numpy()[top], feature_names,
                                        rules.index[top])
