"""Checks on what a model file holds: the readers that turn its JSON values into arrays or a
specific `ModelFormatError` before anything is allocated from them."""

from __future__ import annotations

import numpy as np

from mlr_core._engine import population as popmod
from mlr_core.errors import SAVED_LIMIT, ModelFormatError, require, saved_real, saved_whole
from mlr_core.validation import check_unique_names

RULE_STATS = {field.stat: field.name for field in popmod.RULE_FIELDS if field.stat}
"""A saved rule's statistics: JSON key -> population array."""


FEATURE_RULES_PER_FEATURE = 9
"""The most one-condition rules a fitted rule set holds per feature beside its N evolved ones
(``x = 1`` on a 0/1 feature, ``x >= cut`` at each of this many quantiles on a numeric one:
``rule_weights.CUT_QUANTILES``): the bound a saved file is checked against. Files saved when
it was 4 (quintiles) hold fewer and load as they were."""


def rule_ids(values, n) -> np.ndarray:
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


def listed(data, key) -> list:
    value = data[key]
    require(isinstance(value, list), f"\"{key}\" must be a list.")
    return value


def floats(values, n, what) -> np.ndarray:
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values),
            f"{what} must be {n} numbers.")
    out = np.asarray(values, dtype=np.float64)
    require(np.isfinite(out).all(), f"{what} must be finite.")
    return out


def float_array(values, what) -> np.ndarray:
    """A saved list (of lists) of finite numbers as floats, or a ModelFormatError naming
    ``what``."""
    require(isinstance(values, list), f"{what} must be a list of numbers.")
    try:
        out = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as err:
        raise ModelFormatError(f"{what} must hold numbers only ({err}).") from err
    require(np.isfinite(out).all(), f"{what} must be finite.")
    return out


def booleans(values, n, what) -> np.ndarray:
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, bool) for v in values),
            f"{what} must be {n} booleans (true or false), one per feature.")
    return np.array(values, dtype=bool)


def fill_condition(pop, i, condition, d, k, where, levels):
    """Check a ``hyperrectangle_csr`` condition and store it sparsely in slot i; a nominal
    feature's test (``levels[j]`` categories) is its ``allowed`` codes, centre and spread 0."""
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
        if len(levels) and levels[j]:
            pop.allowed[i, slot] = allowed_codes(condition, j, levels[j], f"{where}, feature {j}")
    pop.nspec[i] = len(specified)


def allowed_codes(condition, j, n_categories, where) -> np.uint64:
    """A saved nominal test's set: ``allowed[j]``, a list of distinct codes below
    ``n_categories``, as a bitmask."""
    allowed = condition.get("allowed")
    codes = allowed[j] if isinstance(allowed, list) and len(allowed) > j else None
    require(isinstance(codes, list) and len(codes) >= 1 and len(set(codes)) == len(codes)
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < n_categories
                    for c in codes),
            f"{where}: a nominal test needs \"allowed\": distinct category codes from 0 to "
            f"{n_categories - 1}.")
    return np.uint64(sum(1 << c for c in codes))


def names(data) -> tuple[list[str], list[str]]:
    """A saved rule set's (feature names, label names): at least one of each, each name once."""
    require(isinstance(data, dict), "\"rule_set\" must be an object.")
    features = [str(n) for n in listed(data, "feature_names")]
    labels = [str(n) for n in listed(data, "label_names")]
    require(len(features) >= 1 and len(labels) >= 1,
            "A model needs at least one feature and one label.")
    check_unique_names(features, "feature", ModelFormatError)
    check_unique_names(labels, "label", ModelFormatError)
    return features, labels


def population(rules, d: int, m: int, max_population: int, max_specified: int, levels=()):
    """(population, labelsets) of the saved ``rules`` on ``d`` features and ``m`` labels: at
    most ``max_population`` evolved rules and `FEATURE_RULES_PER_FEATURE` one-condition rules per
    feature, each of at most ``max_specified`` features, the count checked before the population
    is allocated;
    ``levels``: the features' category counts (empty: no nominal feature)."""
    limit = max_population + FEATURE_RULES_PER_FEATURE * d
    require(len(rules) <= limit,
            f"The file holds {len(rules):,} rules, more than its n_rules = {max_population:,} "
            f"and {FEATURE_RULES_PER_FEATURE} one-condition rules per feature.")
    pop = popmod.new_population(len(rules), max_specified, len(levels) > 0)
    labelsets, index = [], {}
    for i, rule in enumerate(rules):
        where = f"rule {i}"
        require(isinstance(rule, dict), f"{where} must be an object.")
        bits = rule["labelset"]
        require(isinstance(bits, list) and len(bits) == m and all(b in (0, 1) for b in bits),
                f"{where}: labelset must be {m} values of 0 or 1.")
        key = tuple(int(b) for b in bits)
        pop.ls[i] = index.setdefault(key, len(index))
        if pop.ls[i] == len(labelsets):
            labelsets.append(key)
        fill_condition(pop, i, rule["condition"], d, max_specified, where, levels)
        for name, field in RULE_STATS.items():  # counts are whole, every stat >= 0
            stat = getattr(pop, field)
            read = saved_whole if stat.dtype.kind == "i" else saved_real
            stat[i] = read(rule[name], f"{where}: {name}", 0)
        require(pop.num[i] >= 1, f"{where}: numerosity must be at least 1.")
        require(pop.fit[i] <= 1.0 and pop.acc[i] <= 1.0,
                f"{where}: fitness and accuracy must lie in [0, 1].")
        # each match adds a score in [0, 1] to correct and 1 to experience
        require(pop.correct[i] <= pop.exp[i],
                f"{where}: correct ({pop.correct[i]:g}) cannot exceed experience "
                f"({pop.exp[i]:,}).")
    pop.size[0] = len(rules)
    pop.micro[0] = int(pop.num.sum())
    return pop, np.array(labelsets, dtype=np.uint8).reshape(-1, m)


def iteration(value) -> int:
    """The saved training iteration the rules were taken at."""
    require(isinstance(value, int) and 0 <= value < 2**63,
            "iteration must be a non-negative integer.")
    return value


def n_feature_rules(value, n: int, d: int) -> int:
    """How many of the ``n`` saved rules are one-condition rules: at most
    `FEATURE_RULES_PER_FEATURE` per feature."""
    require(isinstance(value, int) and not isinstance(value, bool)
            and 0 <= value <= min(n, FEATURE_RULES_PER_FEATURE * d),
            f"n_feature_rules must be an integer from 0 to {n} (the rules) and at "
            f"most {FEATURE_RULES_PER_FEATURE * d} ({FEATURE_RULES_PER_FEATURE} per feature).")
    return value
