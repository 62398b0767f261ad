"""The statistics against Demšar (2006), "Statistical comparisons of classifiers over multiple
data sets", JMLR 7: its Table 5 of critical values and its worked example (four C4.5 variants on
14 datasets, average ranks 3.143, 2.000, 2.893, 1.964), plus the CD diagram's groups."""

import math

import numpy as np
import pandas as pd
import pytest

from mlr_core.evaluation.cd_diagram import cd_figure, cliques
from mlr_core.evaluation.statistics import (
    bonferroni_dunn_cd,
    friedman_from_average_ranks,
    friedman_test,
    nemenyi_cd,
)

# Demšar's Table 5: q_0.05 for k = 2..10, (a) Nemenyi, (b) Bonferroni-Dunn
NEMENYI_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
# (Demšar prints 2.724 for k = 9, which fits no formula: z(1 - 0.05/16) = 2.734, and every other
# entry is z(1 - 0.05/(2(k-1))) to the third decimal; the table here has 2.734)
BONFERRONI_DUNN_Q05 = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773]
DEMSAR_RANKS = [3.143, 2.000, 2.893, 1.964]  # C4.5, C4.5+m, C4.5+cf, C4.5+m+cf


def _q(cd, k, n=6):
    return cd / math.sqrt(k * (k + 1) / (6 * n))


@pytest.mark.parametrize("k", range(2, 11))
def test_critical_values_match_demsar_table_5(k):
    assert _q(nemenyi_cd(k, 6), k) == pytest.approx(NEMENYI_Q05[k - 2], abs=1.5e-3)
    assert _q(bonferroni_dunn_cd(k, 6), k) == pytest.approx(BONFERRONI_DUNN_Q05[k - 2], abs=1e-3)


def test_demsar_worked_example():
    result = friedman_from_average_ranks(DEMSAR_RANKS, n_datasets=14)
    assert result.chi2 == pytest.approx(9.28, abs=0.01)
    assert result.ff == pytest.approx(3.69, abs=0.01)
    assert result.ff_critical == pytest.approx(2.85, abs=0.01)  # F(3, 39) at 0.05
    assert result.ff > result.ff_critical  # the null hypothesis is rejected
    assert nemenyi_cd(4, 14) == pytest.approx(1.25, abs=0.005)
    # Bonferroni-Dunn with C4.5 as the control: q_0.05 = 2.394, q_0.10 = 2.128
    assert bonferroni_dunn_cd(4, 14) == pytest.approx(2.394 * math.sqrt(20 / 84), abs=1e-3)
    assert bonferroni_dunn_cd(4, 14, alpha=0.10) == pytest.approx(2.128 * math.sqrt(20 / 84),
                                                                  abs=1e-3)


def test_friedman_from_average_ranks_agrees_with_scipy_without_ties():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.random((5, 8)), index=list("ABCDE"))
    from mlr_core.evaluation.statistics import rank_table

    avg = rank_table(table, lower_is_better=True).avg_rank
    from_ranks = friedman_from_average_ranks(avg, n_datasets=8)
    direct = friedman_test(table)
    assert from_ranks.chi2 == pytest.approx(direct.chi2)
    assert from_ranks.ff == pytest.approx(direct.ff)
    assert from_ranks.chi2_pvalue == pytest.approx(direct.chi2_pvalue)
    with pytest.raises(ValueError, match="at least two"):
        friedman_from_average_ranks([1.0], 5)


def test_cliques_join_learners_within_the_cd():
    ranks = pd.Series({"a": 1.0, "b": 1.5, "c": 2.4, "d": 4.0, "e": 4.2})
    groups = cliques(ranks, cd=1.5)
    assert groups == [["a", "b", "c"], ["d", "e"]]
    assert cliques(ranks, cd=1.7) == [["a", "b", "c"], ["c", "d"], ["d", "e"]]
    assert cliques(ranks, cd=0.1) == []


def test_cd_figure_draws_every_learner_and_the_cd():
    table = pd.DataFrame({"d1": [0.1, 0.2, 0.3], "d2": [0.2, 0.1, 0.3], "d3": [0.1, 0.3, 0.2]},
                         index=["A", "B", "C"])
    fig = cd_figure(table, lower_is_better=True, title="hl")
    texts = [a.text for a in fig.layout.annotations]
    assert any(t.startswith("A (1.33)") for t in texts)
    assert any(t.startswith("C (2.67)") for t in texts)
    assert f"CD = {nemenyi_cd(3, 3):.2f} (nemenyi)" in texts
    bd = cd_figure(table, lower_is_better=True, test="bonferroni-dunn")
    assert f"CD = {bonferroni_dunn_cd(3, 3):.2f} (bonferroni-dunn)" in [
        a.text for a in bd.layout.annotations]
