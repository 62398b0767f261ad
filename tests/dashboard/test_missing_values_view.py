"""The Explain page lists a missing feature value as ``missing`` (``frames.feature_values``)."""

import numpy as np

from dashboard.frames import feature_values


def test_a_missing_value_reads_missing():
    table = feature_values(["a", "b", "c"], np.array([0.5, np.nan, 1234567.0]))
    assert table["feature"].tolist() == ["a", "b", "c"]
    assert table["value"].tolist() == ["0.5", "missing", "1.23457e+06"]
