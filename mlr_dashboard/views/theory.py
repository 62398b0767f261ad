"""Theory: the paper's expected fitness of a rule against DL and label density, for this dataset."""

import numpy as np
import streamlit as st

from mlr_core import dataset_stats
from mlr_core.evaluation import theory
from mlr_dashboard import figures, state, ui

CAPTION = (
    "Symbols: **m** labels, **d** features, **r0** mean interval width of a rule on the [0, 1] "
    "scale, **τ** average fraction of features a rule specifies, **DL** distinct labelsets, "
    "**Dens** label density (mean labels per instance / m). A random rule matches with "
    "probability r0^(dτ); E[F_em] = r0^(dτ) / DL; the HL upper bound r0^(dτ)(1 − (m+1)/(2m) + "
    "2^(m−1)/(m·DL)) is meaningful only where DL ≥ 2^m/(m+1) (shaded); the HL lower bound is "
    "r0^(dτ)(2·Dens² − 2·Dens + 1); the paper derives it with Card in place of ahw (the mean "
    "number of labels of the distinct labelsets), which assumes every labelset is distinct, so "
    "on data with repeated labelsets (yeast, emotions) only the ahw/m form is a true bound. "
    "The paper's curves are for ν = 1 (F = accuracy); the star is "
    "the population's measured mean fitness (F = accuracy^ν) at the current dataset. "
    "Fitness is unitless, in [0, 1]."
)


def specificity(session: state.Session, snap: state.Snapshot) -> float:
    """τ of the population (numerosity-weighted share of specified features), or 1 − P#."""
    rules = snap.rules
    d = session.dataset.X.shape[1]
    if rules.empty:
        return 1.0 - float(session.params["p_hash"])
    return float((rules["n_specified"] * rules["numerosity"]).sum()
                 / (d * rules["numerosity"].sum()))


def dl_grid(m: int) -> np.ndarray:
    """DL from 1 to every possible labelset (2^m, capped so huge m stays drawable)."""
    top = 2.0 ** min(m, 40)
    return np.unique(np.round(np.geomspace(1.0, top, 300)))


st.title("Theory")
session = ui.session()
snap = session.snapshot()
stats = dataset_stats(session.dataset.Y)
d_data = session.dataset.X.shape[1]
cols = st.columns(4)
m = cols[0].slider("m (labels)", 1, max(40, stats["m"]), stats["m"])
d = cols[1].slider("d (features)", 1, max(200, d_data), d_data)
r0 = cols[2].slider("r0 (interval width)", 0.05, 1.0, float(session.params["r0"]), 0.05)
tau = cols[3].slider("τ (specificity)", 0.0, 1.0, round(specificity(session, snap), 3), 0.005,
                     format="%.3f")
dl, dens = min(stats["dl"], 2**m), stats["dens"]
mode = session.params["fitness"]
summary = snap.summary
measured = summary["mean_fitness"] if summary["micro_size"] else None
star = f"measured mean fitness ({mode}, ν = {session.params['nu']:g})"
valid_from = 2.0**m / (m + 1)

x = dl_grid(m)
upper = theory.hl_fitness_upper_bound(r0, d, tau, m, x)
by_dl = {
    "E[F_em] (exact match)": theory.expected_fitness_em(r0, d, tau, x),
    "E[F_hl] upper bound": np.where(theory.upper_bound_valid(x, m), upper, np.nan),
    "E[F_hl] lower bound (dataset Dens)": np.full(len(x), theory.hl_fitness_lower_bound(
        r0, d, tau, dens)),
    "E[F_hl] lower bound (ahw/m)": np.full(len(x), theory.hl_fitness_lower_bound(
        r0, d, tau, min(stats["ahw"] / m, 1.0))),
}
left, right = st.columns(2)
left.plotly_chart(figures.theory_figure(
    x, by_dl, x_title="DL (distinct labelsets, log scale)", log_x=True, current_x=dl,
    measured=measured, measured_name=star, shade_from=valid_from,
    title=f"Expected fitness vs DL (m = {m}, d = {d}, r0 = {r0:g}, τ = {tau:.3f})",
), key="theory_dl")

grid = np.linspace(0.0, 1.0, 201)
dl_upper = theory.hl_fitness_upper_bound(r0, d, tau, m, dl)
by_dens = {
    "E[F_em] at dataset DL": np.full(len(grid), theory.expected_fitness_em(r0, d, tau, dl)),
    "E[F_hl] upper bound at dataset DL": np.full(
        len(grid), dl_upper if theory.upper_bound_valid(dl, m) else np.nan),
    "E[F_hl] lower bound": theory.hl_fitness_lower_bound(r0, d, tau, grid),
}
right.plotly_chart(figures.theory_figure(
    grid, by_dens, x_title="Dens (label density)", log_x=False, current_x=dens,
    measured=measured, measured_name=star, shade_from=None,
    title=f"Expected fitness vs label density (DL = {dl:,})",
), key="theory_dens")
st.caption(CAPTION)
if dl < valid_from:
    st.caption(f"Here DL = {dl:,} < 2^m/(m+1) = {valid_from:,.0f}: the upper bound is not "
               "meaningful for this dataset.")
