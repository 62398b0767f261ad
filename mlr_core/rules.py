"""Rules as people read them: ``IF 0.12 <= x3 <= 0.40 AND ... THEN {a, c}``.

Bounds are shown in the data's original units; wildcards are left out; a bound at the edge of the
training range is dropped (values beyond it are clipped at match time), so it reads ``x3 <= 0.40``.
A feature that only takes the values 0 and 1 (a word present or absent) reads ``word = 1``,
``word = 0``, or ``word = 0 or 1``: what the interval accepts of the values it can take. A
nominal feature reads ``colour ∈ {red, ochre}``: the categories its set allows, each as
`category_text` writes it.
"""

import re

import numpy as np
import pandas as pd


def labelset_text(bits, label_names) -> str:
    """``{a, c}`` for the labels whose bit is set (``{}`` for the empty labelset)."""
    return "{" + ", ".join(name for bit, name in zip(bits, label_names, strict=True) if bit) + "}"


def binary_features(X) -> np.ndarray:
    """Which columns of ``X`` take no value but 0 and 1, missing values (NaN) aside (``False``
    for an empty ``X`` and for a column with no value known)."""
    X = np.asarray(X, dtype=float)
    if X.shape[0] == 0:
        return np.zeros(X.shape[1], dtype=bool)
    known = ~np.isnan(X)
    return ((X == 0.0) | (X == 1.0) | ~known).all(axis=0) & known.any(axis=0)


def _binary_term(name: str, low: float, high: float) -> str | None:
    """``name = 1`` / ``= 0`` / ``= 0 or 1`` for an interval on a 0/1 feature, or None when it
    accepts neither value (then the interval itself is printed)."""
    values = [v for v in (0, 1) if low <= v <= high]
    if not values:
        return None
    return f"{name} = {' or '.join(map(str, values))}"


_WORDS = re.compile(r"\w+(?:[ ./-]\w+)*")  # "red", "New York", "x-ray", "3.5", "a/b"


def category_text(value) -> str:
    """A category as texts show it: words, a number or a boolean as they print (``red``,
    ``New York``, ``3``); any other text quoted, its quotes, backslashes and unprintable
    characters escaped (``"re'd\\n; --"``): a category is data, and one holding a newline, a
    quote, a comma, ``=`` or markup then cannot break a line, a set or a cell, nor pass for
    code. Where text becomes HTML, it is escaped there as well."""
    if not isinstance(value, str) or _WORDS.fullmatch(value):
        return str(value)
    return repr(value)


def set_text(allowed, categories) -> str:
    """``{red, ochre}``: the categories whose codes the bitmask ``allowed`` holds."""
    return "{" + ", ".join(category_text(v) for code, v in enumerate(categories)
                           if int(allowed) >> code & 1) + "}"


def condition_terms(lower, upper, scaled_lower, scaled_upper, feature_names,
                    binary=None, sets=None, categories=None, row=None) -> tuple[str, ...]:
    """A rule's conditions, one text per feature it specifies (none when all are wildcards).
    ``binary[j]``: feature ``j`` takes only the values 0 and 1 (see `binary_features`);
    ``sets[j]``: the rule's set of codes on the nominal feature ``j`` (``categories[j]``, the
    feature's category list; ``row``: one row's values, which a nominal test then names)."""
    terms = []
    for j in np.flatnonzero(~np.isnan(lower)):
        name = feature_names[j]
        if categories is not None and categories[j] is not None:
            value = "" if row is None else f" = {_value_text(row[j])}"
            allowed = "{...}" if sets is None else set_text(sets[j], categories[j])
            terms.append(f"{name}{value} ∈ {allowed}")  # {...}: a set not recorded
            continue
        if binary is not None and binary[j]:
            term = _binary_term(name, lower[j], upper[j])
            if term is not None:
                terms.append(term)
                continue
        low_open, high_open = scaled_lower[j] <= 0.0, scaled_upper[j] >= 1.0
        if low_open:
            terms.append(f"{name} <= {upper[j]:.4g}")
        elif high_open:
            terms.append(f"{name} >= {lower[j]:.4g}")
        else:
            terms.append(f"{lower[j]:.4g} <= {name} <= {upper[j]:.4g}")
    return tuple(terms)


def condition_text(conditions) -> str:
    """The conjunction of a rule's conditions (`condition_terms`; ``TRUE`` when none)."""
    return " AND ".join(conditions) if conditions else "TRUE"


def rule_text(conditions, labelset: str) -> str:
    """``IF a AND b THEN {x}``: a rule's conditions and its labelset (`labelset_text`)."""
    return f"IF {condition_text(conditions)} THEN {labelset}"


def rule_lines(conditions, labelset: str | None = None) -> str:
    """`rule_text` one condition a line (``IF   a`` / ``AND  b`` / ``THEN {x}``), so a long rule
    reads whole; built from the conditions themselves, so a name holding ``AND`` or ``THEN``
    is never split. Without ``labelset``, the conditions only (a scorecard's rule)."""
    lines = [("IF   " if k == 0 else "AND  ") + term
             for k, term in enumerate(conditions or ("TRUE",))]
    return "\n".join(lines if labelset is None else [*lines, f"THEN {labelset}"])


def _value_text(value) -> str:
    """One row's category (`category_text`), or ``missing`` (None or NaN)."""
    missing = value is None or (isinstance(value, float) and np.isnan(value))
    return "missing" if missing else category_text(value)


def rule_conditions(lower, upper, scaled_lower, scaled_upper, feature_names, binary=None,
                    sets=None, categories=None, row=None) -> list[tuple[str, ...]]:
    """Per rule (rows of the bound matrices, NaN = wildcard), its `condition_terms`; ``sets``
    holds one row per rule, ``binary``, ``categories`` and ``row`` are as there."""
    rows = sets if sets is not None else [None] * len(lower)
    return [condition_terms(lo, hi, slo, shi, feature_names, binary, rule_sets, categories, row)
            for lo, hi, slo, shi, rule_sets in zip(lower, upper, scaled_lower, scaled_upper, rows,
                                                   strict=True)]


def rules_frame(pop, conditions, labelsets, generality, label_names, rule_ids) -> pd.DataFrame:
    """The population as a table, one row per macro rule, in slot order, indexed by
    ``rule_ids``: ``rule`` its text, ``conditions`` the parts of it (`rule_conditions`) that
    `rule_lines` lays out one a line."""
    named = [labelset_text(bits, label_names) for bits in labelsets]
    return pd.DataFrame(
        {
            "rule": [rule_text(c, labels) for c, labels in zip(conditions, named, strict=True)],
            "labelset": named,
            "fitness": pop.fit,
            "accuracy": pop.acc,
            "numerosity": pop.num,
            "experience": pop.exp,
            "generality": generality,
            "n_specified": pop.nspec,
            "correct_set_size": pop.cs,
            "last_ga": pop.ts,
            "birth": pop.birth,
            "conditions": conditions,
        },
        index=pd.Index(rule_ids, name="rule_id"),
    )
