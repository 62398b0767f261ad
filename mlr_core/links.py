"""How a label's total (its baseline plus the weights of the rules matching the row) becomes
its score in [0, 1]: clipped (the ridge fit's totals estimate probabilities directly), or put
through the logistic function (totals that are log-odds, ``calibration.calibrate``).

Each link says it in words and writes itself in numpy, plain Python and SQL, so that `predict`,
the exports and the scorecard apply the same function. The logistic is ``1 / (1 + exp(-t))``
with ``t`` held above -700 (``exp(700)`` is near the largest power a double holds), the one
formula in all three, and numpy's side calls Python's ``math.exp``: numpy's own ``exp`` differs
from it in the last bit on about one value in twenty, and the Python export's scores are
``predict_proba``'s to the bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

FLOOR = -700.0
"""Totals below this are read as this: exp(-t) must stay finite."""

_exp = np.frompyfunc(math.exp, 1, 1)


@dataclass(frozen=True)
class Link:
    """One link: its ``name`` (saved with the weights), what it does in ``words``, ``apply``
    (numpy) and its text in plain Python and SQL, ``{t}`` standing for the total, with the
    modules the Python text needs."""

    name: str
    words: str
    apply: Callable[[np.ndarray], np.ndarray]
    python_text: str
    sql_text: str
    python_imports: tuple[str, ...] = ()

    def python(self, total: str) -> str:
        return self.python_text.format(t=total)

    def sql(self, total: str) -> str:
        return self.sql_text.format(t=total)


Clip = Link(
    "clip", "clipped to [0, 1]", lambda total: np.clip(total, 0.0, 1.0),
    "min(max({t}, 0.0), 1.0)",
    "CASE WHEN {t} < 0.0e0 THEN 0.0e0 WHEN {t} > 1.0e0 THEN 1.0e0 ELSE {t} END")

Logistic = Link(
    "logistic", "put through the logistic function 1 / (1 + exp(-total))",
    lambda total: 1.0 / (1.0 + np.asarray(_exp(-np.maximum(total, FLOOR)), dtype=np.float64)),
    f"1.0 / (1.0 + math.exp(-max({{t}}, {FLOOR!r})))",
    f"1.0e0 / (1.0e0 + EXP(-(CASE WHEN {{t}} < {FLOOR!r}e0 THEN {FLOOR!r}e0 ELSE {{t}} END)))",
    python_imports=("math",))

LINKS = {link.name: link for link in (Clip, Logistic)}
