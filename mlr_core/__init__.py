"""MLR: multi-label classification rules, a learning classifier system of hyper-rectangle rules.

Names are imported lazily so that ``import mlr_core`` stays fast (the dashboard's first paint does
not pay for numba or pandas until it trains).
"""

from importlib import import_module

from mlr_core.errors import DatasetError, InputError, MLRError, ModelFormatError

_LAZY = {
    "MLRClassifier": "mlr_core.estimator",
    "Explanation": "mlr_core.explain",
    "Dataset": "mlr_core.datasets",
    "load_dataset": "mlr_core.datasets",
    "dataset_stats": "mlr_core.stats",
    "make_hypercube_dataset": "mlr_core.synthetic",
}

__all__ = ["DatasetError", "InputError", "MLRError", "ModelFormatError", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mlr_core' has no attribute {name!r}")
