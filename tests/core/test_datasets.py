"""Loaders: the five real datasets reproduce their README table; every format and quirk of the issue
is read right; every bad file raises DatasetError naming the file and the line or attribute; and
no input at all makes the loader raise anything else (fuzz)."""

import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import issparse

from mlr_core.data.loaders import Dataset, dataset_from_frame, load_dataset, load_dataset_bytes
from mlr_core.data.stats import dataset_stats
from mlr_core.errors import DatasetError

# ../shared/datasets/README.md: n, d, (numeric, nominal, binary nominal) attributes, m, Card, Dens,
# DL, PDL, to the table's decimals.
README_TABLE = {
    "yeast": (2417, 103, (103, 0, 0), 14, 4.2371, 0.3026, 198, 0.0819),
    "emotions": (593, 72, (72, 0, 0), 6, 1.8685, 0.3114, 27, 0.0455),
    "flags": (194, 19, (10, 4, 5), 7, 3.3918, 0.4845, 54, 0.2784),
    "cal500": (502, 68, (68, 0, 0), 174, 26.0438, 0.1497, 502, 1.0000),
    "genbase": (662, 1185, (0, 0, 1185), 27, 1.2523, 0.0464, 32, 0.0483),
}


# --- the real datasets ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", README_TABLE)
def test_real_dataset_reproduces_readme_table(real_datasets, name):
    n, d, kinds, m, card, dens, dl, pdl = README_TABLE[name]
    data = real_datasets[name]
    stats = dataset_stats(data.Y)
    assert (stats["n"], len(data.source_attributes), stats["m"]) == (n, d, m)
    counts = Counter(kind for _, kind in data.source_attributes)
    assert (counts["numeric"], counts["nominal"], counts["binary"]) == kinds
    assert round(stats["card"], 4) == card
    assert round(stats["dens"], 4) == dens
    assert stats["dl"] == dl
    assert round(stats["pdl"], 4) == pdl
    assert data.X.dtype == np.float64 and data.Y.dtype == np.uint8
    assert data.meta["format"] == "MULAN" and data.name == name


def test_yeast_labels_are_matched_by_name_not_xml_order(real_datasets, shared_datasets_dir):
    # yeast.xml lists Class1, Class2, Class3, Class6, Class4, ...; the columns follow the ARFF
    text = (shared_datasets_dir / "yeast.arff").read_text()
    arff_order = re.findall(r"@attribute\s+(Class\d+)", text, flags=re.IGNORECASE)
    assert real_datasets["yeast"].label_names == arff_order == [f"Class{i}" for i in range(1, 15)]
    assert real_datasets["yeast"].feature_names[:2] == ["Att1", "Att2"]


def test_genbase_yes_no_decoded_by_value_name(real_datasets, shared_datasets_dir):
    # {YES, NO} declares YES first: ordinal decoding would give YES -> 0. Count YES in the data.
    text = (shared_datasets_dir / "genbase.arff").read_text()
    n_yes = text[text.upper().index("@DATA") :].count("YES")
    genbase = real_datasets["genbase"]
    assert set(genbase.feature_types) == {"binary"}
    assert genbase.X.sum() == n_yes > 0


def test_flags_nominals_one_hot_and_binaries_single_column(real_datasets):
    flags = real_datasets["flags"]
    assert flags.n_features == 10 + (6 + 4 + 10 + 8) + 5
    landmass = [j for j, f in enumerate(flags.feature_names) if f.startswith("landmass=")]
    assert [flags.feature_names[j] for j in landmass] == [f"landmass={v}" for v in range(1, 7)]
    assert np.all(flags.X[:, landmass].sum(axis=1) == 1)
    assert flags.feature_types[flags.feature_names.index("crescent")] == "binary"
    assert any("one-hot" in note for note in flags.notes)


# --- ARFF (MULAN and MEKA) ------------------------------------------------------------------------

ARFF = """% a MULAN-style file with every quirk at once
@relation 'quirks: -C 3'

@attribute num numeric
@attribute color {red, green, blue}
@attribute id string
@attribute feat {YES, NO}
@attribute 'Swainson\\'s Thrush' {0, 1}
@attribute other {1, 0}

@data
1.5, red, 'p1', YES, 1, 0
-2, blue, 'p2', NO, 0, 1
0, green, 'p3', NO, 1, 1
"""
XML = b"""<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="other"></label>
<label name="Swainson\\'s Thrush"></label>
</labels>
"""


def load_text(text: str, filename="quirks.arff", **kwargs) -> Dataset:
    return load_dataset_bytes(text.encode(), filename, **kwargs)


def test_mulan_arff_with_xml():
    data = load_text(ARFF, xml=XML)
    assert data.label_names == ["Swainson's Thrush", "other"]  # file order, escapes undone
    assert data.Y.tolist() == [[1, 0], [0, 1], [1, 1]]  # {1, 0} decoded by name, not position
    assert data.feature_names == ["num", "color=red", "color=green", "color=blue", "feat"]
    assert data.feature_types == ["numeric", "nominal", "nominal", "nominal", "binary"]
    assert data.source_attributes == [("num", "numeric"), ("color", "nominal"), ("feat", "binary")]
    assert data.X.tolist() == [[1.5, 1, 0, 0, 1], [-2, 0, 0, 1, 0], [0, 0, 1, 0, 0]]
    assert any("stale '-C 3'" in note for note in data.notes)
    assert any("dropped string attribute 'id'" in note for note in data.notes)
    assert data.name == "quirks" and data.meta["format"] == "MULAN"


def test_a_comment_ending_the_relation_line_is_dropped(shared_datasets_dir):
    """MULAN's slashdot ends its @relation line in ``%50``, a comment liac-arff refuses."""
    relation = "@relation 'quirks: -C 3'"
    commented = ARFF.replace(relation, relation + " %50", 1)
    assert load_text(commented, xml=XML).X.tolist() == load_text(ARFF, xml=XML).X.tolist()
    quoted = ARFF.replace(relation, "@relation 'a %b'", 1)  # inside quotes: the name's own
    assert load_text(quoted, xml=XML).name == "quirks"
    slashdot = load_dataset(shared_datasets_dir / "slashdot.arff")
    assert slashdot.X.shape == (3782, 1079) and slashdot.Y.shape == (3782, 22)


def test_xml_without_namespace_and_with_nested_labels():
    xml = b"<labels><label name='other'><label name=\"Swainson's Thrush\"/></label></labels>"
    assert load_text(ARFF, xml=xml).label_names == ["Swainson's Thrush", "other"]


def test_meka_minus_c_negative_takes_the_last_attributes():
    data = load_text(ARFF.replace("-C 3", "-C -2"))
    assert data.label_names == ["Swainson's Thrush", "other"]
    assert data.meta["format"] == "MEKA"


def test_meka_first_attributes_are_labels():
    text = "@relation 'm: -C 2'\n@attribute a {0,1}\n@attribute b numeric\n@attribute x numeric\n"
    data = load_text(text + "@data\n1,0,3.5\n0,1,4\n", "m.arff")
    assert data.label_names == ["a", "b"] and data.feature_names == ["x"]
    assert data.Y.tolist() == [[1, 0], [0, 1]]


@pytest.mark.parametrize(
    ("values", "ones"),
    [("{YES, NO}", "YES"), ("{NO, YES}", "YES"), ("{1, 0}", "1"), ("{t, f}", "t"),
     ("{false, true}", "true"), ("{Y, N}", "Y")],
)  # fmt: skip
def test_binary_nominals_decoded_by_name(values, ones):
    zero = next(v.strip() for v in values.strip("{}").split(",") if v.strip() != ones)
    text = f"@relation r\n@attribute f {values}\n@attribute L {{0,1}}\n@data\n{ones},1\n{zero},0\n"
    data = load_text(text, "r.arff", labels=["L"])
    assert data.feature_types == ["binary"] and data.X[:, 0].tolist() == [1.0, 0.0]


def test_labels_argument_overrides_the_file():
    data = load_text(ARFF, xml=XML, labels=["feat"])
    assert data.label_names == ["feat"] and data.Y[:, 0].tolist() == [1, 0, 0]
    assert any("quirks.xml was not used" in note for note in data.notes)
    assert load_text(ARFF, labels=2).label_names == ["Swainson's Thrush", "other"]


SPARSE = """@relation sparse
@attribute a numeric
@attribute b {x, y}
@attribute c numeric
@attribute L1 {0, 1}
@attribute L2 {1, 0}
@data
{0 1.5, 3 1}
{1 y, 2 3, 4 0}
{}
"""
DENSE = """@relation dense
@attribute a numeric
@attribute b {x, y}
@attribute c numeric
@attribute L1 {0, 1}
@attribute L2 {1, 0}
@data
1.5, x, 0, 1, 1
0, y, 3, 0, 0
0, x, 0, 0, 1
"""


def test_sparse_arff_equals_its_dense_twin():
    # an absent attribute is 0, or a nominal's first declared value (L2 {1, 0}: absent means 1)
    sparse, dense = load_text(SPARSE, "s.arff", labels=2), load_text(DENSE, "d.arff", labels=2)
    assert sparse.meta["sparse"] and not dense.meta["sparse"]
    np.testing.assert_array_equal(sparse.X, dense.X)
    np.testing.assert_array_equal(sparse.Y, dense.Y)
    assert sparse.feature_names == dense.feature_names == ["a", "b=x", "b=y", "c"]


def test_nominal_frame_reads_a_missing_or_empty_nominal_as_missing():
    # '?' is NaN in each of b's one-hot columns; a row of 0s there is no value either
    data = load_text(DENSE.replace("0, y, 3", "0, ?, 3"), "d.arff", labels=2)
    np.testing.assert_array_equal(data.X[1, 1:3], [np.nan, np.nan])
    X = data.X.copy()
    X[2, 1:3] = 0
    zeros = Dataset(X, data.Y, data.feature_names, data.label_names,
                    feature_types=data.feature_types, source_attributes=data.source_attributes)
    for dataset, codes in ((data, [0, -1, 0]), (zeros, [0, -1, -1])):
        b = dataset.nominal_frame()["b"]
        assert list(b.cat.categories) == ["x", "y"] and b.cat.codes.tolist() == codes
        assert b.isna().tolist() == [code < 0 for code in codes]


def test_nominal_frame_of_a_sparse_arff_equals_its_dense_twins():
    from mlr_core import MLRClassifier

    text = SPARSE.replace("{}", "{1 ?, 2 2}\n{}")
    sparse = load_text(text, "s.arff", labels=2, sparse=True)
    dense = load_text(text, "s.arff", labels=2, sparse=False)
    assert issparse(sparse.X) and not issparse(dense.X)
    frames = sparse.nominal_frame(), dense.nominal_frame()
    assert [str(t) for t in frames[0].dtypes] == ["Sparse[float64, 0.0]", "category",
                                                   "Sparse[float64, 0.0]"]
    assert frames[0]["b"].cat.codes.tolist() == [0, 1, -1, 0]
    pd.testing.assert_frame_equal(frames[0].astype({"a": float, "c": float}), frames[1])
    models = [MLRClassifier(n_iter=300, random_state=0).fit(frame, dense.Y) for frame in frames]
    np.testing.assert_array_equal(models[0].predict(frames[1]), models[1].predict(frames[1]))


def test_crlf_and_leading_blank_lines_keep_line_numbers():
    text = "\r\n\r\n" + DENSE.replace("0, y, 3", "0, y, oops").replace("\n", "\r\n")
    with pytest.raises(DatasetError, match=r"d\.arff: Invalid numerical value, at line 11"):
        load_text(text, "d.arff", labels=2)


def test_load_dataset_reads_the_xml_beside_the_arff(tmp_path):
    (tmp_path / "quirks.arff").write_text(ARFF)
    (tmp_path / "quirks.xml").write_bytes(XML)
    from_arff = load_dataset(tmp_path / "quirks.arff")
    from_xml = load_dataset(str(tmp_path / "quirks.xml"))
    assert from_arff.label_names == from_xml.label_names == ["Swainson's Thrush", "other"]


# --- CSV and DataFrames ---------------------------------------------------------------------------

CSV = "a,b,label:x,label:y\n1,2.5,0,1\n3,-4,1,1\n"


def test_csv_label_prefix_convention():
    data = load_dataset_bytes(CSV.encode(), "t.csv")
    assert data.feature_names == ["a", "b"] and data.label_names == ["x", "y"]
    assert data.X.tolist() == [[1, 2.5], [3, -4]] and data.Y.tolist() == [[0, 1], [1, 1]]


@pytest.mark.parametrize(
    ("labels", "label_names", "feature_names"),
    [
        (2, ["label:x", "label:y"], ["a", "b"]),  # the prefix is dropped only by the convention
        (-1, ["a"], ["b", "label:x", "label:y"]),
        (["b", "a"], ["b", "a"], ["label:x", "label:y"]),
        ("a", ["a"], ["b", "label:x", "label:y"]),
    ],
)
def test_csv_labels_by_count_or_names(labels, label_names, feature_names):
    binary = "a,b,label:x,label:y\n1,0,0,1\n0,1,1,1\n"  # every column could be a label
    data = load_dataset_bytes(binary.encode(), "t.csv", labels=labels)
    expected = [lab.removeprefix("label:") for lab in label_names]
    assert data.label_names == expected and data.feature_names == feature_names


def test_dataframe_and_to_frame_round_trip():
    df = pd.DataFrame({"f": [0.5, 1.5], "g": [True, False], "label:A": [1, 0], "label:B": [0, 0]})
    data = dataset_from_frame(df, name="frame")
    assert data.X.tolist() == [[0.5, 1.0], [1.5, 0.0]] and data.label_names == ["A", "B"]
    again = load_dataset(data.to_frame())
    np.testing.assert_array_equal(again.X, data.X)
    np.testing.assert_array_equal(again.Y, data.Y)


def test_latin1_bytes_are_read_with_a_note():
    data = load_dataset_bytes("caf\u00e9,label:y\n1,0\n2,1\n".encode("latin-1"), "l.csv")
    assert data.feature_names == ["caf\u00e9"]
    assert any("not valid UTF-8" in note and "Latin-1" in note for note in data.notes)


# --- bad input: one test per failure the issue lists ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "filename", "kwargs", "message"),
    [
        # truncated files
        (DENSE[:-8], "d.arff", {"labels": 2}, r"d\.arff: Bad @DATA instance format in line 10"),
        (DENSE[:60], "d.arff", {"labels": 2}, r"no @data section: is the file truncated"),
        # labels other than 0/1
        (DENSE.replace("0, 1, 1\n", "0, 2, 1\n").replace("L1 {0, 1}", "L1 numeric"), "d.arff",
         {"labels": 2},
         r"d\.arff, line 8: label 'L1' is 2\.0; labels must be 0 or 1"),
        (DENSE.replace("L1 {0, 1}", "L1 {0, 1, 2}"), "d.arff", {"labels": 2},
         r"label 'L1' is nominal with values \['0', '1', '2'\]"),
        ("a,label:y\n1,0\n2,0.5\n", "c.csv", {}, r"c\.csv, line 3: label 'y' is 0\.5"),
        # inf features and missing labels (a missing feature is NaN: test_missing_values.py)
        (DENSE.replace("0, y, 3", "0, y, inf"), "d.arff", {"labels": 2},
         r"d\.arff, line 9: feature 'c' is inf"),
        (SPARSE.replace("{1 y, 2 3, 4 0}", "{1 y, 2 inf, 4 0}"), "s.arff",
         {"labels": 2, "sparse": True}, r"s\.arff, line 9: feature 'c' is inf"),
        (DENSE.replace("0, y, 3, 0, 0", "0, y, 3, ?, 0"), "d.arff", {"labels": 2},
         r"d\.arff, line 9: label 'L1' is missing \('\?'\)"),
        *((SPARSE.replace("{1 y, 2 3, 4 0}", "{1 y, 2 ?, 4 ?}"), "s.arff",  # the feature's is NaN
           {"labels": 2, "sparse": sparse}, r"s\.arff, line 9: label 'L2' is missing \('\?'\)")
          for sparse in (True, False)),
        ("a,b,label:y\n1,2,0\n3,inf,1\n", "c.csv", {}, r"c\.csv, line 3: feature 'b' is inf"),
        ("a,b,label:y\n1,2,0\n3,4,\n", "c.csv", {}, r"c\.csv, line 3: label 'y' is nan"),
        # non-numeric cells
        ("a,b,label:y\n1,2,0\n3,4,x7\n", "c.csv", {},
         r"c\.csv, line 3: label column 'label:y' is 'x7'; a label is 0 or 1"),
        (DENSE.replace("0, y, 3", "0, z, 3"), "d.arff", {"labels": 2},
         r"d\.arff: Data value z not found in nominal declaration, at line 9"),
        (DENSE.replace("0, y, 3", "0, %y, 3"), "d.arff", {"labels": 2},  # liac-arff's str() fails
         r"d\.arff: Data value %y not found in nominal declaration, at line 9"),
        # zero labels
        (DENSE, "d.arff", {"labels": 0}, r"d\.arff: labels=0 selects zero labels"),
        (DENSE, "d.arff", {"labels": []}, r"d\.arff: labels=\[\] selects zero labels"),
        (DENSE, "d.arff", {"xml": b"<labels/>"}, r"d\.xml: no <label name=\.\.\.> elements"),
        ("a,b\n1,2\n", "c.csv", {}, r"c\.csv: cannot tell which columns are labels"),
        (DENSE, "d.arff", {}, r"d\.arff: cannot tell which attributes are labels"),
        # zero rows, zero features
        (DENSE[: DENSE.index("@data") + 6], "d.arff", {"labels": 2}, r"d\.arff: no data rows"),
        ("a,label:y\n", "c.csv", {}, r"c\.csv has no rows"),
        ("", "c.csv", {}, r"c\.csv: the file is empty"),
        ("label:a,label:y\n1,0\n", "c.csv", {}, r"c\.csv: no feature columns"),
        (DENSE, "d.arff", {"labels": 5}, r"labels=5 but there are only 5 columns"),
        # mismatched shapes
        ("a,b,label:y\n1,2,0\n3,4,1,5\n", "c.csv", {}, r"c\.csv, line 3: 4 fields, but the "
         "header names 3 columns"),
        # one field too many on every row: pandas made the first field the index, shifting
        # every column silently
        ("a,b,label:y\n1,2,0,1\n3,4,1,0\n", "c.csv", {}, r"c\.csv, line 2: 4 fields, but"),
        ("a,b,label:y\n1,2,0\n\n3,4\n", "c.csv", {}, r"c\.csv, line 4: 2 fields, but"),
        # a missing XML label, a malformed XML, an unknown column
        (DENSE, "d.arff", {"xml": b"<labels><label name='L3'/></labels>"},
         r"d\.xml: label 'L3' is not an attribute of d\.arff"),
        (DENSE, "d.arff", {"xml": b"<labels><label name='L1'></labels>"},
         r"d\.xml, line 1, column \d+: not well-formed XML"),
        (DENSE, "d.arff", {"xml": b"<labels><label/></labels>"}, r"has no name attribute"),
        (DENSE, "d.arff", {"labels": ["L9"]}, r"d\.arff: no column named 'L9'"),
        (DENSE.replace("@relation dense", "@relation 'dense: -C 9'"), "d.arff", {},
         r"'-C 9' in @relation must select between 1 and 4"),
        # two columns of one name: CSV header (features, labels), ARFF attributes
        ("a,b,a,label:y\n1,2,3,0\n", "c.csv", {}, r"c\.csv: column name 'a' appears twice"),
        ("a,label:y,label:y\n1,0,1\n", "c.csv", {}, r"column name 'label:y' appears twice"),
        ("a,a,b\n0,1,2\n", "c.csv", {"labels": ["a"]}, r"column name 'a' appears twice"),
        ("a,b,a,b,label:y\n1,2,3,4,0\n", "c.csv", {"labels": ["label:y"]},
         r"column names 'a', 'b' appear more than once"),
        (DENSE.replace("@attribute c numeric", "@attribute a numeric"), "d.arff", {"labels": 2},
         r"d\.arff: Bad @ATTRIBUTE name a at line 4"),
        (DENSE.replace("@attribute c numeric", "@attribute \"a\" numeric"), "d.arff",
         {"labels": 2}, r"name a at line 4, this name is already in use"),
        # a one-hot column 'b=x' meets an attribute of that name, or a nominal repeats a value
        (DENSE.replace("@attribute c numeric", "@attribute 'b=x' numeric"), "d.arff",
         {"labels": 2}, r"d\.arff: feature name 'b=x' appears twice.*one-hot columns are named"),
        (DENSE.replace("b {x, y}", "b {x, y, x}"), "d.arff", {"labels": 2},
         r"d\.arff: attribute 'b': value name 'x' appears twice"),
        # a sparse row naming one index twice: liac-arff kept the last value
        (SPARSE.replace("{1 y, 2 3, 4 0}", "{1 y, 2 3, 2 0, 4 0}"), "s.arff", {"labels": 2},
         r"s\.arff, line 9: attribute index 2 is given twice in one sparse row"),
        (SPARSE.replace("{0 1.5, 3 1}", "{3 1, 3 0}"), "s.arff", {"labels": 2},
         r"s\.arff, line 8: attribute index 3 is given twice"),
        (SPARSE.replace("{0 1.5, 3 1}", "{0 1.5, 03 1, 3 1}"), "s.arff", {"labels": 2},
         r"s\.arff, line 8: attribute index 3 is given twice"),
        # not a format we read
        ("a,b\n", "d.xlsx", {}, r"d\.xlsx: unsupported file type '\.xlsx'"),
    ],
)  # fmt: skip
def test_bad_input_names_file_and_place(text, filename, kwargs, message):
    with pytest.raises(DatasetError, match=message):
        load_dataset_bytes(text.encode(), filename, **kwargs)


def test_duplicate_dataframe_columns_are_refused_and_quoted_commas_are_no_repeat():
    frame = pd.DataFrame([[1, 2, 0], [3, 4, 1]], columns=["a", "a", "label:y"])
    with pytest.raises(DatasetError, match=r"dataframe: column name 'a' appears twice"):
        dataset_from_frame(frame)
    with pytest.raises(DatasetError, match=r"feature name 'f' appears twice"):
        Dataset(np.zeros((2, 2)), np.zeros((2, 1)), ["f", "f"], ["l"])
    # a quoted value holding ", 2 " is one pair: the row names index 2 once
    text = SPARSE.replace("@attribute c numeric", "@attribute c string").replace(
        "{1 y, 2 3, 4 0}", "{1 y, 2 'u, 2 v', 4 0}")
    data = load_text(text, "s.arff", labels=2)
    assert data.feature_names == ["a", "b=x", "b=y"] and data.X[1].tolist() == [0.0, 0.0, 1.0]


def test_binary_bytes_are_refused():
    with pytest.raises(DatasetError, match=r"u\.csv: not a text file \(NUL byte at offset 1"):
        load_dataset_bytes("a,label:b\n".encode("utf-16-le"), "u.csv")
    with pytest.raises(DatasetError, match="expected the file's bytes, got str"):
        load_dataset_bytes("a,label:b\n1,0\n", "u.csv")


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(DatasetError, match=r"nothing\.csv: no such file"):
        load_dataset(tmp_path / "nothing.csv")


def test_dataset_validates_arrays_it_is_given():
    with pytest.raises(DatasetError, match="X has 3 rows but Y has 2"):
        Dataset(np.zeros((3, 1)), np.zeros((2, 1)), ["f"], ["l"])
    with pytest.raises(DatasetError, match=r"row 1: label 'l' is -1"):
        Dataset(np.zeros((2, 1)), [[0], [-1]], ["f"], ["l"])
    with pytest.raises(DatasetError, match="2 feature names for 1 feature columns"):
        Dataset(np.zeros((2, 1)), np.zeros((2, 1)), ["f", "g"], ["l"])
    with pytest.raises(DatasetError, match="label name 'l' appears twice"):
        Dataset(np.zeros((2, 1)), np.zeros((2, 2)), ["f"], ["l", "l"])
    with pytest.raises(DatasetError, match="feature_types must give one of"):
        Dataset(np.zeros((2, 1)), np.zeros((2, 1)), ["f"], ["l"], feature_types=["text"])
    data = Dataset([[1, 2]], [[True]], ["f", "g"], ["l"], name="tiny")
    assert data.feature_types == ["numeric", "numeric"] and data.Y.dtype == np.uint8
    assert (data.n_samples, data.n_features, data.n_labels) == (1, 2, 1)


# --- fuzz: nothing but DatasetError, ever ---------------------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FRAGMENTS = [
    "@relation r", "@relation 'r: -C 1'", "@relation 'r: -C -2'", "@attribute a numeric",
    "@attribute b {YES, NO}", "@attribute 'c d' {0,1}", "@attribute e string", "@attribute f {1,0}",
    "@attribute g integer", "@attribute h date", "@data", "{", "}", "{0 1, 2 YES}", "1,YES,0",
    "1.5", "?", "nan", "inf", "-", "'", '"', "\\'", ",", " ", "\n", "\r\n", "%", "1e999", "0",
    "label:", "x,label:y", "1e-3", "\t", "{}", "\x85", "\u2028", "é",
]  # fmt: skip
arff_like = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=40).map("".join)


def loads_or_refuses(data: bytes, filename: str, **kwargs) -> None:
    """The only acceptable outcomes: a valid Dataset, or DatasetError."""
    try:
        result = load_dataset_bytes(data, filename, **kwargs)
    except DatasetError as err:
        assert str(err)
    else:
        assert isinstance(result, Dataset) and not np.isinf(result.X).any()


@FUZZ
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".arff", ".csv"]))
def test_fuzz_random_bytes(data, suffix):
    loads_or_refuses(data, "fuzz" + suffix)


@FUZZ
@given(text=arff_like, suffix=st.sampled_from([".arff", ".csv"]), labels=st.sampled_from(
    [None, 1, -1, ["b"]]))  # fmt: skip
def test_fuzz_arff_like_text(text, suffix, labels):
    loads_or_refuses(text.encode(), "fuzz" + suffix, labels=labels)


@FUZZ
@given(
    base=st.sampled_from([ARFF, SPARSE, DENSE, CSV]),
    cut=st.integers(0, 400),
    insert=st.sampled_from(FRAGMENTS),
    xml=st.sampled_from([None, XML, b"<labels><label name='L1'/></labels>", b"<x", b"\x00"]),
)
def test_fuzz_truncated_and_mutated_files(base, cut, insert, xml):
    suffix = ".csv" if base is CSV else ".arff"
    cut = min(cut, len(base))
    loads_or_refuses(base[:cut].encode(), "t" + suffix, xml=xml)  # truncated
    loads_or_refuses((base[:cut] + insert + base[cut:]).encode(), "t" + suffix, xml=xml)
