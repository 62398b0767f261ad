"""Train (live): the run's vital signs and learning curves, redrawn every tick while it trains."""

import math

import streamlit as st

from dashboard import choices, pages, state, ui
from dashboard.markdown_text import literal
from mlr_core.params import number_type

FITNESS = {"hl": "HL (1 − Hamming loss)", "em": "EM (exact match)"}
PREDICTION = {"agg": "MLR_agg (aggregated scores)", "max": "MLR_max (best labelset)"}


#: The form's widgets, keyed so the Apply callback reads them: parameter -> widget key.
KEYS = {name: f"param_{name}" for name in choices.DEFAULT_PARAMS}
HOLDOUT = "param_holdout"
#: The parameters the form was last filled from (a new dict at every reset).
FILLED_FROM = "param_filled_from"
#: The form's words for the numbers it takes (`choices.PARAM_RANGES`): its labels, and the names
#: a refused value is given.
LABELS = {"n_rules": "N: max population (micro)", "p_hash": "P#: wildcard probability at covering",
          "nu": "ν: fitness pressure (F = acc^ν)", "theta_ga": "θ_GA: GA threshold",
          "r0": "r0: mean interval width at covering", "random_state": "Seed"}
#: The words of the last Apply refused (values outside the ranges), shown once.
REFUSED = "param_refused"


def _fill(session: state.Session) -> None:
    """Put the session's parameters in the form when they changed (a reset, a loaded model)
    or when its widgets were forgotten (another page was open); a user's unsent edits stay."""
    fresh = st.session_state.get(FILLED_FROM) is not session.params
    values = {KEYS[name]: (number_type(name) if name in choices.PARAM_RANGES else str)(value)
              for name, value in session.params.items() if name in KEYS}
    values[HOLDOUT] = float(session.split.holdout)
    for key, value in values.items():
        if fresh or key not in st.session_state:
            st.session_state[key] = value
    st.session_state[FILLED_FROM] = session.params


@ui.shielded_callback("applying the parameters")
def _apply() -> None:
    """Reset with the form's parameters before the page is drawn, so the page shows the new
    model at once (a reset inside the page came after the curves were drawn)."""
    params = {name: st.session_state[key] for name, key in KEYS.items()}
    if outside := choices.outside_ranges(params):
        # nothing applied, and the form shows the values in use again (`_fill`)
        st.session_state[REFUSED] = "; ".join(
            f"**{LABELS[name]}** = {params[name]:,} is outside {low:,} to {high:,}"
            for name in outside for low, high in [choices.PARAM_RANGES[name]])
        st.session_state.pop(FILLED_FROM, None)
        return
    ui.session().reset(params, st.session_state[HOLDOUT])


def parameters_form(session: state.Session) -> None:
    """The model's parameters; applied (with a fresh model) only when the form is submitted
    and every number lies in its range (`choices.PARAM_RANGES`): the numbers' fields take any
    value, and Apply names each one outside its range. (Bounds on the fields themselves made
    the browser keep an out-of-range entry in red, unsent, with no word of why, and Apply then
    reset with the values before it.)"""
    if refused := st.session_state.pop(REFUSED, None):
        st.error(f"Not applied: {refused}. The model keeps its parameters, shown again below.",
                 icon=":material/error:")
    _fill(session)
    ranges = choices.PARAM_RANGES
    with st.form("params", border=True):
        st.markdown("**Model parameters** (applied on reset)")
        st.radio("Model", list(choices.MODELS), format_func=choices.MODELS.get,
                 key=KEYS["weighting"],
                 help="The library's default, `MLRClassifier()`: one weight per rule and label, "
                      "fitted by ridge regression, rules of at most 3 conditions. The paper's "
                      "vote: each label's share of the matching rules' fitness × numerosity, "
                      "rules of up to ⌈log2 n⌉ conditions.")
        number("n_rules", 50)
        st.slider(LABELS["p_hash"], *ranges["p_hash"], step=0.01, key=KEYS["p_hash"])
        st.radio("Fitness", list(FITNESS), format_func=FITNESS.get, horizontal=True,
                 key=KEYS["fitness"])
        number("nu", 0.5)
        number("theta_ga", 5, format="%g")
        st.slider(LABELS["r0"], *ranges["r0"], step=0.05, key=KEYS["r0"])
        st.radio("Prediction", list(PREDICTION), format_func=PREDICTION.get,
                 key=KEYS["prediction"])
        number("random_state", 1)
        st.slider("Held-out share (never trained or tuned on)", 0.05, 0.5, step=0.05,
                  format="%.2f", key=HOLDOUT)
        st.form_submit_button("Apply and reset", key="apply", type="primary", width="stretch",
                              on_click=_apply)


def number(name: str, step, **options) -> None:
    """A number field of the form, without bounds (Apply checks them) but saying them."""
    low, high = choices.PARAM_RANGES[name]
    st.number_input(LABELS[name], step=number_type(name)(step), key=KEYS[name],
                    help=f"From {low:,} to {high:,}.", **options)


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
    if extra := pages.one_condition_rules(snap):
        st.caption(f"The model predicts with {len(snap.rules):,} rules: "
                   f"{pages.rule_kinds(s['macro_size'], extra)}. Macro and micro rules count "
                   "the evolved population; the Rules page lists all of them.")
    # remade with each curve point (about every two seconds), not at every tick
    point_owed = session.points.point_owed()
    curves, population = ui.drawn_from(f"train_charts{'-owed' if point_owed else ''}",
                                       snap.curves,
                                       lambda: pages.train_charts(snap, point_owed))
    owed = (" **Fitting the rule weights for the step's point:** it is drawn when made."
            if point_owed else "")
    st.caption(f"**Curves of:** {session.model_words()}, refitted to the rules at each point "
               "(as `tune_bipartition()` does), so they show what the model would predict at "
               f"that iteration.{owed}")
    st.plotly_chart(curves, key="learning_curves")
    if session.runs:
        st.plotly_chart(ui.drawn_from("runs_chart", snap.curves,
                                      lambda: pages.runs_chart(session, snap)),
                        key="runs_curves")
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
        # only the vote scores a label by the rules advocating it; fitted weights give every
        # rule a weight per label (the library keeps N = 1,000 on word data, params.py)
        enough = choices.RULES_PER_LABELSET * n_labelsets
        if session.params["weighting"] == "vote" and n_rules < enough:
            st.warning(f"N = {n_rules:,} is small for the {n_labelsets:,} distinct labelsets of "
                       f"{literal(session.split.dataset.name)}: with the paper's vote each rule "
                       "advocates "
                       "one labelset, so most labelsets get a rule or two at best. Try N ≥ "
                       f"{enough:,} below (slower), or expect rare "
                       "labelsets to be missed.", icon=":material/warning:")
        parameters_form(session)


main()
