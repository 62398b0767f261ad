"""Nominal features: which columns of a table are categories, their category lists, and their
values as the codes the engine reads (``mlr_core/_engine/population.py``: a rule tests a nominal
feature by a set of codes).

A pandas ``object``, ``string``, ``category`` or ``bool`` column is nominal; every other column,
and every column of an array, is numeric. Two-valued 0/1 numeric columns stay numeric: their
tests read ``word = 1`` already (``Scaling.binary``), an interval on them is a set of 0, 1 or
both, and the one-condition rules of the fitted weights (``rule_weights.feature_rules``) are
built on them. A column's categories are its pandas categories in their order, or else its
distinct values sorted (``False, True`` for bool); they are part of the fitted model
(``Scaling.categories``), saved in its file and checked on load (`checked_categories`).
"""

from __future__ import annotations

import numpy as np

from mlr_core._engine.population import MAX_CATEGORIES
from mlr_core.errors import InputError, ModelFormatError

UNSEEN = -1.0
"""The code of a category training never saw: in no rule's set (``matching.in_set``)."""

_NOMINAL_KINDS = "OSUb"  # object, bytes, str, bool


def _is_nominal(column) -> bool:
    import pandas as pd

    dtype = column.dtype
    return isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype)) or dtype.kind in _NOMINAL_KINDS


def categories_of(X) -> tuple | None:
    """Per column of ``X`` (a DataFrame), None for a numeric one or a nominal one's category
    list; None for ``X`` itself when no column is nominal (or ``X`` is no DataFrame). A column
    of more than `MAX_CATEGORIES` categories is refused before anything is allocated for it."""
    if not hasattr(X, "dtypes") or not hasattr(X, "columns"):
        return None
    lists = [_categories(column, name) if _is_nominal(column) else None
             for name, column in X.items()]  # by position: a name may be given twice
    return tuple(lists) if any(c is not None for c in lists) else None


def _categories(column, name) -> tuple:
    import pandas as pd

    if isinstance(column.dtype, pd.CategoricalDtype):
        values = list(column.cat.categories)
    elif column.dtype.kind == "b":
        values = [False, True]
    else:
        values = pd.unique(column.dropna())
        if len(values) <= MAX_CATEGORIES:
            values = sorted(values, key=lambda v: (type(v).__name__, v))
    if len(values) > MAX_CATEGORIES:
        raise InputError(
            f"Column {name!r} has {len(values):,} distinct values; a nominal feature takes at "
            f"most {MAX_CATEGORIES}. Drop the column (an identifier predicts nothing), group its "
            "rare values, or give it as numbers if its values are ordered.")
    if not values:
        raise InputError(f"Column {name!r} holds no value: a nominal feature needs at least one "
                         "category.")
    return tuple(_plain(v) for v in values)


def _plain(value):
    """A category as a plain Python value (str, int, float or bool), as a model file holds it."""
    return value.item() if isinstance(value, np.generic) else value


def encoded(X, categories: tuple | None):
    """``X`` with each nominal column (``categories[j]`` not None) as its codes (floats:
    `UNSEEN` for a value not in the list, NaN for a missing one), the others as they are; ``X``
    itself when ``categories`` is None. A DataFrame stays one (its column names are checked
    against training's)."""
    if categories is None:
        return X
    if not hasattr(X, "columns"):
        raise InputError("The model has nominal features: give X as a DataFrame with the "
                         "training columns, whose nominal columns hold the categories.")
    import pandas as pd

    if len(X.columns) != len(categories):
        return X  # the width check reports it
    out = {}
    for (name, column), values in zip(X.items(), categories, strict=True):
        if values is None:
            out[name] = column
            continue
        codes = pd.Index(values).get_indexer(column.astype(object).where(column.notna(), None))
        codes = codes.astype(np.float64)
        codes[codes < 0] = UNSEEN
        codes[column.isna().to_numpy()] = np.nan
        out[name] = codes
    return pd.DataFrame(out, index=X.index, columns=X.columns)


def levels(categories: tuple | None, n_features: int) -> np.ndarray:
    """Per feature its number of categories (0: numeric), as the kernels read it; empty when
    no feature is nominal."""
    if categories is None:
        return np.zeros(0, dtype=np.int64)
    return np.array([0 if c is None else len(c) for c in categories], dtype=np.int64)[:n_features]


def checked_categories(saved, features) -> tuple | None:
    """The category lists of a model file: absent (None), or one entry per feature, each null
    or a list of 1 to `MAX_CATEGORIES` distinct strings, numbers or booleans."""
    if saved is None:
        return None
    if not isinstance(saved, list) or len(saved) != len(features):
        raise ModelFormatError(f"categories must be a list of {len(features)} entries, one per "
                               "feature (null: numeric).")
    out = []
    for feature, values in zip(features, saved, strict=True):
        if values is None:
            out.append(None)
            continue
        where = f"feature {feature!r}'s categories"
        if not (isinstance(values, list) and 1 <= len(values) <= MAX_CATEGORIES
                and all(isinstance(v, (str, int, float, bool)) for v in values)):
            raise ModelFormatError(f"{where} must be a list of 1 to {MAX_CATEGORIES} strings, "
                                   "numbers or booleans.")
        if len({(type(v), v) for v in values}) != len(values):
            raise ModelFormatError(f"{where} name a category twice.")
        out.append(tuple(values))
    return tuple(out) if any(c is not None for c in out) else None
