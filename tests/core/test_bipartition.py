"""The default bipartition target, `guarded_accuracy`: never a Hamming loss above predicting no
label on the rows it is tuned on, the empty prediction always a candidate, and the cut that buys
accuracy with false positives on sparse labels refused."""

import json

import numpy as np
import pytest

from mlr_core import bipartition as bp


def hamming_loss(truth, pred):
    return float(np.mean(truth != pred))


def sparse_rows(n, m, right, seed):
    """One true label per row (density 1/m); every row's scores are noise below 0.2 except one
    label at 0.4-0.6, the true one with probability ``right``: the top label is right that
    often, as on sparse data with weak features."""
    rng = np.random.default_rng(seed)
    truth = np.zeros((n, m), dtype=np.uint8)
    truth[np.arange(n), rng.integers(m, size=n)] = 1
    scores = rng.uniform(0.0, 0.2, size=(n, m))
    top = np.where(rng.random(n) < right, truth.argmax(axis=1), rng.integers(m, size=n))
    scores[np.arange(n), top] = rng.uniform(0.4, 0.6, size=n)
    return scores, truth


def tuned(scores, truth, target=bp.guarded_accuracy):
    k = int(round(truth.sum(axis=1).mean()))
    return bp.tune(scores, truth, bp.candidates("auto", None, k, with_top=True), target)


def random_case(seed):
    """Sparse truth and scores from useless to informative: noise plus a share of the truth, or
    `sparse_rows` with its top label right anywhere from never to always."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(20, 400)), int(rng.integers(2, 60))
    if seed % 2:
        return sparse_rows(n, m, right=rng.uniform(0.0, 1.0), seed=seed)
    truth = (rng.random((n, m)) < rng.uniform(0.02, 0.3)).astype(np.uint8)
    signal = rng.uniform(0.0, 1.0)
    return np.clip(signal * truth + rng.uniform(0.0, 1.0 - signal / 2, truth.shape), 0, 1), truth


@pytest.mark.parametrize("seed", range(16))
def test_the_chosen_cut_never_loses_to_the_empty_prediction(seed):
    """The chosen cut's Hamming loss on the tuning rows is at most the label density, the empty
    prediction's (`balanced` exceeds it in 2 of these 16 cases)."""
    scores, truth = random_case(seed)
    chosen = tuned(scores, truth)
    assert hamming_loss(truth, bp.apply(scores, chosen)) <= truth.mean()


@pytest.mark.parametrize("seed", range(12))
def test_tuning_from_counts_chooses_what_scoring_each_cut_chooses(seed):
    """`tune` scores the default target from per-row counts without making each cut's labels;
    it must choose the cut (and reach the value) that scoring every cut's labels does, ties,
    rows scoring 0 and floored top fallbacks included."""
    scores, truth = random_case(seed)
    rng = np.random.default_rng(seed)
    scores[rng.random(len(scores)) < 0.1] = 0.0  # rows no rule votes for
    scores = np.round(scores, 1)  # ties, within a row and at the thresholds
    k = int(round(truth.sum(axis=1).mean()))
    options = bp.candidates("auto", None, k, with_top=True)
    by_labels = max(options, key=lambda o: bp.guarded_accuracy(truth, bp.apply(scores, o)))
    assert bp.tune(scores, truth, options, bp.guarded_accuracy) == by_labels
    floors = bp.candidates("top_unless_empty", None, k)
    assert bp.tune(scores, truth, floors, bp.guarded_accuracy) == bp.tune(
        scores, truth, floors, lambda t, p: bp.guarded_accuracy(t, p))  # the labels' way


def test_pure_noise_predicts_nothing_and_informative_scores_predict():
    rng = np.random.default_rng(0)
    truth = (rng.random((500, 20)) < 0.05).astype(np.uint8)
    assert tuned(rng.random(truth.shape), truth) == bp.EMPTY
    informative = np.clip(0.7 * truth + rng.uniform(0.0, 0.4, truth.shape), 0, 1)
    chosen = tuned(informative, truth)
    assert chosen != bp.EMPTY
    assert hamming_loss(truth, bp.apply(informative, chosen)) < 0.5 * truth.mean()


def test_sparse_labels_with_a_top_label_right_one_time_in_three():
    """The issue's case: predicting the top label gains a third in accuracy and costs two wrong
    bits in three rows. `balanced` takes it and ends above the empty prediction's Hamming loss;
    the guarded target does not."""
    scores, truth = sparse_rows(3000, 20, right=1 / 3, seed=1)
    density = truth.mean()
    old = tuned(scores, truth, bp.balanced)
    assert hamming_loss(truth, bp.apply(scores, old)) > density
    new = tuned(scores, truth)
    assert hamming_loss(truth, bp.apply(scores, new)) <= density


def test_a_top_label_right_most_of_the_time_is_predicted():
    scores, truth = sparse_rows(3000, 20, right=0.8, seed=2)
    chosen = tuned(scores, truth)
    pred = bp.apply(scores, chosen)
    assert pred.sum(axis=1).mean() >= 0.9
    assert hamming_loss(truth, pred) < 0.5 * truth.mean()


def test_a_win_smaller_than_its_noise_does_not_count():
    """One error fewer than the empty prediction over 200 rows, with errors scattered: not a
    win by one standard error. Twenty rows fixed and no error added: a win."""
    truth = np.zeros((200, 5), dtype=np.uint8)
    truth[:, 0] = 1
    noisy = np.zeros_like(truth)
    noisy[:41, 0] = 1  # 41 errors fewer
    noisy[:40, 1] = 1  # 40 errors more, on the same rows
    assert hamming_loss(truth, noisy) < truth.mean()
    assert not bp.beats_empty(truth, noisy)
    clean = np.zeros_like(truth)
    clean[:20, 0] = 1
    assert bp.beats_empty(truth, clean)
    assert bp.beats_empty(truth, np.zeros_like(truth))


def test_any_cut_that_beats_the_empty_prediction_outranks_any_that_does_not():
    scores, truth = sparse_rows(1000, 10, right=0.6, seed=3)
    options = bp.candidates("auto", None, 1, with_top=True)
    values = {option: bp.guarded_accuracy(truth, bp.apply(scores, option)) for option in options}
    passing = [v for o, v in values.items() if bp.beats_empty(truth, bp.apply(scores, o))]
    failing = [v for o, v in values.items() if not bp.beats_empty(truth, bp.apply(scores, o))]
    assert passing and failing and min(passing) > max(failing)


def test_truth_without_labels_keeps_the_empty_prediction():
    truth = np.zeros((50, 4), dtype=np.uint8)
    scores = np.random.default_rng(4).random(truth.shape)
    assert tuned(scores, truth) == bp.EMPTY


def test_the_empty_prediction_is_a_json_pair_that_predicts_nothing():
    assert bp.EMPTY in bp.candidates("auto", None, 2)
    assert bp.EMPTY not in bp.candidates("threshold", None, 2)
    loaded = bp.Bipartition(*json.loads(json.dumps(list(bp.EMPTY))))
    assert loaded == bp.EMPTY and json.dumps(list(bp.EMPTY)) == '["rcut", 0]'
    assert not bp.apply(np.ones((3, 4)), loaded).any()


def test_a_cut_that_predicts_nothing_here_loses_the_tie_to_the_empty_prediction():
    """Scores below every threshold but 0.10 on the tuning rows: the 0.90 cut predicts nothing
    here as EMPTY does, but would fire on a new row scoring 0.95; EMPTY wins the tie."""
    truth = np.zeros((100, 3), dtype=np.uint8)
    truth[:5, 0] = 1
    scores = np.random.default_rng(5).uniform(0.0, 0.05, truth.shape)
    assert tuned(scores, truth) == bp.EMPTY
    assert bp.candidates("auto", None, 1)[0] == bp.EMPTY


MEASURE_OF_TARGET = {"hamming_loss": "hamming_loss", "accuracy": "accuracy", "f1": "f1",
                     "micro_f1": "micro_f1", "macro_f1": "macro_f1"}
"""The targets named for a measure of ``mlr_core.evaluation.measures``."""


def test_a_target_named_for_a_measure_computes_that_measure():
    """The tuning side's hand-written targets agree with the evaluation's measures (scikit-learn
    based), on cuts with empty rows and labels never true or never predicted."""
    from mlr_core.evaluation.measures import evaluate

    scores, truth = random_case(6)
    truth[:, 0] = 0  # a label never true: its F1 is 1 when never predicted, 0 otherwise
    for option in bp.candidates("auto", None, 2, with_top=True):
        pred = bp.apply(scores, option)
        measured = evaluate(truth, pred)
        for target, measure in MEASURE_OF_TARGET.items():
            value = bp.TARGETS[target](truth, pred)
            expected = 1.0 - measured[measure] if measure == "hamming_loss" else measured[measure]
            assert value == pytest.approx(expected), (target, option)


@pytest.mark.parametrize("seed", [4, 8, 10])
def test_each_measures_own_cut_is_the_best_of_the_cuts_for_it(seed):
    """Tuned on a fixed score matrix, the cut made for a measure scores at least as well on it
    as the cut made for any other target, by the evaluation's measures; and at least one other
    target's cut is strictly worse on it, so the choice matters (on these seeds' noise plus a
    share of the truth the cuts differ; on some others every target picks the same)."""
    from mlr_core.evaluation.measures import LOWER_IS_BETTER, evaluate

    scores, truth = random_case(seed)
    measured = {target: evaluate(truth, bp.apply(scores, tuned(scores, truth, score)))
                for target, score in bp.TARGETS.items()}
    for target, measure in MEASURE_OF_TARGET.items():
        values = {other: m[measure] for other, m in measured.items()}
        sign = -1 if measure in LOWER_IS_BETTER else 1
        assert all(sign * values[target] >= sign * v - 1e-12 for v in values.values()), measure
        assert any(sign * values[target] > sign * v + 1e-9 for v in values.values()), measure


def test_micro_f1_cut_follows_the_pooled_counts():
    """Two labels, one common (half the rows, found cleanly) and one rare (2 rows, found only
    with 10 false alarms, which score higher). Micro-F1 pools the counts and gives the rare
    label up; macro-F1, a mean over labels, pays the false alarms to find it."""
    truth = np.zeros((40, 2), dtype=np.uint8)
    truth[:20, 0] = 1
    truth[:2, 1] = 1
    scores = np.zeros(truth.shape)
    scores[:20, 0] = 0.8
    scores[20:, 0] = 0.05
    scores[:2, 1] = 0.25
    scores[20:30, 1] = 0.3
    options = bp.candidates("threshold", None, 1)
    micro = bp.tune(scores, truth, options, bp.micro_f1)
    macro = bp.tune(scores, truth, options, bp.macro_f1)
    assert micro != macro
    assert bp.micro_f1(truth, bp.apply(scores, micro)) > bp.micro_f1(truth, bp.apply(scores, macro))
    assert bp.macro_f1(truth, bp.apply(scores, macro)) > bp.macro_f1(truth, bp.apply(scores, micro))


def top_unless_empty(scores, truth, target=bp.guarded_accuracy):
    return bp.tune(scores, truth, bp.candidates("top_unless_empty", None, 1), target)


def test_top_unless_empty_leaves_no_row_empty_where_no_training_row_is():
    """The issue's case (every row has a label, the top label right one time in three): the
    guarded default leaves rows empty; `top_unless_empty` gives every row its best label, which
    buys accuracy with Hamming loss (above the empty prediction's here)."""
    scores, truth = sparse_rows(3000, 20, right=1 / 3, seed=1)
    guarded = bp.apply(scores, tuned(scores, truth))
    chosen = top_unless_empty(scores, truth)
    assert chosen.method == "threshold_or_top_floor" and chosen.value[1] == 0.0
    pred = bp.apply(scores, chosen)
    assert (guarded.sum(axis=1) == 0).mean() > 0.5 and pred.sum(axis=1).min() == 1
    assert bp.example_accuracy(truth, pred) > bp.example_accuracy(truth, guarded) + 0.2
    assert hamming_loss(truth, pred) > truth.mean() >= hamming_loss(truth, guarded)


@pytest.mark.parametrize("share", [0.1, 0.3, 0.6])
def test_top_unless_empty_leaves_rows_empty_as_often_as_the_truth_is(share):
    """A share of rows without a label, their scores as noise below the labelled rows' best:
    the floor leaves that share of the tuning rows empty, the rows whose best score is lowest."""
    scores, truth = sparse_rows(1000, 10, right=0.5, seed=7)
    n_empty = int(share * len(truth))
    truth[:n_empty] = 0
    scores[:n_empty] = np.random.default_rng(8).uniform(0.0, 0.3, (n_empty, truth.shape[1]))
    floor = bp.empty_share_floor(scores, truth)
    pred = bp.apply(scores, top_unless_empty(scores, truth))
    assert (pred.sum(axis=1) == 0).mean() == pytest.approx(share, abs=0.002)
    assert scores[pred.sum(axis=1) == 0].max() < floor <= scores[pred.sum(axis=1) > 0].max()


def test_the_default_floors_the_top_fallback_where_the_least_sure_tops_are_wrong():
    """Every row has one label. A quarter score it high with a wrong runner-up at 0.3-0.4 (a
    threshold at or below 0.4 adds that wrong label), a third score it at 0.3-0.4 alone (only
    the top fallback finds it above 0.4), and the rest score their best label at 0.1-0.2, wrong
    four times in five. The best cut is a threshold at 0.4 or above, the top below it, and no label
    for a row whose best label is under 0.2: a floor the tuning finds (`floored_tops`)."""
    rng = np.random.default_rng(3)
    n, m = 2000, 10
    truth = np.zeros((n, m), dtype=np.uint8)
    label = rng.integers(m, size=n)
    truth[np.arange(n), label] = 1
    scores = rng.uniform(0.0, 0.05, size=(n, m))
    other = (label + rng.integers(1, m, size=n)) % m
    group = rng.choice(3, size=n, p=[0.25, 0.35, 0.4])
    rows = np.arange(n)
    sure, alone, weak = group == 0, group == 1, group == 2
    scores[rows[sure], label[sure]] = rng.uniform(0.6, 0.8, size=sure.sum())
    scores[rows[sure], other[sure]] = rng.uniform(0.3, 0.4, size=sure.sum())
    scores[rows[alone], label[alone]] = rng.uniform(0.3, 0.4, size=alone.sum())
    weak_top = np.where(rng.random(n) < 0.2, label, other)[weak]
    scores[rows[weak], weak_top] = rng.uniform(0.1, 0.2, size=weak.sum())
    chosen = tuned(scores, truth)
    assert chosen.method == "threshold_or_top_floor"
    threshold, floor = chosen.value
    assert threshold >= 0.4 and 0.2 <= floor <= 0.3
    pred = bp.apply(scores, chosen)
    assert np.array_equal(pred.sum(axis=1), (~weak).astype(int))  # one label, or none if weak
    assert np.array_equal(pred[~weak], truth[~weak])
    best = bp.guarded_accuracy(truth, pred)
    assert all(bp.guarded_accuracy(truth, option.apply(scores)) < best  # a floor was needed
               for option in bp.candidates("auto", None, 1, with_top=True)
               if option.method != "threshold_or_top_floor")


def test_a_top_floor_cut_keeps_the_best_label_at_or_above_its_floor():
    scores = np.array([[0.2, 0.4, 0.1], [0.1, 0.05, 0.0], [0.6, 0.7, 0.2], [0.0, 0.0, 0.0]])
    floored = bp.Bipartition("threshold_or_top_floor", (0.5, 0.3))
    assert bp.apply(scores, floored).tolist() == [[0, 1, 0], [0, 0, 0], [1, 1, 0], [0, 0, 0]]
    for t in (0.0, 0.5, 0.95):  # a floor of 0 is threshold_or_top
        assert np.array_equal(bp.apply(scores, ("threshold_or_top_floor", (t, 0.0))),
                              bp.apply(scores, ("threshold_or_top", t)))
    saved = json.loads(json.dumps(list(floored)))
    assert saved == ["threshold_or_top_floor", [0.5, 0.3]]
    assert bp.checked(saved, 3) == floored and "at least 0.3" in floored.words()


@pytest.mark.parametrize("value", [(0.3, 0.5), (0.5,), 0.5, (0.5, -0.1), (1.5, 0.2), "0.5"])
def test_a_top_floor_cut_that_cannot_cut_is_refused(value):
    from mlr_core.errors import ModelFormatError

    with pytest.raises(ModelFormatError, match="floor <= threshold"):
        bp.checked(["threshold_or_top_floor", value], 3)


def test_a_threshold_with_a_rank_cut_is_refused_not_ignored():
    from mlr_core import MLRClassifier
    from mlr_core.errors import InputError

    X, Y = np.random.default_rng(9).random((30, 2)), np.eye(2, dtype=int)[np.arange(30) % 2]
    with pytest.raises(InputError, match="'rcut' keeps a number of labels and reads no thresh"):
        MLRClassifier(bipartition="rcut", threshold=0.3).fit(X, Y)


def test_a_model_cut_by_top_unless_empty_saves_loads_and_labels_every_row():
    from mlr_core import MLRClassifier
    from mlr_core.data.synthetic import make_sparse_label_dataset

    data = make_sparse_label_dataset(n_samples=300, n_labels=12, cardinality=1.1, random_state=1)
    model = MLRClassifier(n_iter=1000, bipartition="top_unless_empty", random_state=0)
    model.fit(data.X, data.Y)
    assert model.bipartition_.method == "threshold_or_top_floor"
    assert model.predict(data.X).sum(axis=1).min() == 1  # no training row is empty
    loaded = MLRClassifier.from_json(model.to_json())
    assert loaded.bipartition_ == model.bipartition_
    np.testing.assert_array_equal(loaded.predict(data.X), model.predict(data.X))


def grid_cuts(kind=bp.Threshold, method="threshold"):
    return [kind(method, float(t)) for t in bp.THRESHOLDS]


def test_the_plateau_middle_leaves_a_cliffs_edge():
    """genbase, fold 0: the best threshold 0.80 sat at the edge of a plateau that ran from 0.60
    (values within 2.4 tuning rows of it), 0.85 13 rows below; its test rows had 3 wrong cells
    at 0.80 and 2 at 0.70, the plateau's middle."""
    cuts = grid_cuts()
    rows = 529
    below = {0.6: 2.4, 0.65: 2.4, 0.7: 2.4, 0.75: 1.3, 0.8: 0.0, 0.85: 12.9, 0.9: 19.7}
    values = np.array([-below.get(round(c.threshold, 2), 30.0) / rows for c in cuts])
    assert bp.plateau_middle(cuts, values, 0.0).threshold == 0.8  # no tolerance: the best
    assert bp.plateau_middle(cuts, values, 2.0 / rows).threshold == 0.8  # 0.75 alone: even run
    assert bp.plateau_middle(cuts, values, 3.0 / rows).threshold == 0.7  # 0.60-0.80
    assert bp.plateau_middle(cuts, values, 15.0 / rows).threshold == 0.75  # 0.60-0.85: even,
    # the better of the two middle ones


def test_a_plateau_is_one_kind_of_cut_and_contiguous():
    plain, tops = grid_cuts(), grid_cuts(bp.ThresholdOrTop, "threshold_or_top")
    values = np.full(2 * len(plain), -1.0)
    at = {round(float(t), 2): i for i, t in enumerate(bp.THRESHOLDS)}
    values[len(plain) + at[0.5]] = 0.0  # the best: a top fallback at 0.5
    values[[at[0.3], at[0.4], at[0.45]]] = -0.0005  # near, but plain thresholds: another kind
    values[len(plain) + at[0.55]] = values[len(plain) + at[0.7]] = -0.001  # 0.6 breaks the run
    best = bp.plateau_middle(plain + tops, values, 0.01)
    assert isinstance(best, bp.ThresholdOrTop) and best.threshold == 0.5  # 0.50-0.55
    values[len(plain) + at[0.45]] = -0.001
    assert bp.plateau_middle(plain + tops, values, 0.01).threshold == 0.5  # 0.45-0.55


def test_a_model_with_plateau_rows_cuts_at_its_plateaus_middle(shared_datasets_dir):
    from mlr_core import MLRClassifier, TrainingSession, load_dataset

    data = load_dataset(shared_datasets_dir / "genbase.arff")
    model = MLRClassifier(random_state=0, plateau_rows=0)
    session = TrainingSession(model).fit(data.X[::2], data.Y[::2])
    scores, truth = session.tuning_scores()
    options = session.cut_options()
    values = np.array([bp.guarded_accuracy(truth, bp.apply(scores, o)) for o in options])
    assert model.bipartition_ == options[int(np.argmax(values))]  # 0: the best
    expected = bp.plateau_middle(options, values, 8 / len(truth))
    assert expected != model.bipartition_  # here the plateau moves the cut (0.3 -> 0.45)
    model.set_params(plateau_rows=8)
    session.tune_bipartition()
    assert model.bipartition_ == expected


def test_the_hamming_loss_plateau_is_measured_in_rows_of_labels():
    """A row's worth of the Hamming loss is its cardinality's cells (density / n), not a whole
    row of m cells (1 / n): with 1 / n CAL500's Hamming-loss cut moved off its best to a cut
    with a higher test Hamming loss (``docs/field.md``, "The cut at its plateau's middle")."""
    rng = np.random.default_rng(0)
    truth = (rng.random((400, 20)) < 0.1).astype(np.uint8)
    scores = np.clip(0.35 * truth + 0.75 * rng.random(truth.shape), 0, 1)
    options = bp.candidates("threshold", None, 2, with_top=False)
    values = np.array([bp.label_agreement(truth, bp.apply(scores, o)) for o in options])
    best = options[int(np.argmax(values))]
    assert bp.plateau_middle(options, values, 8 / 400) != best  # a whole row's worth moves it
    row = truth.mean() / 400
    assert bp.row_worth(bp.label_agreement, truth) == pytest.approx(row)
    assert bp.tune(scores, truth, options, bp.label_agreement, 8) == bp.plateau_middle(
        options, values, 8 * row) == best
    assert bp.row_worth(bp.guarded_accuracy, truth) == 1 / 400


def test_a_model_saved_before_plateau_rows_existed_loads_with_the_cut_it_was_tuned_by():
    """Files written before ``plateau_rows`` was a parameter cut at the best point (0): loaded,
    they say so (a later retune keeps that cut, not the new default) and predict as saved."""
    from mlr_core import MLRClassifier

    rng = np.random.default_rng(0)
    X = rng.random((300, 4))
    Y = ((X[:, :3] + 0.3 * rng.standard_normal((300, 3))) > 0.6).astype(np.uint8)
    model = MLRClassifier(n_rules=200, n_iter=2000, plateau_rows=0.0, random_state=0).fit(X, Y)
    old = json.loads(model.to_json())
    del old["params"]["plateau_rows"]
    loaded = MLRClassifier.from_json(json.dumps(old))
    assert loaded.plateau_rows == 0 and loaded.to_json() == model.to_json()
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    assert MLRClassifier().plateau_rows == 8  # what a file without it would otherwise get
