"""Checks on what a model file holds: the readers that turn its JSON values into arrays or a
specific `ModelFormatError` before anything is allocated from them."""

from __future__ import annotations

import numpy as np

from mlr_core._engine import population as popmod
from mlr_core.errors import SAVED_LIMIT, ModelFormatError, require, saved_real

RULE_STATS = {field.stat: field.name for field in popmod.RULE_FIELDS if field.stat}
"""A saved rule's statistics: JSON key -> population array."""


FEATURE_RULES_PER_FEATURE = 1
"""The most one-condition rules (``x = 1``, ``mlr_core/rule_weights.py``) a fitted rule set
holds per feature beside its N evolved ones: the bound a saved file is checked against."""


def _rule_ids(values, n) -> np.ndarray:
    """Saved rule ids: ``n`` ascending non-negative integers, or 0..n-1 when none were saved."""
    if values is None:
        return np.arange(n, dtype=np.int64)
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**62
                    for v in values),
            f"rule_ids must be {n} non-negative integers, one per rule (leave it out to "
            "number the rules 0, 1, ...).")
    ids = np.array(values, dtype=np.int64)
    require((np.diff(ids) > 0).all(), "rule_ids must be ascending, each id once.")
    return ids


def _list(data, key) -> list:
    value = data[key]
    require(isinstance(value, list), f"\"{key}\" must be a list.")
    return value


def _floats(values, n, what) -> np.ndarray:
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values),
            f"{what} must be {n} numbers.")
    out = np.asarray(values, dtype=np.float64)
    require(np.isfinite(out).all(), f"{what} must be finite.")
    return out


def _float_array(values, what) -> np.ndarray:
    """A saved list (of lists) of finite numbers as floats, or a ModelFormatError naming
    ``what``."""
    require(isinstance(values, list), f"{what} must be a list of numbers.")
    try:
        out = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as err:
        raise ModelFormatError(f"{what} must hold numbers only ({err}).") from err
    require(np.isfinite(out).all(), f"{what} must be finite.")
    return out


def _booleans(values, n, what) -> np.ndarray:
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, bool) for v in values),
            f"{what} must be {n} booleans (true or false), one per feature.")
    return np.array(values, dtype=bool)


def _fill_condition(pop, i, condition, d, k, where):
    """Check a ``hyperrectangle_csr`` condition and store it sparsely in slot i."""
    require(isinstance(condition, dict) and condition.get("type") == "hyperrectangle_csr",
            f"{where}: condition type must be hyperrectangle_csr.")
    center, spread = condition["center"], condition["spread"]
    require(isinstance(center, list) and isinstance(spread, list)
            and len(center) == d and len(spread) == d,
            f"{where}: center and spread need {d} entries (null for a wildcard).")
    specified = [j for j in range(d) if center[j] is not None]
    require(all((spread[j] is None) == (center[j] is None) for j in range(d)),
            f"{where}: center and spread must be null for the same features.")
    require(len(specified) <= k, f"{where}: more than max_specified = {k} features specified.")
    for slot, j in enumerate(specified):
        c = saved_real(center[j], f"{where}, feature {j}: center", -SAVED_LIMIT, SAVED_LIMIT)
        s = saved_real(spread[j], f"{where}, feature {j}: spread", 0.0, SAVED_LIMIT)
        pop.feat[i, slot], pop.center[i, slot], pop.spread[i, slot] = j, c, s
    pop.nspec[i] = len(specified)
