"""MLR: multi-label classification rules, a learning classifier system of hyper-rectangle rules.

Names are imported lazily so that ``import mlr_core`` stays fast (the dashboard's first paint does
not pay for numba or pandas until it trains).
"""

from importlib import import_module

from mlr_core.errors import DatasetError, InputError, MLRError, ModelFormatError

_LAZY = {
    "MLRClassifier": "mlr_core.estimator",
    "TrainingSession": "mlr_core.training_session",
    "Explanation": "mlr_core.explain",
    "IterationTrace": "mlr_core.iteration_trace",
    "Dataset": "mlr_core.data.loaders",
    "load_dataset": "mlr_core.data.loaders",
    "load_dataset_bytes": "mlr_core.data.loaders",
    "dataset_from_frame": "mlr_core.data.loaders",
    "dataset_stats": "mlr_core.data.stats",
    "make_hypercube_dataset": "mlr_core.data.synthetic",
    "evaluate": "mlr_core.evaluation.measures",
    "cross_validate": "mlr_core.evaluation.paper",
    "RFMLSelector": "mlr_core.feature_selection",
}

__all__ = ["DatasetError", "InputError", "MLRError", "ModelFormatError", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mlr_core' has no attribute {name!r}")
