"""Missing feature values: how a rule's test reads one, and how a benchmark makes them.

A missing value is NaN, from a NumPy array, a DataFrame, an ARFF ``?`` or an empty CSV cell (or
a NaN a sparse row stores, under ``"typical"``: its absent values are 0s). The estimator's
``missing`` parameter (``mlr_core/params.py``) says how every step reads it:

- ``"typical"`` (the default): **a missing value reads as its feature's typical training
  value**: a 0/1 feature's more frequent value, a nominal feature's most frequent category, any
  other feature's mean of its known values. ``fit`` learns these fills with the ranges and knots
  (`Scaling.fills`, ``mlr_core/scaling.py``: their one owner, saved in the model file and
  checked on load), and `Scaling.transform` writes them in before a row reaches the rules'
  axes, so every path that scales rows reads them alike (``predict``, explanations, compaction,
  the audit, the fitted rule weights, a `TrainingSession`, the dashboard). A feature with no
  known training value keeps NaN as its fill: it stays missing, and no rule tests it. Chosen
  by measurement (``docs/missing_values.md``): with 20% of cells missing at random, folds 0-2
  of the eight shared datasets on the rank axis, it was first on mean accuracy and Hamming loss
  against ``"fail"`` (narrowly) and against mean imputation; it keeps a 0/1 word 0/1 (and
  its one-condition rule ``word = 1``) where mean imputation makes it a fraction.
- ``"fail"``: **a test on a missing value fails**: a rule that tests a feature matches only rows
  where its value is known and within the interval; a rule that does not test it is not
  concerned (``_engine/matching.py``). Measured against "the test is ignored": ignored, a rule
  ``word = 1`` fired on every row missing the word, and on genbase accuracy fell from 0.90 to
  0.27. Model files written before the parameter existed load with it.

Under either, covering leaves a feature whose value is missing (NaN on its axis) unspecified (as
ExSTraCS does), mutation leaves it as it is (no interval is centred on NaN, and the rule made
still matches its row), and the distance to a rule (the nearest rules' fallback) counts the known
features only. The exports write the same semantics: the Python module reads ``None`` (or NaN)
as the feature's fill (``FILLS``) or as failing every test, the SQL script ``NULL`` through
``COALESCE(x, fill)`` or as failing. +-inf is refused
(`mlr_core.validation.check_no_infinity`): it is no measurement a rule could bound.
"""

from __future__ import annotations

import numpy as np


def with_missing(X: np.ndarray, share: float, seed: int) -> np.ndarray:
    """A copy of ``X`` with ``share`` of its cells, drawn uniformly at random (seeded), made
    NaN: missing completely at random, as the benchmark (``benchmarks/missing_values.py``)
    and the tests make them."""
    out = np.array(X, dtype=np.float64)
    out[np.random.default_rng(seed).random(out.shape) < share] = np.nan
    return out
