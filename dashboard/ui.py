"""Streamlit pieces every page shares: the tab's session, error shielding, the live fragment and
the training controls.

Kept here so each view stays a thin script and no page grows its own copy of them.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import streamlit as st
from scipy.sparse import issparse
from streamlit.logger import get_logger

from dashboard import pacing, sharing, state, warmup
from dashboard.data_split import DataSplit
from dashboard.markdown_text import literal
from mlr_core.errors import MLRError
from mlr_core.rules import rule_lines

log = get_logger("dashboard")
T = TypeVar("T")

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample_data"
DEFAULT_SAMPLE = "hypercube_2d.csv"
FULL_SPEED = "max"
#: Iterations per tick a teacher can slow training down to; "max" trains for the whole budget.
SPEEDS = [10, 100, 200, 1_000, 10_000, FULL_SPEED]
COMPILING = ("Compiling the engine's kernels, once after a fresh install: about a minute on 2 "
             "cores, and 20 s more for data kept sparse; later starts load them from the cache.")


@contextmanager
def shielded(action: str) -> Iterator[None]:
    """No exception reaches the page: an engine or loader error shows its own message; anything
    else a short note, with the full traceback in the server log. The session is kept either way
    (its methods only switch state after success). Streamlit's own rerun/stop signals are
    ``BaseException``s and pass through."""
    try:
        yield
    except MLRError as err:
        st.error(literal(err), icon=":material/error:")
    except Exception as err:
        log.exception("unexpected error while %s", action)
        detail = f"{type(err).__name__}: {err}"
        st.error(f"Something went wrong while {literal(action)} ({literal(detail[:160])}). Your "
                 "session is kept: try again, or reset the model. The details are in the server "
                 "log.",
                 icon=":material/error:")


def shielded_callback(action: str) -> Callable:
    """A widget callback run under :func:`shielded`."""

    def wrap(callback: Callable) -> Callable:
        @functools.wraps(callback)
        def run(*args, **kwargs):
            with shielded(action):
                callback(*args, **kwargs)

        return run

    return wrap


# ---------------------------------------------------------------------- the tab's session


@functools.cache
def launch_options() -> argparse.Namespace:
    """What the person set at launch: ``streamlit run dashboard/streamlit_app.py -- --data-dir
    PATH --results-dir PATH`` (or the environment variables ``MLR_DATA_DIR`` and
    ``MLR_RESULTS_DIR``). The pages read files under these folders only: a browser never names
    a path on the server."""
    parser = argparse.ArgumentParser(prog="streamlit run dashboard/streamlit_app.py --",
                                     allow_abbrev=False)
    parser.add_argument("--data-dir", type=Path, default=os.environ.get("MLR_DATA_DIR"))
    parser.add_argument("--results-dir", type=Path, default=os.environ.get("MLR_RESULTS_DIR"))
    options, _ = parser.parse_known_args(sys.argv[1:])
    return options


@st.cache_data(show_spinner=False)
def sample_names() -> list[str]:
    """Sample datasets shipped in ``sample_data/``, the default (2-D hypercube) first."""
    names = sorted(p.name for p in SAMPLE_DIR.glob("*") if p.suffix in {".csv", ".arff"})
    return sorted(names, key=lambda name: name != DEFAULT_SAMPLE)


@st.cache_data(show_spinner=False)
def load_sample(name: str):
    """Shared read-only sample data (a copy per caller): cheap to share, unlike a model."""
    from mlr_core import load_dataset

    return load_dataset(SAMPLE_DIR / name)


def session() -> state.Session:
    """This tab's session, created on first use on the default sample dataset.

    Kept in ``st.session_state`` only: each tab trains its own model, nothing user-specific goes
    through ``st.cache_resource``.
    """
    if "session" not in st.session_state:
        st.session_state["session"] = state.Session(DataSplit.of(load_sample(sample_names()[0])))
    return st.session_state["session"]


#: What pages keep in ``st.session_state`` about the current data (the race's two models, an
#: audit, a measurement): dropped when the data change, so their memory goes with the old data.
DATA_VIEWS = ("race", "rules_audit", "theory_measured", "tt_at", "tt_end", "tt_playing",
              "train_charts", "runs_chart")


def replace_dataset(current: state.Session, dataset) -> None:
    """Switch the tab to new data (a fresh model) and forget every page's view of the old. Data
    kept sparse starts the sparse rows' warm-up, which compiles while the person reads it."""
    current.set_dataset(dataset)
    if issparse(dataset.X):
        warmup.start_sparse()
    for key in DATA_VIEWS:
        st.session_state.pop(key, None)
    give_memory_back()


#: A load waiting for the person to agree that the trained model goes (`replace_model`), and
#: the words that say it was done (shown by the next run of the page).
PENDING, DONE = "pending_replacement", "replacement_done"


@dataclass(frozen=True)
class Replacement:
    """What a load puts in place of the tab's model: ``name`` (a dataset's or a file's) for the
    question, ``apply`` to switch to it, returning the words that say so."""

    name: str
    apply: Callable[[], str]


def replace_model(current: state.Session, name: str, apply: Callable[[], str]) -> None:
    """Load ``name`` (new data, a saved rule set) in place of the model: at once if the model
    has not trained, else once the person agrees (`confirm_replacement`, which the page
    draws). Read and check what is loaded first: a bad file then says so at once."""
    if current.iteration == 0:
        st.success(apply())
    else:
        st.session_state[PENDING] = Replacement(name, apply)


def _confirmed() -> None:
    replacement = st.session_state.pop(PENDING)
    with shielded(f"loading {replacement.name}"):
        st.session_state[DONE] = replacement.apply()


def _cancelled() -> None:
    st.session_state.pop(PENDING, None)


def confirm_replacement(current: state.Session) -> None:
    """Ask before a load throws away a model that has trained (`replace_model`); say when a
    load so agreed to is done."""
    if done := st.session_state.pop(DONE, None):
        st.success(done)
    pending = st.session_state.get(PENDING)
    if pending is None:
        return
    with st.container(border=True):
        st.warning(f"Loading {literal(pending.name)} discards the model trained for "
                   f"{current.iteration:,} iterations on {literal(current.split.dataset.name)}. "
                   "To keep it, download it first from the Rules page (JSON).",
                   icon=":material/warning:")
        left, right, _ = st.columns([2, 2, 3])
        left.button(f"Discard the model and load {literal(pending.name)}", key="confirm_load",
                    on_click=_confirmed, type="primary", icon=":material/delete:",
                    width="stretch")
        right.button("Keep the model", key="cancel_load", on_click=_cancelled,
                     width="stretch")


#: glibc's mallopt parameter (malloc.h) for the size from which a block gets its own mapping.
M_MMAP_THRESHOLD = -3


def rule_in_full(rule) -> None:
    """A rule (a row of a rules table: its ``conditions`` and ``labelset``, or a scorecard's
    row without a labelset) one condition a line, under the table it was chosen in."""
    st.code(rule_lines(rule.conditions, rule.get("labelset")), language=None, wrap_lines=True)


def _glibc():
    """The C library if it is glibc (whose allocator the two functions below tune), else None."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:  # not glibc: its own allocator decides
        return None


def map_large_blocks_apart() -> None:
    """Give every block of 128 kB or more (a dataset's arrays, a population) its own mapping,
    returned to the system when freed. glibc raises that threshold to 32 MB after the first
    large block is freed, so later arrays land in the heap, where freed pages outlive the data."""
    if libc := _glibc():
        libc.mallopt(M_MMAP_THRESHOLD, 128 * 1024)


map_large_blocks_apart()


def give_memory_back() -> None:
    """Hand the old data's freed memory back to the system: the C allocator (glibc) and
    Arrow's pool (the tables' buffers) keep freed blocks for reuse, so the server's size would
    not go down when a large dataset is replaced by a small one."""
    gc.collect()
    if "pyarrow" in sys.modules:
        sys.modules["pyarrow"].default_memory_pool().release_unused()
    if libc := _glibc():
        libc.malloc_trim(0)


def drawn_from(key: str, source: object, make: Callable[[], T]) -> T:
    """``make()``, kept in the tab's session state under ``key`` and made again only once
    ``source`` is another object. A live tick redraws its page about twice a second, and a chart
    made from what did not change (the learning curves between two curve points) would cost it
    the same building again (plotly's figure building was 40% of a busy server's time)."""
    kept = st.session_state.get(key)
    if kept is None or kept[0] is not source:
        kept = (source, make())
        st.session_state[key] = kept
    return kept[1]


def run_every() -> float | None:
    """Timer of the live fragments: ticking while running or while a Step's curve point is
    being made (it is drawn when made), ``None`` (stopped) when paused."""
    current = session()
    return pacing.TICK_EVERY_S if current.pacing.running or current.points.point_owed() else None


def wait_for_kernels() -> None:
    """Say why the page waits while the background warm-up is still compiling (the sparse
    rows' kernels too, when the tab's data is kept sparse)."""
    sparse = issparse(session().split.dataset.X)
    if not warmup.ready(sparse):
        with st.spinner(COMPILING, show_time=True):
            warmup.wait(sparse=sparse)


def run_pending_steps(current: state.Session) -> None:
    """Do the iterations the Step button asked for (in the script, where a wait can be shown)."""
    if current.pacing.pending_steps:
        steps = current.pacing.take_pending()
        with shielded("stepping the model"):
            wait_for_kernels()
            with st.spinner(f"Training {steps:,} iterations…", show_time=True):
                current.step(steps, wait=False)  # its curve point is drawn when made


def live(draw: Callable[[state.Session, state.Snapshot], None]) -> None:
    """Draw a page section in a fragment that, while training runs, first trains one time slice.

    ``run_every`` is ``None`` when paused, so a paused page costs nothing (but while a Step's
    curve point is being made: the tick that finds it made reruns the page without the timer);
    each tick trains for about ``pacing.TICK_BUDGET_S``, then draws from one snapshot of the
    model. A tick waits to start while a click is answered, in another tab or this one
    (``sharing``). A click's own run draws first, while training from the snapshot at hand (the
    last one taken if another thread holds the model: ``Session.snapshot(wait=False)``), then
    trains its time slice without a curve point; the next tick draws the model as it is.
    """

    every = run_every()

    @st.fragment(run_every=every)
    def tick() -> None:
        current = session()
        if every and not current.pacing.running and not current.points.point_owed():
            st.rerun()  # the Step's point is made: the whole page, without the timer
        first = sharing.answering_click()
        if first:  # paused, no tick follows: the model as it is (a Pause's tick stopped)
            with shielded("drawing this page"):
                draw(current, current.snapshot(wait=not current.pacing.running))
        if current.pacing.running and not current.busy():
            # a click, in another tab or this one, is answered first; a click in this tab
            # ends the tick
            keep_going = sharing.take_turn(st.session_state, lambda: current.pacing.running)
            current.pacing.share = sharing.share(current)
            with shielded("training"):
                wait_for_kernels()
                # the click's page is not kept waiting by a refit for a curve point
                current.pacing.advance(current, keep_going=keep_going, point=not first)
            if current.pacing.running and not keep_going():
                return  # a click started a newer run of this tab: it draws, not this one
        if not first:
            with shielded("drawing this page"):
                draw(current, current.snapshot())

    tick()


# ---------------------------------------------------------------------- training controls


@shielded_callback("starting")
def _start() -> None:
    session().pacing.running = True


@shielded_callback("pausing")
def _pause() -> None:
    current = session()
    current.pacing.running = False
    current.points.refit_behind()  # pages that need the weights then find them fitted


@shielded_callback("stepping the model")
def _step() -> None:
    session().pacing.pending_steps += int(st.session_state["step_k"])


@shielded_callback("changing the speed")
def _speed() -> None:
    choice = st.session_state["speed"]
    session().pacing.tick_cap = None if choice == FULL_SPEED else int(choice)


@shielded_callback("setting the iteration to pause at")
def _stop_at() -> None:
    target = int(st.session_state["stop_at"])
    session().pacing.stop_at = target or None


@shielded_callback("resetting the model")
def _reset() -> None:
    session().reset()


def training_state(current: state.Session) -> str:
    """The sidebar's word for the tab's training: running, paused at an iteration, not started."""
    if current.pacing.running:
        return "running"
    iteration = current.snapshot().iteration
    return f"paused at iteration {iteration:,}" if iteration else "not started"


def sidebar(current: state.Session) -> None:
    """Start / Pause / Step k / Reset for every page; callbacks run before the page is drawn."""
    data = current.split.dataset
    with st.sidebar:
        st.markdown(f"**Dataset:** {literal(data.name)}  \n{data.X.shape[0]} instances · "
                    f"{data.X.shape[1]} features · {data.Y.shape[1]} labels")
        st.markdown(f"**Training:** {training_state(current)}")
        st.caption(f"Model: {current.model_words()}; set on the Train page. A page that shows "
                   "another scoring or a compact model says so.")
        left, right = st.columns(2)
        left.button("Start", key="start", on_click=_start, disabled=current.pacing.running,
                    type="primary", icon=":material/play_arrow:", width="stretch")
        right.button("Pause", key="pause", on_click=_pause, disabled=not current.pacing.running,
                     icon=":material/pause:", width="stretch")
        left, right = st.columns([3, 2], vertical_alignment="bottom")
        left.number_input("Iterations per step", 1, 100_000, 200, step=100, key="step_k")
        right.button("Step", key="step", on_click=_step, width="stretch")
        st.select_slider("Iterations per tick", SPEEDS, current.pacing.tick_cap or FULL_SPEED,
                         key="speed", on_change=_speed,
                         help=f"A tick every {pacing.TICK_EVERY_S:g} s. '{FULL_SPEED}': train "
                              f"for {pacing.TICK_BUDGET_S * 1000:.0f} ms per tick. Fewer "
                              "iterations let you watch each change.")
        st.number_input("Pause at iteration (0: never)", 0, 100_000_000,
                        current.pacing.stop_at or 0, step=1_000, key="stop_at", on_change=_stop_at,
                        help="Live training pauses by itself when it gets there.")
        st.button("Reset model", key="reset", on_click=_reset, icon=":material/restart_alt:",
                  width="stretch",
                  help="A fresh model with the parameters set on the Train page.")
        st.caption("Training advances while the Train or Population page is open.")
        if not warmup.ready(issparse(current.split.dataset.X)):
            st.caption(":material/hourglass_top: Loading the engine's compiled kernels in the "
                       "background (about a minute after a fresh install).")
