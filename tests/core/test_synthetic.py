"""The hypercube generator (labels are exactly the boxes containing a point, uniform sampling on
their union, label frequencies and cardinality on target, noise and extra features as documented,
seeded), its preview, and the sample files made with it."""

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from mlr_core.data.loaders import Dataset, load_dataset
from mlr_core.data.stats import dataset_stats
from mlr_core.data.synthetic import describe_hypercube_dataset, make_hypercube_dataset
from mlr_core.errors import InputError

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data"


def inside(points, lower, upper):
    return np.all((points[:, None, :] >= lower) & (points[:, None, :] <= upper), axis=2)


def test_labels_are_the_hypercubes_containing_each_point():
    data = make_hypercube_dataset(n_samples=500, n_relevant=3, n_labels=4, min_half_edge=0.1,
                                  max_half_edge=0.3, random_state=0)
    assert isinstance(data, Dataset) and data.X.shape == (500, 3) and data.Y.shape == (500, 4)
    lower, upper = data.meta["lower"], data.meta["upper"]
    np.testing.assert_array_equal(data.Y, inside(data.X, lower, upper))
    assert data.Y.sum(axis=1).min() >= 1  # every point in at least one label hypercube
    assert np.all(lower >= 0) and np.all(upper <= 1)
    half = (upper - lower) / 2
    assert np.allclose(half, half[:, :1]) and np.all((half >= 0.1) & (half <= 0.3))
    assert data.feature_names == ["x1", "x2", "x3"] and data.label_names == ["L1", "L2", "L3", "L4"]


def test_same_seed_same_data_other_seed_other_data():
    a, b, c = (make_hypercube_dataset(random_state=s) for s in (3, 3, 4))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.Y, b.Y)
    assert not np.array_equal(a.X, c.X)


def test_points_are_uniform_on_the_union_of_hypercubes():
    # two overlapping squares: the overlap must get its share of the area, not twice it
    data = make_hypercube_dataset(
        n_samples=20_000,
        n_relevant=2,
        n_labels=2,
        min_half_edge=0.2,
        max_half_edge=0.3,
        random_state=1,
    )
    lower, upper = data.meta["lower"], data.meta["upper"]
    overlap = np.prod(
        np.clip(np.minimum(upper[0], upper[1]) - np.maximum(lower[0], lower[1]), 0, 1)
    )
    area = np.prod(upper - lower, axis=1)
    assert overlap > 0.01  # the seed gives a real overlap
    share = overlap / (area.sum() - overlap)
    assert data.Y.all(axis=1).mean() == pytest.approx(share, abs=0.015)


def test_allow_empty_draws_from_the_whole_main_hypercube():
    data = make_hypercube_dataset(
        n_samples=4000,
        n_labels=1,
        min_half_edge=0.25,
        max_half_edge=0.25,
        allow_empty=True,
        random_state=2,
    )
    assert data.Y.mean() == pytest.approx(0.5**2, abs=0.03)  # one box of area 1/4
    assert data.X.min() >= 0 and data.X.max() <= 1


def test_label_noise_flips_bits_at_the_given_rate():
    kwargs = dict(n_samples=4000, n_relevant=2, n_labels=5, random_state=5)
    clean = make_hypercube_dataset(**kwargs)
    noisy = make_hypercube_dataset(**kwargs, label_noise=0.1)
    np.testing.assert_array_equal(clean.X, noisy.X)
    assert (clean.Y != noisy.Y).mean() == pytest.approx(0.1, abs=0.01)


def test_irrelevant_and_redundant_features():
    data = make_hypercube_dataset(
        n_samples=300, n_relevant=3, n_labels=2, n_irrelevant=4, n_redundant=5, random_state=6
    )
    assert data.feature_names == [
        "x1",
        "x2",
        "x3",
        "irr1",
        "irr2",
        "irr3",
        "irr4",
        "red1",
        "red2",
        "red3",
        "red4",
        "red5",
    ]
    irrelevant = data.X[:, 3:7]
    assert irrelevant.min() >= 0 and irrelevant.max() <= 1
    for k, source in enumerate(data.meta["redundant_of"]):
        copy = data.X[:, 7 + k]
        np.testing.assert_array_equal(copy, data.X[:, data.feature_names.index(source)])
        assert f"red{k + 1} copies {source}" in data.notes


def test_high_dimension_is_fast_without_rejection_from_the_main_cube():
    # naive rejection would need ~ (1 / 0.2) ** 20 draws per point here
    data = make_hypercube_dataset(
        n_samples=200,
        n_relevant=20,
        n_labels=3,
        min_half_edge=0.1,
        max_half_edge=0.1,
        random_state=7,
    )
    assert data.Y.sum(axis=1).min() >= 1


def test_decimals_round_features_before_labelling():
    data = make_hypercube_dataset(n_samples=300, n_irrelevant=2, decimals=2, random_state=8)
    np.testing.assert_array_equal(data.X, np.round(data.X, 2))
    np.testing.assert_array_equal(
        data.Y, inside(data.X[:, :2], data.meta["lower"], data.meta["upper"])
    )


def tolerance(values, n):
    """Four standard errors of a mean of ``values`` over n rows, plus 3% for the sizing's own
    Monte Carlo estimate."""
    return 4 * values.std() / np.sqrt(n) + 0.03 * values.mean()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    ("n_labels", "n_relevant", "n_samples"),
    [(2, 2, 500), (3, 10, 1000), (4, 6, 600), (6, 8, 2000), (10, 2, 1000), (15, 10, 2000)],
)
def test_default_data_is_multi_label_with_cardinality_and_frequencies_on_target(
    n_labels, n_relevant, n_samples, seed
):
    data = make_hypercube_dataset(n_samples=n_samples, n_relevant=n_relevant, n_labels=n_labels,
                                  random_state=seed)
    target = max(1.5, n_labels / 3)  # the documented default cardinality
    k = data.Y.sum(axis=1)
    assert k.min() >= 1
    assert abs(k.mean() - target) <= tolerance(k, n_samples)
    for column in data.Y.T:
        assert abs(column.mean() - target / n_labels) <= tolerance(column, n_samples) + 0.02
    assert (k >= 2).mean() > 0.25  # a real share of the rows carries several labels
    np.testing.assert_array_equal(data.Y, inside(data.X, data.meta["lower"], data.meta["upper"]))
    half = (data.meta["upper"] - data.meta["lower"]) / 2
    assert np.allclose(half, half[:, :1]) and np.all(half <= 0.5)  # hypercubes in the main cube


def test_four_labels_six_features_no_longer_single_label():
    # Mldatagen's half-edge sizing gave cardinality 1.01 here, one label in 80% of the rows
    old = make_hypercube_dataset(n_samples=2000, n_relevant=6, n_labels=4, min_half_edge=0.1,
                                 max_half_edge=0.3, random_state=0)
    new = make_hypercube_dataset(n_samples=2000, n_relevant=6, n_labels=4, random_state=0)
    assert old.Y.sum(axis=1).mean() < 1.1
    assert new.Y.sum(axis=1).mean() == pytest.approx(1.5, abs=0.08)
    assert new.Y.mean(axis=0).max() < 0.45 and dataset_stats(new.Y)["dl"] >= 10


def test_label_frequencies_given_one_by_one():
    wanted = np.array([0.6, 0.4, 0.25, 0.15, 0.1])
    data = make_hypercube_dataset(n_samples=4000, n_relevant=4, n_labels=5,
                                  label_frequency=wanted, random_state=3)
    np.testing.assert_allclose(data.Y.mean(axis=0), wanted, atol=0.035)
    assert data.Y.sum(axis=1).mean() == pytest.approx(wanted.sum(), abs=0.06)


def test_cardinality_parameter_and_allow_empty():
    data = make_hypercube_dataset(n_samples=4000, n_relevant=3, n_labels=6, cardinality=2.5,
                                  random_state=4)
    assert data.Y.sum(axis=1).mean() == pytest.approx(2.5, abs=0.1)
    # from the whole main cube a label's frequency is its volume; empty rows appear
    sparse = make_hypercube_dataset(n_samples=4000, n_relevant=3, n_labels=4, cardinality=0.8,
                                    allow_empty=True, random_state=4)
    np.testing.assert_allclose(sparse.Y.mean(axis=0), 0.2, atol=0.03)
    assert 0.2 < (sparse.Y.sum(axis=1) == 0).mean() < 0.7


def test_describe_is_the_statistics_of_the_dataset_that_would_load():
    params = dict(n_samples=700, n_relevant=3, n_labels=5, n_irrelevant=2, random_state=9)
    preview = describe_hypercube_dataset(**params)
    data = make_hypercube_dataset(**params)
    assert {k: preview[k] for k in dataset_stats(data.Y)} == dataset_stats(data.Y)
    assert preview["d"] == 5
    frequency = data.Y.mean(axis=0)
    assert preview["label_frequency"] == dict(zip(data.label_names, frequency, strict=True))
    assert preview["empty"] == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cardinality": 2, "label_frequency": 0.5}, r"cardinality or label_frequency, not both"),
        ({"cardinality": 2, "min_half_edge": 0.2}, r"half-edges or a frequency target"),
        ({"cardinality": 4}, r"cardinality must lie in \(0, n_labels = 3\]"),
        ({"label_frequency": [0.5, 0.5]}, r"one value or n_labels = 3 values, got 2"),
        ({"label_frequency": 1.2}, r"label frequencies must lie in \(0, 1\]"),
        ({"label_frequency": 0.2}, r"sum to 0\.6 .* allow_empty=True"),
        ({"n_samples": 0}, r"n_samples must be an integer >= 1, got 0"),
        ({"n_labels": 2.5}, r"n_labels must be an integer >= 1"),
        ({"n_relevant": True}, r"n_relevant must be an integer"),
        ({"n_irrelevant": -1}, r"n_irrelevant must be an integer >= 0"),
        ({"label_noise": 1.5}, r"label_noise must lie in \[0, 1\]"),
        ({"min_half_edge": 0.4, "max_half_edge": 0.3}, r"min_half_edge <= max_half_edge"),
        ({"max_half_edge": 0.6}, r"<= 0\.5"),
        ({"min_half_edge": 0.0}, r"0 < min_half_edge"),
    ],
)
def test_bad_parameters_raise(kwargs, message):
    with pytest.raises(InputError, match=message):
        make_hypercube_dataset(**kwargs)


# --- the sample files -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def make_samples():
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLE_DIR / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample_names():
    return [p.stem for p in sorted(SAMPLE_DIR.glob("*.csv"))]


def test_every_sample_has_a_recipe():
    assert sorted(sample_names()) == sorted(
        ["hypercube_2d", "hypercube_4d", "hypercube_8labels", "hypercube_40d"]
    )


@pytest.mark.parametrize("name", sample_names())
def test_sample_file_loads_without_arguments_and_is_what_the_script_makes(make_samples, name):
    path = SAMPLE_DIR / f"{name}.csv"
    assert path.stat().st_size < 300_000
    data = load_dataset(path)
    made = make_samples.build(name)
    np.testing.assert_array_equal(data.X, made.X)
    np.testing.assert_array_equal(data.Y, made.Y)
    assert data.feature_names == made.feature_names and data.label_names == made.label_names


def test_mulan_sample_equals_its_csv():
    arff, csv = (load_dataset(SAMPLE_DIR / f"hypercube_2d.{ext}") for ext in ("arff", "csv"))
    np.testing.assert_array_equal(arff.X, csv.X)
    np.testing.assert_array_equal(arff.Y, csv.Y)
    assert arff.label_names == csv.label_names == ["L1", "L2", "L3"]
    assert arff.meta["format"] == "MULAN"


def test_script_rewrites_identical_files(make_samples, tmp_path):
    data = make_samples.build("hypercube_2d")
    make_samples.write_csv(data, tmp_path / "hypercube_2d.csv")
    make_samples.write_mulan(data, tmp_path / "hypercube_2d.arff")
    for ext in ("csv", "arff", "xml"):
        fresh = (tmp_path / f"hypercube_2d.{ext}").read_bytes()
        assert fresh == (SAMPLE_DIR / f"hypercube_2d.{ext}").read_bytes(), ext


def test_readme_statistics_table_is_current(make_samples):
    readme = (SAMPLE_DIR / "README.md").read_text()
    datasets = [load_dataset(SAMPLE_DIR / f"{name}.csv") for name in make_samples.SAMPLES]
    table = make_samples.stats_table(datasets)
    assert table in readme
    for name in make_samples.SAMPLES:  # each recipe is written down with its seed
        seed = make_samples.SAMPLES[name]["random_state"]
        assert re.search(rf"`{name}\.csv`.*random_state={seed}\)", readme)


def test_default_sample_draws_as_rectangles_with_every_labelset():
    data = load_dataset(SAMPLE_DIR / "hypercube_2d.csv")
    stats = dataset_stats(data.Y)
    assert data.n_features == 2 and stats["m"] == 3 and stats["dl"] == 7
