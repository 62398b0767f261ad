"""The Population page's axes: a nominal feature as its categories with a rule's set as bands,
a heavy-tailed feature on a log or order axis ticked in the data's units (issue 32 item 5,
issue 31 item 6); a row without a value drawn as the model reads it (issue 32: at the fill
under missing="typical", apart under "fail"), the last slot of a category axis named by what it
holds."""

import functools
import re

import numpy as np
import pandas as pd
import pytest
from apptest import shown

from dashboard import figures, frames, plot_axes
from dashboard.bounds import NO_SET, RuleBounds
from mlr_core import MLRClassifier, nominal
from mlr_core._engine import population

COLOURS = ("blue", "green", "ochre", "red", "white")


def _table(n=400, seed=0):
    """A colour (a pandas category, some cells missing), a heavy-tailed amount and a size (some
    cells missing); the labels are planted on a set of colours, on the amount and on the size."""
    rng = np.random.default_rng(seed)
    colour = rng.choice(COLOURS, n).astype(object)
    colour[rng.random(n) < 0.05] = None
    amount = np.exp(rng.normal(3.0, 1.5, n))
    size = rng.uniform(0.0, 1.0, n)
    Y = np.column_stack([np.isin(colour, ["red", "ochre"]), amount > 50, size > 0.5])
    size[rng.random(n) < 0.05] = np.nan
    df = pd.DataFrame({"colour": pd.Categorical(colour, categories=COLOURS), "amount": amount,
                       "size": size})
    return df, Y.astype(np.uint8)


@functools.cache
def fitted_with(missing: str):
    """The table, a model fitted on it as a DataFrame under ``missing``, and its features as
    the engine's codes (what the dashboard's data hold)."""
    df, Y = _table()
    model = MLRClassifier(n_iter=3000, random_state=0, missing=missing).fit(df, Y)
    categories = model.run_.scaling.categories
    return df, model, nominal.encoded(df, categories).to_numpy(float)


@pytest.fixture(scope="module")
def fitted():
    """`fitted_with` the default, ``missing="typical"``."""
    return fitted_with("typical")


def _page(model, X, features, kinds=("auto", "auto")):
    axes = plot_axes.axes_of(X, features, model.run_.scaling, kinds)
    rules = model.rules_frame().assign(labelset_id=0)
    bounds = RuleBounds.of(*model.rule_bounds(), sets=model.rule_sets())
    rects, _, axes = frames.projection(rules, bounds, X, features, axes=axes)
    points = frames.instance_points(X, np.zeros(len(X), dtype=int), features, axes=axes)
    fig = figures.population_figure(
        rects, points, feature_names=("colour", "amount"), axes=axes, color_by="fitness",
        palette={0: "#1F77B4"}, labelset_names=["{a}"], title="t")
    return rects, points, axes, fig.to_dict()


def test_the_engine_and_the_dashboard_name_the_same_empty_set():
    assert NO_SET == population.NO_SET


def test_a_nominal_axis_has_one_slot_per_category_named_by_it():
    """Under ``missing="fail"`` a row without a colour sits in a last slot, *missing*."""
    df, model, X = fitted_with("fail")
    _, points, axes, fig = _page(model, X, (0, 1))
    missing = int(df["colour"].isna().sum())
    assert axes[0].kind == "category" and axes[0].missing == missing > 0
    xaxis = fig["layout"]["xaxis"]
    assert list(xaxis["ticktext"]) == [*COLOURS, "missing"]
    assert list(xaxis["tickvals"]) == list(range(len(COLOURS) + 1))
    # each point sits within the slot of its category (jittered), a missing one in the last
    slot = np.rint(points["x"]).astype(int)
    expected = [COLOURS.index(c) if isinstance(c, str) else len(COLOURS) for c in df["colour"]]
    assert slot.tolist() == expected
    assert (points["x"] != slot).any()  # jittered, not piled on one spot
    assert points["x_text"].tolist() == [c if isinstance(c, str) else "missing"
                                         for c in df["colour"]]
    assert f"{missing} rows without a value (or with a category training never saw) sit in " \
           "the slot *missing*" in axes[0].words("colour")


def test_rows_without_a_value_are_drawn_where_the_model_reads_them(fitted):
    """Under ``missing="typical"`` a row without a colour is drawn in the slot of the colour
    the model reads (its fill), a row without a size at the size it reads, and the caption
    says so; under ``"fail"`` the size's are left out, as the caption says."""
    df, model, X = fitted
    _, points, axes, fig = _page(model, X, (0, 2))
    scaling = model.run_.scaling
    colour, size = scaling.fill_value(0), scaling.fills[2]
    no_colour, no_size = df["colour"].isna().to_numpy(), df["size"].isna().to_numpy()
    assert no_colour.any() and no_size.any() and colour in COLOURS and np.isfinite(size)
    assert list(fig["layout"]["xaxis"]["ticktext"]) == list(COLOURS)  # no slot for them
    slot = np.rint(points["x"]).astype(int)
    assert (slot[no_colour] == COLOURS.index(colour)).all()
    assert (points["x_text"][no_colour] == f"missing (read as {colour})").all()
    assert (points["y"][no_size] == size).all()
    assert (points["y_text"][no_size] == f"missing (read as {size:g})").all()
    assert np.array_equal(points["y"][~no_size], df["size"][~no_size])
    assert axes[0].words("colour") == (
        f"**colour**: one slot per category; a rule's set is drawn as bands. {no_colour.sum()} "
        f"rows without a value of **colour** are drawn at the value the model reads: {colour}.")
    assert shown(axes[1].words("size")) == (
        f"{no_size.sum()} rows without a value of **size** are drawn at the value the model "
        f"reads: {size:g}.")
    _, failing, X = fitted_with("fail")
    _, points, axes, _ = _page(failing, X, (0, 2))
    assert np.isnan(points["y"][no_size]).all()  # plotly leaves a NaN point out
    assert axes[1].words("size") == (
        f"{no_size.sum()} rows without a value of **size** are left out of the plot.")


def test_a_category_training_never_saw_sits_in_the_slot_unseen_under_typical():
    """A category no rule's set can take is no missing value: under ``"typical"`` it sits in
    the last slot, named *unseen* as it holds nothing else (a row without a value is drawn at
    the fill); under ``"fail"`` (no fill) that slot holds both, named *missing*."""
    values = np.array([0.0, 1.0, -1.0, np.nan])
    axis = plot_axes.axis_of(values, categories=COLOURS, fill=3.0)
    assert axis.missing == 1 and axis.unseen == 1 and axis.range == (-0.5, 5.5)
    assert axis.place(np.array([np.nan, -1.0])).tolist() == [3.0, 5.0]
    assert axis.settings()["ticktext"] == [*COLOURS, "unseen"]
    assert axis.texts(values) == ["blue", "green", "unseen", "missing (read as red)"]
    assert axis.words("colour").endswith(
        "1 row without a value of **colour** is drawn at the value the model reads: red. "
        "1 row with a category training never saw sits in the slot *unseen*: a rule's set "
        "never takes it, a wildcard does.")
    failing = plot_axes.axis_of(values, categories=COLOURS)
    assert failing.place(np.array([np.nan, -1.0])).tolist() == [5.0, 5.0]
    assert failing.settings()["ticktext"] == [*COLOURS, "missing"]
    assert failing.texts(values) == ["blue", "green", "missing", "missing"]
    assert failing.words("colour").endswith(
        "2 rows without a value (or with a category training never saw) sit in the slot "
        "*missing*: a rule's set never takes them, a wildcard does.")


def test_a_rules_bands_cover_exactly_the_categories_its_text_names():
    _, model, X = fitted_with("fail")
    rects, _, axes, _ = _page(model, X, (0, 1))
    texts = model.rules_frame()["rule"]
    slots = np.arange(len(COLOURS) + 1)  # the categories' slots and the missing one
    subsets = 0
    for rule_id, pieces in rects.groupby(level=0):
        covered = ((pieces["x0"].to_numpy()[:, None] < slots)
                   & (slots < pieces["x1"].to_numpy()[:, None])).any(axis=0)
        named = re.search(r"colour ∈ \{([^}]*)\}", texts[rule_id])
        if named is None:  # a wildcard on colour spans every slot, missing included
            assert covered.all(), texts[rule_id]
            continue
        allowed = named.group(1).split(", ")
        assert [COLOURS[k] for k in slots[:-1] if covered[k]] == sorted(
            allowed, key=COLOURS.index), texts[rule_id]
        assert not covered[-1]  # a set never takes a missing value
        subsets += len(allowed) < len(COLOURS)
        # one band per run of adjacent categories
        codes = sorted(COLOURS.index(c) for c in allowed)
        runs = 1 + sum(b != a + 1 for a, b in zip(codes, codes[1:], strict=False))
        assert len(pieces) == runs
    assert subsets > 0


def test_a_set_is_one_band_per_run_of_adjacent_categories():
    axis = plot_axes.axis_of(np.array([0.0, 1.0, 4.0, np.nan]), categories=COLOURS)
    half = plot_axes.SLOT_HALF
    sets = np.array([0b11011, 0b00100, 0], dtype=np.uint64)  # blue green red white; ochre
    rule, start, end = axis.spans(np.array([0.0, 0.0, np.nan]), np.zeros(3), sets)
    assert rule.tolist() == [0, 0, 1, 2]
    assert start.tolist() == [-half, 3 - half, 2 - half, axis.range[0]]
    assert end.tolist() == [1 + half, 4 + half, 2 + half, axis.range[1]]
    assert axis.range == (-0.5, 5.5)  # five categories and the missing slot


def test_a_heavy_tailed_feature_gets_a_log_axis_ticked_in_its_units(fitted):
    df, model, X = fitted
    rects, points, axes, fig = _page(model, X, (0, 1))
    amount = df["amount"].to_numpy()
    assert axes[1].kind == "log" and "skew" in axes[1].words("amount")
    yaxis = fig["layout"]["yaxis"]
    ticks = [float(t.replace(",", "")) for t in yaxis["ticktext"]]
    assert ticks[0] == float(plot_axes.tick_text(amount.min()))
    decades = [t for t in ticks if t in (1.0, 10.0, 100.0, 1000.0)]
    assert len(decades) >= 2
    for value in decades:  # a tick sits where that value in the data's units sits
        at = list(yaxis["tickvals"])[ticks.index(value)]
        assert at == pytest.approx(np.log10(value))  # positive data: the plain log
        assert axes[1].range[0] <= at <= axes[1].range[1]  # on the plot
    assert np.allclose(points["y"], np.log10(amount))
    # a rule's interval is an interval on the axis: its ends, mapped
    lower, upper = model.rule_bounds()
    specified = ~np.isnan(lower[:, 1])
    assert specified.any()
    mapped = rects.groupby(level=0).first()[["y0", "y1"]].to_numpy()[specified]
    np.testing.assert_allclose(mapped[:, 0], np.clip(np.log10(lower[specified, 1]),
                                                     *axes[1].range))
    np.testing.assert_allclose(mapped[:, 1], np.clip(np.log10(upper[specified, 1]),
                                                     *axes[1].range))


def test_an_order_axis_spreads_rows_by_rank_with_ticks_at_quantiles_in_data_units(fitted):
    df, model, X = fitted
    _, points, axes, fig = _page(model, X, (0, 1), kinds=("auto", "order"))
    amount = df["amount"].to_numpy()
    assert axes[1].kind == "order"
    assert np.mean(points["y"] <= 0.5) == pytest.approx(0.5, abs=0.01)
    yaxis = fig["layout"]["yaxis"]
    values = [float(t.replace(",", "")) for t in yaxis["ticktext"]]
    assert values == sorted(values) and list(yaxis["tickvals"]) == sorted(yaxis["tickvals"])
    median = values[len(values) // 2]
    assert median == pytest.approx(np.median(amount), rel=0.05)
    assert values[0] == float(plot_axes.tick_text(amount.min()))
    assert values[-1] == float(plot_axes.tick_text(amount.max()).replace(",", ""))


def test_counts_with_zeros_get_a_log_axis_that_shows_zero():
    counts = np.random.default_rng(0).zipf(1.6, 2000).astype(float) - 1  # mostly 0, 1, 2
    axis = plot_axes.axis_of(counts)
    assert axis.kind == "log" and counts.min() == 0
    settings = axis.settings()
    assert settings["ticktext"][:2] == ["0", "1"]
    assert settings["tickvals"][:2] == [0.0, pytest.approx(np.log10(2))]  # log10(1 + count)


def test_a_plain_column_stays_linear_and_the_user_may_choose():
    values = np.random.default_rng(0).uniform(0, 10, 500)
    assert plot_axes.axis_of(values).kind == "linear"
    assert plot_axes.axis_of(values).settings() == {}
    assert plot_axes.axis_of(values, kind="order").kind == "order"
    with_gaps = np.append(values, [np.nan, np.nan])
    assert "2 rows without a value" in plot_axes.axis_of(with_gaps).words("size")


def test_the_population_page_opens_on_a_model_with_a_category_column():
    """AppTest: a session whose model was fitted on a DataFrame with a category column (and
    missing cells), put in session state; the Population page draws without an exception."""
    from apptest import started

    from dashboard import engine, state
    from dashboard.choices import DEFAULT_PARAMS
    from dashboard.data_split import DataSplit
    from mlr_core import Dataset

    df, Y = _table(300, seed=1)
    params = {**DEFAULT_PARAMS, "n_rules": 300}
    model = MLRClassifier(**params)
    codes = nominal.encoded(df, nominal.categories_of(df)).to_numpy(float)
    split = DataSplit.of(Dataset(codes, Y, list(df.columns), ["a", "b", "c"], name="colours"))
    session = state.Session(split, params=params)
    rows = split.train_idx
    training = engine.training(model).start_untuned(df.iloc[rows], Y[rows],
                                                    label_names=["a", "b", "c"])
    session._adopt(split, training, params)
    session.learn(1000)  # no curve point: it scores the numeric held-out rows (words branch)
    at = started()
    at.session_state["session"] = session
    at = at.switch_page("views/population.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="pop_x").set_value(0)
    at = at.selectbox(key="pop_y").set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error
    captions = " ".join(c.value for c in at.caption)
    assert "**colour**: one slot per category" in captions
    assert "**amount**: a log axis" in captions
    assert "rows without a value of **colour** are drawn at the value the model reads" \
        in captions
