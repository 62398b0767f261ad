"""Curves of several runs on one chart: earlier runs against this one, EM racing HL.

Pure plotly (data in, figure out), like ``figures.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from dashboard.figures import FONT, LEGEND_ROW_PX, legend_below, measure_range
from dashboard.theory_figures import log_ticks

RUN_COLORS = qualitative.D3


def runs_figure(runs: Mapping[str, pd.DataFrame], measures: Mapping[str, str], title: str,
                split: str = "held-out", colors: Mapping[str, str] | None = None) -> go.Figure:
    """One panel per measure, one line per run (``runs``: name -> curves in
    ``CurveLog.frame`` format), on the ``split`` rows."""
    fig = make_subplots(rows=1, cols=len(measures), subplot_titles=list(measures.values()))
    shown = [curves[curves["split"] == split] for curves in runs.values()]
    for col, metric in enumerate(measures, start=1):
        fig.update_xaxes(title_text="iteration", rangemode="tozero", row=1, col=col)
        fig.update_yaxes(range=measure_range([v for rows in shown for v in rows[metric]]),
                         row=1, col=col)
    for k, (name, rows) in enumerate(zip(runs, shown, strict=True)):
        color = (colors or {}).get(name, RUN_COLORS[k % len(RUN_COLORS)])
        for col, (metric, label) in enumerate(measures.items(), start=1):
            fig.add_trace(go.Scatter(
                x=rows["iteration"], y=rows[metric], mode="lines+markers", name=name,
                legendgroup=name, showlegend=col == 1, marker={"size": 4},
                line={"color": color},
                hovertemplate=f"{name}<br>{split} {label}: %{{y:.3f}}<extra></extra>"),
                row=1, col=col)
    rows = max(1, (len(runs) + 1) // 2)
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"},
                      height=320 + LEGEND_ROW_PX * rows, font=FONT,
                      margin={"l": 60, "r": 20, "t": 70})
    return legend_below(fig, rows=rows)


def theory_position_figure(table: pd.DataFrame) -> go.Figure:
    """Per race lane (``pages.race_table`` rows): the population's measured fitness (star) above
    or below what a random rule is expected to reach (grey: a point, or a bar between bounds),
    on a log axis, since random-rule fitness is tiny in many dimensions."""
    fig = go.Figure()
    lanes = list(table.index)
    low, high = table["random rule E[F] ≥"], table["random rule E[F] ≤"]
    xs, ys = [], []
    for lane in lanes:
        top = high[lane] if np.isfinite(high[lane]) else low[lane]
        xs += [lane, lane, None]
        ys += [low[lane], top, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name="random rule (theory)",
                             line={"color": "#999999", "width": 10},
                             marker={"symbol": "line-ew-open", "size": 18, "color": "#666666"},
                             hovertemplate="random rule: %{y:.3g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=lanes, y=table["measured F (ν = 1)"].tolist(), mode="markers+text",
                             name="this population (measured)",
                             marker={"symbol": "star", "size": 18, "color": "#D62728"},
                             text=[f"{v:.3g}" for v in table["measured F (ν = 1)"]],
                             textposition="top center",
                             hovertemplate="measured: %{y:.3g}<extra></extra>"))
    values = np.array([v for v in [*ys, *table["measured F (ν = 1)"]]
                       if v is not None and np.isfinite(v) and v > 0])
    low, high = values.min() / 1.6, values.max() * 2.5  # room for the stars' labels above them
    ticks, labels = log_ticks(low, high)
    fig.update_yaxes(type="log", title_text="fitness at ν = 1 (log)", tickvals=ticks,
                     ticktext=labels, range=[np.log10(low), np.log10(high)])
    fig.update_layout(title={"text": "Measured fitness against a random rule", "x": 0.0,
                             "xanchor": "left"}, height=400, font=FONT,
                      margin={"l": 60, "r": 20, "t": 70})
    return legend_below(fig, axis_title=False)
