"""Population: the rules as hyper-rectangles on a feature pair, the data on top, redrawn live."""

import copy

import streamlit as st

from dashboard import frames, pages, plot_axes, sharing, state, ui
from dashboard.markdown_text import literal


def options(session: state.Session) -> pages.PopulationOptions:
    """Projection, colouring and filter choices (full reruns: they change what is drawn)."""
    names = session.split.dataset.feature_names
    snap = session.snapshot().evolved
    usage = snap.bounds.usage(snap.rules["numerosity"])
    ranked = frames.features_by_usage(usage)
    default, shared = frames.shared_pair(snap.bounds, snap.rules["numerosity"])

    def feature(j: int) -> str:
        return f"{names[j]} · {usage[j]:,} rules" if len(snap.rules) else names[j]

    cols = st.columns(2)  # a row of their own: long feature names are read whole
    fx = cols[0].selectbox("x feature", ranked, ranked.index(default[0]), format_func=feature,
                           key="pop_x",
                           help="Features the rules specify most come first (with how many "
                                "rules, counting copies, specify each); the default pair is the "
                                "two features the most rules specify together.")
    fy = cols[1].selectbox("y feature", ranked, ranked.index(default[1]), format_func=feature,
                           key="pop_y")
    kinds = tuple(col.selectbox(  # under their features: beside them they cut the names short
        f"{axis} axis", plot_axes.AXIS_KINDS, key=f"pop_{axis}_axis",
        help="How a numeric feature is drawn: linear, log or order (rows spread by rank), ticks "
             f"in the data's units. auto: log for a long right tail (skew over "
             f"{plot_axes.HEAVY_SKEW:g}), order for a long left one, else linear. A nominal "
             "feature is drawn as its categories whatever this says.")
        for col, axis in zip(st.columns(2), "xy", strict=True))
    cols = st.columns([2, 1, 3], vertical_alignment="bottom")
    color_by = cols[0].segmented_control("Colour rules by", ["fitness", "labelset"],
                                         default="fitness", required=True, key="pop_color")
    cap = cols[1].number_input("Max rectangles", 10, 5000, 300, step=50, key="pop_cap")
    if len(snap.rules) and not shared and len(names) > 1:
        st.info("No rule specifies two features together yet (each rule conditions on one "
                "feature here): the two features used most are shown, and the rules on either "
                "one are drawn as bands across the plot.", icon=":material/info:")
    only_specified = cols[2].toggle(
        "Only rules that specify both features", value=len(names) > 2 and bool(shared),
        key="pop_both",
        help="A rule with a wildcard on one of the two features is a band across the whole "
             "plot; on real data most rules leave most features as wildcards.")
    return pages.PopulationOptions(features=(fx, fy), color_by=color_by, cap=cap,
                                   only_specified=only_specified, axis_kinds=kinds,
                                   **filters(session.split.labelsets))


#: The filters' widget keys and the values that filter nothing.
FILTERS = {"pop_labelsets": [], "pop_fit": 0.0, "pop_num": 1, "pop_exp": 0}
#: The labelsets the filters were set for (the dataset's).
FILTERED = "pop_filtered"


def filters(labelsets) -> dict:
    """The rule filters, drawn only while their expander is open: drawn collapsed, they cost
    every click on this page 0.07-0.09 s of the browser's time (``benchmarks/bench_dashboard.py
    --only clicks``), a class of six browsers half a second. Closed, the values set stay in use
    (kept in the session's state, where Streamlit would drop a widget's value once it is not
    drawn), and the caption under the chart names them (`filter_words`)."""
    tab_state = st.session_state
    fresh = tab_state.get(FILTERED) is not labelsets  # set for another dataset: not this one's
    for key, nothing in FILTERS.items():
        # set again at every run: kept while its widget is not drawn (the list: a copy, never
        # FILTERS' own)
        tab_state[key] = copy.copy(nothing if fresh else tab_state.get(key, nothing))
    tab_state[FILTERED] = labelsets
    # one label: Streamlit takes a new label for a new expander, which opens closed
    with st.expander("Filters", icon=":material/filter_alt:", key="pop_filters",
                     on_change="rerun") as box:
        if box.open:
            f = st.columns(4)
            f[0].multiselect("Labelsets", sorted(range(len(labelsets.names)),
                                                 key=labelsets.names.__getitem__),
                             format_func=labelsets.name, key="pop_labelsets")
            f[1].slider("Minimum fitness", 0.0, 1.0, step=0.05, key="pop_fit")
            f[2].number_input("Minimum numerosity", 1, 10_000, key="pop_num")
            f[3].number_input("Minimum experience", 0, 1_000_000, key="pop_exp")
    return {"labelset_ids": tuple(tab_state["pop_labelsets"]),
            "min_fitness": tab_state["pop_fit"], "min_numerosity": tab_state["pop_num"],
            "min_experience": tab_state["pop_exp"]}


def filter_words(opts: pages.PopulationOptions) -> str:
    """The filters in use, in words (their expander may be closed)."""
    words = [f"{len(opts.labelset_ids):,} labelset{'s' * (len(opts.labelset_ids) > 1)}"
             if opts.labelset_ids else "",
             f"fitness ≥ {opts.min_fitness:g}" if opts.min_fitness > 0 else "",
             f"numerosity ≥ {opts.min_numerosity:,}" if opts.min_numerosity > 1 else "",
             f"experience ≥ {opts.min_experience:,}" if opts.min_experience > 0 else ""]
    return f" ({', '.join(w for w in words if w)})" if any(words) else ""


def clicked(session: state.Session) -> None:
    """Select the instance whose point was clicked (points carry their row as customdata)."""
    event = st.session_state.get("projection")
    points = event["selection"]["points"] if event else []
    values = [p["customdata"] for p in points if "customdata" in p]
    if values:
        value = values[0]
        session.selection.select(value[0] if isinstance(value, list) else value)


def projection(session: state.Session, snap: state.Snapshot,
               opts: pages.PopulationOptions) -> None:
    """The live part: rectangles + points, click-to-select, and the histograms beside them;
    while training, made again every two seconds or so (`sharing.kept_while_training`)."""
    clicked(session)  # before drawing, so the ring marks the instance just clicked
    one_condition = pages.one_condition_rules(snap)
    snap = snap.evolved  # the population: the rule weights' one-condition rules are not in it
    drawn, page = sharing.kept_while_training(
        st.session_state, "population_page", (opts, session.selection.index), snap,
        lambda: pages.population_page(session, snap, opts),
        sharing.redraw_every(session.pacing.running, session.pacing.share))
    both = " specify both features and" if opts.only_specified else ""
    passing = f"that{both} pass the filters{filter_words(opts)}"
    if page.n_passed > page.n_drawn:
        st.warning(f"Showing the {page.n_drawn:,} fittest of the {page.n_passed:,} rules "
                   f"{passing} (cap {opts.cap:,}).", icon=":material/content_cut:")
    else:
        st.caption(f"Showing all {page.n_passed:,} rules {passing}.")
    st.caption(f"The population holds {page.n_rules:,} distinct rules (its *macro* size) "
               f"standing for {drawn.summary['micro_size']:,} copies (its *micro* size: each rule "
               "counts as many times as its numerosity; N caps this one)."
               + (f" The model also predicts with {pages.rule_kinds(0, one_condition)}: "
                  "they are not in the population and not drawn here; the Rules page lists them."
                  if one_condition else ""))
    if page.n_passed == 0 and page.n_rules and opts.only_specified:
        st.info("No rule specifies both of these features: pick features from the top of the "
                "lists (the ones rules use most), or switch off 'Only rules that specify both "
                "features'.", icon=":material/info:")
    left, right = st.columns([3, 1])
    with left:
        st.plotly_chart(page.projection, key="projection", on_select="rerun",
                        selection_mode="points")
    with right:
        st.plotly_chart(page.histograms, key="histograms")
    selected = session.selection.index
    sample = frames.sample_words(page.n_points, session.split.dataset.X.shape[0])
    sample = f"{sample} " if sample else ""
    labelset = session.split.labelsets.name(session.split.labelsets.of_instance[selected])
    st.caption(
        "A wildcard spans the whole axis. " + (f"{page.axes_words} " if page.axes_words else "") +
        sample +
        f"Selected instance: **#{selected}** (ringed; labelset "
        f"{literal(labelset)}) — click a point to select another."
    )
    st.page_link("views/explain.py", label=f"Explain instance #{selected}",
                 icon=":material/manage_search:")


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Population")
    session = ui.session()
    opts = options(session)
    ui.live(lambda current, snap: projection(current, snap, opts))


main()
