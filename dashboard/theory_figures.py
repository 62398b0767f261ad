"""The Theory page's figures: the paper's expected fitness of a rule against DL or label density,
with the current dataset and the measured population on the same footing.

Made to stay readable on any dataset: log axes get explicit ticks (1-2-5 steps over a few decades,
powers of ten beyond), and every mark (the current dataset, the shaded region, the measurement) is
named in the legend instead of being written over the curves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from dashboard.figures import FONT, LEGEND_ROW_PX, legend_below

#: Decades over which a log axis is ticked 1, 2, 5, 10, 20, 50, ... (beyond: powers of ten).
STEPS_125_DECADES = 2.5
MAX_TICKS = 8
SHADE = "rgba(44, 160, 44, 0.14)"
CURVE_STYLES = ("solid", "dash", "dot", "dashdot")
CURVE_COLORS = ("#1F77B4", "#FF7F0E", "#9467BD", "#8C564B")
MEASURED_COLOR = "#D62728"


def tick_text(value: float) -> str:
    """A tick label short enough not to collide: 50, 2,000, 0.05, or 10⁻⁶ as 10<sup>-6</sup>."""
    exponent = math.floor(math.log10(value) + 1e-9)
    if 1e-3 <= value < 1e5:
        return f"{value:,.{max(0, -exponent)}f}"
    mantissa = value / 10.0**exponent
    power = f"10<sup>{exponent}</sup>"
    return power if abs(mantissa - 1.0) < 1e-6 else f"{mantissa:g}·{power}"


def log_ticks(low: float, high: float, max_ticks: int = MAX_TICKS) -> tuple[list, list]:
    """Tick values and labels for a log axis spanning [low, high] (both > 0).

    Plotly's own log ticks label minor ticks ``2 5 10 2 5``; explicit ones say what they are.
    """
    lo, hi = math.log10(low), math.log10(high)
    first, last = math.floor(lo + 1e-9), math.ceil(hi - 1e-9)
    if hi - lo <= STEPS_125_DECADES:
        candidates = [m * 10.0**e for e in range(first, last + 1) for m in (1, 2, 5)]
    else:
        step = max(1, math.ceil((last - first + 1) / max_ticks))
        candidates = [10.0**e for e in range(first, last + 1, step)]
    vals = [v for v in candidates if low * (1 - 1e-9) <= v <= high * (1 + 1e-9)]
    if len(vals) < 3:  # a short span: its ends say more than one lone tick
        vals = sorted({*vals, float(f"{low:.2g}"), float(f"{high:.2g}")})
    return vals, [tick_text(v) for v in vals]


def _y_span(curves: Mapping[str, np.ndarray], measured: float | None) -> tuple[float, float]:
    """The y range (data units) that shows every curve and the measurement, with a margin."""
    values = np.concatenate([np.asarray(y, dtype=float).ravel() for y in curves.values()]
                            + [np.array([measured if measured is not None else np.nan])])
    values = values[np.isfinite(values) & (values > 0)]
    if values.size == 0:
        return 1e-3, 1.0
    low, high = float(values.min()), float(values.max())
    margin = max(0.3, 0.08 * math.log10(high / low)) if high > low else 0.5
    return low / 10**margin, min(high * 10**margin, 1.5)


def theory_figure(
    x: np.ndarray,
    curves: Mapping[str, np.ndarray],
    *,
    x_title: str,
    log_x: bool,
    current_x: float,
    current_name: str,
    measured: float | None,
    measured_name: str,
    shade_from: float | None,
    shade_name: str,
    title: str,
) -> go.Figure:
    """Expected-fitness curves against one variable (log fitness axis), the current dataset as a
    vertical line, the region ``x >= shade_from`` shaded, and the measured value as a star, each
    named in the legend below the plot."""
    fig = go.Figure()
    for i, (name, y) in enumerate(curves.items()):
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines", name=name,
            line={"dash": CURVE_STYLES[i % len(CURVE_STYLES)], "width": 2.5,
                  "color": CURVE_COLORS[i % len(CURVE_COLORS)]},
            hovertemplate=f"{name}<br>%{{x:,.4g}}: %{{y:.3g}}<extra></extra>",
        ))
    low, high = float(np.min(x)), float(np.max(x))
    y_low, y_high = _y_span(curves, measured)
    if shade_from is not None and shade_from <= high:
        fig.add_vrect(x0=max(shade_from, low), x1=high, fillcolor=SHADE, line_width=0,
                      layer="below")
        fig.add_trace(go.Scatter(  # a shape has no legend entry: a swatch stands for it
            x=[None], y=[None], mode="markers", name=shade_name, hoverinfo="skip",
            marker={"symbol": "square", "size": 14, "color": SHADE.replace("0.14", "0.4")},
        ))
    fig.add_trace(go.Scatter(
        x=[current_x, current_x], y=[y_low, y_high], mode="lines", name=current_name,
        line={"color": "black", "width": 1.5}, hoverinfo="skip",
    ))
    if measured is not None:
        fig.add_trace(go.Scatter(
            x=[current_x], y=[measured], mode="markers", name=measured_name,
            marker={"symbol": "star", "size": 17, "color": MEASURED_COLOR,
                    "line": {"color": "black", "width": 1}},
            hovertemplate="measured: %{y:.3g}<extra></extra>",
        ))
    if log_x:
        vals, texts = log_ticks(low, high)
        fig.update_xaxes(type="log", range=[math.log10(low), math.log10(high)],
                         tickvals=vals, ticktext=texts)
    else:
        fig.update_xaxes(range=[low, high])
    vals, texts = log_ticks(y_low, y_high)
    fig.update_xaxes(title_text=x_title, showgrid=True)
    # fitness spans orders of magnitude (r0^(d·tau) is tiny in high d): a log axis shows it all
    fig.update_yaxes(title_text="fitness (log scale)", type="log",
                     range=[math.log10(y_low), math.log10(y_high)], tickvals=vals,
                     ticktext=texts)
    entries = sum(1 for trace in fig.data if trace.showlegend is not False)
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"},
                      height=400 + LEGEND_ROW_PX * entries, font=FONT,
                      margin={"l": 70, "r": 20, "t": 60})
    return legend_below(fig, rows=entries, vertical=True)
