"""How the tabs of one server share it: a click is answered before other tabs' live ticks.

Every tab runs its script in a thread of the one server process, and a live tick (train a time
slice, redraw the page's charts: ``ui.live``) holds the interpreter's lock for most of the time
it does not spend in the engine's kernels. Six tabs ticking every ``pacing.TICK_EVERY_S`` keep
that lock busy, so a click in one tab (a page link, a button: a full run of its script) waited
behind a queue of other tabs' ticks (``benchmarks/classroom.py``). Here a full run marks itself
while it lasts, and a tick of another tab that is about to start waits until no click younger
than ``PRIORITY_S`` is being answered. A tick already running finishes its time slice; a long
computation (an audit) holds other tabs' training back for ``PRIORITY_S`` at most. (Holding
them one second more, while the clicked tab's browser drew, was never shown to help and was
removed: other tabs' ticks now seldom send a chart to draw, below.)

A click in a tab also ends that tab's own tick: Streamlit starts the click's run in a new thread
at once and stops the old run only at its next Streamlit call, so a tick training chunk after
chunk would otherwise go on changing the model the new page reads. Each full run numbers itself
in the tab's session state (:func:`click`); a tick goes on only while its run is the tab's
latest (:func:`take_turn`).

And a class of tabs costs the server about what one tab does: each curve point (a rule-weight
refit, the measures, the Train page's charts made again and drawn again by the browser: most of
a tick's cost) comes at most every ``curves.CURVE_EVERY_S`` per tab alone, and that times the
tabs training together (:func:`share`, used by ``CurvePoints.record`` through ``Pacing.share``).
Likewise a live page's own charts (the Population page's, remade at every tick before): the
browser drew them from scratch at every change (Streamlit mounts a new plotly chart for a new
figure), and six browsers on Population kept the cores busy drawing while a clicked page
waited. Now such a page keeps what it drew for ``REDRAW_EVERY_S`` per tab alone, that times the
tabs training together (:func:`kept_while_training`); sent again unchanged, a chart costs the
browser nothing.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

#: A click keeps other tabs' ticks waiting this long at most (a page answers well within it).
PRIORITY_S = 3.0
#: How often a waiting tick looks again.
POLL_S = 0.02

_lock = threading.Lock()
_clicks: dict[int, float] = {}  # clicks being answered: number -> end of their priority
_numbers = itertools.count()
_local = threading.local()
#: Where a tab keeps the number of its latest full run (``st.session_state``).
RUN_KEY = "sharing_run"
#: A tab counts as training while its last live tick is this recent.
TRAINING_WINDOW_S = 5.0
_ticks: dict[int, float] = {}  # tabs training: id of its training session -> its last tick
#: A live page's charts are made again at most this often while its tab trains alone (that
#: times the tabs training together): every tick cost the browser a chart from scratch; at 1 s
#: one tab's browser used 97% of a core on Population, at 2 s 51-68% (`live_pages.py`, 29 Nov).
REDRAW_EVERY_S = 2.0


@contextmanager
def click(tab_state: MutableMapping) -> Iterator[None]:
    """Around a tab's full script run (what a click starts), ``tab_state`` its session state:
    while it lasts, other tabs' ticks wait to start, and this run's own first tick (a live page)
    does not; the tab's older runs are no longer its latest."""
    number = next(_numbers)
    tab_state[RUN_KEY] = number
    began = time.monotonic()
    with _lock:
        _clicks[number] = began + PRIORITY_S
    _local.in_click = True
    try:
        yield
    finally:
        _local.in_click = False
        with _lock:
            del _clicks[number]


def answering_click() -> bool:
    """Whether this thread runs a click's full run now (not a later tick of its fragments)."""
    return getattr(_local, "in_click", False)


def clicks_waiting(now: float | None = None) -> bool:
    """Whether some tab is answering a click that began less than ``PRIORITY_S`` ago."""
    now = time.monotonic() if now is None else now
    with _lock:
        return any(now < end for end in _clicks.values())


def take_turn(tab_state: Mapping, running: Callable[[], bool]) -> Callable[[], bool]:
    """At the start of a live tick of the tab whose session state is ``tab_state``: wait while
    another tab answers a click (not when this tick is part of a click's own run), then return
    the tick's ``keep_going()``: true while ``running()`` and this run is still the tab's latest
    (a click in the tab starts a newer one)."""
    number = tab_state.get(RUN_KEY)

    def keep_going() -> bool:
        return running() and tab_state.get(RUN_KEY) == number

    if not answering_click():
        while clicks_waiting() and keep_going():
            time.sleep(POLL_S)
    return keep_going


def share(tab: object, now: float | None = None) -> float:
    """At a live tick of ``tab`` (its training session): this tab's share of the server, 1 / the
    tabs that ticked within ``TRAINING_WINDOW_S``, this one included."""
    now = time.monotonic() if now is None else now
    with _lock:
        _ticks[id(tab)] = now
        for key in [key for key, last in _ticks.items() if now - last > TRAINING_WINDOW_S]:
            del _ticks[key]
        return 1 / len(_ticks)


def kept_while_training(tab_state: MutableMapping, key: str, choices: object, snapshot: object,
                        make: Callable[[], T], every: float) -> tuple[object, T]:
    """``(snapshot, make())``, kept in the tab's state under ``key``, and what it was made from
    is returned with it: made again on a click's run (the user acted: a new page, a new model),
    when ``choices`` (what the user set) differ, or once ``snapshot`` is another and the kept one
    is ``every`` seconds old (0 when paused: only a Step changes the snapshot then). Between
    these, a live tick sends the same charts again, which the browser does not redraw."""
    kept = tab_state.get(key)
    now = time.monotonic()
    if (kept is None or answering_click() or kept[1] != choices
            or (kept[2] is not snapshot and now - kept[0] >= every)):
        kept = (now, choices, snapshot, make())
        tab_state[key] = kept
    return kept[2], kept[3]


def redraw_every(running: bool, tab_share: float) -> float:
    """Seconds a live page keeps its charts: ``REDRAW_EVERY_S`` over the tab's share of the
    server while it trains, none while paused."""
    return REDRAW_EVERY_S / tab_share if running else 0.0
