"""Race: EM against HL fitness, two models learning the same data side by side."""

import pandas as pd
import streamlit as st

from dashboard import choices, compare_figures, pacing, pages, sharing, state, tables, ui
from dashboard.markdown_text import literal
from mlr_core.params import PAPER_AXIS

RACE = "race"
SPEEDS = [10, 100, 200, 1_000, 10_000]


def _race_params(**changed) -> dict:
    """The Train page's parameters on the paper's axis and covering width (`PAPER_AXIS`): the
    race is a lesson on the paper's two fitness functions, and its theory columns (a rule placed
    at random, of side r0) are the paper's analysis of that axis."""
    return {**ui.session().params, **PAPER_AXIS, **changed}


def race() -> state.Race:
    """The tab's race, on the current dataset with the Train page's parameters on the paper's
    axis (a new one when the dataset changed)."""
    session = ui.session()
    current = st.session_state.get(RACE)
    if current is None or current.split.dataset is not session.split.dataset:
        current = st.session_state[RACE] = state.Race(session.split, _race_params())
    return current


def _new_race(weighting: str) -> None:
    st.session_state[RACE] = state.Race(ui.session().split, _race_params(weighting=weighting),
                                        race().iterations_per_tick)


@ui.shielded_callback("starting the race")
def _start() -> None:
    race().running = True


@ui.shielded_callback("pausing the race")
def _pause() -> None:
    race().running = False


@ui.shielded_callback("restarting the race")
def _restart() -> None:
    _new_race(race().params["weighting"])


@ui.shielded_callback("changing the race's model")
def _model() -> None:
    _new_race(st.session_state["race_model"])


@ui.shielded_callback("changing the race's speed")
def _speed() -> None:
    race().iterations_per_tick = int(st.session_state["race_speed"])


#: The race's table, one row per quantity (lanes as columns: it fits beside the sidebar), with
#: how each is printed.
TABLE_FORMATS = {"iteration": "{:,.0f}", "rules": "{:,.0f}", "τ (specificity)": "{:.3g}",
                 "measured F (ν = 1)": "{:.3g}", "random rule E[F] ≥": "{:.3g}",
                 "random rule E[F] ≤": "{:.3g}"}


def printed(table: pd.DataFrame) -> pd.DataFrame:
    """``pages.race_table`` turned for reading: quantities down, lanes across, as text."""
    turned = table.T
    return turned.apply(lambda row: row.map(
        lambda v: "—" if pd.isna(v) else TABLE_FORMATS.get(row.name, "{:.3f}").format(v)),
        axis=1).rename_axis("")


def draw_lanes(current: state.Race) -> None:
    """The race's iteration, held-out curves, table of quantities and theory position."""
    with ui.shielded("drawing the race"):
        split = current.split
        st.markdown(f"**Iteration {current.iteration:,}** of each model on "
                    f"{literal(split.dataset.name)} ({len(split.train_idx):,} training "
                    f"rows, {len(split.test_idx):,} held out)")
        st.plotly_chart(pages.race_chart(current), key="race_curves")
        table = pages.race_table(current)
        shown = printed(table)
        st.dataframe(shown, key="race_table", column_config=tables.fit_columns(shown))
        left, right = st.columns([1, 1], vertical_alignment="center")
        if table["measured F (ν = 1)"].notna().all():
            left.plotly_chart(compare_figures.theory_position_figure(table), key="race_theory")
        right.caption(
            "Held-out measures are the latest curve point. **measured F (ν = 1)**: the "
            "population's mean over rules of (share of training rows matched × accuracy), "
            "numerosity-weighted, as on the Theory page. The **random rule** rows are what "
            "the paper's analysis expects of a rule placed at random with the population's "
            "specificity τ, under that model's fitness (EM: E[F_em] exactly; HL: between the "
            "bounds, the upper one empty where it is not meaningful, DL < 2^m/(m+1)). A "
            "learned population should sit well above them; see the Theory page.")


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Race: EM vs HL")
    st.caption("Two models learn the current dataset side by side: the same parameters (Train "
               "page, on the paper's min-max axis with r0 = 0.5), seed and held-out rows, only "
               "the fitness differs — exact match (EM: a rule "
               "is right only when its labelset is the instance's) or Hamming loss (HL: partly "
               "right for each label it gets right). Both advance by the same iterations per tick. "
               "Generate a dataset on the Data page to race on fresh data.")
    ui.wait_for_kernels()  # the race's table asks the engine: say so while it loads
    current = race()
    cols = st.columns([1, 1, 1, 3], vertical_alignment="bottom")
    cols[0].button("Start race", key="race_start", on_click=_start, disabled=current.running,
                   type="primary", icon=":material/play_arrow:", width="stretch")
    cols[1].button("Pause race", key="race_pause", on_click=_pause, disabled=not current.running,
                   icon=":material/pause:", width="stretch")
    cols[2].button("Restart race", key="race_restart", on_click=_restart,
                   icon=":material/restart_alt:", width="stretch",
                   help="Two fresh models with the Train page's current parameters.")
    cols[3].select_slider("Iterations per tick (each model)", SPEEDS, current.iterations_per_tick,
                          key="race_speed", on_change=_speed)
    st.session_state["race_model"] = current.params["weighting"]
    st.segmented_control("Both models score labels by", list(choices.MODELS), key="race_model",
                         format_func=choices.MODELS.get, required=True, on_change=_model,
                         help="A new race. The paper raced EM and HL under its vote, with rules "
                              "of up to ⌈log2 n⌉ conditions; the library's default fits a weight "
                              "per rule and label to rules of at most 3 conditions.")

    @st.fragment(run_every=pacing.TICK_EVERY_S if current.running else None)
    def lanes() -> None:
        """Races one tick, then draws; a click's run draws the race as it stands first (the page
        answers at once), then races its tick (the next tick draws what it raced), as the live
        pages do (``ui.live``)."""
        current = race()
        first = sharing.answering_click()
        if first:
            draw_lanes(current)
        if current.running:
            # another tab's click is answered first; a click in this tab ends the tick
            keep_going = sharing.take_turn(st.session_state, lambda: current.running)
            share = sharing.share(current)  # the race counts as one tab
            for lane in current.lanes.values():
                lane.pacing.share = share
            with ui.shielded("racing"):
                ui.wait_for_kernels()
                current.advance(keep_going=keep_going)
            if current.running and not keep_going():
                return  # a click started a newer run of this tab: it draws, not this one
        if not first:
            draw_lanes(current)

    lanes()


main()
