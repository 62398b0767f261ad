"""The pure figure builders, checked through ``fig.to_dict()`` on hand-made data."""

import math

import numpy as np
import pandas as pd
import pytest
from plotly_spec import values

from dashboard import compare_figures, figures, scorecard_figures, tables
from dashboard.curves import MEASURES
from dashboard.plot_axes import PlotAxis

NAMES = ("{a}", "{b}", "{a, b}", "{}")
UNIT_AXES = (PlotAxis("linear", (0.0, 1.0)),) * 2


def _rects(n, seed=0):
    rng = np.random.default_rng(seed)
    x0, y0 = rng.uniform(0, 0.5, n), rng.uniform(0, 0.5, n)
    return pd.DataFrame({
        "x0": x0, "x1": x0 + 0.3, "y0": y0, "y1": y0 + 0.3,
        "fitness": rng.uniform(0, 1, n), "numerosity": rng.integers(1, 20, n),
        "labelset_id": rng.choice([0, 1, 2, 3], n),
    })


def _points(n, seed=1):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "x": rng.uniform(0, 1, n), "y": rng.uniform(0, 1, n),
        "labelset_id": rng.choice([0, 1, 2], n), "index": np.arange(n),
    })


def _population(rects, points, color_by="fitness", palette=None):
    return figures.population_figure(
        rects, points, feature_names=("petal length", "petal width"),
        axes=UNIT_AXES, color_by=color_by,
        palette=palette if palette is not None else {0: "#1F77B4", 1: "#FF7F0E"},
        labelset_names=NAMES,
        title="Population",
    ).to_dict()


def test_rectangle_path_closes_each_rectangle_and_separates_with_nan():
    rects = pd.DataFrame({"x0": [0.0, 2.0], "x1": [1.0, 3.0], "y0": [0.0, 0.0], "y1": [1.0, 2.0]})
    xs, ys = figures.rectangle_path(rects)
    assert xs.shape == ys.shape == (12,)
    assert list(xs[:5]) == [0, 1, 1, 0, 0] and math.isnan(xs[5])
    assert list(ys[6:11]) == [0, 0, 2, 2, 0] and math.isnan(ys[11])


def test_population_draws_every_rectangle_once_in_filled_traces():
    rects = _rects(50)
    fig = _population(rects, _points(30))
    fills = [t for t in fig["data"] if t.get("fill") == "toself"]
    # each rectangle contributes 6 vertices (5 + NaN separator) to exactly one trace
    assert sum(len(values(t["x"])) for t in fills) == 6 * len(rects)
    assert all(t["hoverinfo"] == "skip" and not t["showlegend"] for t in fills)
    # one solid legend swatch per fitness bin in use; fills toggle with it (same legendgroup)
    swatches = [t for t in fig["data"] if t["mode"] == "markers" and t["legend"] == "legend"]
    assert {t["name"] for t in swatches} == {t["legendgroup"] for t in fills}
    assert {t["name"] for t in swatches} <= {
        f"{a:.1f}–{b:.1f}"
        for a, b in zip(figures.FITNESS_EDGES[:-1], figures.FITNESS_EDGES[1:], strict=True)
    }


def test_population_axes_legends_and_points():
    fig = _population(_rects(10), _points(40))
    layout = fig["layout"]
    assert layout["xaxis"]["title"]["text"] == "petal length"
    assert layout["yaxis"]["title"]["text"] == "petal width"
    assert layout["xaxis"]["range"] == [0.0, 1.0]
    assert layout["title"]["text"] == "Population"
    assert "fitness" in layout["legend"]["title"]["text"]
    key = layout["annotations"][0]
    assert "1 / 2–4 / 5–9 / ≥ 10" in key["text"]
    # under the plot from its left edge, below the x axis title and within the bottom margin:
    # beside the plot it was cut wherever the side legend was narrower than the key
    assert (key["x"], key["xanchor"], key["y"], key["yanchor"]) == (0.0, "left", 0.0, "top")
    assert -key["yshift"] + 2 * 17 <= layout["margin"]["b"]  # two lines of 12 px text
    markers = [t for t in fig["data"] if t["mode"] == "markers" and "customdata" in t]
    assert sum(len(values(t["customdata"])) for t in markers) == 40
    # labelsets outside the palette are grouped as "other"
    names = {t["name"] for t in markers}
    assert names == {"{a}", "{b}", figures.OTHER_LABELSETS}
    assert all(t["legend"] == "legend2" for t in markers)


def test_population_coloured_by_labelset_shares_the_palette():
    palette = {0: "#1F77B4", 1: "#FF7F0E"}
    fig = _population(_rects(40), _points(5), color_by="labelset", palette=palette)
    fills = [t for t in fig["data"] if t.get("fill") == "toself"]
    assert {t["name"] for t in fills} <= {"{a}", "{b}", figures.OTHER_LABELSETS}
    a_fill = next(t for t in fills if t["name"] == "{a}")
    assert a_fill["fillcolor"].startswith("rgba(31, 119, 180,")
    # one legend: the points carry the labelset entries, rules share their legendgroup
    points = [t for t in fig["data"] if t["mode"] == "markers"]
    assert all(t["legend"] == "legend" and t["legendgroup"] == t["name"] for t in points)
    assert "legend2" not in fig["layout"]


def test_population_opacity_grows_with_numerosity():
    rects = _rects(2)
    rects["fitness"] = 0.9
    rects["numerosity"] = [1, 15]
    fills = [t for t in _population(rects, _points(1))["data"] if t.get("fill") == "toself"]
    alphas = sorted(float(t["fillcolor"].rsplit(",", 1)[1].rstrip(")")) for t in fills)
    assert alphas == [figures.NUMEROSITY_OPACITY[0], figures.NUMEROSITY_OPACITY[-1]]


def test_population_with_no_rules_still_has_axes():
    fig = _population(_rects(0), _points(3))
    assert not [t for t in fig["data"] if t.get("fill") == "toself"]
    assert fig["layout"]["xaxis"]["title"]["text"] == "petal length"


def test_population_traces_do_not_grow_with_the_rules():
    fig = _population(_rects(1000), _points(2417))
    # traces are bounded by colour x opacity bins (+ swatches + point groups), not by rules;
    # its speed is measured by benchmarks/bench_dashboard.py
    assert len(fig["data"]) <= 5 * 4 + 5 + 3


def test_histograms_have_three_titled_panels():
    rules = _rects(30).assign(generality=np.linspace(0, 1, 30))
    figure = figures.population_histograms(rules)
    assert [int(sum(t.y)) for t in figure.data] == [30] * 3  # every rule in some bin
    fig = figure.to_dict()
    assert [t["type"] for t in fig["data"]] == ["bar"] * 3
    titles = [a["text"] for a in fig["layout"]["annotations"]]
    assert titles == ["Fitness", "Numerosity (copies)", "Generality"]
    assert fig["layout"]["yaxis2"]["title"]["text"] == "rules"
    assert "30 distinct rules" in fig["layout"]["title"]["text"]


def test_counts_are_on_whole_number_ticks():
    rules = _rects(40).assign(generality=0.5, numerosity=[1, 2] * 20)
    fig = figures.population_histograms(rules).to_dict()["layout"]
    for axis in ("xaxis2", "yaxis", "yaxis2", "yaxis3"):  # numerosity, and every count
        assert fig[axis]["dtick"] >= 1 and float(fig[axis]["dtick"]).is_integer()
        assert fig[axis]["tickformat"] == ",d"
    assert figures.integer_ticks(3)["dtick"] == 1 and figures.integer_ticks(900)["dtick"] == 200


def test_learning_curves_split_training_and_held_out():
    curves = pd.DataFrame({
        "iteration": [100, 100, 200, 200],
        "split": ["training", "held-out"] * 2,
        "hamming_loss": [0.3, 0.35, 0.2, 0.25], "accuracy": [0.5, 0.4, 0.6, 0.5],
        "f1": [0.55, 0.45, 0.65, 0.55],
    })
    fig = figures.learning_curves(curves, MEASURES).to_dict()
    assert len(fig["data"]) == 6
    held = [t for t in fig["data"] if t["name"] == "held-out"]
    assert [values(t["y"]).tolist() for t in held] == [[0.35, 0.25], [0.4, 0.5], [0.45, 0.55]]
    assert sum(t["showlegend"] for t in fig["data"]) == 2
    assert fig["layout"]["xaxis3"]["title"]["text"] == "iteration"


def test_a_measure_panel_rises_just_above_its_highest_point():
    # ohsumed's Hamming loss (about 0.05) was a flat line at the foot of a [0, 1] panel
    curves = pd.DataFrame({
        "iteration": [100, 100, 200, 200], "split": ["training", "held-out"] * 2,
        "hamming_loss": [0.07, 0.08, 0.05, 0.06], "accuracy": [0.3, 0.2, 0.4, 0.35],
        "f1": [0.7, 0.6, 0.9, 0.8],
    })
    layout = figures.learning_curves(curves, MEASURES).to_dict()["layout"]
    assert [layout[axis]["range"] for axis in ("yaxis", "yaxis2", "yaxis3")] == [
        [0.0, 0.1], [0.0, 0.5], [0.0, 1.0]]
    runs = {"earlier": curves, "this": curves.assign(hamming_loss=[0.3, 0.2, 0.1, np.nan])}
    layout = compare_figures.runs_figure(runs, MEASURES, "runs").to_dict()["layout"]
    assert layout["yaxis"]["range"] == [0.0, 0.25]  # both runs' held-out points, NaN left out
    empty = pd.DataFrame(columns=["iteration", "split", *MEASURES])
    assert figures.learning_curves(empty, MEASURES).to_dict()["layout"]["yaxis"]["range"] == [
        0.0, 1.0]


def test_learning_curves_empty_says_what_to_do():
    empty = pd.DataFrame(columns=["iteration", "split", *MEASURES])
    fig = figures.learning_curves(empty, MEASURES).to_dict()
    assert "Start" in fig["layout"]["annotations"][-1]["text"]


def test_population_curves_plot_history_columns():
    history = pd.DataFrame({
        "iteration": [0, 50, 100], "macro_size": [0, 40, 60], "micro_size": [0, 50, 100],
        "mean_fitness": [0, 0.5, 0.7], "mean_generality": [0, 0.3, 0.4], "coverage": [0, 0.8, 1],
    })
    fig = figures.population_curves(history).to_dict()
    assert len(fig["data"]) == 5
    assert fig["layout"]["yaxis"]["title"]["text"] == "rules"
    # both near 1 on wide data: generality is drawn over a broad dotted coverage line
    lines = {trace["name"]: (i, trace["line"]) for i, trace in enumerate(fig["data"])}
    coverage, generality = lines["coverage of training data"], lines["mean generality"]
    assert coverage[0] < generality[0]
    assert coverage[1]["dash"] == "dot" and coverage[1]["width"] > generality[1]["width"]
    empty = figures.population_curves(pd.DataFrame()).to_dict()
    assert len(empty["data"]) == 5 and empty["layout"]["xaxis"]["title"]["text"] == "iteration"


def test_label_scores_marks_outcomes_and_threshold():
    fig = figures.label_scores(
        ["a", "b", "c", "d"], np.array([0.9, 0.6, 0.2, 0.1]), 0.5,
        predicted=np.array([1, 1, 0, 0]), true=np.array([1, 0, 1, 0]),
    ).to_dict()
    by_name = {t["name"]: values(t["x"]).tolist() for t in fig["data"]}
    assert by_name["predicted, true"] == ["a"]
    assert by_name["predicted, not true"] == ["b"]
    assert by_name["missed (true, not predicted)"] == ["c"]
    assert by_name["not predicted, not true"] == ["d"]
    line = fig["layout"]["shapes"][0]
    assert line["y0"] == line["y1"] == 0.5


def test_heatmap_weights_specified_features_by_numerosity():
    specified = np.array([[True, False], [True, True]])
    fig = figures.rule_feature_heatmap(specified, np.array([3, 1]), ["f0", "f1"], [7, 9]).to_dict()
    heat = fig["data"][0]
    assert values(heat["z"]).tolist() == [[3, 0], [1, 1]]
    assert list(heat["y"]) == ["rule 7", "rule 9"]
    assert list(heat["x"]) == ["f0", "f1"]


def test_label_frequencies_are_fractions_of_n():
    fig = figures.label_frequencies(["a", "b"], np.array([5, 15]), 20).to_dict()
    assert values(fig["data"][0]["y"]).tolist() == [0.25, 0.75]
    assert fig["layout"]["yaxis"]["tickformat"] == ".0%"


def test_label_frequencies_title_and_height():
    fig = figures.label_frequencies(["a"], np.array([1]), 4, title="Preview", height=200)
    assert fig.layout.title.text == "Preview" and fig.layout.height == 200


def test_population_rings_the_selected_instance_in_the_legend():
    points = _points(20)
    fig = figures.population_figure(
        _rects(5), points, feature_names=("f", "g"), axes=UNIT_AXES,
        color_by="fitness", palette={0: "#1F77B4"}, labelset_names=NAMES, title="t",
        selected=points.iloc[[7]],
    ).to_dict()
    ring = fig["data"][-1]
    assert ring["name"] == "selected: instance #7"
    assert ring["marker"]["symbol"] == "circle-open"
    assert [ring["x"][0], ring["y"][0]] == [points["x"][7], points["y"][7]]
    assert ring["legend"] == "legend2"  # with the instances, not the fitness bins
    assert ring["legendrank"] > max(t.get("legendrank", 1000) for t in fig["data"][:-1])
    assert "customdata" not in ring  # a click on the ring selects nothing new
    plain = _population(_rects(5), points)
    assert not any(t["name"].startswith("selected") for t in plain["data"])


def test_least_fit_rules_stay_visible_on_white():
    from plotly.colors import hex_to_rgb, unlabel_rgb

    for color in figures.FITNESS_COLORS:
        rgb = unlabel_rgb(color) if color.startswith("rgb") else hex_to_rgb(color)
        luminance = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255
        assert luminance < 0.7, color  # Viridis's yellow end (0.9) vanished on white


def test_other_points_lie_under_the_coloured_ones_and_are_listed_last():
    fig = _population(_rects(3), _points(30))  # palette: 2 of the 4 labelsets
    points = [t for t in fig["data"] if "customdata" in t]
    assert points[0]["name"] == figures.OTHER_LABELSETS  # drawn first: underneath
    ranks = {t["name"]: t["legendrank"] for t in points}
    assert ranks[figures.OTHER_LABELSETS] > max(ranks["{a}"], ranks["{b}"])
    assert fig["layout"]["legend2"]["title"]["text"] == (
        "Instances<br>(labelset: the 2 commonest of 4)")
    assert {t["marker"]["size"] for t in points} == {7}


def test_many_points_get_smaller_and_translucent():
    fig = _population(_rects(3), _points(figures.DENSE_POINTS + 1))
    points = [t for t in fig["data"] if "customdata" in t]
    assert {t["marker"]["size"] for t in points} == {5}
    assert {t["opacity"] for t in points} == {0.75}


def test_rules_covering_most_of_the_plot_are_filled_faintly():
    rects = pd.DataFrame({"x0": [0.0, 0.4], "x1": [1.0, 0.6], "y0": [0.0, 0.4],
                          "y1": [0.9, 0.6], "fitness": [0.9, 0.9], "numerosity": [1, 1],
                          "labelset_id": [0, 0]})
    fig = _population(rects, _points(5))
    fills = sorted(float(t["fillcolor"].rsplit(",", 1)[1].rstrip(") "))
                   for t in fig["data"] if t.get("fill") == "toself")
    low = figures.NUMEROSITY_OPACITY[0]
    assert fills == [pytest.approx(low * figures.LARGE_FILL), pytest.approx(low)]


def test_names_that_read_as_numbers_stay_categories():
    """ohsumed's words "001" and "10": plotly read the Rules page heatmap's axis as numbers
    and drew 14 of its 40 columns. Every axis of names is a category axis."""
    words = ["001", "10", "2", "1e3"]
    heat = figures.rule_feature_heatmap(np.ones((2, 4), dtype=bool), np.array([1, 2]), words,
                                        [0, 1]).to_dict()["layout"]
    assert heat["xaxis"]["type"] == heat["yaxis"]["type"] == "category"
    for names, axis in ((words, "xaxis"),
                        ([f"{i:03d}" for i in range(figures.MANY_BARS + 1)], "yaxis")):
        n = len(names)
        scores = figures.label_scores(names, np.linspace(0, 1, n), 0.5, np.ones(n), np.ones(n))
        frequencies = figures.label_frequencies(names, np.arange(n), n)
        for fig in (scores, frequencies):
            assert fig.to_dict()["layout"][axis]["type"] == "category"
    table = pd.DataFrame({"condition": ["001 = 1", "10 = 1"], "support": [3, 4],
                          "coverage": [0.1, 0.2], "001": [0.1, -0.2], "10": [0.3, 0.0],
                          "conditions": [("001 = 1",), ("10 = 1",)]}, index=[5, 9])
    card = scorecard_figures.scorecard_heatmap(table, pd.Series([0.2, 0.1], index=["001", "10"]))
    layout = card.to_dict()["layout"]
    assert layout["xaxis"]["type"] == layout["yaxis"]["type"] == "category"


def scorecard(labels, rule_words):
    """A scorecard heatmap of 5 rules over ``labels``, each rule named by ``rule_words``."""
    conditions = [(f"{rule_words} {i}",) for i in range(5)]
    table = pd.DataFrame(0.01, index=range(5), columns=labels).assign(
        support=3, coverage=0.1, conditions=conditions)
    return scorecard_figures.scorecard_heatmap(table, pd.Series(0.5, index=labels)).to_dict()


@pytest.mark.parametrize("n_labels, rule_words", [
    (6, "Att1 >= 0.5"), (14, "-0.08463 <= Att13 <= 0.08653"), (14, "Att1 >= 0.5"),
    (23, "pregnancy = 1"), (101, "-0.08463 <= Att13 <= 0.08653")])
def test_the_scorecards_label_names_never_run_into_one_another(n_labels, rule_words):
    """At the narrowest page the app is laid out for, the names above the heatmap's cells are
    a line apart: level only where the widest fits its cell, else slanted so that neighbouring
    baselines are `LINE_PX` apart, and with more labels than that leaves room, every k-th one
    (yeast's 14 names of 6-7 characters beside its long rule names used to be drawn level in
    cells 27 px wide, each running into the next). The cells keep every label."""
    labels = [f"Class{j + 1}" for j in range(n_labels)]
    fig = scorecard(labels, rule_words)
    layout, (trace,) = fig["layout"], fig["data"]
    assert list(trace["x"]) == labels
    axis, margin = layout["xaxis"], layout["margin"]
    named = list(axis["tickvals"])
    every = labels.index(named[1]) if len(named) > 1 else 1
    assert named == labels[::every]
    step = (tables.PAGE_PX - margin["l"] - margin["r"]) / n_labels * every  # between names
    rise = math.sin(math.radians(-axis["tickangle"]))
    if axis["tickangle"] == 0:
        assert figures.text_px(named) < step
    else:
        assert step * rise >= scorecard_figures.LINE_PX
        assert margin["t"] >= 110 + figures.text_px(named) * rise  # room above for the names
    if n_labels == 14 and "Att13" in rule_words:
        assert axis["tickangle"] != 0  # the yeast case


def test_the_side_legend_sits_in_a_margin_as_wide_as_its_longest_entry():
    """Plotly would widen a margin too narrow for the legend and draw the chart twice."""
    long_name = "{" + "x" * 60 + "}"  # shortened to figures.NAME_CHARS in the legend
    names = [*NAMES[:3], long_name]
    margins = {}
    for name_list in (NAMES, names):
        fig = figures.population_figure(
            _rects(3), _points(30), feature_names=("a", "b"), axes=UNIT_AXES,
            color_by="labelset", palette=figures.labelset_palette(range(4)),
            labelset_names=name_list, title="Population").to_dict()
        margins[name_list is names] = fig["layout"]["margin"]["r"]
    shown = figures.short(long_name)
    assert margins[True] >= 40 + figures.text_px([shown]) > margins[False] > 0


#: CAL500's feature names: one family that differs only in the middle.
MIDDLE_FAMILY = [f"{a}_Acc1000_{b}_Mem40_{c}_Power_powerFFT_WinHamming_HopSize512_WinSize512_"
                 "AudioCh0" for a in ("Mean", "Std") for b in ("Mean", "Std")
                 for c in ("Centroid", "Rolloff", *(f"MFCC{k}" for k in range(13)))]


@pytest.mark.parametrize("names", [MIDDLE_FAMILY, MIDDLE_FAMILY[:40],
                                   [f"Mean_Acc1298_Mean_Mem40_MFCC_{k}" for k in range(13)],
                                   [f"NOT-Emotion-{w}-Lighthearted" for w in ("Carefree", "Sad")]
                                   + ["Emotion-Carefree-Lighthearted"]])
def test_names_cut_for_an_axis_stay_apart(names):
    """`short` made CAL500's 40 heatmap columns two names ("Mean_…512_AudioCh0"); cut
    together, every name stays its own and no longer than asked."""
    cut = figures.shorts(names, 18)
    assert len(set(cut)) == len(names) and all(len(c) <= 18 for c in cut)
    heat = figures.rule_feature_heatmap(np.ones((2, len(names)), dtype=bool), np.array([1, 2]),
                                        names, [3, 4]).to_dict()
    assert len(set(heat["layout"]["xaxis"]["ticktext"])) == len(names)


def test_names_already_apart_are_cut_as_before():
    names = ["petal length", "a_very_long_name_number_one_of_many", "sepal"]
    assert figures.shorts(names) == [figures.short(n) for n in names]


def test_long_feature_names_fit_the_projections_axis_titles():
    """CAL500's 86-character names ran past both ends of the Population page's plot."""
    x, y = MIDDLE_FAMILY[-6], MIDDLE_FAMILY[-1]  # Std_..._MFCC7_... and Std_..._MFCC12_...
    layout = figures.population_figure(
        _rects(5), _points(5), feature_names=(x, y), axes=UNIT_AXES, color_by="fitness",
        palette={0: "#1F77B4"}, labelset_names=NAMES, title="Population").to_dict()["layout"]
    titles = layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]
    assert titles == ("Std_Acc1000_Std_Mem40_MFCC7_Power_power…",
                      "Std_Acc1000_Std_Mem40_MFCC12_Power_powe…")  # where they differ
    assert all(len(t) <= figures.AXIS_TITLE_CHARS < len(x) for t in titles)


def test_the_fitness_legend_wraps_into_room_above_the_plot():
    """Five fitness bins beside a side legend of long labelsets took three rows in the browser
    and ran over the chart's title, while the top margin had room for one row."""
    rects = _rects(200).assign(fitness=np.tile(np.linspace(0.05, 0.95, 5), 40))
    long_names = tuple(f"{{{'label number ' * 3}{k}}}" for k in range(4))
    wide = figures.population_figure(
        rects, _points(20), feature_names=("x", "y"), axes=UNIT_AXES, color_by="fitness",
        palette={0: "#1F77B4", 1: "#FF7F0E"}, labelset_names=long_names,
        title="Population").to_dict()["layout"]
    right = wide["margin"]["r"]
    bins = figures.legend_rows("Rule fitness:", ["0.0–0.2"] * 5,
                               figures.PROJECTION_PX - figures.LEFT_PX - right)
    taller = figures.LEGEND_ROW_PX * (bins - 1)
    assert bins >= 3 and (wide["margin"]["t"], wide["height"]) == (110 + taller, 600 + taller)
    one = _population(_rects(10).assign(fitness=0.1), _points(5))["layout"]
    assert (one["margin"]["t"], one["height"]) == (110, 600)  # one bin: one row, as before


MARKUP = "price <b>(EUR)</b> & <i>tax</i>"
"""A name plotly would draw as markup: "price (EUR)" in bold, then "tax" in italics."""


def _strings(spec) -> list[str]:
    """Every text in a figure's spec."""
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, dict):
        spec = list(spec.values())
    if isinstance(spec, (list, tuple, np.ndarray)):
        return [text for item in spec for text in _strings(item)]
    return []


def test_names_holding_markup_are_drawn_as_written():
    """Every text a chart draws from a name (ticks, titles, legends, hovers) holds it with <, >
    and & as entities; plotly printed ``price <b>(EUR)</b>`` as a bold ``price (EUR)``."""
    escaped = "price &lt;b&gt;(EUR)&lt;/b&gt; &amp; &lt;i&gt;tax&lt;/i&gt;"
    category = PlotAxis("category", (-0.5, 1.5), categories=(MARKUP, "plain"))
    figs = {
        "population": figures.population_figure(
            _rects(5), _points(5).assign(x_text=MARKUP), feature_names=(MARKUP, "y"),
            axes=(category, UNIT_AXES[1]), color_by="labelset", palette={0: "#1F77B4"},
            labelset_names=(MARKUP, "{b}", "{a, b}", "{}"), title="Population",
            selected=_points(1)),
        "scores": figures.label_scores([MARKUP, "b"], np.array([0.7, 0.1]), 0.5,
                                       np.array([1, 0]), np.array([1, 1])),
        "frequencies": figures.label_frequencies([MARKUP, "b"], np.array([3, 4]), 10),
        "heatmap": figures.rule_feature_heatmap(np.ones((1, 2), dtype=bool), np.array([1]),
                                                [MARKUP, "b"], [0]),
    }
    for name, fig in figs.items():
        spec = fig.to_dict()
        layout = spec["layout"]  # what is drawn, not the category values behind the ticks
        drawn = _strings([{key: value for key, value in layout[axis].items()
                           if key in ("title", "ticktext")}
                          for axis in layout if axis.startswith(("xaxis", "yaxis"))]
                         + [layout.get("title"), layout.get("legend"), layout.get("legend2")]
                         + [{key: value for key, value in trace.items()
                             if key in ("name", "text", "hovertext", "customdata",
                                        "hovertemplate")} for trace in spec["data"]])
        assert not [text for text in drawn if "<b>" in text or "<i>" in text], name
        assert any(escaped in text for text in drawn), name


def test_the_side_legend_takes_no_more_room_than_its_entries_need():
    """Its title goes on two lines: on one, "Instances (labelset: the 8 commonest of 502)"
    was wider than every entry and left CAL500's projection 200 px wide."""
    names = tuple(f"{{label {k}}}" for k in range(502))
    layout = figures.population_figure(
        _rects(5), _points(5), feature_names=("x", "y"), axes=UNIT_AXES, color_by="fitness",
        palette={k: "#1F77B4" for k in range(8)}, labelset_names=names,
        title="Population").to_dict()["layout"]
    title = layout["legend2"]["title"]["text"]
    assert title == "Instances<br>(labelset: the 8 commonest of 502)"
    entries = [*names[:8], figures.OTHER_LABELSETS]
    assert layout["margin"]["r"] == 30 + max(figures.text_px(title.split("<br>")),
                                             40 + figures.text_px(entries))
    assert layout["margin"]["r"] < 30 + figures.text_px([title.replace("<br>", " ")])
