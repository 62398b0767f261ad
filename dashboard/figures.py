"""Pure plotly builders: data in, ``go.Figure`` out.

No Streamlit and no session here, so every chart is unit-testable with ``fig.to_dict()`` and can be
rebuilt on each live tick without keeping figures in session state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative, sample_colorscale
from plotly.subplots import make_subplots

#: Fitness bins of the rectangle colour scale (binned: one trace and one legend entry per bin).
FITNESS_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
FITNESS_COLORS = sample_colorscale("Viridis_r", [0.0, 0.25, 0.5, 0.75, 1.0])
#: Numerosity bins and the fill opacity of each: rules many copies agree on look more solid.
NUMEROSITY_EDGES = (1, 2, 5, 10)
NUMEROSITY_OPACITY = (0.06, 0.12, 0.2, 0.3)
LABELSET_COLORS = qualitative.D3
OTHER_COLOR = "rgb(150, 150, 150)"
OTHER_LABELSETS = "other labelsets"
METRICS = {"hamming_loss": "Hamming loss", "accuracy": "Accuracy", "f1": "F1"}
SPLIT_COLORS = {"training": "#1F77B4", "held-out": "#D62728"}
OUTCOME_COLORS = {
    "predicted, true": "#2CA02C",
    "predicted, not true": "#D62728",
    "missed (true, not predicted)": "#FF7F0E",
    "not predicted, not true": "#BBBBBB",
}
FONT = {"size": 13}


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    """The layout every chart shares: a title, readable fonts, room for the legend."""
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"},
        height=height,
        font=FONT,
        margin={"l": 60, "r": 20, "t": 70, "b": 55},
    )
    return fig


def _rgba(color: str, alpha: float) -> str:
    """An ``rgb(...)``/``#rrggbb`` colour with an alpha, for translucent rectangle fills."""
    if color.startswith("#"):
        r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    else:
        r, g, b = (int(float(v)) for v in color[color.index("(") + 1 : -1].split(",")[:3])
    return f"rgba({r}, {g}, {b}, {alpha})"


def labelset_palette(labelsets: Sequence[str]) -> dict[str, str]:
    """A fixed colour for each named labelset, so rules and instances agree across charts."""
    return {name: LABELSET_COLORS[i % len(LABELSET_COLORS)] for i, name in enumerate(labelsets)}


def rectangle_path(rects: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Closed outlines of many rectangles as one polyline, separated by NaN (one trace, not shapes).

    ``fig.add_shape`` per rectangle is quadratic in plotly; one filled trace draws 1,000 in ms.
    """
    x0, x1 = rects["x0"].to_numpy(float), rects["x1"].to_numpy(float)
    y0, y1 = rects["y0"].to_numpy(float), rects["y1"].to_numpy(float)
    gap = np.full(len(rects), np.nan)
    xs = np.column_stack([x0, x1, x1, x0, x0, gap]).ravel()
    ys = np.column_stack([y0, y0, y1, y1, y0, gap]).ravel()
    return xs, ys


def _bin_labels(edges: Sequence[float], last_open: bool, fmt: str) -> list[str]:
    """Legend text of each bin: ``0.2–0.4`` or, for an open last bin, ``≥ 10``."""
    labels = [f"{edges[i]:{fmt}}–{edges[i + 1]:{fmt}}" for i in range(len(edges) - 1)]
    if last_open:
        labels.append(f"≥ {edges[-1]:{fmt}}")
    return labels


def population_figure(
    rects: pd.DataFrame,
    points: pd.DataFrame,
    *,
    feature_names: tuple[str, str],
    ranges: tuple[tuple[float, float], tuple[float, float]],
    color_by: str,
    palette: Mapping[str, str],
    title: str,
) -> go.Figure:
    """Rule rectangles on a feature pair, with the data points drawn on top.

    ``rects``: x0, x1, y0, y1, fitness, numerosity, labelset (one row per rule, wildcards already
    spanning the axis). ``points``: x, y, labelset, index (customdata: a click names the instance).
    ``color_by`` is ``"fitness"`` (binned scale) or ``"labelset"``; opacity follows numerosity bins.
    Labelsets missing from ``palette`` are drawn grey as "other labelsets".
    """
    fig = go.Figure()
    num_bin = np.digitize(rects["numerosity"].to_numpy(float), NUMEROSITY_EDGES[1:])
    if color_by == "fitness":
        groups = np.clip(
            np.digitize(rects["fitness"].to_numpy(float), FITNESS_EDGES[1:-1]), 0, 4
        )
        names = [f"fitness {label}" for label in _bin_labels(FITNESS_EDGES, False, ".1f")]
        colors = list(FITNESS_COLORS)
        legend_title = "Rules (colour: fitness)"
    else:
        names = [*palette, OTHER_LABELSETS]
        colors = [*palette.values(), OTHER_COLOR]
        lookup = {name: i for i, name in enumerate(palette)}
        groups = rects["labelset"].map(lambda s: lookup.get(s, len(palette))).to_numpy(int)
        legend_title = "Rules (colour: labelset)"
    for group, (name, color) in enumerate(zip(names, colors, strict=True)):
        shown = False
        for level, alpha in enumerate(NUMEROSITY_OPACITY):
            chosen = rects[(groups == group) & (num_bin == level)]
            if chosen.empty:
                continue
            xs, ys = rectangle_path(chosen)
            fig.add_trace(
                go.Scatter(
                    x=xs, y=ys, mode="lines", fill="toself", fillcolor=_rgba(color, alpha),
                    line={"color": _rgba(color, min(1.0, alpha * 3)), "width": 0.8},
                    name=name, legendgroup=name, showlegend=not shown, legend="legend",
                    hoverinfo="skip",
                )
            )
            shown = True
    _add_points(fig, points, palette, feature_names)
    fig.update_xaxes(title_text=feature_names[0], range=list(ranges[0]), showgrid=False)
    fig.update_yaxes(title_text=feature_names[1], range=list(ranges[1]), showgrid=False)
    fig.update_layout(
        legend={"title": {"text": legend_title}, "x": 1.02, "y": 1.0, "yanchor": "top"},
        legend2={"title": {"text": "Instances (labelset)"}, "x": 1.02, "y": 0.48,
                 "yanchor": "top"},
        dragmode="pan",
        clickmode="event+select",
    )
    return _layout(fig, title, 560)


def _add_points(
    fig: go.Figure,
    points: pd.DataFrame,
    palette: Mapping[str, str],
    feature_names: tuple[str, str],
) -> None:
    """One marker trace per labelset colour; customdata carries the instance index for clicks."""
    known = points["labelset"].isin(list(palette))
    groups = [(name, points[points["labelset"] == name], color) for name, color in palette.items()]
    groups.append((OTHER_LABELSETS, points[~known], OTHER_COLOR))
    hover = (
        f"instance %{{customdata}}<br>{feature_names[0]} = %{{x:.3g}}"
        f"<br>{feature_names[1]} = %{{y:.3g}}<br>labelset %{{text}}<extra></extra>"
    )
    for name, chosen, color in groups:
        if chosen.empty:
            continue
        fig.add_trace(
            go.Scatter(
                x=chosen["x"], y=chosen["y"], mode="markers", name=name, legend="legend2",
                marker={"color": color, "size": 7, "line": {"color": "white", "width": 0.8}},
                customdata=chosen["index"].to_numpy(), text=chosen["labelset"],
                hovertemplate=hover,
            )
        )


def population_histograms(rules: pd.DataFrame) -> go.Figure:
    """Fitness, numerosity and generality of the macro rules: has the population converged?"""
    fig = make_subplots(rows=1, cols=3, subplot_titles=("Fitness", "Numerosity", "Generality"))
    for col, (column, color) in enumerate(
        [("fitness", "#440154"), ("numerosity", "#21918C"), ("generality", "#E08214")], start=1
    ):
        fig.add_trace(
            go.Histogram(x=rules[column], marker_color=color, nbinsx=20, showlegend=False,
                         name=column),
            row=1, col=col,
        )
        fig.update_xaxes(title_text=column, row=1, col=col)
    fig.update_yaxes(title_text="rules", row=1, col=1)
    fig.update_layout(bargap=0.05)
    return _layout(fig, f"Distribution over the {len(rules)} rules", 300)


def learning_curves(curves: pd.DataFrame) -> go.Figure:
    """Training vs held-out Hamming loss, accuracy and F1 over iterations (one panel each).

    ``curves``: iteration, split ("training" / "held-out") and one column per key of ``METRICS``.
    """
    fig = make_subplots(rows=1, cols=len(METRICS), subplot_titles=list(METRICS.values()))
    for col, (metric, label) in enumerate(METRICS.items(), start=1):
        for split, color in SPLIT_COLORS.items():
            rows = curves[curves["split"] == split]
            fig.add_trace(
                go.Scatter(
                    x=rows["iteration"], y=rows[metric], mode="lines+markers",
                    marker={"size": 4}, line={"color": color}, name=split, legendgroup=split,
                    showlegend=col == 1,
                    hovertemplate=f"{split} {label}: %{{y:.3f}}<extra></extra>",
                ),
                row=1, col=col,
            )
        fig.update_xaxes(title_text="iteration", row=1, col=col)
        fig.update_yaxes(range=[0, 1], row=1, col=col)
    fig.update_layout(legend={"orientation": "h", "y": -0.25, "x": 0.0})
    if curves.empty:
        fig.add_annotation(text="Press Start or Step to train", showarrow=False,
                           xref="paper", yref="paper", x=0.5, y=0.5, font={"size": 16})
    return _layout(fig, "Learning curves: training vs held-out", 340)


def population_curves(history: pd.DataFrame) -> go.Figure:
    """Population size and mean fitness / generality / coverage over iterations (engine history)."""
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=("Population size", "Mean fitness, generality, coverage")
    )
    series = [
        (1, "macro_size", "macro size (distinct rules)", "#1F77B4"),
        (1, "micro_size", "micro size (sum of numerosity)", "#AEC7E8"),
        (2, "mean_fitness", "mean fitness", "#440154"),
        (2, "mean_generality", "mean generality", "#E08214"),
        (2, "coverage", "coverage of training data", "#2CA02C"),
    ]
    for col, column, name, color in series:
        fig.add_trace(
            go.Scatter(x=history["iteration"], y=history[column], name=name,
                       mode="lines", line={"color": color}),
            row=1, col=col,
        )
    fig.update_xaxes(title_text="iteration")
    fig.update_yaxes(title_text="rules", rangemode="tozero", row=1, col=1)
    fig.update_yaxes(title_text="fraction", range=[0, 1.02], row=1, col=2)
    fig.update_layout(legend={"orientation": "h", "y": -0.25, "x": 0.0})
    return _layout(fig, "Population over iterations", 340)


def label_scores(
    label_names: Sequence[str],
    scores: np.ndarray,
    threshold: float | None,
    predicted: np.ndarray,
    true: np.ndarray,
) -> go.Figure:
    """Each label's aggregated score, the threshold line, and whether the answer was right."""
    predicted = np.asarray(predicted, dtype=bool)
    truth = np.asarray(true, dtype=bool)
    outcome = np.where(
        predicted,
        np.where(truth, "predicted, true", "predicted, not true"),
        np.where(truth, "missed (true, not predicted)", "not predicted, not true"),
    )
    fig = go.Figure()
    names = np.asarray(label_names, dtype=object)
    for kind, color in OUTCOME_COLORS.items():
        mask = outcome == kind
        fig.add_trace(
            go.Bar(
                x=names[mask], y=np.asarray(scores, dtype=float)[mask], name=kind,
                marker_color=color, hovertemplate="%{x}: score %{y:.3f}<extra></extra>",
            )
        )
    if threshold is not None:
        fig.add_hline(y=threshold, line_dash="dash", line_color="black",
                      annotation_text=f"threshold {threshold:.2f}",
                      annotation_position="top left")
    fig.update_xaxes(title_text="label", categoryorder="array", categoryarray=list(names))
    fig.update_yaxes(title_text="aggregated score (share of the vote)", range=[0, 1.05])
    fig.update_layout(legend={"title": {"text": "Bipartition vs truth"}}, barmode="overlay")
    return _layout(fig, "Label scores of the match set (MLR_agg)", 380)


def rule_feature_heatmap(
    specified: np.ndarray,
    numerosity: np.ndarray,
    feature_names: Sequence[str],
    rule_ids: Sequence[int],
) -> go.Figure:
    """Rules x features: a cell is the rule's numerosity where it specifies the feature, else 0.

    Rows are weighted by numerosity: the copies the population agrees on dominate the picture.
    """
    z = np.asarray(specified, dtype=float) * np.asarray(numerosity, dtype=float)[:, None]
    fig = go.Figure(
        go.Heatmap(
            z=z, x=list(feature_names), y=[f"rule {i}" for i in rule_ids],
            colorscale="Blues", colorbar={"title": {"text": "numerosity<br>(0 = wildcard)"}},
            hovertemplate="%{y}, %{x}: %{z:.0f}<extra></extra>", xgap=1, ygap=1,
        )
    )
    fig.update_xaxes(title_text="feature", tickangle=-45 if len(feature_names) > 8 else 0)
    fig.update_yaxes(title_text="rule (most numerous at top)", autorange="reversed")
    height = int(np.clip(140 + 14 * len(rule_ids), 320, 900))
    return _layout(fig, "Which features each rule specifies (weighted by numerosity)", height)


def theory_figure(
    x: np.ndarray,
    curves: Mapping[str, np.ndarray],
    *,
    x_title: str,
    log_x: bool,
    current_x: float,
    measured: float | None,
    measured_name: str,
    shade_from: float | None,
    title: str,
) -> go.Figure:
    """Expected-fitness curves against one variable, with the current dataset and measured fitness.

    ``shade_from`` shades x >= that value (where the HL upper bound is meaningful).
    """
    fig = go.Figure()
    styles = ["solid", "dash", "dot", "dashdot"]
    for i, (name, y) in enumerate(curves.items()):
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=name,
                                 line={"dash": styles[i % len(styles)], "width": 2.5}))
    if shade_from is not None and shade_from <= float(np.max(x)):
        fig.add_vrect(x0=max(shade_from, float(np.min(x))), x1=float(np.max(x)),
                      fillcolor="rgba(44, 160, 44, 0.12)", line_width=0,
                      annotation_text="upper bound meaningful", annotation_position="top left")
    fig.add_vline(x=current_x, line_color="black", line_width=1.5,
                  annotation_text="current dataset", annotation_position="top right")
    if measured is not None:
        fig.add_trace(go.Scatter(
            x=[current_x], y=[measured], mode="markers", name=measured_name,
            marker={"symbol": "star", "size": 16, "color": "#D62728",
                    "line": {"color": "black", "width": 1}},
        ))
    fig.update_xaxes(title_text=x_title, type="log" if log_x else "linear")
    fig.update_yaxes(title_text="expected fitness of a rule", rangemode="tozero")
    fig.update_layout(legend={"orientation": "h", "y": -0.22, "x": 0.0})
    return _layout(fig, title, 420)


def label_frequencies(label_names: Sequence[str], counts: np.ndarray, n: int) -> go.Figure:
    """How often each label is relevant: rare labels are what a rule set most often misses."""
    counts = np.asarray(counts, dtype=float)
    fig = go.Figure(
        go.Bar(x=list(label_names), y=counts / max(n, 1), marker_color="#1F77B4",
               customdata=counts, hovertemplate="%{x}: %{customdata:.0f} instances "
               "(%{y:.1%})<extra></extra>")
    )
    fig.update_xaxes(title_text="label", tickangle=-45 if len(label_names) > 10 else 0)
    fig.update_yaxes(title_text="fraction of instances", tickformat=".0%", rangemode="tozero")
    return _layout(fig, "Label frequencies", 340)
