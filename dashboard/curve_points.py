"""The learning curves of a tab's run, and the refits of the rule weights their points need.

A curve point scores the model the library would predict with at its iteration, so its rule
weights (or the vote's threshold) are refitted to the rules first. Fitted weights take a second
on ohsumed: they are refitted on a copy of the model outside the session's lock, so pages read
the model meanwhile (they waited for the refit: Explain 6.6-7.2 s while training on ohsumed).
"""

from __future__ import annotations

import logging
import threading
import time

from dashboard import engine
from dashboard.curves import CURVE_EVERY_S, CurveLog, curve_scores
from dashboard.data_split import DataSplit
from dashboard.snapshots import Snapshot, SnapshotStore

#: At most this share of live training's time goes to refitting the rule weights for a curve
#: point (a refit costs about 0.3 s on emotions and 1-2 s on yeast with 1,000 rules): points come
#: at least every CURVE_EVERY_S, further apart when a refit costs more.
REFIT_SHARE = 1 / 3

log = logging.getLogger("dashboard")


class CurvePoints:
    """The curve points of one `Session`'s run, the snapshots kept at them for time travel, and
    the refits that make them, beside the session's training. The session owns the model: this
    reads it (``Session._training``) and makes a refitted copy the model through
    ``Session._weights_fitted``.

    Locking: the session's lock (``Session._lock``, re-entrant) guards the model and all that is
    here: ``curves``, ``snapshots``, ``_refitting``, ``_owed`` and ``_last_rules`` are read and
    written under it (`point_owed` reads ``_owed`` without it, as a hint). ``_refit_ended`` is a
    condition on that lock, notified when a refit ends or a Step's point is made. A refit
    (``tune_bipartition`` on a copy) and its scoring run outside the lock; the copy is made, and
    made the model, under it, the latter in one hold with the check that the model did not move.
    """

    def __init__(self, session, lock: threading.RLock, keep_snapshots: int) -> None:
        self._session = session
        self._lock = lock
        self._keep_snapshots = keep_snapshots
        #: (the `TrainingSession`, the iteration) whose weights are being refitted outside the
        #: lock, on a copy of its model (`_copy_for_refit`), else None.
        self._refitting: tuple | None = None
        self._refit_ended = threading.Condition(lock)
        #: Curve points owed to Steps and not yet made (see `owe_point`).
        self._owed = 0
        self.restart()

    def restart(self) -> None:
        """A new run (a new model): no curve point, no snapshot, no refitted rule set yet."""
        with self._lock:
            self.curves = CurveLog()
            #: Snapshots for time travel, one at most per curve point, thinned over the run.
            self.snapshots = SnapshotStore(max_points=self._keep_snapshots)
            #: The rule set of the last curve point's refitted copy (see `last_fitted`).
            self._last_rules = None

    def record(self, force: bool = False, wait: bool = True, of=None) -> None:
        """Score training (a fixed sample) and held-out rows if a curve point is due.

        The model is refitted to the rules first (``tune_bipartition``: the rule weights, or the
        vote's threshold), so the curves are those of the model the library would predict with
        at this iteration. A refit's cost spaces the live points out (``REFIT_SHARE``), and so
        do other tabs training on the server (``Pacing.share``).

        Fitted weights are refitted, and the point scored, on a copy of the model outside the
        lock. Without ``wait`` (a live tick) that runs in a thread of its own and the tick goes
        on and ends: no script run of the tab lasts seconds for a refit (the tab's next ticks
        draw, without training until the point is made: ``Session.busy``). A point being made
        is waited for (``wait``) or left to finish. If the model has not trained on meanwhile,
        the refitted copy becomes the model (the same bit for bit as one refitted in place); the
        point is dropped if the model was replaced, or is no longer ``of``'s `TrainingSession`
        when given.
        """
        session = self._session
        with self._lock:
            if not wait and self.refitting():
                return
            self.await_refit()
            if of is not None and session._training is not of:
                return
            training = session._started()
            iteration, now = training.summary()["iteration"], time.perf_counter()
            if not self.curves.due(iteration, now, force):
                return
            snap = session.snapshot()  # taken first: pages read it while the point is made
            if training.answers_by_vote("agg"):  # the vote's threshold: fast, in place
                training.tune_bipartition()
                self._add_point(iteration, now, curve_scores(training.model, session.split), None)
                return
            refit = self._copy_for_refit(training, iteration)
            point = (training, refit, iteration, now, snap, session.split, wait)
        if wait:
            self._point_from_copy(*point)
        else:
            threading.Thread(target=self._point_from_copy, args=point, name="curve point",
                             daemon=True).start()

    def _point_from_copy(self, training, refit, iteration: int, now: float, snap: Snapshot,
                         split: DataSplit, wait: bool) -> None:
        """The curve point of ``refit`` (a copy of ``training``'s model at ``iteration``, trained
        on ``split``): refitted and scored outside the lock, added under it. In a thread of its
        own (not ``wait``) an error goes to the server log, as the pages' own do."""
        try:
            refit.tune_bipartition()
            scores = curve_scores(refit.model, split)
        except BaseException as err:
            self._refit_over(training)
            if wait or not isinstance(err, Exception):
                raise
            log.exception("unexpected error while refitting the weights for a curve point")
            return
        with self._lock:
            if self._session._training is not training:
                self._refit_over(training)
                return  # replaced meanwhile (new data, a reset): the point is of another run
            self._last_rules = refit.model.rule_set_
            if self._install_refitted(training, refit, iteration):
                snap = None  # the model is the copy scored: keep it as it is now
            self._add_point(iteration, now, scores, snap)

    def _copy_for_refit(self, training, iteration: int):
        """(Under the lock) a `TrainingSession` of a copy of ``training``'s model, to refit
        outside the lock. Marks the refit under way (``_refitting``) until `_install_refitted`
        or `_refit_over`."""
        self._refitting = (training, iteration)
        return engine.training(engine.copy_model(training.model))

    def _install_refitted(self, training, refit, iteration: int) -> bool:
        """(Under the lock) end the refit of ``refit``, and make it the model if the model is
        still ``training``'s at ``iteration`` (``Session._weights_fitted``). In the same hold of
        the lock, so a page waiting for these weights (``Session._ready``) finds them."""
        self._refit_over(training)
        if self._session._training is not training or (
                training.summary()["iteration"] != iteration):
            return False
        self._session._weights_fitted(refit)
        return True

    def _add_point(self, iteration: int, now: float, scores: dict,
                   snap: Snapshot | None) -> None:
        """Add the point (under the lock); keep for time travel ``snap``, the rules it was
        scored on, or (None) the model as it is now."""
        session = self._session
        self.curves.min_seconds = max(CURVE_EVERY_S, (time.perf_counter() - now)
                                      / REFIT_SHARE) / session.pacing.share
        self.curves.add(iteration, now, scores)
        session._changed()
        self.snapshots.keep(session.snapshot() if snap is None else snap)

    def owe_point(self) -> None:
        """The curve point a Step owes, made in a thread of its own (`point_owed` until then):
        its refit took 1.8 s of a 2.3 s Step on ohsumed. A point being made when the Step ends
        is waited for in that thread."""
        with self._lock:
            self._owed += 1
            training = self._session._training
        threading.Thread(target=self._point_for_step, args=(training,),
                         name="step's curve point", daemon=True).start()

    def _point_for_step(self, training) -> None:
        try:
            self.record(force=True, of=training)
        except Exception:
            log.exception("unexpected error while refitting the weights for a step's curve point")
        finally:
            with self._lock:
                self._owed -= 1
                self._refit_ended.notify_all()

    def point_owed(self) -> bool:
        """Whether a Step's curve point is still being made: the live pages keep redrawing
        until it is drawn."""
        return self._owed > 0

    def refit_behind(self) -> None:
        """Fit the weights to the rules as they are, in a thread of its own, if they are stale
        (after Pause: the pages that need them then answer at once, instead of the first one
        refitting on its click; one that asks before the refit is done waits for it). A curve
        point being made is waited for first: its copy is of an iteration the last tick
        trained past."""
        threading.Thread(target=self._refit_if_stale, name="refit", daemon=True).start()

    def _refit_if_stale(self) -> None:
        with self._lock:
            self.await_refit()
            training = self._session._training
            if training is None or training.answers_by_vote("agg"):
                return
            iteration = int(training.summary()["iteration"])
            if not iteration or training.model.fitted_.is_current():
                return
            refit = self._copy_for_refit(training, iteration)
        try:
            refit.tune_bipartition()
        except Exception:
            self._refit_over(training)
            log.exception("unexpected error while refitting the rule weights after a pause")
            return
        with self._lock:
            self._install_refitted(training, refit, iteration)

    def settled(self, timeout: float | None = None) -> bool:
        """Wait until no refit of the model's weights is under way and no Step's curve point
        is owed (False if ``timeout`` seconds passed)."""
        with self._lock:
            return self._refit_ended.wait_for(
                lambda: not self.refitting() and not self._owed, timeout)

    def refitting(self, iteration: int | None = None) -> bool:
        """Whether the session's model (at ``iteration``, if given) is being refitted; a refit
        of a model since replaced (new data, a reset) does not count."""
        refit = self._refitting
        return refit is not None and refit[0] is self._session._training and (
            iteration is None or refit[1] == iteration)

    def await_refit(self, of_rules_now: bool = False) -> None:
        """(Under the lock) wait, the lock released, while the model is being refitted; with
        ``of_rules_now``, only while its rules as they are now are (that refit serves the
        caller; training may go on meanwhile)."""
        session = self._session
        self._refit_ended.wait_for(
            lambda: not self.refitting(session.iteration if of_rules_now else None))

    def _refit_over(self, training) -> None:
        with self._lock:
            if self._refitting is not None and self._refitting[0] is training:
                self._refitting = None
            self._refit_ended.notify_all()

    def last_fitted(self):
        """The rule set last tuned with fitted weights (its ``iteration`` says when), or None
        (the vote, or none tuned yet): while training, a page shows it at once and says from
        which iteration it is, rather than wait seconds for a refit that the next curve point
        makes anyway."""
        with self._lock:
            training = self._session._training
            if training is None or training.answers_by_vote("agg"):
                return None
            sets = [self._last_rules, getattr(training.model, "rule_set_", None)]
            return max((r for r in sets if r is not None), key=lambda r: r.iteration,
                       default=None)

    def past_snapshots(self) -> list[Snapshot]:
        """The snapshots kept for time travel, oldest first, ending with the model as it is."""
        with self._lock:
            past = self.snapshots.snapshots()
            now = self._session.snapshot()
            return past + [now] if not past or past[-1].iteration < now.iteration else past
