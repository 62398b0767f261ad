"""How live training is paced in a tab: running or paused, iterations per tick, a target to
pause at, manual steps waiting for the next script run, and the measured speed that sizes each
tick's chunks. The model itself stays with the training session (``state.Session``)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Training per live tick; ticks start every TICK_EVERY_S, which leaves time to redraw. Every
#: tick costs the browser a redraw of the page's live part: at a tick every 0.6 s (and 0.25 s
#: of training) one tab's browser used 58% of a core on the Train page, at 1.2 s 31-37%
#: (`benchmarks/live_pages.py`, 29 Nov), and six such browsers share the class's cores.
TICK_BUDGET_S = 0.5
TICK_EVERY_S = 1.2
#: Default iterations per live tick: slow enough to watch the sample learn (about 170 a second;
#: at full speed it converges before the first curve point is drawn).
DEFAULT_TICK_CAP = 200
#: Chunks per tick budget: a Pause waits for one chunk at most (about 60 ms of training).
CHUNKS_PER_TICK = 8


@dataclass
class Pacing:
    running: bool = False
    #: Iterations per tick at most (None: as many as the time budget allows).
    tick_cap: int | None = DEFAULT_TICK_CAP
    #: Live training pauses by itself at this iteration (None: it runs until paused).
    stop_at: int | None = None
    #: Iterations asked for by Step, done by the next script run (where a wait can be shown).
    pending_steps: int = 0
    #: Iterations per second measured on this model (0: not yet).
    speed: float = 0.0
    #: This tab's share of the server (1 / the tabs training on it, ``sharing.share``): its
    #: curve points are spaced out by it.
    share: float = 1.0

    def restart(self) -> None:
        """A new model: paused, no step waiting, its speed still to be measured."""
        self.running, self.pending_steps, self.speed = False, 0, 0.0

    def take_pending(self) -> int:
        steps, self.pending_steps = self.pending_steps, 0
        return steps

    def advance(self, session, budget_s: float = TICK_BUDGET_S,
                keep_going: Callable[[], bool] = lambda: True, point: bool = True) -> int:
        """Let ``session`` record a curve point if one is due, then train it for about
        ``budget_s`` seconds (at most ``tick_cap`` iterations).

        The point comes first, on the model as the last tick left and drew it; its refit
        (seconds on ohsumed) runs beside the tick, which trains on; later ticks draw without
        training until the point is made (``Session.busy``).

        Chunks are sized from the measured speed, ``1 / CHUNKS_PER_TICK`` of the budget each, so
        a population that slows down as it grows overruns the budget by little; the session
        takes its lock per chunk, so a page waiting to read waits for one chunk at most.
        ``keep_going()`` is asked before every chunk: live, it is false once Pause was clicked
        (Streamlit runs the click's callback while this tick still runs), and then no further
        chunk starts and no curve point is scored. Returns the iterations done: at least one
        when the tick runs whole, so every tick shows progress, except at ``stop_at``, where
        training pauses by itself. Without ``point`` no curve point is recorded first (a
        click's own tick: the page it opens would wait for the refit, seconds on ohsumed).
        """
        if point:
            session.points.record(wait=False)  # made beside the tick (see CurvePoints.record)
        deadline = time.perf_counter() + budget_s
        cap = self.tick_cap or math.inf
        if self.stop_at is not None:
            cap = min(cap, self.stop_at - session.iteration)
            if cap <= 0:
                self.running = False
                return 0
        done = 0
        while done < cap and ((left := deadline - time.perf_counter()) > 0 or done == 0):
            if not keep_going():
                return done
            guess = (self.speed * min(max(left, 0.0), budget_s / CHUNKS_PER_TICK) if self.speed
                     else 20)
            chunk = int(max(1, min(guess, cap - done)))
            began = time.perf_counter()
            session.learn(chunk)
            rate = chunk / max(time.perf_counter() - began, 1e-6)
            self.speed = rate if not self.speed else 0.5 * (self.speed + rate)
            done += chunk
        if self.stop_at is not None and session.iteration >= self.stop_at:
            session.points.record(force=True)  # the run ends on a point at the target
            self.running = False
        return done
