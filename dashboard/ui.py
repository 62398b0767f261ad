"""Streamlit pieces several pages share: error reporting, the live fragment, training controls.

Kept here so each view stays a thin script and no page grows its own copy of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from dashboard import state
from mlr_core.errors import MLRError

FULL_SPEED = "max"
#: Iterations per tick a teacher can slow training down to; "max" trains for the whole budget.
SPEEDS = [10, 100, 1_000, 10_000, FULL_SPEED]


@contextmanager
def reported() -> Iterator[None]:
    """Show an engine or loader error as ``st.error`` (its message, never a traceback).

    The session methods only switch state after success, so the previous dataset/model stay.
    """
    try:
        yield
    except MLRError as err:
        st.error(str(err), icon=":material/error:")


def live(draw: Callable[[state.Session], None]) -> None:
    """Draw a page section in a fragment that, while training runs, first trains one time slice.

    ``run_every`` is ``None`` when paused, so a paused page costs nothing; each tick trains for
    about ``state.TICK_BUDGET_S`` and then redraws from the session (no figures are kept).
    """

    @st.fragment(run_every=state.run_every())
    def tick() -> None:
        session = state.get()
        if session.running:
            with reported():
                session.advance()
        draw(session)

    tick()


def _start() -> None:
    state.get().running = True


def _pause() -> None:
    state.get().running = False


def _step() -> None:
    with reported():
        state.get().step(st.session_state["step_k"])


def _speed() -> None:
    choice = st.session_state["speed"]
    state.get().tick_cap = None if choice == FULL_SPEED else int(choice)


def _reset() -> None:
    with reported():
        state.get().reset()


def sidebar(session: state.Session) -> None:
    """Start / Pause / Step k / Reset for every page; callbacks run before the page is drawn."""
    data = session.dataset
    with st.sidebar:
        st.markdown(f"**Dataset:** {data.name}  \n{len(data.X)} instances · "
                    f"{data.X.shape[1]} features · {data.Y.shape[1]} labels")
        st.markdown("**Training:** " + ("running" if session.running else "paused"))
        left, right = st.columns(2)
        left.button("Start", key="start", on_click=_start, disabled=session.running,
                    type="primary", icon=":material/play_arrow:", width="stretch")
        right.button("Pause", key="pause", on_click=_pause, disabled=not session.running,
                     icon=":material/pause:", width="stretch")
        left, right = st.columns([3, 2], vertical_alignment="bottom")
        left.number_input("Iterations per step", 1, 100_000, 200, step=100, key="step_k")
        right.button("Step", key="step", on_click=_step, width="stretch")
        st.select_slider("Iterations per tick", SPEEDS, FULL_SPEED, key="speed",
                         on_change=_speed,
                         help=f"'{FULL_SPEED}': train for {state.TICK_BUDGET_S * 1000:.0f} ms "
                              "per tick. Fewer iterations let you watch each change.")
        st.button("Reset model", key="reset", on_click=_reset, icon=":material/restart_alt:",
                  width="stretch",
                  help="A fresh model with the parameters set on the Train page.")
        st.caption("Training advances while the Train or Population page is open.")
