"""Curves of several runs on one chart: earlier runs against this one, EM racing HL.

Pure plotly (data in, figure out), like ``figures.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from mlr_dashboard.figures import FONT

RUN_COLORS = qualitative.D3


def runs_figure(runs: Mapping[str, pd.DataFrame], measures: Mapping[str, str], title: str,
                split: str = "held-out", colors: Mapping[str, str] | None = None) -> go.Figure:
    """One panel per measure, one line per run (``runs``: name -> curves in
    ``CurveLog.frame`` format), on the ``split`` rows."""
    fig = make_subplots(rows=1, cols=len(measures), subplot_titles=list(measures.values()))
    for k, (name, curves) in enumerate(runs.items()):
        rows = curves[curves["split"] == split]
        color = (colors or {}).get(name, RUN_COLORS[k % len(RUN_COLORS)])
        for col, (metric, label) in enumerate(measures.items(), start=1):
            fig.add_trace(go.Scatter(
                x=rows["iteration"], y=rows[metric], mode="lines+markers", name=name,
                legendgroup=name, showlegend=col == 1, marker={"size": 4},
                line={"color": color},
                hovertemplate=f"{name}<br>{split} {label}: %{{y:.3f}}<extra></extra>"),
                row=1, col=col)
            fig.update_xaxes(title_text="iteration", rangemode="tozero", row=1, col=col)
            fig.update_yaxes(range=[0, 1], row=1, col=col)
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"}, height=380, font=FONT,
                      legend={"orientation": "h", "y": -0.25, "x": 0.0},
                      margin={"l": 60, "r": 20, "b": 55, "t": 70})
    return fig
