"""Rules as people read them: ``IF 0.12 <= x3 <= 0.40 AND ... THEN {a, c}``.

Bounds are shown in the data's original units; wildcards are left out; a bound at the edge of the
training range is dropped (values beyond it are clipped at match time), so it reads ``x3 <= 0.40``.
"""

import numpy as np
import pandas as pd


def labelset_text(bits, label_names) -> str:
    """``{a, c}`` for the labels whose bit is set (``{}`` for the empty labelset)."""
    return "{" + ", ".join(name for bit, name in zip(bits, label_names, strict=True) if bit) + "}"


def condition_text(lower, upper, scaled_lower, scaled_upper, feature_names) -> str:
    """The conjunction of a rule's specified features (``TRUE`` when all are wildcards)."""
    terms = []
    for j in np.flatnonzero(~np.isnan(lower)):
        name = feature_names[j]
        low_open, high_open = scaled_lower[j] <= 0.0, scaled_upper[j] >= 1.0
        if low_open:
            terms.append(f"{name} <= {upper[j]:.4g}")
        elif high_open:
            terms.append(f"{name} >= {lower[j]:.4g}")
        else:
            terms.append(f"{lower[j]:.4g} <= {name} <= {upper[j]:.4g}")
    return " AND ".join(terms) if terms else "TRUE"


def rule_texts(lower, upper, scaled_lower, scaled_upper, labelsets, feature_names, label_names):
    """One readable line per rule (rows of the bound matrices, NaN = wildcard)."""
    return [
        f"IF {condition_text(lo, hi, slo, shi, feature_names)} "
        f"THEN {labelset_text(bits, label_names)}"
        for lo, hi, slo, shi, bits in zip(
            lower, upper, scaled_lower, scaled_upper, labelsets, strict=True
        )
    ]


def rules_frame(pop, texts, labelsets, generality, label_names) -> pd.DataFrame:
    """The population as a table, one row per macro rule, in slot order."""
    return pd.DataFrame(
        {
            "rule": texts,
            "labelset": [labelset_text(bits, label_names) for bits in labelsets],
            "fitness": pop.fit,
            "accuracy": pop.acc,
            "numerosity": pop.num,
            "experience": pop.exp,
            "generality": generality,
            "n_specified": pop.nspec,
            "correct_set_size": pop.cs,
            "last_ga": pop.ts,
            "birth": pop.birth,
        }
    ).rename_axis("rule_id")
