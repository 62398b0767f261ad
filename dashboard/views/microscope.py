"""Microscope: one training iteration in slow motion, one step and one sentence at a time."""

import streamlit as st

from dashboard import figures, frames, microscope, tables, ui
from dashboard.markdown_text import literal

STEP = "micro_step"


@ui.shielded_callback("tracing an iteration")
def _trace() -> None:
    session = ui.session()
    session.pacing.running = False  # the story is of this iteration: training would run past it
    ui.wait_for_kernels()
    with st.spinner("Running one iteration through the tracer…"):
        session.trace_step()
    st.session_state[STEP] = 0


def _move(by: int, count: int) -> None:
    st.session_state[STEP] = min(max(st.session_state.get(STEP, 0) + by, 0), count - 1)


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Microscope")
    st.caption("Run **one** training iteration and follow it step by step: the instance drawn, the "
               "match set [M], the correct set [C], covering, the genetic algorithm's parents and "
               "offspring, subsumption and deletion. Train a few hundred iterations first (sidebar "
               "Step) to see the GA at work; on a fresh model covering does everything.")
    session = ui.session()
    st.button("Trace one iteration", key="trace", on_click=_trace, type="primary",
              icon=":material/biotech:")
    traced = session.traced
    if traced is None:
        st.info("Press **Trace one iteration** to run the next iteration under the microscope.",
                icon=":material/biotech:")
    else:
        story = microscope.steps(traced, session.params)
        at = min(st.session_state.get(STEP, 0), len(story) - 1)
        left, middle, right = st.columns([1, 1, 4], vertical_alignment="center")
        left.button("Previous step", key="micro_prev", on_click=_move, args=(-1, len(story)),
                    disabled=at == 0, icon=":material/chevron_left:", width="stretch")
        middle.button("Next step", key="micro_next", on_click=_move, args=(1, len(story)),
                      disabled=at == len(story) - 1, icon=":material/chevron_right:",
                      width="stretch")
        right.progress((at + 1) / len(story), text=f"Step {at + 1} of {len(story)}")
        step = story[at]
        st.subheader(step.title)
        st.markdown(step.sentence)
        numerosity = traced.trace.rules_before["numerosity"]
        features = (microscope.story_features(traced, story)
                    or frames.shared_pair(traced.bounds, numerosity)[0])
        names = session.split.dataset.feature_names
        split = session.split
        figure, n_drawn = microscope.step_figure(
            traced, step, split.dataset.X, split.labelsets.of_instance, features,
            names, figures.labelset_palette(split.palette_ids), split.labelsets.names)
        st.caption(f"Projected on **{literal(names[features[0]])}** and "
                   f"**{literal(names[features[1]])}**, the "
                   "features this iteration's rules specify most. A rule is drawn as its intervals "
                   "on these two features; a wildcard spans the whole axis. "
                   + frames.sample_words(n_drawn, split.dataset.X.shape[0]))
        st.plotly_chart(figure, key="microscope_figure")
        table = microscope.rules_table(traced, step)
        if table is not None:
            st.markdown("**The match set [M]** · select a row to read its rule in full")
            event = st.dataframe(
                table, key="microscope_table", hide_index=True, on_select="rerun",
                selection_mode="single-row",
                column_config=tables.fit_columns(table, index=False, config={
                    "fitness": st.column_config.NumberColumn(format="%.3f"),
                    "rule": st.column_config.TextColumn("rule (select the row for all of it)")},
                    within=tables.PAGE_PX, selectable=True))
            chosen, _ = tables.selected_row(table, event)
            ui.rule_in_full(traced.trace.rules_before.loc[chosen.name])
        with st.expander("The whole iteration as text"):
            st.caption(f"The engine numbers rows within the training split: its row "
                       f"{traced.trace.row} is instance #{traced.index} of the dataset.")
            st.code(traced.trace.text(), language=None)


main()
