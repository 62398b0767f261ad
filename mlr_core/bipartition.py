"""Votes to labels: normalising the votes into scores, cutting the scores by threshold or by rank
(MLR_agg), taking the winning labelset (MLR_max), and choosing the cut on training data.

The choice is one function, `tune`, of (scores, truth, target): which candidates it tries and
which measure it maximises can be replaced without touching the estimator. The default target,
`guarded_accuracy`, is derived in ``docs/field.md`` ("The bipartition").
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from mlr_core.errors import require


class Bipartition(namedtuple("Bipartition", "method value")):
    """How MLR_agg cuts scores: ``("threshold", t)`` keeps the labels scoring at least t;
    ``("threshold_or_top", t)`` the same, or the best-scoring label when none reaches t;
    ``("rcut", k)`` keeps the k best-scoring labels; ``("rcut", 0)`` predicts no label
    (`EMPTY`). A (method, value) pair that answers for itself: ``Bipartition(method, value)``
    is the method's own class (`Threshold`, `ThresholdOrTop`, `RankCut`), which cuts scores
    (``apply``), says so in words (``words``) and writes the cut as Python (``python_lines``)
    and SQL (``sql_picked``) for the exports (``mlr_core/export.py``)."""

    __slots__ = ()

    def __new__(cls, method, value):
        kind = _KINDS.get(method) if cls is Bipartition else cls
        if kind is None:
            raise ValueError(f"unknown bipartition method {method!r}; one of {METHODS}")
        return super().__new__(kind, method, value)

    def __repr__(self) -> str:
        return f"Bipartition(method={self.method!r}, value={self.value!r})"

    @property
    def value_text(self) -> str:
        """The value as a program reads it back exactly."""
        return repr(self.number(self.value))

    def checked(self, n_labels: int) -> Bipartition:
        """This cut with its value's own type, refused (ModelFormatError) unless it can cut
        the scores of ``n_labels`` labels."""
        refusal = self.refusal(n_labels)
        require(refusal is None, refusal)
        return type(self)(self.method, self.number(self.value))


class Threshold(Bipartition):
    __slots__ = ()

    number = float

    @property
    def threshold(self) -> float:
        """The score a label needs to be picked."""
        return float(self.value)

    @property
    def line(self) -> float:
        """The score a chart draws as the cut: the threshold."""
        return self.threshold

    def refusal(self, n_labels: int) -> str | None:
        if isinstance(self.value, (int, float)) and 0.0 <= float(self.value) <= 1.0:
            return None
        return f"a threshold must lie in [0, 1], got {self.value!r}."

    def apply(self, scores: np.ndarray) -> np.ndarray:
        return by_threshold(scores, self.threshold)

    def words(self) -> str:
        return f"a threshold: the labels scoring at least {self.threshold!r}"

    def python_lines(self) -> list[str]:
        """The body of ``chosen(scores)`` in the exported Python: the picked label indices."""
        return [f"    picked = [j for j, score in enumerate(scores) if score >= "
                f"{self.threshold!r}]", "    return picked"]

    def sql_picked(self, number, place: str) -> tuple[str, str]:
        """(the SQL expression that is 1 for a picked label of the ``long`` table (k, j,
        score), what it picks in words); ``number`` writes a float, ``place`` is the label's
        rank within its row."""
        return (f"CASE WHEN score >= {number(self.threshold)} THEN 1 ELSE 0 END",
                "1 for the labels at or above the threshold")


class ThresholdOrTop(Threshold):
    __slots__ = ()

    floor = 0.0
    """The score the best label needs when no label reaches the threshold (beyond above 0)."""

    def apply(self, scores: np.ndarray) -> np.ndarray:
        return or_top(by_threshold(scores, self.threshold), scores, self.floor)

    def _fallback_words(self) -> str:
        return "above 0" if self.floor == 0.0 else f"at least {self.floor!r}"

    def words(self) -> str:
        return (f"{super().words()}; when none does, the best-scoring one (the earlier label on "
                f"ties) if it scores {self._fallback_words()} (top fallback)")

    def python_lines(self) -> list[str]:
        floor = f" and max(scores) >= {self.floor!r}" if self.floor else ""
        return [*super().python_lines()[:-1], f"    if not picked and max(scores) > 0.0{floor}:",
                "        picked = [scores.index(max(scores))]", "    return picked"]

    def sql_picked(self, number, place: str) -> tuple[str, str]:
        best, t = "MAX(score) OVER (PARTITION BY k)", number(self.threshold)
        floor = f" AND {best} >= {number(self.floor)}" if self.floor else ""
        return (f"CASE WHEN score >= {t} OR ({best} < {t} AND {best} > 0.0e0{floor} AND "
                f"{place} = 1) THEN 1 ELSE 0 END",
                "1 for the labels at or above the threshold, else for the best one scoring "
                + self._fallback_words())


def _threshold_and_floor(value) -> tuple[float, float]:
    return float(value[0]), float(value[1])


class ThresholdOrTopFloor(ThresholdOrTop):
    """``("threshold_or_top_floor", (t, floor))``: `ThresholdOrTop` whose fallback needs the
    best label to score at least ``floor``: below it the row is left empty, as the scores say
    no label is likely (the floor set by `empty_share_floor`, or tuned: `floored_tops`)."""

    __slots__ = ()

    number = staticmethod(_threshold_and_floor)

    @property
    def threshold(self) -> float:
        return float(self.value[0])

    @property
    def floor(self) -> float:
        return float(self.value[1])

    def refusal(self, n_labels: int) -> str | None:
        value = self.value
        if (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, (int, float)) for v in value)
                and 0.0 <= float(value[1]) <= float(value[0]) <= 1.0):
            return None
        return ("a threshold_or_top_floor bipartition is [threshold, floor] with "
                f"0 <= floor <= threshold <= 1, got {value!r:.60}.")


class RankCut(Bipartition):
    __slots__ = ()

    number = int
    line = None  # no score line: the cut is a number of labels

    def refusal(self, n_labels: int) -> str | None:
        if isinstance(self.value, int) and 0 <= self.value <= n_labels:
            return None
        return f"an rcut bipartition keeps 0..{n_labels} labels, got {self.value!r}."

    def apply(self, scores: np.ndarray) -> np.ndarray:
        return by_rank(scores, self.value)

    def words(self) -> str:
        if self.value == 0:
            return "no label (a rank cut at 0 labels)"
        best = ("the best-scoring label" if self.value == 1
                else f"the {self.value} best-scoring labels")
        return (f"a rank cut: {best} (the earlier label first on ties), each only if it "
                "scores above 0")

    def python_lines(self) -> list[str]:
        return ["    order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)",
                f"    return [j for j in sorted(order[:{int(self.value)}]) if scores[j] > 0.0]"]

    def sql_picked(self, number, place: str) -> tuple[str, str]:
        return (f"CASE WHEN {place} <= {int(self.value)} AND score > 0.0e0 THEN 1 ELSE 0 END",
                "1 for the best-scoring labels above 0 (the earlier label first on ties)")


_KINDS = {"threshold": Threshold, "threshold_or_top": ThresholdOrTop,
          "threshold_or_top_floor": ThresholdOrTopFloor, "rcut": RankCut}

METHODS = tuple(_KINDS)

EMPTY = Bipartition("rcut", 0)
"""No label for any row: the baseline a cut must beat in Hamming loss (`guarded_accuracy`)."""

THRESHOLDS = np.round(np.arange(0.10, 0.9001, 0.05), 2)
"""The thresholds `tune` tries when none is given: 0.10, 0.15, ..., 0.90."""


def normalise(label_votes: np.ndarray, total: np.ndarray, norm: str) -> np.ndarray:
    """Scores in [0, 1]: a label's share of the total vote (``"total"``) or of the top label's
    vote (``"max"``, the authors' code)."""
    denom = total if norm == "total" else label_votes.max(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = label_votes / denom[:, None]
    return np.nan_to_num(scores, nan=0.0)


def by_threshold(scores: np.ndarray, threshold: float) -> np.ndarray:
    """Labels whose score reaches the threshold."""
    return (scores >= threshold).astype(np.uint8)


def by_rank(scores: np.ndarray, k: int) -> np.ndarray:
    """The k best-scoring labels (RCut); ties broken by label order. Zero-score labels never
    count (they are outside the union of the voters' labelsets)."""
    out = np.zeros(scores.shape, dtype=np.uint8)
    if k <= 0:
        return out
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    np.put_along_axis(out, top, 1, axis=1)
    return out & (scores > 0)


def or_top(labels: np.ndarray, scores: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """``labels``, with the best-scoring label added to rows that have none and whose best score
    is above 0 and at least ``floor``: an empty answer scores 0 in accuracy and F1 whenever the
    truth is not empty."""
    best = scores.max(axis=1, initial=0.0)
    empty = (labels.sum(axis=1) == 0) & (best > 0) & (best >= floor)
    labels[empty, scores[empty].argmax(axis=1)] = 1
    return labels


def apply(scores: np.ndarray, bipartition) -> np.ndarray:
    """MLR_agg's 0/1 labels from scores, by a bipartition or a (method, value) pair."""
    return Bipartition(*bipartition).apply(scores)


def checked(value, n_labels: int) -> Bipartition:
    """A saved bipartition, refused unless it can cut scores (ModelFormatError): a threshold in
    [0, 1] or RCut at 0..n_labels labels (0: no label, `EMPTY`)."""
    require(isinstance(value, list) and len(value) == 2 and value[0] in METHODS,
            f"bipartition must be [method, value] with method one of {', '.join(METHODS)}.")
    return Bipartition(*value).checked(n_labels)


def words(bipartition) -> str:
    """Which labels ``bipartition`` keeps, in words and numbers (what `apply` does, ties
    included): the one phrasing of the cut for every place that shows or exports a
    prediction. Thresholds print exactly (``repr``)."""
    return Bipartition(*bipartition).words()


def max_labels(chosen: np.ndarray, labelsets: np.ndarray) -> np.ndarray:
    """MLR_max's labels: row i is ``labelsets[chosen[i]]``, the empty labelset where
    ``chosen[i] < 0`` (no rule voted, as in an empty population)."""
    labels = np.zeros((len(chosen), labelsets.shape[1]), dtype=np.uint8)
    voted = chosen >= 0
    labels[voted] = labelsets[chosen[voted]]
    return labels


class _RowCounts(namedtuple("_RowCounts", "true predicted hits")):
    """Per row: true labels, predicted labels, labels both true and predicted. Every measure
    below but `macro_f1` follows from them (each is written once, on the counts), so that `tune`
    can score a cut from its counts without making its labels (`_CutCounts`: its candidates
    are many, `floored_tops`)."""

    __slots__ = ()

    @classmethod
    def of(cls, truth: np.ndarray, pred: np.ndarray) -> _RowCounts:
        return cls(truth.sum(axis=1, dtype=np.int64), pred.sum(axis=1, dtype=np.int64),
                   (truth & pred).sum(axis=1, dtype=np.int64))

    @property
    def errors(self) -> np.ndarray:
        """Per row: labels predicted wrong, either way."""
        return self.true + self.predicted - 2 * self.hits


def example_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """Mean per-instance F1 (1 when both sets are empty). By hand because scikit-learn's
    ``average="samples"`` refuses a single label column, which is legal here."""
    return _f1(_RowCounts.of(truth, pred), truth.size)


def _f1(counts: _RowCounts, cells: int) -> float:
    sizes = counts.true + counts.predicted
    return float(np.where(sizes > 0, 2 * counts.hits / np.maximum(sizes, 1), 1.0).mean())


def example_accuracy(truth: np.ndarray, pred: np.ndarray) -> float:
    """Mean per-instance Jaccard index ``|h & L| / |h | L|`` (1 when both sets are empty)."""
    return _accuracy(_RowCounts.of(truth, pred), truth.size)


def _accuracy(counts: _RowCounts, cells: int) -> float:
    union = counts.true + counts.predicted - counts.hits
    return float(np.where(union > 0, counts.hits / np.maximum(union, 1), 1.0).mean())


def label_agreement(truth: np.ndarray, pred: np.ndarray) -> float:
    """1 - Hamming loss: the fraction of label bits predicted right."""
    return _agreement(_RowCounts.of(truth, pred), truth.size)


def _agreement(counts: _RowCounts, cells: int) -> float:
    return (cells - int(counts.errors.sum())) / cells


def micro_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """F1 of the true and false positives and negatives pooled over all labels (1 when there
    are none of the first three): one threshold for every label moves all of them at once."""
    return _micro_f1(_RowCounts.of(truth, pred), truth.size)


def _micro_f1(counts: _RowCounts, cells: int) -> float:
    hits, wrong = 2 * int(counts.hits.sum()), int(counts.errors.sum())
    return hits / (hits + wrong) if hits + wrong else 1.0


def macro_f1(truth: np.ndarray, pred: np.ndarray) -> float:
    """Mean over labels of each label's F1 (1 for a label with no true or predicted row, as
    ``mlr_core.evaluation.measures.macro_f1``)."""
    hits = 2 * (truth & pred).sum(axis=0)
    wrong = (truth != pred).sum(axis=0)
    return float(np.where(hits + wrong > 0, hits / np.maximum(hits + wrong, 1), 1.0).mean())


def balanced(truth: np.ndarray, pred: np.ndarray) -> float:
    """Example-based accuracy minus 3 x Hamming loss: the default before `guarded_accuracy`,
    the factor chosen on the five shared datasets (``docs/field.md``)."""
    return _balanced(_RowCounts.of(truth, pred), truth.size)


def _balanced(counts: _RowCounts, cells: int) -> float:
    return _accuracy(counts, cells) - 3.0 * (1.0 - _agreement(counts, cells))


def beats_empty(truth: np.ndarray, pred: np.ndarray) -> bool:
    """Whether ``pred`` makes fewer label errors than predicting no label by at least one
    standard error of the paired per-row difference (the one-standard-error rule, Hastie et al.,
    The Elements of Statistical Learning, 2nd ed., section 7.10): a cut chosen among many on
    these rows must win by more than their noise to be trusted on new rows. The empty prediction
    itself passes."""
    return _beats_empty(_RowCounts.of(truth, pred))


def _beats_empty(counts: _RowCounts) -> bool:
    if not counts.predicted.any():
        return True
    gain = counts.errors - counts.true  # per row: errors minus the empty prediction's
    spread = gain.std(ddof=1) / np.sqrt(len(gain)) if len(gain) > 1 else 0.0
    return bool(gain.mean() + spread <= 0)


def guarded_accuracy(truth: np.ndarray, pred: np.ndarray) -> float:
    """Example-based accuracy minus the Hamming loss in units of the empty prediction's (the
    label density), for cuts that `beats_empty`; any other cut scores below every such cut
    (below -2, lower the more errors it makes).

    Why this exchange rate: a label found adds about 1/cardinality to a row's accuracy, a wrong
    bit costs 1/m of the row's Hamming loss. Dividing the Hamming loss by the density
    (cardinality / m) prices a wrong bit like a label found, at any density; a fixed factor (3
    in `balanced`) makes wrong bits ever cheaper (3/m against 1/cardinality) as labels get
    sparse, until a top label right one time in three pays for two wrong bits in three rows.
    With no label in ``truth`` only the Hamming loss counts."""
    return _guarded(_RowCounts.of(truth, pred), truth.size)


def _guarded(counts: _RowCounts, cells: int) -> float:
    """`guarded_accuracy` of a cut's per-row counts on ``cells`` label cells."""
    errors = 1.0 - _agreement(counts, cells)
    density = int(counts.true.sum()) / cells
    if density == 0.0:
        return -errors
    relative = errors / density
    if not _beats_empty(counts):
        return -2.0 - relative
    return _accuracy(counts, cells) - relative


_FROM_COUNTS = {guarded_accuracy: _guarded, balanced: _balanced, label_agreement: _agreement,
                example_f1: _f1, example_accuracy: _accuracy, micro_f1: _micro_f1}
"""The targets `tune` scores from a cut's per-row counts (`_CutCounts`) without making its
labels: every one but `macro_f1`, which needs per-label counts."""

TARGETS = {"guarded": guarded_accuracy, "balanced": balanced, "hamming_loss": label_agreement,
           "f1": example_f1, "accuracy": example_accuracy, "micro_f1": micro_f1,
           "macro_f1": macro_f1}
"""What `tune` can maximise, by the estimator's ``target`` names (higher is better for each;
by hand, like `example_f1`, so that one label column works)."""


def empty_share_floor(scores: np.ndarray, truth: np.ndarray) -> float:
    """The best-label score below which `top_unless_empty` leaves a row empty: the quantile of
    the rows' best scores at the share of rows whose true label set is empty, so that the
    rows whose scores say least for any label are left empty as often as the truth is empty,
    and never when no row of ``truth`` is (0: every row with a score above 0 gets its best
    label)."""
    share = float((truth.sum(axis=1) == 0).mean()) if len(truth) else 0.0
    return 0.0 if share == 0.0 else float(np.quantile(scores.max(axis=1, initial=0.0), share))


def candidates(method: str, threshold: float | None, k: int,
               with_top: bool = False) -> list[Bipartition]:
    """What `tune` may choose from for the estimator's ``bipartition`` and ``threshold``
    parameters: the given threshold or all of `THRESHOLDS` (each also as
    ``threshold_or_top`` when ``with_top``, and then as ``threshold_or_top_floor`` with each
    lower one of `THRESHOLDS` as its floor: `floored_tops`), plus `EMPTY` (first, so that it
    wins ties) and RCut at k for ``"auto"``; RCut alone for ``"rcut"``; for
    ``"top_unless_empty"`` each threshold as ``threshold_or_top_floor`` whose floor `tune`
    sets by `empty_share_floor` (None until then)."""
    if method == "rcut":
        return [Bipartition("rcut", int(k))]
    thresholds = THRESHOLDS if threshold is None else [threshold]
    if method == "top_unless_empty":
        return [Bipartition("threshold_or_top_floor", (float(t), None)) for t in thresholds]
    kinds = ("threshold", "threshold_or_top") if with_top else ("threshold",)
    found = [Bipartition(kind, float(t)) for t in thresholds for kind in kinds]
    if with_top:  # after the floorless cuts, which win their ties
        found += floored_tops(thresholds)
    if method == "auto":  # EMPTY first: a cut that predicts nothing on the tuning rows ties
        found = [EMPTY, *found, Bipartition("rcut", int(k))]  # with it and may not elsewhere
    return found


def floored_tops(thresholds) -> list[Bipartition]:
    """Each threshold as ``threshold_or_top_floor`` with each lower one of `THRESHOLDS` as the
    floor its top fallback needs: a row whose best label scores below the floor is left empty.
    Why the target chooses the floor: where every row has a label but the scores are weak, the
    best label of the least sure rows is more often wrong than right, and `guarded_accuracy`
    prices each wrong bit like a found label; no floor at all is ``threshold_or_top``, the top
    for every row, and a floor at the threshold is ``threshold``, the top for none. Measured
    in ``docs/field.md`` ("A floor for the top fallback")."""
    return [Bipartition("threshold_or_top_floor", (float(t), float(floor)))
            for t in thresholds for floor in THRESHOLDS if floor < t]


def _floor_unset(option: Bipartition) -> bool:
    return option.method == "threshold_or_top_floor" and option.value[1] is None


def needs_scores(options: list[Bipartition]) -> bool:
    """Whether `tune` reads the scores to choose among ``options`` (more than one, or a floor
    still to set)."""
    return len(options) > 1 or any(map(_floor_unset, options))


def tune(scores: np.ndarray, truth: np.ndarray, options: list[Bipartition],
         target=example_f1, plateau_rows: float = 0.0) -> Bipartition:
    """The option whose labels score best by ``target(truth, labels)`` (the first on ties),
    a floor left None (`candidates`) set by `empty_share_floor` of these rows. With
    ``plateau_rows``, the middle of the best one's plateau instead (`plateau_middle`), within
    that many rows' worth of the target (`row_worth`)."""
    if any(map(_floor_unset, options)):
        floor = empty_share_floor(scores, truth)
        options = [Bipartition(o.method, (o.value[0], floor)) if _floor_unset(o) else o
                   for o in options]
    if len(options) == 1:
        return options[0]
    from_counts = _FROM_COUNTS.get(target)
    if from_counts is None:
        values = [target(truth, apply(scores, option)) for option in options]
    else:
        cuts = _CutCounts(scores, truth)
        values = [from_counts(cuts.of(option), truth.size) for option in options]
    return plateau_middle(options, np.asarray(values, dtype=np.float64),
                          plateau_rows * row_worth(target, truth))


def row_worth(target, truth: np.ndarray) -> float:
    """How much of ``target`` one of these ``truth`` rows is worth, the unit of `tune`'s
    ``plateau_rows``: 1/n of a measure averaged over rows (accuracy, F1, the guarded and
    balanced targets) or pooled over them (micro- and macro-F1), where a row with its labels
    missed costs about 1/n; the label density / n of the Hamming loss, where the same row costs
    its cardinality's cells, cardinality / m of the row (``docs/field.md``, "The cut at its
    plateau's middle": with 1/n the Hamming-loss target's cut on CAL500 moved to a cut with
    higher test Hamming loss and accuracy 0.21 -> 0.12)."""
    rows = max(len(truth), 1)
    return float(truth.mean()) / rows if target is label_agreement and truth.size else 1.0 / rows


def _place(option: Bipartition) -> tuple | None:
    """(kind and floor, threshold) of a cut by a threshold, else None."""
    if isinstance(option, ThresholdOrTop):
        return (type(option), option.floor), option.threshold
    if isinstance(option, Threshold):
        return (type(option), None), option.threshold
    return None


def plateau_middle(options: list[Bipartition], values: np.ndarray,
                   tolerance: float) -> Bipartition:
    """The best of ``options`` by ``values`` (the first on ties), or, with a ``tolerance``, the
    middle of its plateau: the run of neighbouring thresholds on `THRESHOLDS`, of the best
    one's kind and floor, whose values are within ``tolerance`` of the best (the better of the
    two middle ones when the run is even). On a few hundred tuning rows the target is flat to
    within a row or two over several thresholds and then falls off a cliff, and its argmax may
    sit on the edge; the middle of what the rows cannot tell apart is the safer cut on new
    rows (``docs/field.md``, "The cut at its plateau's middle")."""
    best = int(np.argmax(values))
    place = _place(options[best])
    grid = [float(t) for t in THRESHOLDS]
    # no tolerance, a cut not by a threshold, or a fixed threshold off the grid: nothing to widen
    if tolerance <= 0 or place is None or place[1] not in grid:
        return options[best]
    kind, at = place
    near = {}
    for i, option in enumerate(options):
        other = _place(option)
        if other is not None and other[0] == kind and values[i] >= values[best] - tolerance:
            near.setdefault(other[1], i)
    low = high = grid.index(at)
    while low > 0 and grid[low - 1] in near:
        low -= 1
    while high < len(grid) - 1 and grid[high + 1] in near:
        high += 1
    middle = [near[grid[(low + high) // 2]], near[grid[(low + high + 1) // 2]]]
    return options[max(middle, key=lambda i: values[i])]


class _CutCounts:
    """The per-row counts (`_RowCounts`) of each option's labels on these rows, without making
    most of the labels: a threshold's labels are counted once, and each top fallback under it
    (with or without a floor: `floored_tops`, five times as many candidates) only adds the best
    label to the rows it fills. The same counts as ``_RowCounts.of(truth, option.apply(scores))``
    (the top is the first best-scoring label, as `or_top` picks it)."""

    def __init__(self, scores: np.ndarray, truth: np.ndarray):
        self.scores, self.truth = scores, truth
        self.true = truth.sum(axis=1, dtype=np.int64)
        self.best = scores.max(axis=1, initial=0.0)
        self.top_true = np.zeros(len(truth), dtype=np.int64)  # 1 where the top label is true
        if scores.shape[1]:
            self.top_true[:] = truth[np.arange(len(truth)), scores.argmax(axis=1)]
        self._under = {}

    def of(self, option: Bipartition) -> _RowCounts:
        if not isinstance(option, Threshold):
            return _RowCounts.of(self.truth, option.apply(self.scores))
        if option.threshold not in self._under:
            labels = by_threshold(self.scores, option.threshold)
            self._under[option.threshold] = _RowCounts.of(self.truth, labels)
        counts = self._under[option.threshold]
        if not isinstance(option, ThresholdOrTop):
            return counts
        filled = ((counts.predicted == 0) & (self.best > 0)
                  & (self.best >= option.floor)).astype(np.int64)
        return _RowCounts(counts.true, counts.predicted + filled,
                          counts.hits + filled * self.top_true)
