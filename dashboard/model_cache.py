"""What pages compute from one state of a tab's model, each computed once and dropped when the
model changes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from dashboard import engine
from dashboard.data_split import DataSplit

T = TypeVar("T")


@dataclass
class ModelCache:
    """What pages compute from one state of the model (explanations, the model scored the other
    way), each computed once. The session (``state.Session``) drops it whenever the model
    changes, so nothing here outlives the state it was computed from; it reads the model through
    ``ready()``, which gives it ready to predict (``Session._ready``: stale weights refitted
    first, should training have gone on since this cache was made).

    Locking: ``lock`` is the session's lock; ``_kept`` is read and filled only under it, and
    every value is computed under it, so two pages asking at once compute it once.
    """

    ready: Callable[[], object]
    split: DataSplit
    lock: threading.RLock = field(repr=False)
    #: The model as it is, its weights perhaps older than its rules (``Session._started``).
    started: Callable[[], object] = field(repr=False)
    _kept: dict = field(default_factory=dict, repr=False)

    def once(self, key, make: Callable[[], T]) -> T:
        """``make()``'s value, made once for this state of the model (under the lock)."""
        with self.lock:
            if key not in self._kept:
                self._kept[key] = make()
            return self._kept[key]

    def explain(self, index: int):
        """The vote's explanation of one instance (the Explain page's lesson on the vote)."""
        return self.once(("explain", index),
                          lambda: self.vote_model()._rule_set_for("agg").explain(
                              self.split.dataset.features([index])))

    def _scored(self, weighting: str):
        """A copy of the model with these rules scored by ``weighting``, tuned on the training
        split (the rules keep their specificity limit: "auto" resolves per weighting). Copied
        as it is (``copy.deepcopy``): a copy through JSON needs current weights, and refitting
        weights the copy replaces cost seconds on ohsumed. The copy reads the model's bound
        training rows where they are (``TrainingSession.restart``): binding the split's rows
        again held a second copy of them (89 MB on ohsumed, 190 MB while binding)."""
        model = engine.copy_model(self.started())
        model.set_params(weighting=weighting, max_specified=model.max_specified_)
        return engine.training(model).restart().model

    def scored_by(self, weighting: str):
        """The rules scored by ``weighting`` (a `MODELS` key): the model itself when it scores
        so (its weights current, ``ready()``; read it under the lock), else a copy of the model
        as it is, made once (a vote is tuned in a fraction of a second; fitted weights take
        seconds on yeast, so pages ask for them on request)."""
        if self.started().weighting == weighting:
            return self.ready()
        return self.once(weighting, lambda: self._scored(weighting))

    def vote_model(self):
        """The rules scored by the paper's vote (the Explain page's lesson on the vote)."""
        return self.scored_by("vote")

    def fitted_model(self):
        """The rules scored by fitted rule weights, the library's default."""
        return self.scored_by("fitted")

    def explain_fitted(self, index: int):
        """The explanation of one instance under fitted rule weights (the Explain page's
        scorecard of all rules)."""
        return self.once(("explain fitted", index),
                          lambda: self.fitted_model().rule_set_.explain(
                              self.split.dataset.features([index])))
