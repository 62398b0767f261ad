"""How a label's total (its baseline plus the weights of the rules matching the row) becomes
its score in [0, 1]: clipped (the ridge fit's totals estimate probabilities directly), or put
through the logistic function (totals that are log-odds, `rule_weights.calibrate`).

Each link says it in words and writes itself in numpy, plain Python and SQL, so that `predict`,
the exports and the scorecard apply the same function. The logistic is ``1 / (1 + exp(-t))``
with ``t`` held above -700 (``exp(700)`` is near the largest power a double holds), the one
formula in all three, and numpy's side calls Python's ``math.exp``: numpy's own ``exp`` differs
from it in the last bit on about one value in twenty, and the Python export's scores are
``predict_proba``'s to the bit.
"""

from __future__ import annotations

import math

import numpy as np

FLOOR = -700.0
"""Totals below this are read as this: exp(-t) must stay finite."""


class Clip:
    name = "clip"
    words = "clipped to [0, 1]"

    @staticmethod
    def apply(total: np.ndarray) -> np.ndarray:
        return np.clip(total, 0.0, 1.0)

    @staticmethod
    def python(total: str) -> str:
        return f"min(max({total}, 0.0), 1.0)"

    @staticmethod
    def sql(total: str) -> str:
        return (f"CASE WHEN {total} < 0.0e0 THEN 0.0e0 WHEN {total} > 1.0e0 THEN 1.0e0 "
                f"ELSE {total} END")


class Logistic:
    name = "logistic"
    words = "put through the logistic function 1 / (1 + exp(-total))"

    @staticmethod
    def apply(total: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.asarray(_exp(-np.maximum(total, FLOOR)), dtype=np.float64))

    @staticmethod
    def python(total: str) -> str:
        return f"1.0 / (1.0 + math.exp(-max({total}, {FLOOR!r})))"

    @staticmethod
    def sql(total: str) -> str:
        return (f"1.0e0 / (1.0e0 + EXP(-(CASE WHEN {total} < {FLOOR!r}e0 THEN {FLOOR!r}e0 "
                f"ELSE {total} END)))")


_exp = np.frompyfunc(math.exp, 1, 1)

LINKS = {link.name: link for link in (Clip, Logistic)}
