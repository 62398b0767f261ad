"""Tables in their own words (issue 32): a CSV or DataFrame column of text is a nominal feature
of the `Dataset` (its codes in ``X``, its categories beside them), `Dataset.features` gives it
to the estimator as categories, and what cannot be a category or a label is refused clearly."""

import numpy as np
import pandas as pd
import pytest

from mlr_core import Dataset, MLRClassifier, dataset_from_frame, load_dataset_bytes
from mlr_core.errors import DatasetError

CSV = (b"x,colour,size,label:a,label:b\n"
       b"0.5,red,1,1,0\n"
       b",ochre,,0,1\n"
       b"0.2, blue ,big,1,1\n"
       b"0.9,,2,0,0\n")


def test_a_text_column_loads_as_its_codes_and_sorted_categories():
    data = load_dataset_bytes(CSV, "shop.csv")
    assert data.categories == (None, ("blue", "ochre", "red"), ("1", "2", "big"))
    assert data.feature_types == ["numeric", "category", "category"]
    expected = [[0.5, 2, 0], [np.nan, 1, np.nan], [0.2, 0, 2], [0.9, np.nan, 1]]
    np.testing.assert_array_equal(data.X, expected)  # NaN where empty; "size" all text
    assert any("'colour' (3), 'size' (3)" in note for note in data.notes)
    features = data.features([1, 2])
    assert features[1].tolist() == ["ochre", "blue"] and features[2].isna().tolist() == [True,
                                                                                         False]
    assert list(features[1].cat.categories) == ["blue", "ochre", "red"]


def test_numbers_reach_the_estimator_as_they_always_did():
    data = load_dataset_bytes(b"x,y,label:a,label:b\n1,,0,1\n2,3,1,0\n", "n.csv")
    assert data.categories is None and data.feature_types == ["numeric", "numeric"]
    assert data.features() is data.X
    np.testing.assert_array_equal(data.features([1]), data.X[[1]])


def test_the_estimator_learns_the_text_column_as_the_dataset_holds_it():
    r = np.random.default_rng(0)
    colour = r.choice(["red", "blue", "ochre", "green"], 300)
    x = np.where(r.random(300) < 0.2, np.nan, r.random(300))
    frame = pd.DataFrame({"x": x, "colour": np.where(r.random(300) < 0.1, None, colour),
                          "label:a": np.isin(colour, ["red", "ochre"]).astype(int),
                          "label:b": (x > 0.5).astype(int)})
    data = load_dataset_bytes(frame.to_csv(index=False).encode(), "t.csv")
    assert data.categories[1] == ("blue", "green", "ochre", "red")
    model = MLRClassifier(n_rules=200, n_iter=3000, random_state=0).fit(
        data.features(), data.Y, feature_names=data.feature_names)
    assert model.run_.scaling.categories == data.categories
    assert model.rules_frame()["rule"].str.contains("colour ∈ {", regex=False).any()
    assert model.predict(data.features(np.arange(10))).shape == (10, 2)
    row = int(np.flatnonzero(pd.isna(frame["colour"]))[0])
    texts = model.rule_set_.rule_texts(data.features([row]).iloc[0].tolist())
    assert any("colour = missing ∈ {" in t for t in texts)


def test_a_csv_round_trips_through_to_frame():
    data = load_dataset_bytes(CSV, "shop.csv")
    again = load_dataset_bytes(data.to_frame().to_csv(index=False).encode(), "again.csv")
    assert again.categories == data.categories
    np.testing.assert_array_equal(again.X, data.X)


def test_too_many_categories_are_refused_before_allocating():
    rows = b"".join(b"id%d,%d,1,0\n" % (i, i) for i in range(65))
    with pytest.raises(DatasetError, match="'id' has 65 distinct values; a nominal feature takes "
                                           "at most 64. Drop the column"):
        load_dataset_bytes(b"id,x,label:a,label:b\n" + rows, "ids.csv")
    frame = pd.DataFrame({"id": [f"id{i}" for i in range(100)], "label:a": 0, "label:b": 1})
    with pytest.raises(DatasetError, match="'id' has 100 distinct values"):
        dataset_from_frame(frame)


def test_a_text_label_is_refused_with_its_line():
    with pytest.raises(DatasetError, match=r"l.csv, line 3: label column 'label:a' is 'yes'; "
                                           r"a label is 0 or 1 \(or true/false\)"):
        load_dataset_bytes(b"x,label:a,label:b\n1,0,1\n2,yes,0\n", "l.csv")
    frame = pd.DataFrame({"x": [1, 2], "label:a": ["no", "yes"], "label:b": [0, 1]})
    with pytest.raises(DatasetError, match="row 0: label column 'label:a' is 'no', not a number"):
        dataset_from_frame(frame)


def test_a_frame_reads_text_and_category_columns_as_nominal_and_bool_as_numbers():
    frame = pd.DataFrame({"n": [1.0, 2.0, np.nan], "text": ["b", None, "a"],
                          "grade": pd.Categorical([3, 1, 3], categories=[3, 1]),
                          "flag": [True, False, True], "label:y": [0, 1, 1]})
    data = dataset_from_frame(frame)
    assert data.categories == (None, ("a", "b"), (3, 1), None)
    np.testing.assert_array_equal(data.X, [[1, 1, 0, 1], [2, np.nan, 1, 0], [np.nan, 0, 0, 1]])
    with pytest.raises(DatasetError, match="neither numbers nor text"):
        dataset_from_frame(pd.DataFrame({"x": [[1], "a"], "label:y": [0, 1]}))


def test_a_dataset_checks_its_codes_against_its_categories():
    Y = np.zeros((2, 1))
    with pytest.raises(DatasetError, match="'c' holds a value that is no code of its 2 "
                                           "categories"):
        Dataset(np.array([[0.0], [2.0]]), Y, ["c"], ["l"], categories=(("a", "b"),))
    with pytest.raises(DatasetError, match="must be 1 to 64 distinct strings"):
        Dataset(np.zeros((2, 1)), Y, ["c"], ["l"], categories=(("a", "a"),))
    with pytest.raises(DatasetError, match="\"category\" exactly where categories gives a list"):
        Dataset(np.zeros((2, 1)), Y, ["c"], ["l"], categories=(("a",),),
                feature_types=["numeric"])
