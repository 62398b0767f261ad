"""Summaries and figures of saved experiment results, shared by ``benchmarks/reproduce_paper.py``
and the dashboard's Experiments page. It imports plotly, so the engine never imports it.

The EM vs HL study's results are the runner's frame (``experiments.run_experiment``) with the
learners named "EM" and "HL" and the synthetic datasets named ``m<labels>-<k>``.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

LABEL_COUNTS = (2, 3, 5, 8, 10, 15)
"""The label counts of the paper's synthetic EM vs HL table."""

PAPER_EMHL_SYNTHETIC = {"EM": (0.006, 0.018, 0.030, 0.073, 0.091, 0.109),
                        "HL": (0.009, 0.021, 0.035, 0.095, 0.133, 0.139)}
"""The paper's mean test Hamming loss per label count (table "hl synthetic data")."""

PAPER_EMHL_REAL = {"EM": (0.2610, 0.2620, 0.3101, 0.2104, 0.0106),
                   "HL": (0.2180, 0.2381, 0.2923, 0.1963, 0.0121)}
"""The paper's mean test Hamming loss on yeast, emotions, flags, CAL500, genbase (table "em and hl
real-world")."""

COLOURS = {"EM": "#1f77b4", "HL": "#d62728"}


def emhl_per_dataset(results: pd.DataFrame) -> pd.Series:
    """Fold-mean test Hamming loss per (fitness, label count, dataset)."""
    labels = results.dataset.astype(str).str.extract(r"^m(\d{1,6})-", expand=False)
    if labels.isna().any():
        raise ValueError("EM vs HL results need datasets named m<labels>-<k>")
    frame = results.assign(m=labels.astype(int))
    return frame.groupby(["learner", "m", "dataset"]).hamming_loss.mean()


def emhl_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation and count over datasets of the fold-mean test Hamming loss, per
    fitness ("EM", "HL") and label count."""
    return emhl_per_dataset(results).groupby(["learner", "m"]).agg(["mean", "std", "count"])


def emhl_figure(summary: pd.DataFrame, paper: bool = True) -> go.Figure:
    """Mean test Hamming loss against the number of labels, EM and HL, ± one standard deviation
    over datasets, with the paper's curves dotted."""
    fig = go.Figure()
    sizes = sorted(summary.index.get_level_values("m").unique())
    for fitness in summary.index.get_level_values("learner").unique():
        ours = summary.loc[fitness]
        colour = COLOURS.get(fitness)
        fig.add_trace(go.Scatter(x=list(ours.index), y=ours["mean"],
                                 error_y=dict(array=ours["std"]), name=f"{fitness} (ours)",
                                 line=dict(color=colour)))
        if paper and fitness in PAPER_EMHL_SYNTHETIC:
            fig.add_trace(go.Scatter(x=list(LABEL_COUNTS), y=PAPER_EMHL_SYNTHETIC[fitness],
                                     name=f"{fitness} (paper)",
                                     line=dict(color=colour, dash="dot")))
    fig.update_layout(template="plotly_white", xaxis=dict(title="labels (m)", tickvals=sizes),
                      yaxis_title="mean test Hamming loss", width=700, height=420,
                      title="EM vs HL fitness on hypercube data")
    return fig
