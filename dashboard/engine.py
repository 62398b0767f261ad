"""The engine as the dashboard reaches it, imported when first needed: scikit-learn and numba
take seconds to import, and a new tab's first page does not need them."""

from __future__ import annotations

import copy


def estimator():
    """The engine's estimator class (`MLRClassifier`)."""
    from mlr_core import MLRClassifier

    return MLRClassifier


def training(model):
    """A `TrainingSession` of ``model``."""
    from mlr_core import TrainingSession

    return TrainingSession(model)


def tuned(model) -> bool:
    """Whether ``model`` has been tuned once (a session binds its data first, see
    ``state._start_model``): the vote's rules and MLR_max answer only after that."""
    return hasattr(model, "rule_set_")


def copy_model(model):
    """A copy of ``model`` that reads its bound training rows and its scaling where they are
    (both read only): 2 ms and 0.8 MB on ohsumed, where a whole copy would hold another 89 MB
    of the same rows. The scaling is the rank axis's knots (8 MB on yeast, up to 50 MB within
    the loaders' budget); each curve point's refitted copy becomes the model, and time travel
    keeps every point's snapshot with its model's scaling, so copied scalings piled up beyond
    the snapshots' memory budget (8 MB a point on yeast: ``Snapshot.scaling``)."""
    run = model.run_
    return copy.deepcopy(model, memo={id(run.X): run.X, id(run.scaling): run.scaling})
