"""Charts of compact models (pure plotly, unit-tested with ``fig.to_dict()``): held-out accuracy
against the rule budget, a scorecard's weights as a rules x labels heatmap, and one answer as
the baseline plus each matching rule's contribution (a waterfall)."""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard import rule_budget
from dashboard.figures import FONT, LEFT_PX, RIGHT_PX, chart_text, text_px
from dashboard.tables import PAGE_PX
from mlr_core.rules import rule_lines

MEASURE_COLORS = {"accuracy": "#1F77B4", "f1": "#FF7F0E"}
#: Heatmap rows this tall while they fit (their labels and weights printed in the cells).
ROW_PX, SMALL_ROW_PX, TEXT_ROWS = 26, 13, 60
#: The least width of a cell on the narrowest page (px) that prints its weight (+0.12) legibly:
#: plotly shrinks a text to its cell, and genbase's 27 labels got 18 px cells whose weights
#: were 6 px smudges (yeast's 14 get 27 px). Narrower cells print none (the hover gives it),
#: which also spares the browser drawing 2,000 texts (mediamill's 101 labels).
TEXT_CELL_PX = 24
#: The waterfall names this many rules (the largest contributions); the rest share one bar.
WATERFALL_RULES = 12
#: The heatmap's margin right of its cells (its colour bar), and the room a label name needs
#: beside the text itself (px).
COLORBAR_PX, LABEL_GAP_PX = 100, 8
#: A tick label's line (px, the charts' 13 px font): the least distance between the baselines
#: of neighbouring slanted names.
LINE_PX = 16
#: The slants the heatmap's label names may take (degrees), the least that fits first.
ANGLES = (30, 45, 60, 90)


def _titled(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"}, height=height,
                      font=FONT, margin={"l": LEFT_PX, "r": RIGHT_PX, "b": 95, "t": 70})
    return fig


def _hover_lines(conditions) -> str:
    """A rule's conditions one per line for a hover box (plotly reads ``<br>``)."""
    return "<br>".join(html.escape(line) for line in rule_lines(conditions).splitlines())


def budget_curve(curve: pd.DataFrame, chosen: int) -> go.Figure:
    """Held-out accuracy and F1 of the compact models against their number of rules (log
    axis), continued to all rules with fitted weights; the paper's vote on these rules as open
    markers; the chosen budget as a dashed vertical line."""
    compact = curve[curve["model"] != rule_budget.VOTE].sort_values("rules")
    vote = curve[curve["model"] == rule_budget.VOTE]
    fig = go.Figure()
    for measure, name in rule_budget.MEASURES.items():
        color = MEASURE_COLORS[measure]
        fig.add_trace(go.Scatter(
            x=compact["rules"], y=compact[measure], mode="lines+markers", name=name,
            line={"color": color, "width": 2.5}, marker={"size": 9},
            customdata=compact["model"],
            hovertemplate=f"%{{customdata}}: %{{x}} rules, held-out {name} %{{y:.3f}}"
                          "<extra></extra>"))
        fig.add_trace(go.Scatter(
            x=vote["rules"], y=vote[measure], mode="markers", name=f"{name}, the paper's vote",
            marker={"color": color, "size": 12, "symbol": "circle-open", "line": {"width": 2}},
            hovertemplate=f"the paper's vote on these rules: %{{x}} rules, held-out {name} "
                          "%{y:.3f}<extra></extra>"))
    # the chosen budget as a trace: a shape's x on a log axis is not in the data's units
    fig.add_trace(go.Scatter(
        x=[chosen, chosen], y=[0, 1], mode="lines", name=f"budget {chosen}",
        line={"color": "black", "dash": "dash", "width": 1.5}, hoverinfo="skip"))
    ticks = compact["rules"].tolist()
    fig.update_xaxes(type="log", title_text="rules (the baseline counted)", tickvals=ticks,
                     ticktext=[f"{t:,}" for t in ticks], tickangle=0)
    fig.update_yaxes(title_text="on the held-out rows", range=[0, 1.02])
    fig.update_layout(legend={"orientation": "h", "y": -0.3, "x": 0})
    fig = _titled(fig, "Held-out accuracy and F1 against the number of rules", 420)
    fig.update_layout(margin={"b": 120})
    return fig


def scorecard_heatmap(table: pd.DataFrame, base: pd.Series) -> go.Figure:
    """Rules of a `RuleBudget.table` (in its order, the baseline on top) x
    labels, each cell the weight the rule adds to the label's score when it matches; the labels
    named above as their cells leave room (`_label_ticks`), every cell on hover; a row named by
    its rule id and first condition, all of them on hover."""
    columns = list(base.index)
    z = np.vstack([base.to_numpy()[None, :], table[columns].to_numpy()])
    labels = [chart_text(label) for label in columns]  # as written: plotly reads markup
    rows = ["baseline", *(chart_text(f"rule {i} · {rule_budget.short_condition(c)}")
                          for i, c in zip(table.index, table["conditions"], strict=True))]
    hover = ["the score when no rule matches", *(
        f"rule {i}, matches {s:,} training rows ({c:.0%})<br>{_hover_lines(cond)}"
        for i, s, c, cond in zip(table.index, table["support"], table["coverage"],
                                 table["conditions"], strict=True))]
    # the colours span the rules' weights; a larger baseline (a frequent label) saturates
    limit = float(np.abs(z[1:]).max(initial=0.0)) or 1.0
    small = len(rows) > TEXT_ROWS
    left = 20 + text_px(rows)
    cells_px = PAGE_PX - left - COLORBAR_PX
    printed = not small and cells_px >= TEXT_CELL_PX * len(labels)
    fig = go.Figure(go.Heatmap(
        z=z, x=labels, y=rows, customdata=np.repeat(np.array(hover, dtype=object)[:, None],
                                                    len(labels), axis=1),
        colorscale="RdBu", zmid=0.0, zmin=-limit, zmax=limit, xgap=1, ygap=1,
        texttemplate="%{z:+.2f}" if printed else None,
        colorbar={"title": {"text": "weight"}, "thickness": 14},
        hovertemplate="%{x}: %{z:+.3f}<br>%{customdata}<extra></extra>",
    ))
    named, angle, reach = _label_ticks(labels, cells_px)
    fig.update_xaxes(side="top", type="category", tickmode="array", tickvals=named,
                     ticktext=named, tickangle=angle)
    fig.update_yaxes(autorange="reversed", tickfont={"size": 10 if small else 12},
                     type="category", showticklabels=True, tickmode="array", tickvals=rows,
                     ticktext=rows)
    height = 140 + len(rows) * (SMALL_ROW_PX if small else ROW_PX)
    fig.update_layout(font=FONT, height=height + reach,
                      margin={"l": left, "r": COLORBAR_PX, "t": 110 + reach, "b": 10},
                      title={"text": f"Scorecard: {len(rows) - 1} rules x {len(labels)} labels "
                                     "(the weight a matching rule adds)", "x": 0.0})
    return fig


def _label_ticks(labels: list[str], cells_px: float) -> tuple[list[str], int, int]:
    """(the labels named above the heatmap, their angle, how far they reach above a line of
    text in px) for ``cells_px`` of cells, as wide as they are on the narrowest page the app is
    laid out for (`tables.PAGE_PX`): level while the widest name fits its cell, else slanted by
    the least of `ANGLES` that sets neighbouring names a line apart (``cell x sin(angle)``), and
    beyond upright every k-th label (the hover names every cell). Names drawn level in cells
    narrower than themselves run into one another (yeast's Class1 ... Class14 at 14 labels)."""
    cell = cells_px / max(len(labels), 1)
    if text_px(labels) + LABEL_GAP_PX <= cell:
        return labels, 0, 0
    for angle in ANGLES:
        rise = math.sin(math.radians(angle))
        if cell * rise >= LINE_PX:
            return labels, -angle, math.ceil(text_px(labels) * rise)
    return labels[::math.ceil(LINE_PX / cell)], -90, text_px(labels)


def waterfall(exp, label: str, top: int = WATERFALL_RULES) -> go.Figure:
    """One label's score for one row built up: the baseline, the ``top`` matching rules of
    largest contribution to it (the others in one bar), the clip to [0, 1] if it applied, and
    the score, which is exactly ``exp.scores[label]``; the threshold when the cut has one (a
    dashed line, named in the axis title). With the logistic link the bars add up log-odds,
    the last is their total, the title gives the score it makes, and the threshold is drawn at
    its log-odds."""
    column = f"contribution: {label}"
    parts = exp.match_set[["rule_id", "conditions", column]].rename(columns={column: "add"})
    parts = parts.loc[parts["add"].abs().sort_values(ascending=False, kind="stable").index]
    named, rest = parts.head(top), parts.iloc[top:]
    x = ["baseline", *(f"rule {i}" for i in named["rule_id"])]
    y = [float(exp.baseline[label]), *named["add"]]
    hover = ["the score when no rule matches", *(
        _hover_lines(conditions) for conditions in named["conditions"])]
    if len(rest):
        x.append(f"{len(rest)} other rules")
        y.append(float(rest["add"].sum()))
        hover.append("the smaller contributions, summed")
    score = float(exp.scores[label])
    logistic = exp.link == "logistic"
    clip = 0.0 if logistic else score - float(np.sum(y))
    if abs(clip) > 1e-12:
        x.append("clipped to [0, 1]")
        y.append(clip)
        hover.append("a score is kept within [0, 1]")
    measure = ["absolute", *["relative"] * (len(x) - 1), "total"]
    total = float(np.sum(y)) if logistic else score
    x.append("log-odds" if logistic else "score")
    y.append(total)
    hover.append(f"baseline + contributions; the score is 1 / (1 + exp(-{total:.3f})) = "
                 f"{score:.3f}" if logistic else "baseline + contributions")
    fig = go.Figure(go.Waterfall(
        x=x, y=y, measure=measure, customdata=hover,
        increasing={"marker": {"color": "#2166AC"}}, decreasing={"marker": {"color": "#B2182B"}},
        totals={"marker": {"color": "#555555"}}, connector={"line": {"color": "#999999"}},
        text=[f"{v:+.3f}" if m == "relative" else f"{v:.3f}" for v, m in zip(y, measure,
                                                                            strict=True)],
        textposition="outside",
        hovertemplate="%{x}: %{text}<br>%{customdata}<extra></extra>",
    ))
    value = exp.bipartition.line
    name = chart_text(label)
    axis = f"log-odds of {name}" if logistic else f"score of {name}"
    if value is not None:  # named on the axis: a label on the line would cross the bars
        at = float(np.log(value / (1.0 - value))) if logistic and 0 < value < 1 else value
        fig.add_hline(y=at, line_dash="dash", line_color="black")
        axis += f" (dashed: threshold {value:.2f})"
    fig.update_xaxes(type="category", tickangle=-30)
    fig.update_yaxes(title_text=axis)
    fig.update_layout(showlegend=False)
    title = f"{name}: the baseline plus each matching rule's contribution"
    if logistic:
        title += f" (log-odds; score {score:.3f})"
    return _titled(fig, title, 420)
