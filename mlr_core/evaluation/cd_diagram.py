"""Critical-difference diagrams (Demšar 2006, Fig. 1-2) as plotly figures.

The top line is the axis of average ranks, best (1) on the left; each learner hangs from its
average rank on a bent line to its name, the better half on the left, the other half on the right;
thick bars under the axis join the learners whose average ranks differ by less than the critical
difference (the "cliques": maximal runs, in rank order, spanning less than the CD), and a bar of
the CD's length sits above the axis. Only the command line, the reproduction script and the
dashboard import this module, so the engine does not pay for plotly.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from mlr_core.evaluation.statistics import bonferroni_dunn_cd, nemenyi_cd, rank_table

TESTS = {"nemenyi": nemenyi_cd, "bonferroni-dunn": bonferroni_dunn_cd}


def cliques(avg_ranks: pd.Series, cd: float) -> list[list[str]]:
    """Maximal groups of learners, consecutive in rank order, whose average ranks span less than
    ``cd`` (none of them differs significantly from another); single learners are left out."""
    ordered = avg_ranks.sort_values()
    names, values = list(ordered.index), ordered.to_numpy()
    groups = []
    for i in range(len(names)):
        j = i
        while j + 1 < len(names) and values[j + 1] - values[i] < cd:
            j += 1
        if j > i and not (groups and groups[-1][-1] == names[j]):
            groups.append(names[i:j + 1])
    return groups


def cd_figure(table: pd.DataFrame, lower_is_better: bool, title: str = "", alpha: float = 0.05,
              test: str = "nemenyi") -> go.Figure:
    """The CD diagram of a learners x datasets table of one measure."""
    ranks = rank_table(table, lower_is_better).avg_rank.sort_values()
    k, n = table.shape
    cd = TESTS[test](k, n, alpha)
    groups = cliques(ranks, cd)
    half = (k + 1) // 2
    row_gap, top = 1.0, 0.0
    label_y = [-(i + 1) * row_gap - len(groups) * 0.35 for i in range(max(half, k - half))]
    fig = go.Figure()
    axis = dict(mode="lines", line=dict(color="black", width=1.5), hoverinfo="skip",
                showlegend=False)
    fig.add_trace(go.Scatter(x=[1, k], y=[top, top], **axis))
    for tick in range(1, k + 1):
        fig.add_trace(go.Scatter(x=[tick, tick], y=[top, top + 0.15], **axis))
        fig.add_annotation(x=tick, y=top + 0.3, text=str(tick), showarrow=False, yanchor="bottom")
    cd_y = top + 1.0
    fig.add_trace(go.Scatter(x=[1, 1 + cd], y=[cd_y, cd_y], mode="lines+markers",
                             marker=dict(symbol="line-ns-open", size=10),
                             line=dict(color="black", width=2), hoverinfo="skip",
                             showlegend=False))
    fig.add_annotation(x=1 + cd / 2, y=cd_y + 0.15, text=f"CD = {cd:.2f} ({test})",
                       showarrow=False, yanchor="bottom")
    for i, (name, rank) in enumerate(ranks.items()):
        left = i < half
        y = label_y[i] if left else label_y[k - 1 - i]
        end = 0.5 if left else k + 0.5
        fig.add_trace(go.Scatter(
            x=[rank, rank, end], y=[top, y, y], mode="lines", line=dict(color="#444", width=1),
            hovertemplate=f"{name}: average rank {rank:.2f}<extra></extra>", showlegend=False))
        fig.add_annotation(x=end, y=y, text=f"{name} ({rank:.2f})", showarrow=False,
                           xanchor="right" if left else "left")
    for g, group in enumerate(groups):
        y = top - 0.3 - g * 0.35
        fig.add_trace(go.Scatter(x=[ranks[group[0]] - 0.05, ranks[group[-1]] + 0.05], y=[y, y],
                                 mode="lines", line=dict(color="#c0392b", width=5),
                                 hovertemplate="not significantly different: "
                                 + ", ".join(group) + "<extra></extra>", showlegend=False))
    fig.update_xaxes(visible=False, range=[-2.2, k + 3.2])
    fig.update_yaxes(visible=False, range=[min(label_y) - 0.8, cd_y + 0.8])
    fig.update_layout(title=title, template="plotly_white", height=140 + 42 * max(half, 1),
                      margin=dict(l=10, r=10, t=50, b=10))
    return fig
