"""Missing feature values: what a rule's test does with one, and how a benchmark makes them.

A missing value is NaN, from a NumPy array, a DataFrame, an ARFF ``?`` or an empty CSV cell. It
reaches the rules' [0, 1] axis as NaN (`Scaling` leaves it there, its range and knots come from
the known values), and the engine reads it so:

- **a test on a missing value fails**: a rule that tests a feature matches only rows where its
  value is known and within the interval; a rule that does not test it is not concerned
  (``_engine/matching.py``). Chosen by measurement against "the test is ignored"
  (``docs/missing_values.md``): ignored, a rule ``word = 1`` fired on every row missing the
  word, and on genbase accuracy fell from 0.90 to 0.27;
- covering leaves a feature whose value is missing unspecified (as ExSTraCS does), and mutation
  leaves it as it is: no interval is centred on NaN, and the rule made still matches its row;
- the distance to a rule (the nearest rules' fallback) counts the known features only.

Every later step reads rows through the same kernels (``predict``, explanations, compaction,
the audit, the fitted rule weights), and the exports write the same semantics: the Python
module reads ``None`` (or NaN) as missing, the SQL script ``NULL``; in both it fails every
comparison. +-inf is refused
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
