"""The Theory page's figure: ticks that never collide, every mark named in the legend, and the
population measured on the curves' own footing."""

import math

import numpy as np
import pytest

from dashboard import figures, theory_figures
from mlr_core.evaluation import theory


@pytest.mark.parametrize("low, high", [(1, 8), (1, 64), (1, 16_384), (1, 2.0**40),
                                       (1e-6, 0.3), (0.02, 0.9), (3, 5), (1e-12, 1e-3)])
def test_log_ticks_are_few_spread_and_inside(low, high):
    vals, texts = theory_figures.log_ticks(low, high)
    assert 2 <= len(vals) <= theory_figures.MAX_TICKS
    assert all(low * (1 - 1e-9) <= v <= high * (1 + 1e-9) for v in vals)
    ratios = np.diff(np.log10(vals))
    assert (ratios >= math.log10(5 / 3) - 1e-9).all()  # 3 and 5 are the closest pair allowed
    assert len(set(texts)) == len(texts)
    assert all(len(t.replace("<sup>", "").replace("</sup>", "")) <= 8 for t in texts)


def test_tick_text():
    assert theory_figures.tick_text(2000) == "2,000"
    assert theory_figures.tick_text(0.05) == "0.05"
    assert theory_figures.tick_text(1e-6) == "10<sup>-6</sup>"
    assert theory_figures.tick_text(1e6) == "10<sup>6</sup>"


def _figure(measured=0.3, shade_from=4.0):
    x = np.arange(1, 65, dtype=float)
    return theory_figures.theory_figure(
        x, {"E[F_em]": 0.01 / x, "HL upper bound": np.full(len(x), 0.002)}, x_title="DL",
        log_x=True, current_x=27.0, current_name="this dataset (DL = 27)", measured=measured,
        measured_name="measured", shade_from=shade_from, shade_name="shaded", title="vs DL",
    ).to_dict()


def test_theory_figure_names_every_mark_in_the_legend_and_writes_none_over_curves():
    fig = _figure()
    names = [t["name"] for t in fig["data"]]
    assert names == ["E[F_em]", "HL upper bound", "shaded", "this dataset (DL = 27)",
                     "measured"]
    assert not fig["layout"].get("annotations")
    rect = next(s for s in fig["layout"]["shapes"] if s["type"] == "rect")
    assert (rect["x0"], rect["x1"]) == (4.0, 64.0)
    line = fig["data"][3]
    assert list(line["x"]) == [27.0, 27.0]
    legend = fig["layout"]["legend"]  # one entry per line, in the margin under the axis title
    assert legend["orientation"] == "v" and legend["yref"] == "container"
    assert fig["layout"]["margin"]["b"] >= 48 + figures.LEGEND_ROW_PX * len(fig["data"])


def test_theory_figure_axes_have_explicit_ticks_and_show_the_measurement():
    fig = _figure(measured=0.3)
    xaxis, yaxis = fig["layout"]["xaxis"], fig["layout"]["yaxis"]
    assert xaxis["type"] == yaxis["type"] == "log"
    assert list(xaxis["tickvals"]) == [1, 2, 5, 10, 20, 50]
    assert xaxis["range"] == [0.0, pytest.approx(math.log10(64))]
    low, high = yaxis["range"]
    assert low < math.log10(0.01 / 64) and high > math.log10(0.3) + 0.2  # the star is inside
    assert len(yaxis["tickvals"]) == len(yaxis["ticktext"]) >= 2
    unshaded = _figure(measured=None, shade_from=100.0)
    assert [t["name"] for t in unshaded["data"]] == ["E[F_em]", "HL upper bound",
                                                      "this dataset (DL = 27)"]
    assert not unshaded["layout"].get("shapes")


def test_measured_weights_match_share_times_accuracy_by_numerosity():
    share, fitness = theory.measured_fitness([10, 50], [1.0, 0.5], [1, 3], 100)
    assert share == pytest.approx((0.1 * 1 + 0.5 * 3) / 4)
    assert fitness == pytest.approx((0.1 * 1.0 + 0.5 * 0.5 * 3) / 4)
    assert theory.measured_fitness([], [], [], 100) is None


def test_population_specificity():
    assert theory.population_specificity([1, 4], [3, 1], 4, 0.33) == pytest.approx(7 / 16)
    assert theory.population_specificity([], [], 4, 0.33) == pytest.approx(0.67)
    # before any rule, covering keeps at most max_specified of the features it draws
    assert theory.population_specificity([], [], 1002, 0.33, 3) == pytest.approx(3 / 1002)
    assert theory.population_specificity([], [], 4, 0.33, 9) == pytest.approx(0.67)


def test_a_random_rule_reaches_e_f_em_exactly_and_e_f_hl_between_bounds():
    em = theory.random_rule_fitness_range("em", 0.5, 4, 0.5, 3, 5, 1.2)
    assert em[0] == em[1] == pytest.approx(float(theory.expected_fitness_em(0.5, 4, 0.5, 5)))
    low, high = theory.random_rule_fitness_range("hl", 0.5, 4, 0.5, 3, 5, 1.2)
    assert low == pytest.approx(float(theory.hl_fitness_lower_bound(0.5, 4, 0.5, 0.4)))
    assert high == pytest.approx(float(theory.hl_fitness_upper_bound(0.5, 4, 0.5, 3, 5)))
    assert np.isnan(theory.random_rule_fitness_range("hl", 0.5, 4, 0.5, 6, 3, 1.2)[1])
