"""Population: the rules as hyper-rectangles on a feature pair, the data on top, redrawn live."""

import streamlit as st

from dashboard import figures, frames, state, ui


def options(session: state.Session) -> dict:
    """Projection, colouring and filter choices (full reruns: they change what is drawn)."""
    names = session.dataset.feature_names
    lower, _ = session.model.rule_bounds()
    default = sorted(frames.most_specified(lower, session.model.rules_frame()["numerosity"]))
    default += default[-1:] * (2 - len(default))  # one feature: project it on itself
    cols = st.columns([2, 2, 2, 1])
    fx = cols[0].selectbox("x feature", range(len(names)), default[0],
                           format_func=names.__getitem__, key="pop_x",
                           help="Defaults to the two features the rules specify most.")
    fy = cols[1].selectbox("y feature", range(len(names)), default[1],
                           format_func=names.__getitem__, key="pop_y")
    color_by = cols[2].segmented_control("Colour rules by", ["fitness", "labelset"],
                                         default="fitness", required=True, key="pop_color")
    cap = cols[3].number_input("Max rectangles", 10, 5000, 300, step=50, key="pop_cap")
    with st.expander("Filters", icon=":material/filter_alt:"):
        f = st.columns(4)
        return {
            "features": (fx, fy), "color_by": color_by, "cap": cap,
            "labelsets": f[0].multiselect("Labelsets", sorted(set(session.labelsets)),
                                          key="pop_labelsets"),
            "min_fitness": f[1].slider("Minimum fitness", 0.0, 1.0, 0.0, 0.05, key="pop_fit"),
            "min_numerosity": f[2].number_input("Minimum numerosity", 1, 10_000, 1,
                                                key="pop_num"),
            "min_experience": f[3].number_input("Minimum experience", 0, 1_000_000, 0,
                                                key="pop_exp"),
        }


def projection(session: state.Session, opts: dict) -> None:
    """The live part: rectangles + points, click-to-select, and the histograms beside them."""
    model, X = session.model, session.dataset.X
    rules = model.rules_frame()
    fx, fy = opts["features"]
    chosen, n_passed, ranges = frames.projection(
        rules, *model.rule_bounds(), X, (fx, fy), labelsets=opts["labelsets"],
        min_fitness=opts["min_fitness"], min_numerosity=opts["min_numerosity"],
        min_experience=opts["min_experience"], cap=opts["cap"],
    )
    names = session.dataset.feature_names
    iteration = model.summary()["iteration"]
    if n_passed > len(chosen):
        st.warning(f"Showing the {len(chosen):,} fittest of {n_passed:,} rules that pass the "
                   f"filters (cap {opts['cap']:,}).", icon=":material/content_cut:")
    else:
        st.caption(f"Showing all {n_passed:,} rules that pass the filters "
                   f"(population: {len(rules):,} rules).")
    left, right = st.columns([3, 1])
    fig = figures.population_figure(
        chosen, frames.instance_points(X, session.labelsets, (fx, fy)),
        feature_names=(names[fx], names[fy]),
        ranges=ranges, color_by=opts["color_by"],
        palette=figures.labelset_palette(session.palette_labelsets),
        title=f"{len(chosen):,} rules on {names[fx]} × {names[fy]} at iteration {iteration:,}",
    )
    with left:
        event = st.plotly_chart(fig, key="projection", on_select="rerun",
                                selection_mode="points")
        clicked = [p["customdata"] for p in event.selection.points if "customdata" in p]
        if clicked:
            value = clicked[0]
            session.selected = int(value[0] if isinstance(value, list) else value)
    with right:
        st.plotly_chart(figures.population_histograms(rules), key="histograms")
    st.caption(
        "A wildcard spans the whole axis. "
        f"Selected instance: **#{session.selected}** "
        f"(labelset {session.labelsets[session.selected]}) — click a point to select another."
    )
    st.page_link("views/explain.py", label=f"Explain instance #{session.selected}",
                 icon=":material/manage_search:")


st.title("Population")
session = state.get()
opts = options(session)
ui.live(lambda s: projection(s, opts))
