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

from dashboard.figures import FONT, LEFT_PX, LEGEND_ROW_PX, RIGHT_PX, legend_below

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
                      margin={"l": LEFT_PX, "r": RIGHT_PX, "t": 60})
    return legend_below(fig, rows=entries, vertical=True)


# ------------------------------------------------------------- the theory checked (results)

#: theory.csv column -> (legend name, colour, marker) of the random-rule check.
RANDOM_RULE_SERIES = {
    "random_em": ("F_em measured", "#1F77B4", "circle"),
    "em_predicted": ("E[F_em] predicted", "#1F77B4", "x-thin-open"),
    "random_hl": ("F_hl measured", "#D62728", "circle"),
    "hl_predicted": ("E[F_hl] predicted", "#D62728", "x-thin-open"),
    "hl_lower_ahw": ("HL lower bound (ahw/m)", "#7F7F7F", "line-ew-open"),
    "hl_lower_dens": ("HL lower bound (Dens)", "#2CA02C", "line-ew-open"),
    "hl_upper": ("HL upper bound (where valid)", "#555555", "triangle-down"),
}


#: The columns of ``theory.csv`` the two figures read.
THEORY_COLUMNS = ["m", "dl", "half_edges", *RANDOM_RULE_SERIES, "hl_upper_valid",
                  "match_predicted", "engine_em_fitness", "engine_hl_fitness"]


def theory_labels(t) -> list[str]:
    """One x label per generated dataset of ``theory.csv``: ``m=3, DL=6, edges 0.15-0.3``."""
    return [f"m={m}, DL={dl}, edges {edges}"
            for m, dl, edges in zip(t["m"], t["dl"], t["half_edges"], strict=True)]


def _results_layout(fig: go.Figure, title: str, y_title: str, entries: int) -> go.Figure:
    fig.update_xaxes(title_text="generated dataset", tickangle=-35)
    fig.update_yaxes(title_text=y_title)
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"}, font=FONT,
                      height=560 + LEGEND_ROW_PX * entries,
                      margin={"l": LEFT_PX, "r": RIGHT_PX, "t": 60})
    return legend_below(fig, rows=entries, vertical=True)


def random_rules_figure(t) -> go.Figure:
    """Random rules on generated data (``theory.csv`` of ``benchmarks/reproduce_paper.py``):
    their measured fitness beside the paper's expected fitness and its bounds, per dataset, on a
    log axis ticked by :func:`log_ticks` (plotly's own printed ``3 2 0.1 9 8 7 6``)."""
    fig = go.Figure()
    labels = theory_labels(t)
    shown = {column: t[column].where(t["hl_upper_valid"]) if column == "hl_upper" else t[column]
             for column in RANDOM_RULE_SERIES}  # the upper bound only where it is meaningful
    for column, (name, color, symbol) in RANDOM_RULE_SERIES.items():
        y = shown[column]
        fig.add_trace(go.Scatter(
            x=labels, y=y, name=name, mode="markers",
            marker={"color": color, "symbol": symbol, "size": 11, "line": {"width": 2,
                                                                          "color": color}},
            hovertemplate=f"{name}<br>%{{x}}: %{{y:.3g}}<extra></extra>"))
    values = np.concatenate([y.to_numpy(dtype=float) for y in shown.values()])
    values = values[np.isfinite(values) & (values > 0)]
    low, high = float(values.min()) / 1.3, float(values.max()) * 1.3
    vals, texts = log_ticks(low, high)
    fig.update_yaxes(type="log", range=[math.log10(low), math.log10(high)], tickvals=vals,
                     ticktext=texts)
    return _results_layout(fig, "Expected fitness: random rules measured vs the paper's "
                                "equations", "mean fitness of a random rule (ν = 1, log scale)",
                           len(RANDOM_RULE_SERIES))


def engine_fitness_figure(t) -> go.Figure:
    """The evolved population's mean fitness (EM and HL runs) per generated dataset, beside a
    random rule's fitness per matched instance (EM: 1/DL; HL: 1 - ahd/m)."""
    labels = theory_labels(t)
    fig = go.Figure([
        go.Bar(x=labels, y=t["engine_em_fitness"], name="engine, EM run",
               marker_color=CURVE_COLORS[0]),
        go.Bar(x=labels, y=t["engine_hl_fitness"], name="engine, HL run",
               marker_color=MEASURED_COLOR),
        go.Scatter(x=labels, y=t["em_predicted"] / t["match_predicted"],
                   name="random rule, EM: 1/DL", mode="markers",
                   marker={"size": 11, "color": "#2CA02C", "line": {"width": 1, "color": "white"}}),
        go.Scatter(x=labels, y=t["hl_predicted"] / t["match_predicted"],
                   name="random rule, HL: 1 − ahd/m", mode="markers",
                   marker={"size": 11, "symbol": "diamond", "color": CURVE_COLORS[2],
                           "line": {"width": 1, "color": "white"}}),
    ])
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 1.05])
    return _results_layout(fig, "The evolved population's mean fitness against a random rule's",
                           "mean fitness per matched instance (ν = 1)", 4)
