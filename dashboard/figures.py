"""Pure plotly builders: data in, ``go.Figure`` out.

No Streamlit and no session here, so every chart is unit-testable with ``fig.to_dict()`` and can be
rebuilt on each live tick without keeping figures in session state.
"""

from __future__ import annotations

import html
import itertools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative, sample_colorscale
from plotly.subplots import make_subplots

from dashboard.tables import PAGE_PX

if TYPE_CHECKING:
    from dashboard.plot_axes import PlotAxis

#: Fitness bins of the rectangle colour scale (binned: one trace and one legend entry per bin).
FITNESS_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
#: Viridis without its palest end: the least fit rules must still show on a white plot.
FITNESS_COLORS = sample_colorscale("Viridis_r", [0.3, 0.475, 0.65, 0.825, 1.0])
#: Numerosity bins and the fill opacity of each: rules many copies agree on look more solid.
NUMEROSITY_EDGES = (1, 2, 5, 10)
NUMEROSITY_OPACITY = (0.05, 0.1, 0.16, 0.24)
#: Rules covering more than this share of the plot (wildcards, early general rules) are filled
#: LARGE_FILL times as faintly: stacked, they would wash every smaller rule out.
LARGE_AREA = 0.5
LARGE_FILL = 0.25
LABELSET_COLORS = [c for c in qualitative.D3 if c != "#7F7F7F"]  # grey means "other"
OTHER_COLOR = "rgb(150, 150, 150)"
OTHER_LABELSETS = "other labelsets"
#: How far below the plot the rule-opacity key starts: under the x axis title (px).
OPACITY_KEY_SHIFT_PX = 52
#: Beyond this many instances the points get smaller and translucent (yeast's sample of 1,000
#: of its 2,417: `frames.MAX_POINTS`).
DENSE_POINTS = 600
SPLIT_COLORS = {"training": "#1F77B4", "held-out": "#D62728"}
OUTCOME_COLORS = {
    "predicted, true": "#2CA02C",
    "predicted, not true": "#D62728",
    "missed (true, not predicted)": "#FF7F0E",
    "not predicted, not true": "#BBBBBB",
}
FONT = {"size": 13}
#: History column -> (panel, legend name, line) of the population-over-iterations chart, drawn in
#: this order. Coverage and mean generality both sit at 1.0 on wide data: coverage is a broad
#: dotted line drawn first, so the generality line drawn over it leaves it visible.
POPULATION_SERIES = {
    "macro_size": (1, "macro size (distinct rules)", {"color": "#1F77B4"}),
    "micro_size": (1, "micro size (sum of numerosity)", {"color": "#AEC7E8"}),
    "mean_fitness": (2, "mean fitness", {"color": "#440154"}),
    "coverage": (2, "coverage of training data", {"color": "#2CA02C", "width": 5, "dash": "dot"}),
    "mean_generality": (2, "mean generality", {"color": "#E08214", "width": 2}),
}


#: Characters of a name a chart prints (legends, category axes); the full name is in the hover.
NAME_CHARS = 30
#: Characters of a feature's name as a rule projection's axis title: CAL500's 86-character
#: names ran past both ends of the plot (the page's feature pickers show them whole).
AXIS_TITLE_CHARS = 40
#: Height of one legend row below a chart, and of one bar in a horizontal bar chart (px).
LEGEND_ROW_PX = 22
BAR_PX = 18
#: Beyond this many categories a bar chart turns horizontal: every name gets its own line.
MANY_BARS = 12
#: Margins that leave room for what plotly draws in them (tick labels, axis titles, a legend),
#: so that its automargin finds nothing to widen: a widened margin costs a second draw of the
#: whole chart: Population's projection took 0.59 s to draw instead of 0.33 s, at every live
#: redraw (`benchmarks/bench_dashboard.py --only draw`). Left: ticks of up to six characters
#: and the axis title; right: a tick label overhanging the plot's end.
LEFT_PX = 90
RIGHT_PX = 30
#: One character of the charts' font, taken wide (px): margins sized from the texts in them.
CHAR_PX = 7
#: A legend entry's symbol and the gaps around it (px), beside its name.
LEGEND_ITEM_PX = 30
#: A rule projection's width on the narrowest page (px): the Population and Time travel pages'
#: wider column (3 of 4) at a 1,300 px window.
PROJECTION_PX = 3 * PAGE_PX // 4


def text_px(texts: Iterable[str]) -> int:
    """The width of the longest of ``texts`` in the charts' font, taken wide (px)."""
    return math.ceil(CHAR_PX * max(map(len, texts), default=0))


def chart_text(text) -> str:
    """``text`` as plotly shows it as written: plotly reads <b>, <i>, <br>, <sub> and the like
    in any text it draws as markup, so a feature named ``price <b>(€)</b>`` printed as
    ``price (€)`` in bold; with <, > and & as entities it prints as written."""
    return html.escape(str(text), quote=False)


def short(name: str, chars: int = NAME_CHARS) -> str:
    """``name`` cut to ``chars`` characters, the ellipsis in the middle: names of one family
    share their start (``Mean_Acc1298_Mean_Mem40_MFCC_1``, ``..._MFCC_11``) and differ at their
    end. As `chart_text`: the hover shows the name whole."""
    return chart_text(_middle(str(name), chars))


def _middle(name: str, chars: int) -> str:
    if len(name) <= chars:
        return name
    head = (chars - 1) // 3
    return name[:head] + "…" + name[len(name) - (chars - 1 - head):]


#: Where a name's words end: CAL500's ``Mean_Acc1000_Mean_Mem40_MFCC7_Power_powerFFT_...``.
WORD_ENDS = re.compile(r"([_\-\s.]+)")


def shorts(names: Sequence[str], chars: int = NAME_CHARS) -> list[str]:
    """The names of an axis, each cut to ``chars`` characters so that they stay apart where
    `short` would make them alike: CAL500's feature names differ only in their middle
    (``Mean_Acc1000_Mean_Mem40_MFCC7_Power_powerFFT_WinHamming_HopSize512_WinSize512_AudioCh0``),
    and `short` at 18 characters made 40 of them two names. Then each is cut with its ellipsis
    at the end or at the start instead; failing that, the words every name holds at the same
    place, counted from its start or its end (``Acc1000``, ``Mem40``, ..., ``AudioCh0``), are
    dropped first. The first of these ways that keeps the most names apart is taken. The hover
    shows the names whole."""
    names = [str(n) for n in names]
    cut = [_middle(n, chars) for n in names]
    if len(set(cut)) == len(set(names)):
        return list(map(chart_text, cut))
    parts = [WORD_ENDS.split(n) for n in names]  # words at even places, what ends them between
    words = [p[::2] for p in parts]
    fewest = min(map(len, words))
    same_from_start = {i for i in range(fewest) if len({w[i] for w in words}) == 1}
    same_from_end = {i for i in range(fewest) if len({w[-1 - i] for w in words}) == 1}
    kept = []
    for name, p, w in zip(names, parts, words, strict=True):
        dropped = same_from_start | {len(w) - 1 - i for i in same_from_end}
        text = "".join(w[i] + (p[2 * i + 1] if 2 * i + 1 < len(p) else "")
                       for i in range(len(w)) if i not in dropped)
        kept.append(text.strip("_- .") or name)
    ways = [cut, [_head(n, chars) for n in names], [_tail(n, chars) for n in names],
            [_middle(n, chars) for n in kept], [_head(n, chars) for n in kept],
            [_tail(n, chars) for n in kept]]
    return list(map(chart_text, max(ways, key=lambda way: len(set(way)))))  # first on ties


def _head(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[:chars - 1] + "…"


def _tail(name: str, chars: int) -> str:
    return name if len(name) <= chars else "…" + name[len(name) - chars + 1:]


def legend_below(fig: go.Figure, rows: int = 1, axis_title: bool = True,
                 vertical: bool = False, ticks_px: int = 0) -> go.Figure:
    """A legend in the figure's bottom margin, under the x axis title (a legend placed by plot
    fraction sits on the axis title when the plot is short). ``rows``: the legend's lines
    (``vertical``: one entry per line, however long the names); ``ticks_px``: how far slanted
    tick labels reach below the axis beyond a line of text."""
    bottom = (66 if axis_title else 28) + LEGEND_ROW_PX * rows + ticks_px
    fig.update_layout(legend={"orientation": "v" if vertical else "h", "x": 0.0,
                              "xanchor": "left", "y": 0.0, "yanchor": "bottom",
                              "yref": "container"},
                      margin={"b": bottom + 8})
    return fig


#: Upper ends a measure's panel may take: the first one above its highest point plus a fifth.
#: A Hamming loss of 0.05 (ohsumed) was a flat line at the foot of a [0, 1] panel; few ends, so
#: that a live chart seldom rescales.
MEASURE_TOPS = (0.05, 0.1, 0.25, 0.5, 1.0)


def measure_range(values) -> list[float]:
    """The y range of a panel of a measure in [0, 1]: from 0 to the first of `MEASURE_TOPS`
    that leaves a fifth of room above ``values`` ([0, 1] while there are none)."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    high = 1.2 * values.max() if values.size else 1.0
    return [0.0, next((top for top in MEASURE_TOPS if top >= high), 1.0)]


def integer_ticks(high: float, target: int = 5) -> dict:
    """Axis settings that put ticks on whole numbers only (counts): 1, 2, 5 x 10^k steps."""
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000):
        step = candidate
        if high / candidate <= target:
            break
    return {"tick0": 0, "dtick": step, "tickformat": ",d"}


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    """The layout every chart shares: a title, readable fonts, room for the legend."""
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"},
        height=height,
        font=FONT,
        margin={"l": fig.layout.margin.l or LEFT_PX, "r": fig.layout.margin.r or RIGHT_PX,
                "b": fig.layout.margin.b or 55, "t": fig.layout.margin.t or 70},
    )
    return fig


def _rgba(color: str, alpha: float) -> str:
    """An ``rgb(...)``/``#rrggbb`` colour with an alpha, for translucent rectangle fills."""
    if color.startswith("#"):
        r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    else:
        r, g, b = (int(float(v)) for v in color[color.index("(") + 1 : -1].split(",")[:3])
    return f"rgba({r}, {g}, {b}, {alpha})"


def labelset_palette(labelset_ids: Sequence[int]) -> dict[int, str]:
    """A fixed colour for each of these labelset ids, so rules and instances agree across charts."""
    return {int(i): LABELSET_COLORS[k % len(LABELSET_COLORS)]
            for k, i in enumerate(labelset_ids)}


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


def numerosity_key() -> str:
    """The opacity key of the rectangles, e.g. ``1 / 2–4 / 5–9 / ≥ 10``."""
    edges = NUMEROSITY_EDGES
    parts = [
        str(low) if high - low == 1 else f"{low}–{high - 1}"
        for low, high in zip(edges[:-1], edges[1:], strict=True)
    ]
    return " / ".join([*parts, f"≥ {edges[-1]}"])


def population_figure(
    rects: pd.DataFrame,
    points: pd.DataFrame,
    *,
    feature_names: tuple[str, str],
    axes: tuple[PlotAxis, PlotAxis],
    color_by: str,
    palette: Mapping[int, str],
    labelset_names: Sequence[str],
    title: str,
    selected: pd.DataFrame | None = None,
    width: int = PROJECTION_PX,
) -> go.Figure:
    """Rule rectangles on a feature pair, with the data points drawn on top.

    ``rects``: x0, x1, y0, y1, fitness, numerosity, labelset_id on the plot's coordinates (one
    row per rectangle, indexed by rule: a rule's set on a category axis is a band per run of
    categories; wildcards already spanning the axis). ``points``: x, y, labelset_id, index
    (customdata: a click names the instance) and, for the hover, x_text and y_text (the values
    in the data's units). ``axes`` (`dashboard.plot_axes.PlotAxis`) give each axis its range
    and its ticks in the data's units (categories, a log or an order axis). ``palette`` maps
    labelset ids to colours, ``labelset_names[id]`` names them.
    ``color_by`` is ``"fitness"`` (binned scale, its own legend) or ``"labelset"`` (one legend for
    rules and points, so a click on a labelset hides both); opacity follows numerosity bins.
    Labelsets missing from ``palette`` are drawn grey as "other labelsets". ``selected`` (one
    row like ``points``) is ringed and named in the legend: the instance the Explain page shows.
    ``width``: the figure's width on the narrowest page (px), which the fitness legend wraps in.
    """
    fig = go.Figure()
    shown = (f"labelset: the {len(palette)} commonest of {len(labelset_names)}"
                        if len(labelset_names) > len(palette) else "labelset")
    num_bin = np.digitize(rects["numerosity"].to_numpy(float), NUMEROSITY_EDGES[1:])
    large = _area_share(rects, (axes[0].range, axes[1].range)) > LARGE_AREA
    if color_by == "fitness":
        groups = np.digitize(rects["fitness"].to_numpy(float), FITNESS_EDGES[1:-1])
        names = [
            f"{low:.1f}–{high:.1f}"
            for low, high in zip(FITNESS_EDGES[:-1], FITNESS_EDGES[1:], strict=True)
        ]
        colors = list(FITNESS_COLORS)
        legends = {"legend": "Rule fitness:", "legend2": f"Instances<br>({shown})"}
    else:
        names = [*(short(labelset_names[i]) for i in palette), OTHER_LABELSETS]
        colors = [*palette.values(), OTHER_COLOR]
        lookup = {i: k for k, i in enumerate(palette)}
        groups = rects["labelset_id"].map(lambda i: lookup.get(i, len(palette))).to_numpy(int)
        legends = {"legend": f"Rules and instances<br>({shown})"}
    for group, (name, color) in enumerate(zip(names, colors, strict=True)):
        in_group = groups == group
        if not in_group.any():
            continue
        if color_by == "fitness":  # translucent fills make faint legend symbols: add a swatch
            fig.add_trace(go.Scatter(
                x=[None], y=[None], mode="markers", name=name, legendgroup=name,
                marker={"symbol": "square", "size": 13, "color": color}, legend="legend",
            ))
        for (level, alpha), wide in itertools.product(enumerate(NUMEROSITY_OPACITY),
                                                      (False, True)):
            chosen = rects[in_group & (num_bin == level) & (large == wide)]
            if chosen.empty:
                continue
            xs, ys = rectangle_path(chosen)
            fill = alpha * LARGE_FILL if wide else alpha
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines", fill="toself", fillcolor=_rgba(color, fill),
                line={"color": _rgba(color, min(0.7, 0.3 + alpha * 1.5)), "width": 0.7},
                name=name, legendgroup=name, showlegend=False, hoverinfo="skip",
            ))
    _add_points(fig, points, palette, labelset_names, feature_names, legend=list(legends)[-1])
    # the side legend's entries, to size the margin it sits in
    entries = [*(short(labelset_names[i]) for i in palette), OTHER_LABELSETS]
    if selected is not None and len(selected):
        row = selected.iloc[0]
        entries.append(f"selected: instance #{int(row['index'])}")
        fig.add_trace(go.Scatter(
            x=[row["x"]], y=[row["y"]], mode="markers", legend=list(legends)[-1], legendrank=2000,
            name=entries[-1],
            marker={"symbol": "circle-open", "size": 22, "color": "black",
                    "line": {"width": 3}},
            hovertemplate=f"selected instance #{int(row['index'])}<br>"
                          f"{chart_text(labelset_names[int(row['labelset_id'])])}<extra></extra>",
        ))
    titles = shorts(feature_names, AXIS_TITLE_CHARS)
    fig.update_xaxes(title_text=titles[0],
                     range=list(axes[0].range), showgrid=False,
                     **axes[0].settings())
    fig.update_yaxes(title_text=titles[-1],
                     range=list(axes[1].range), showgrid=False,
                     **axes[1].settings())
    side = {"x": 1.02, "y": 1.0, "yanchor": "top"}
    side_title = legends["legend2" if color_by == "fitness" else "legend"]
    # the side title on two lines: on one, "Instances (labelset: the 8 commonest of 502)"
    # took 60 px more of the page than the entries, and left CAL500's plot 200 px wide
    right = 30 + max(text_px(side_title.split("<br>")), 40 + text_px(entries))
    fig.update_layout(margin={"r": right})
    taller = 0  # the fitness legend's rows beyond its first: the plot keeps its height
    if color_by == "fitness":  # fitness bins in a row above the plot, under the title at the
        bins = [names[g] for g in sorted(set(groups.tolist()))]  # top of the figure
        rows = legend_rows(legends["legend"], bins, width - LEFT_PX - right)
        taller = LEGEND_ROW_PX * (rows - 1)
        fig.update_layout(  # labelsets at the side
            title={"yref": "container", "y": 1.0, "yanchor": "top", "pad": {"t": 12}},
            legend={"title": {"text": legends["legend"], "side": "left"}, "orientation": "h",
                    "x": 0.0, "y": 1.02, "yanchor": "bottom"},
            legend2={"title": {"text": legends["legend2"]}, **side},
            margin={"t": 110 + taller},
        )
    else:
        fig.update_layout(legend={"title": {"text": legends["legend"]}, **side})
    fig.update_layout(dragmode="pan", clickmode="event+select")
    # the key sits in the bottom margin under the x axis title, from the plot's left edge: beside
    # the plot (under the side legend) it was cut wherever the legend was narrower than the key
    fig.add_annotation(text=f"Rule opacity: numerosity {numerosity_key()}<br>"
                            f"fainter: rules over {LARGE_AREA:.0%} of the plot", showarrow=False,
                       xref="paper", yref="paper", x=0.0, y=0.0, yshift=-OPACITY_KEY_SHIFT_PX,
                       xanchor="left", yanchor="top", align="left", font={"size": 12})
    fig.update_layout(margin={"b": OPACITY_KEY_SHIFT_PX + 45})
    return _layout(fig, title, 600 + taller)


def legend_rows(title: str, names: Sequence[str], width: int) -> int:
    """The rows a horizontal legend of ``names`` after its ``title`` takes where plotly wraps it
    at the plot's ``width`` (px), each row starting beside the title: a rule projection's
    five fitness bins took three rows beside a wide side legend, and ran over the chart's
    title while its margin had room for one."""
    room = max(width - text_px([title]), 1)
    rows, used = 1, 0
    for entry in (LEGEND_ITEM_PX + text_px([name]) for name in names):
        if used and used + entry > room:
            rows, used = rows + 1, 0
        used += entry
    return rows


def _area_share(rects: pd.DataFrame, ranges) -> np.ndarray:
    """The share of the plot each rectangle's rule covers (all its rectangles together)."""
    (x_low, x_high), (y_low, y_high) = ranges
    width = (rects["x1"] - rects["x0"]).to_numpy(float) / max(x_high - x_low, 1e-12)
    height = (rects["y1"] - rects["y0"]).to_numpy(float) / max(y_high - y_low, 1e-12)
    return pd.Series(width * height, index=rects.index).groupby(level=0).transform(
        "sum").to_numpy()


def _add_points(
    fig: go.Figure,
    points: pd.DataFrame,
    palette: Mapping[int, str],
    labelset_names: Sequence[str],
    feature_names: tuple[str, str],
    legend: str,
) -> None:
    """One marker trace per labelset colour; customdata carries the instance index for clicks.

    Grey "other" points are drawn first, under the coloured ones, and listed last. Many points
    get smaller and translucent, so that a dense cloud still shows its colours and the rules.
    """
    ids = points["labelset_id"]
    groups = [(OTHER_LABELSETS, points[~ids.isin(list(palette))], OTHER_COLOR, len(palette))]
    groups += [(short(labelset_names[i]), points[ids == i], color, rank)
               for rank, (i, color) in enumerate(palette.items())]
    dense = len(points) > DENSE_POINTS
    hover = "instance %{customdata}<br>%{text}<extra></extra>"
    for name, chosen, color, rank in groups:
        if chosen.empty:
            continue
        fig.add_trace(
            go.Scatter(
                x=chosen["x"], y=chosen["y"], mode="markers", name=name, legend=legend,
                legendgroup=name, legendrank=1000 + rank, opacity=0.75 if dense else 1.0,
                marker={"color": color, "size": 5 if dense else 7,
                        "line": {"color": "white", "width": 0.5 if dense else 0.8}},
                customdata=chosen["index"].to_numpy(),
                text=[f"{chart_text(feature_names[0])} = {chart_text(x)}<br>"
                      f"{chart_text(feature_names[1])} = {chart_text(y)}<br>labelset "
                      f"{chart_text(labelset_names[i])}" for x, y, i in
                      zip(_values(chosen, "x"), _values(chosen, "y"), chosen["labelset_id"],
                          strict=True)],
                hovertemplate=hover,
            )
        )


def _values(points: pd.DataFrame, axis: str) -> list[str]:
    """The points' values on one axis as the hover reads them: ``x_text`` if given (the data's
    units on a log, order or category axis), else the plotted number."""
    if f"{axis}_text" in points:
        return points[f"{axis}_text"].tolist()
    return [format(v, ".3g") for v in points[axis]]


def population_histograms(rules: pd.DataFrame, height: int = 560) -> go.Figure:
    """Fitness, numerosity and generality of the distinct (macro) rules, stacked to sit beside
    the projection. Has the population converged? Many fit, numerous, general rules say yes.

    Numerosity is a count: one bar per whole number (or per whole-number bin), integer ticks.
    """
    fig = make_subplots(rows=3, cols=1, vertical_spacing=0.16,
                        subplot_titles=("Fitness", "Numerosity (copies)", "Generality"))
    for row, (column, color) in enumerate(
        [("fitness", "#440154"), ("numerosity", "#21918C"), ("generality", "#E08214")], start=1
    ):
        values = rules[column].to_numpy(float)
        if column == "numerosity":
            top = int(values.max()) if len(values) else 1
            width = max(1, int(np.ceil(top / 20)))
            edges = np.arange(0.5, top + width + 0.5, width)
        else:
            low, high = (values.min(), values.max()) if len(values) else (0.0, 1.0)
            edges = np.linspace(low, high + 1e-9 if high > low else low + 1.0, 21)
        counts, edges = np.histogram(values, bins=edges)
        centres = (edges[:-1] + edges[1:]) / 2
        fig.add_trace(
            go.Bar(x=centres, y=counts, width=np.diff(edges) * 0.95, marker_color=color,
                   showlegend=False, name=column,
                   customdata=np.column_stack([edges[:-1], edges[1:]]),
                   hovertemplate=(f"{column} %{{customdata[0]:.3g}}–%{{customdata[1]:.3g}}: "
                                  "%{y:,} rules<extra></extra>")),
            row=row, col=1,
        )
        fig.update_yaxes(title_text="rules", rangemode="tozero", row=row, col=1,
                         **integer_ticks(max(counts.max(initial=0), 1), target=3))
        if column == "numerosity":
            fig.update_xaxes(row=row, col=1, **integer_ticks(edges[-1], target=4))
        else:  # a few level ticks: on wide data generality spans 0.9975-0.9995, which plotly
            # otherwise ticks every 0.0005 and turns on its side in this narrow column
            fig.update_xaxes(row=row, col=1, nticks=3, tickangle=0, tickformat=".4~g")
    return _layout(fig, f"All {len(rules):,} distinct rules", height)


def learning_curves(curves: pd.DataFrame, measures: Mapping[str, str],
                    empty: str = "Press Start or Step to train") -> go.Figure:
    """Training vs held-out measures over iterations, one panel per measure.

    ``curves``: iteration, split ("training" / "held-out") and one column per key of
    ``measures`` (column -> panel title); ``empty``: what the chart says while it has none.
    """
    fig = make_subplots(rows=1, cols=len(measures), subplot_titles=list(measures.values()))
    for col, (metric, label) in enumerate(measures.items(), start=1):
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
        fig.update_xaxes(title_text="iteration", rangemode="tozero", row=1, col=col)
        fig.update_yaxes(range=measure_range(curves[metric]), row=1, col=col)
    legend_below(fig)
    if curves.empty:
        fig.add_annotation(text=empty, showarrow=False,
                           xref="paper", yref="paper", x=0.5, y=0.5, font={"size": 16})
    return _layout(fig, "Learning curves: training vs held-out", 340)


def population_curves(history: pd.DataFrame) -> go.Figure:
    """Population size and mean fitness / generality / coverage over iterations (engine history).

    An empty history (no iteration recorded yet) gives empty, still labelled panels.
    """
    history = history.reindex(columns=["iteration", *POPULATION_SERIES])
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=("Population size", "Mean fitness, generality, coverage")
    )
    for column, (col, name, line) in POPULATION_SERIES.items():
        fig.add_trace(
            go.Scatter(x=history["iteration"], y=history[column], name=name,
                       mode="lines", line=line),
            row=1, col=col,
        )
    fig.update_xaxes(title_text="iteration", rangemode="tozero")
    fig.update_yaxes(title_text="rules", rangemode="tozero", row=1, col=1)
    fig.update_yaxes(title_text="fraction", range=[0, 1.02], row=1, col=2)
    legend_below(fig, rows=2)
    return _layout(fig, "Population over iterations", 380)


def _category_axis(fig: go.Figure, names: Sequence[str], title: str, value_axis: dict) -> int:
    """Bars named by category: vertical for a few, horizontal beyond ``MANY_BARS`` so that
    every name is printed (shortened) on its own line, in data order. Returns the height."""
    ticks = {"type": "category", "tickmode": "array", "tickvals": list(names),
             "ticktext": shorts(names)}
    if len(names) > MANY_BARS:
        fig.update_yaxes(title_text=title, categoryorder="array", categoryarray=list(names),
                         autorange="reversed", **ticks)
        fig.update_xaxes(**value_axis)
        fig.update_layout(margin={"l": max(LEFT_PX, 50 + text_px(ticks["ticktext"])), "b": 70})
        return 170 + BAR_PX * len(names)
    fig.update_xaxes(title_text=title, categoryorder="array", categoryarray=list(names),
                     tickangle=-30 if _slanted(names) else 0, **ticks)
    fig.update_yaxes(**value_axis)
    fig.update_layout(margin={"b": 70 + _slant_px(names)})
    return 400


def _slanted(names: Sequence[str]) -> bool:
    """Whether a vertical bar chart slants its category names (by 30 degrees): long ones."""
    return max(map(len, map(str, names)), default=0) > 10


def _slant_px(names: Sequence[str]) -> int:
    """How far a vertical bar chart's category names reach below a line of text (px)."""
    return slant_px(map(short, names)) if _slanted(names) else 0


def slant_px(texts: Iterable[str]) -> int:
    """How far tick labels slanted by 30 degrees reach beyond a line of text (px)."""
    return text_px(texts) // 2


def _bar(names, values, horizontal: bool, **kwargs) -> go.Bar:
    return (go.Bar(y=names, x=values, orientation="h", **kwargs) if horizontal
            else go.Bar(x=names, y=values, **kwargs))


def label_scores(
    label_names: Sequence[str],
    scores: np.ndarray,
    threshold: float | None,
    predicted: np.ndarray,
    true: np.ndarray,
    fitted: bool = False,
) -> go.Figure:
    """Each label's aggregated score (the share of the vote, or with ``fitted`` the fitted
    weights' score), the threshold line, and whether the answer was right."""
    predicted = np.asarray(predicted, dtype=bool)
    truth = np.asarray(true, dtype=bool)
    outcome = np.where(
        predicted,
        np.where(truth, "predicted, true", "predicted, not true"),
        np.where(truth, "missed (true, not predicted)", "not predicted, not true"),
    )
    fig = go.Figure()
    names = np.asarray(label_names, dtype=object)
    many = len(names) > MANY_BARS
    scores = np.asarray(scores, dtype=float)
    for kind, color in OUTCOME_COLORS.items():
        mask = outcome == kind
        fig.add_trace(_bar(names[mask], scores[mask], many, name=kind, marker_color=color,
                           hovertext=[chart_text(n) for n in names[mask]],
                           hovertemplate="%{hovertext}: score %{" + ("x" if many else "y")
                           + ":.3f}<extra></extra>"))
    if threshold is not None:
        line = {"line_dash": "dash", "line_color": "black",
                "annotation_text": f"threshold {threshold:.2f}"}
        if many:
            fig.add_vline(x=threshold, annotation_position="top", **line)
        else:
            fig.add_hline(y=threshold, annotation_position="top left", **line)
    value_title = ("score (fitted rule weights)" if fitted
                   else "aggregated score (share of the vote)")
    height = _category_axis(fig, list(names), "label",
                            {"title_text": value_title, "range": [0, 1.05]})
    fig.update_layout(barmode="overlay")
    legend_below(fig, rows=2, ticks_px=0 if many else _slant_px(names))
    return _layout(fig, "Label scores with fitted rule weights (MLR_agg)" if fitted
                   else "Label scores of the match set (MLR_agg)", height + 40)


def rule_feature_heatmap(
    specified: np.ndarray,
    numerosity: np.ndarray,
    feature_names: Sequence[str],
    rule_ids: Sequence[int],
    n_features: int | None = None,
) -> go.Figure:
    """Rules x features: a cell is the rule's numerosity where it specifies the feature, else 0.

    Rows are weighted by numerosity: the copies the population agrees on dominate the picture.
    ``feature_names`` are the columns shown (the features these rules use), out of
    ``n_features``; every row and column is named.
    """
    z = np.asarray(specified, dtype=float) * np.asarray(numerosity, dtype=float)[:, None]
    names = list(feature_names)
    rows = [f"rule {i}" for i in rule_ids]
    fig = go.Figure(
        go.Heatmap(
            z=z, x=names, y=rows,
            customdata=np.broadcast_to(np.array([chart_text(n) for n in names], dtype=object),
                                       z.shape),
            colorscale="Blues", colorbar={"title": {"text": "numerosity<br>(0 = wildcard)"},
                                          **integer_ticks(max(z.max(initial=0), 1), target=4)},
            hovertemplate="%{y}, %{customdata}: %{z:.0f}<extra></extra>", xgap=1, ygap=1,
        )
    )
    ticks = shorts(names, 18)
    shown = (f"the {len(names)} features these rules use most, of {n_features:,}"
             if n_features and n_features > len(names) else "feature")
    fig.update_xaxes(title_text=shown, type="category", tickmode="array", tickvals=names,
                     ticktext=ticks,
                     tickangle=-60 if len(names) > 8 else 0)
    fig.update_yaxes(title_text="rule (most numerous at top)", autorange="reversed",
                     type="category", tickmode="array", tickvals=rows, ticktext=rows)
    longest = max(map(len, ticks), default=4)
    bottom = 80 + 6 * longest
    fig.update_layout(margin={"l": 50 + text_px(rows), "r": 150, "b": bottom})  # r: colour bar
    height = int(np.clip(110 + bottom + 15 * len(rule_ids), 320, 1400))
    return _layout(fig, "Which features each rule specifies (weighted by numerosity)", height)


def label_frequencies(label_names: Sequence[str], counts: np.ndarray, n: int,
                      title: str = "Label frequencies", height: int | None = None) -> go.Figure:
    """How often each label is relevant: rare labels are what a rule set most often misses."""
    counts = np.asarray(counts, dtype=float)
    names = list(label_names)
    many = len(names) > MANY_BARS
    fig = go.Figure(_bar(names, counts / max(n, 1), many, marker_color="#1F77B4",
                         customdata=counts, hovertext=[chart_text(n) for n in names],
                         hovertemplate="%{hovertext}: %{customdata:,.0f} instances (%{"
                         + ("x" if many else "y") + ":.1%})<extra></extra>"))
    natural = _category_axis(fig, names, "label", {"title_text": "fraction of instances",
                                                   "tickformat": ".0%", "rangemode": "tozero"})
    return _layout(fig, title, max(natural, height or 0) if many else (height or 340))
