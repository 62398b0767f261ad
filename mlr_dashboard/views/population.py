"""Population: the rules as hyper-rectangles on a feature pair, the data on top, redrawn live."""

import streamlit as st

from mlr_dashboard import pages, state, ui


def options(session: state.Session) -> pages.PopulationOptions:
    """Projection, colouring and filter choices (full reruns: they change what is drawn)."""
    names = session.dataset.feature_names
    default = pages.default_features(session.snapshot())
    cols = st.columns([2, 2, 2, 1])
    fx = cols[0].selectbox("x feature", range(len(names)), default[0],
                           format_func=names.__getitem__, key="pop_x",
                           help="Defaults to the two features the rules specify most.")
    fy = cols[1].selectbox("y feature", range(len(names)), default[1],
                           format_func=names.__getitem__, key="pop_y")
    color_by = cols[2].segmented_control("Colour rules by", ["fitness", "labelset"],
                                         default="fitness", required=True, key="pop_color")
    cap = cols[3].number_input("Max rectangles", 10, 5000, 300, step=50, key="pop_cap")
    labelsets = session.labelsets
    with st.expander("Filters", icon=":material/filter_alt:"):
        f = st.columns(4)
        return pages.PopulationOptions(
            features=(fx, fy), color_by=color_by, cap=cap,
            labelset_ids=tuple(f[0].multiselect(
                "Labelsets", sorted(range(len(labelsets.names)), key=labelsets.names.__getitem__),
                format_func=labelsets.name, key="pop_labelsets")),
            min_fitness=f[1].slider("Minimum fitness", 0.0, 1.0, 0.0, 0.05, key="pop_fit"),
            min_numerosity=f[2].number_input("Minimum numerosity", 1, 10_000, 1, key="pop_num"),
            min_experience=f[3].number_input("Minimum experience", 0, 1_000_000, 0,
                                             key="pop_exp"),
        )


def projection(session: state.Session, snap: state.Snapshot,
               opts: pages.PopulationOptions) -> None:
    """The live part: rectangles + points, click-to-select, and the histograms beside them."""
    page = pages.population_page(session, snap, opts)
    if page.n_passed > len(page.chosen):
        st.warning(f"Showing the {len(page.chosen):,} fittest of {page.n_passed:,} rules that "
                   f"pass the filters (cap {opts.cap:,}).", icon=":material/content_cut:")
    else:
        st.caption(f"Showing all {page.n_passed:,} rules that pass the filters "
                   f"(population: {page.n_rules:,} rules).")
    left, right = st.columns([3, 1])
    with left:
        event = st.plotly_chart(page.projection, key="projection", on_select="rerun",
                                selection_mode="points")
        clicked = [p["customdata"] for p in event.selection.points if "customdata" in p]
        if clicked:
            value = clicked[0]
            session.select(value[0] if isinstance(value, list) else value)
    with right:
        st.plotly_chart(page.histograms, key="histograms")
    selected = session.selected
    st.caption(
        "A wildcard spans the whole axis. "
        f"Selected instance: **#{selected}** "
        f"(labelset {session.labelsets.name(session.labelsets.of_instance[selected])}) — "
        "click a point to select another."
    )
    st.page_link("views/explain.py", label=f"Explain instance #{selected}",
                 icon=":material/manage_search:")


st.title("Population")
session = ui.session()
opts = options(session)
ui.live(lambda current, snap: projection(current, snap, opts))
