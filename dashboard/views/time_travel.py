"""Time travel: the population at any earlier iteration of this run, and the run replayed."""

import time

import streamlit as st

from dashboard import frames, pages, state, ui

AT = "tt_at"
PLAYING = "tt_playing"
END = "tt_end"
FIRST_FRAME = "tt_first_frame"
STARTED = "tt_started"
#: Seconds between two snapshots of a replay.
REPLAY_EVERY_S = 0.8


def _play() -> None:
    """From the first snapshot, which the first draw shows before the timer moves on."""
    st.session_state[AT] = ui.session().points.past_snapshots()[0].iteration
    st.session_state[PLAYING] = True
    st.session_state[FIRST_FRAME] = True
    st.session_state[STARTED] = time.monotonic()


def next_frame(shown: int) -> int:
    """The replay's next snapshot: the one the clock has reached (``REPLAY_EVERY_S`` each since
    the replay started), and at least the one after ``shown``. A frame that takes longer than
    that to draw (a big population) makes the replay skip ahead, not slow down."""
    due = int((time.monotonic() - st.session_state[STARTED]) / REPLAY_EVERY_S)
    return max(shown + 1, due)


def _stop() -> None:
    st.session_state[PLAYING] = False


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Time travel")
    st.caption(f"The population is kept at up to {state.SNAPSHOTS} moments of this run (closer "
               "together early on, spread out as the run grows, like the curves). Drag the "
               "slider to see the rules at an earlier iteration, or replay the run. The axes stay "
               "put while you scrub: by default the two features the most rules specify together "
               "now.")
    session = ui.session()
    past = session.points.past_snapshots()
    if len(past) < 2:
        st.info("Train first (Start, or Step a few times in the sidebar): snapshots are taken as "
                "the learning curves get their points.", icon=":material/history:")
    else:
        playing = st.session_state.get(PLAYING, False)
        left, right = st.columns([1, 3], vertical_alignment="bottom")
        if playing:
            left.button("Stop replay", key="tt_stop", on_click=_stop, icon=":material/stop:",
                        width="stretch")
        else:
            left.button("Replay the run", key="tt_play", on_click=_play, type="primary",
                        icon=":material/replay:", width="stretch")
        iterations = [snap.iteration for snap in past]
        # at the end (follow it), new, or thinned away: show the model now
        if st.session_state.get(AT) in (None, st.session_state.get(END)) or (
                st.session_state[AT] not in iterations):
            st.session_state[AT] = iterations[-1]
        st.session_state[END] = iterations[-1]
        latest = past[-1].evolved  # the populations: not the weights' one-condition rules
        usage = latest.bounds.usage(latest.rules["numerosity"])
        ranked = frames.features_by_usage(usage)
        default, shared = frames.shared_pair(latest.bounds, latest.rules["numerosity"])
        names = session.split.dataset.feature_names
        pick = st.columns(2)
        features = tuple(
            pick[k].selectbox(f"{axis} feature", ranked, ranked.index(default[k]), key=f"tt_{axis}",
                              format_func=lambda j: f"{names[j]} · {usage[j]:,} rules now")
            for k, axis in enumerate("xy"))
        only_specified = session.split.dataset.X.shape[1] > 2 and bool(shared)

        @st.fragment(run_every=REPLAY_EVERY_S if playing else None)
        def scrub() -> None:
            if st.session_state.get(PLAYING) and not st.session_state.pop(FIRST_FRAME, False):
                shown = iterations.index(st.session_state[AT])
                if shown == len(past) - 1:
                    st.session_state[PLAYING] = False
                    st.rerun()  # the whole page: the button becomes "Replay" again
                st.session_state[AT] = iterations[min(next_frame(shown), len(past) - 1)]
            chosen = st.select_slider("Iteration", iterations, key=AT,
                                      format_func="{:,}".format,
                                      disabled=st.session_state.get(PLAYING, False),
                                      help="The snapshots kept; the last one is the model now.")
            at = iterations.index(chosen)
            snap = past[at].evolved
            st.markdown(f"**Iteration {snap.iteration:,}** (snapshot {at + 1} of {len(past)}) · "
                        f"{snap.summary['macro_size']:,} rules · mean fitness "
                        f"{snap.summary['mean_fitness']:.3f} · mean generality "
                        f"{snap.summary['mean_generality']:.3f}")
            page = pages.population_page(session, snap, pages.PopulationOptions(
                features=features, only_specified=only_specified))
            if page.n_passed == 0 and len(snap.rules):
                st.info("No rule of this snapshot specifies both features: pick others above, or "
                        "scrub to a later iteration.", icon=":material/info:")
            left, right = st.columns([3, 1])
            left.plotly_chart(page.projection, key="tt_projection")
            right.plotly_chart(page.histograms, key="tt_histograms")

        with right:
            st.caption("Replay plays the snapshots from the first, one every "
                       f"{REPLAY_EVERY_S:g} s (skipping one when drawing falls behind).")
        scrub()


main()
