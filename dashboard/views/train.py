"""Train (live): the run's vital signs and learning curves, redrawn every tick while it trains."""

import math

import streamlit as st

from dashboard import pages, state, ui

FITNESS = {"hl": "HL (1 − Hamming loss)", "em": "EM (exact match)"}
PREDICTION = {"agg": "MLR_agg (aggregated scores)", "max": "MLR_max (best labelset)"}


def parameters_form(session: state.Session) -> None:
    """The model's parameters; applied (with a fresh model) only when the form is submitted."""
    p, ranges = session.params, state.PARAM_RANGES
    with st.form("params", border=True):
        st.markdown("**Model parameters** (applied on reset)")
        params = {
            "n_rules": st.number_input("N: max population (micro)", *ranges["n_rules"],
                                       int(p["n_rules"]), step=50),
            "p_hash": st.slider("P#: wildcard probability at covering", *ranges["p_hash"],
                                float(p["p_hash"]), 0.01),
            "fitness": st.radio("Fitness", list(FITNESS), list(FITNESS).index(p["fitness"]),
                                format_func=FITNESS.get, horizontal=True),
            "nu": st.number_input("ν: fitness pressure (F = acc^ν)", *ranges["nu"],
                                  float(p["nu"]), step=0.5),
            "theta_ga": st.number_input("θ_GA: GA threshold", *ranges["theta_ga"],
                                        int(p["theta_ga"]), step=5),
            "r0": st.slider("r0: mean interval width at covering", *ranges["r0"],
                            float(p["r0"]), 0.05),
            "prediction": st.radio("Prediction", list(PREDICTION),
                                   list(PREDICTION).index(p["prediction"]),
                                   format_func=PREDICTION.get),
            "random_state": st.number_input("Seed", *ranges["random_state"],
                                            int(p["random_state"])),
        }
        holdout = st.slider("Held-out share (never trained or tuned on)", 0.05, 0.5,
                            float(session.split.holdout), 0.05, format="%.2f")
        if st.form_submit_button("Apply and reset", key="apply", type="primary",
                                 width="stretch"):
            with ui.shielded("applying the parameters"):
                session.reset(params, holdout)


def vital_signs(session: state.Session, snap: state.Snapshot) -> None:
    """Metrics and curves of the current run (drawn by the live fragment)."""
    s = snap.summary
    coverage = s["coverage"]
    first, second = st.columns(4), st.columns(4)
    first[0].metric("Iteration", f"{s['iteration']:,}")
    first[1].metric("Epoch", f"{s['epoch']:.2f}")
    first[2].metric("Macro rules", f"{s['macro_size']:,}", help="distinct rules")
    first[3].metric("Micro rules", f"{s['micro_size']:,}",
                    help="sum of numerosities (at most N)")
    second[0].metric("Mean fitness", f"{s['mean_fitness']:.3f}")
    second[1].metric("Mean generality", f"{s['mean_generality']:.3f}")
    second[2].metric("Coverage (recent)", "—" if math.isnan(coverage) else f"{coverage:.1%}",
                     help="share of recent training instances some rule matched before covering")
    second[3].metric("GA runs", f"{s['n_ga']:,}")
    st.caption(
        f"Covering {s['n_covering']:,} · subsumption {s['n_subsumption']:,}"
        f" · deletion {s['n_deletion']:,} · train {len(session.split.train_idx):,} rows,"
        f" held-out {len(session.split.test_idx):,} rows"
    )
    curves, population = pages.train_charts(snap)
    st.plotly_chart(curves, key="learning_curves")
    if session.runs:
        st.plotly_chart(pages.runs_chart(session, snap), key="runs_curves")
    st.plotly_chart(population, key="population_curves")


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Train (live)")
    session = ui.session()
    main, side = st.columns([3, 1], gap="medium")
    with main:  # first: the metrics are the first answer a new tab gets
        ui.live(vital_signs)
    with side:
        n_rules = int(session.params["n_rules"])
        n_labelsets = len(session.split.labelsets.names)
        if n_rules < state.RULES_PER_LABELSET * n_labelsets:
            st.warning(f"N = {n_rules:,} is small for the {n_labelsets:,} distinct labelsets of "
                       f"{session.split.dataset.name}: each rule advocates one labelset, so most "
                       f"labelsets get a rule or two at best. Try N ≥ "
                       f"{state.RULES_PER_LABELSET * n_labelsets:,} below (slower), or expect rare "
                       "labelsets to be missed.", icon=":material/warning:")
        parameters_form(session)


main()
