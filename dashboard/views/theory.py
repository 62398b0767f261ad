"""Theory: the paper's expected fitness of a rule against DL and label density, for this dataset,
with this population measured the same way."""

import numpy as np
import streamlit as st

from dashboard import state, theory_figures, ui
from mlr_core import dataset_stats
from mlr_core.evaluation import theory

CAPTION = (
    "Symbols: **m** labels, **d** features, **r0** mean interval width of a rule on the [0, 1] "
    "scale, **τ** average fraction of features a rule specifies, **DL** distinct labelsets, "
    "**Dens** label density (mean labels per instance / m). A rule placed at random matches with "
    "probability r0^(dτ); its expected fitness (ν = 1, F = accuracy) is E[F_em] = r0^(dτ) / DL; "
    "the HL upper bound r0^(dτ)(1 − (m+1)/(2m) + 2^(m−1)/(m·DL)) is meaningful only where "
    "DL ≥ 2^m/(m+1) (shaded); the HL lower bound is r0^(dτ)(2·Dens² − 2·Dens + 1). The paper "
    "derives that lower bound with Card in place of ahw (the mean number of labels of the "
    "distinct labelsets), which assumes every labelset is distinct, so on data with repeated "
    "labelsets (yeast, emotions) only the ahw/m form is a true bound."
)


def dl_grid(m: int) -> np.ndarray:
    """DL from 1 to every possible labelset (2^m, capped so huge m stays drawable)."""
    top = 2.0 ** min(m, 40)
    return np.unique(np.round(np.geomspace(1.0, top, 300)))


def population_measured(session: state.Session, snap: state.Snapshot):
    """(match share, fitness at ν = 1) of the population on the training rows, or None; counted
    by the engine's own matching, once per snapshot."""
    kept = st.session_state.get("theory_measured")
    if kept and kept[0] is snap:
        return kept[1]
    population = snap.evolved  # the rule weights' one-condition rules are not evolved
    if population.rules.empty:
        return None
    value = theory.measured_fitness(session.match_counts(snap)[:len(population.rules)],
                                    population.rules["accuracy"], population.rules["numerosity"],
                                    len(session.split.train_idx))
    st.session_state["theory_measured"] = (snap, value)
    return value


@ui.shielded_callback("switching to the paper's vote")
def _train_the_vote() -> None:
    session = ui.session()
    session.reset({**session.params, "weighting": "vote"})


def which_population(session: state.Session) -> None:
    """Say whose rules the star measures, with the paper's vote one click away."""
    left, right = st.columns([2, 1], vertical_alignment="center")  # [3, 1] cut its button
    left.caption(f"The star measures this tab's population: {session.model_words()}. The paper's "
                 "analysis is of the rules its vote evolves (up to ⌈log2 n⌉ conditions each).")
    if session.params["weighting"] != "vote":
        right.button("Train the paper's vote (MLR_agg)", key="theory_vote",
                     on_click=_train_the_vote, icon=":material/how_to_vote:", width="stretch",
                     help="A fresh model with the Train page's parameters, scored by the paper's "
                          "vote; train it (Step or Start) to measure its rules here.")


def count_text(n: float) -> str:
    """A count in full up to a billion, else its order of magnitude (mediamill's 101 labels
    printed 2^m/(m+1) in 32 digits)."""
    if n < 1e9:
        return f"{n:,.0f}"
    exponent = int(np.floor(np.log10(n)))
    return f"about {n / 10.0 ** exponent:.1f} × 10^{exponent}"


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Theory")
    session = ui.session()
    ui.wait_for_kernels()  # this page asks the engine: say so while it loads
    which_population(session)
    snap = session.snapshot()
    stats = dataset_stats(session.split.dataset.Y)
    d_data = session.split.dataset.X.shape[1]
    cols = st.columns(4)
    m = cols[0].slider("m (labels)", 1, max(40, stats["m"]), stats["m"])
    d = cols[1].slider("d (features)", 1, max(200, d_data), d_data)
    r0 = cols[2].slider("r0 (interval width)", 0.05, 1.0, float(session.params["r0"]), 0.05)
    tau = cols[3].slider("τ (specificity)", 0.0, 1.0, round(theory.population_specificity(
        snap.evolved.rules["n_specified"], snap.evolved.rules["numerosity"], d_data,
        session.params["p_hash"],
        session.max_specified()),
        3), 0.005, format="%.3f")
    dl, dens = min(stats["dl"], 2**m), stats["dens"]
    mode = session.params["fitness"]
    population = None  # drawn without the measured point if measuring fails
    with ui.shielded("measuring the population"):
        population = population_measured(session, snap)
    # short enough for the legend of a half-width chart; the note below says what it measures
    star = f"measured: this population ({mode.upper()}, ν = 1)"
    valid_from = 2.0**m / (m + 1)
    shade_name = "shaded: HL upper bound meaningful (DL ≥ 2^m/(m+1))"

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
    common = {"measured": population[1] if population else None, "measured_name": star,
              "shade_name": shade_name}
    left, right = st.columns(2)
    left.plotly_chart(theory_figures.theory_figure(
        x, by_dl, x_title="DL (distinct labelsets, log scale)", log_x=True, current_x=dl,
        current_name=f"this dataset (DL = {dl:,})", shade_from=valid_from,
        title=f"Expected fitness vs DL<br><sup>m = {m}, d = {d}, r0 = {r0:g}, τ = {tau:.3f}</sup>",
        **common,
    ), key="theory_dl")

    grid = np.linspace(0.0, 1.0, 201)
    dl_upper = theory.hl_fitness_upper_bound(r0, d, tau, m, dl)
    by_dens = {
        "E[F_em] at dataset DL": np.full(len(grid), theory.expected_fitness_em(r0, d, tau, dl)),
        "E[F_hl] upper bound at dataset DL": np.full(
            len(grid), dl_upper if theory.upper_bound_valid(dl, m) else np.nan),
        "E[F_hl] lower bound": theory.hl_fitness_lower_bound(r0, d, tau, grid),
    }
    right.plotly_chart(theory_figures.theory_figure(
        grid, by_dens, x_title="Dens (label density)", log_x=False, current_x=dens,
        current_name=f"this dataset (Dens = {dens:.3f})", shade_from=None,
        title=f"Expected fitness vs label density<br><sup>DL = {dl:,}</sup>", **common,
    ), key="theory_dens")
    p_match = theory.match_probability(r0, d, tau)
    if population:
        share, fitness = population
        st.info(
            f"**The star and the curves measure the same thing**: a rule's expected fitness at "
            f"ν = 1, the share of the rows it matches times its accuracy. A rule placed at random "
            f"with these r0 and τ matches {p_match:.2g} of the rows; this population's rules match "
            f"{share:.2g} of the training rows on average (numerosity-weighted) with a mean "
            f"expected fitness of {fitness:.2g}. The gap between the star and the curves is what "
            f"evolution adds: rules sit where the data are and advocate the labelsets found there. "
            f"(Training uses F = accuracy^ν with ν = {session.params['nu']:g}; the mean of that "
            f"fitness is {snap.summary['mean_fitness']:.3f}, not comparable with these curves.)",
            icon=":material/star:")
    else:
        st.info("Train the model (Step or Start) to see this population measured as the curves: "
                "the share of the rows a rule matches times its accuracy.", icon=":material/star:")
    st.caption(CAPTION)
    if dl < valid_from:
        st.caption(f"Here DL = {dl:,} < 2^m/(m+1) = {count_text(valid_from)}: the upper bound "
                   "is not meaningful for this dataset.")


main()
