"""Auditing a rule set on data: which rules decide the predictions, how few rules cover how much
of the data, a compacted rule set that predicts the same, and exports of a chosen set of rules.

Words used here (the model's own voting, ``mlr_core/_engine/voting.py``, defines the first two):

- A rule *matches* a row when the row lies in its hyper-rectangle.
- The *voters* of a row are the rules whose votes make its prediction: the rules matching it (only
  the experienced ones when ``min_vote_experience`` applies), or its ``n_nearest`` nearest rules
  when none matches. A voter's *weight* is F * num, what it adds to the vote.
- A voter's *contribution* to the row's prediction: with MLR_agg, its weight times the number of
  predicted labels its labelset advocates; with MLR_max, its weight if its labelset is the
  predicted labelset, else 0 (MLR_max picks a whole labelset).
- With fitted rule weights (``weighting="fitted"``), MLR_agg's voters are the matching rules
  only (a row no rule matches gets the intercept), a rule's *weight* is the sum of its absolute
  label weights, and its *contribution* is how far it pushes the row's scores towards the
  predicted labelling: the sum of its weights for the predicted labels minus those for the
  others.
- The rule that *decides* a row is its voter of largest contribution (ties: the heavier voter,
  then the lower rule id). When no voter contributes (an empty prediction), the heaviest voter
  decides. Every row with a voter has exactly one deciding rule.

Rule ids are the model's (``RuleSet.rule_ids``): the ``rule_id`` index of
``model.rules_frame()``, for a compact model the ids its rules have in the full model. The audit
predicts and compacts through the rule set (`RuleSet.subset`), so what it measures is exactly
what the model predicts.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import norm

from mlr_core._engine.matching import match_matrix, match_set
from mlr_core.errors import InputError


class AuditedRows:
    """Rows as the engine's kernels read them, on the rules' [0, 1] axes, with what each model
    predicts for them, each computed once: an audit reads them about ten times, and scaling
    ohsumed's 11,000 training rows took 0.1-0.2 s and 89 MB each time. Every function here that
    takes X takes these too."""

    def __init__(self, scaled: np.ndarray):
        self.scaled = scaled
        self._labels: dict = {}

    @classmethod
    def of(cls, model, X) -> AuditedRows:
        """X as ``model`` reads it (``model._scaled``), or X itself if it is already so."""
        return X if isinstance(X, AuditedRows) else cls(model._scaled(X))

    @classmethod
    def bound(cls, model) -> AuditedRows:
        """The training rows ``model`` has bound (as ``fit`` and ``start`` leave them), read
        where they are."""
        if not model.run_.bound:
            raise InputError("No training rows are bound to this model (a loaded model has "
                             "none): pass the rows to audit.")
        return cls(model.run_.X)

    def labels(self, model, mode: str) -> np.ndarray:
        """The 0/1 labels (uint8) ``model`` predicts for these rows by ``mode``, as its
        ``predict``: its rule set's on the scaled rows (a compact model's rules live on the
        same axes as the full model's)."""
        key = (id(model), mode)  # the model is kept beside its labels: its id stays its own
        if key not in self._labels:
            labels = model._rule_set_for(mode).labels_scaled(self.scaled, mode)
            self._labels[key] = (model, np.asarray(labels).astype(np.uint8))
        return self._labels[key][1]


@dataclass(frozen=True)
class RowRules:
    """Per row of the audited data, its voters and the rules matching it (by rule id), as
    compressed rows: row r's voters are ``voter_ids[voter_start[r]:voter_start[r + 1]]``
    (likewise matches); ``rule_ids`` are all the rule set's ids, ascending."""

    voter_start: np.ndarray
    voter_ids: np.ndarray
    match_start: np.ndarray
    match_ids: np.ndarray
    covered: np.ndarray
    rule_ids: np.ndarray

    def voters(self, row: int) -> np.ndarray:
        return self.voter_ids[self.voter_start[row]:self.voter_start[row + 1]]

    def positions(self, ids) -> np.ndarray:
        """Where rules ``ids`` are in the rule set (what per-rule arrays are indexed by)."""
        return np.searchsorted(self.rule_ids, ids)

    def counts(self, ids) -> np.ndarray:
        """How often each rule, in ``rules_frame()`` order, occurs in ``ids`` (``match_ids``:
        the rows it matches)."""
        return np.bincount(self.positions(ids), minlength=len(self.rule_ids))


@dataclass(frozen=True)
class Trimmed:
    """A smaller rule set: the rules deciding some row of the data it was compacted on, plus
    (unless compacted with ``keep_predictions=False``) the rules that keep every prediction on
    that data as the full model's.

    Attributes
    ----------
    model : MLRClassifier
        The compacted model: the full model with only the kept rules (``model.subset``).
    kept : ndarray
        Rule ids (of the full model) kept, ascending.
    deciding : ndarray
        Rule ids that decide at least one row; all of them are kept.
    """

    model: object
    kept: np.ndarray
    deciding: np.ndarray

    @property
    def restored(self) -> np.ndarray:
        """Kept rules that decide no row: voters put back because without them some row's
        prediction changed (a label's share of the vote crossed the threshold, say)."""
        return np.setdiff1d(self.kept, self.deciding)


@dataclass(frozen=True)
class Audit:
    """Everything :func:`audit` finds; :mod:`mlr_core.audit_report` renders it as HTML.

    Attributes
    ----------
    summary : dict
        The headline numbers (see :func:`audit`).
    rules : DataFrame
        ``rules_frame()`` plus ``n_matched``, ``n_voted``, ``n_decided``, ``decided_share`` and
        ``kept`` (in the compacted set), most decisive first (:func:`rule_decisions`).
    curve : DataFrame
        :func:`coverage_curve`.
    compaction : Trimmed
        Same predictions on the audited data (``trim(keep_predictions=True)``).
    deciding : Trimmed
        The deciding rules alone (``trim(keep_predictions=False)``).
    measures : DataFrame
        One row per measure; columns ``(data, model)`` with data ``audited`` or ``held-out``
        and model ``full``, ``compact`` or ``deciding``; empty when no labels were given.
    absent_labels : dict
        Per data of ``measures`` (``audited``, ``held-out``): how many labels no row of it
        holds, of ``n_labels``. Macro-F1 counts such a label as 1 where it is not predicted
        either (`macro_f1_note`).
    n_labels : int
        The labels measured (0 when no labels were given).
    """

    summary: dict
    rules: pd.DataFrame
    curve: pd.DataFrame
    compaction: Trimmed
    deciding: Trimmed
    measures: pd.DataFrame
    absent_labels: dict = field(default_factory=dict)
    n_labels: int = 0

    def macro_f1_note(self, names: dict | None = None) -> str:
        """Why macro-F1 may differ between the audited and held-out rows for want of labels,
        in words, each data named as ``names`` maps it (by default as in ``measures``); empty
        when every label occurs in each. On mediamill_small's 500 held-out rows (the
        dashboard's split) it read 0.291 against 0.064 on the training rows: labels absent
        from the fewer rows count as 1."""
        if not any(self.absent_labels.values()):
            return ""
        names = names or {}
        counts = " and ".join(f"{n:,} from the {names.get(data, data)} rows"
                              for data, n in self.absent_labels.items())
        return (f"Macro-F1 averages the F1 of each of the {self.n_labels:,} labels, and counts "
                "as 1 a label that no row holds and the model predicts for none (0/0 = 1, as "
                f"the field's peers are measured). Labels absent: {counts}; where more are "
                "absent, macro-F1 reads higher.")


def row_rules(model, X, prediction=None) -> RowRules:
    """The voters and matching rules of each row of X, found by the engine's own kernels."""
    mode = _mode(model, prediction)
    scaled = AuditedRows.of(model, X).scaled
    rule_set = model._rule_set_for(mode)
    scorer = rule_set.scorer_for(mode)
    buffer = np.empty(rule_set.rules.nspec.shape[0], dtype=np.int64)
    voter_lists, match_lists = [], []
    covered = np.zeros(len(scaled), dtype=bool)
    for r in range(len(scaled)):
        x = scaled[r]  # one dense row, also of sparse rows
        count = match_set(rule_set.rules, x, buffer)
        match_lists.append(buffer[:count].copy())
        voted, covered[r] = scorer.voters(rule_set, x, match_lists[-1], buffer)
        voter_lists.append(voted)
    return RowRules(*_compressed(voter_lists, rule_set.rule_ids),
                    *_compressed(match_lists, rule_set.rule_ids), covered, rule_set.rule_ids)


#: Rows matched at a time by `rows_matched`: its match matrix is rows x rules floats.
COUNT_BLOCK = 1024


def rows_matched(model, X=None) -> np.ndarray:
    """How many rows of X each rule matches, in ``rules_frame()`` order (``population_``: the
    rules the model shows, weights fitted or not); X None: the model's bound training rows,
    read where they are (ohsumed's are 89 MB, and scaling them again would copy them twice).
    Counted on the engine's match matrix a block of rows at a time, not row by row with each
    row's voters as `row_rules` (1-2 s on ohsumed's 11,000 rows)."""
    rules = model.population_
    scaled = (AuditedRows.bound(model) if X is None else AuditedRows.of(model, X)).scaled
    counts = np.zeros(int(rules.size[0]), dtype=np.int64)
    for start in range(0, len(scaled), COUNT_BLOCK):
        counts += np.count_nonzero(match_matrix(rules, scaled[start:start + COUNT_BLOCK]),
                                   axis=0)
    return counts


def _compressed(lists, rule_ids):
    """(row starts, the rule ids of the rules at the positions ``lists`` hold)."""
    starts = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(at) for at in lists], out=starts[1:])
    at = np.concatenate(lists) if lists else np.zeros(0, dtype=np.int64)
    return starts, rule_ids[at.astype(np.int64)]


def _influence(model, mode):
    """Each rule's `~mlr_core.rule_set.Influence`, by position."""
    rule_set = model._rule_set_for(mode)
    return rule_set.scorer_for(mode).influence(rule_set)


def _mode(model, prediction):
    mode = prediction or model.prediction
    if mode not in ("agg", "max"):
        raise InputError(f"prediction must be 'agg' or 'max', got {mode!r}")
    return mode


def deciding_rules(model, X, prediction=None, rows: RowRules | None = None) -> np.ndarray:
    """The id of the rule that decides each row of X (-1 where no rule voted: an empty model).

    Parameters
    ----------
    model : MLRClassifier
        A fitted or loaded model.
    X : array-like of shape (n, d)
    prediction : {"agg", "max"}, optional
        Whose prediction to explain; the model's ``prediction`` by default.
    rows : RowRules, optional
        :func:`row_rules` of the same X, if already computed.
    """
    mode = _mode(model, prediction)
    X = AuditedRows.of(model, X)
    rows = rows if rows is not None else row_rules(model, X, mode)
    predicted = X.labels(model, mode)
    influence = _influence(model, mode)
    weight = influence.weight
    voter_at = rows.positions(rows.voter_ids)
    decided = np.full(len(predicted), -1, dtype=np.int64)
    for r in range(len(predicted)):
        at = voter_at[rows.voter_start[r]:rows.voter_start[r + 1]]
        if len(at) == 0:
            continue
        contribution = influence.contributions(at, predicted[r], mode)
        if not contribution.any():
            contribution = weight[at]
        # largest contribution, then heavier, then lower id (ids ascend with positions)
        order = np.lexsort((at, -weight[at], -contribution))
        decided[r] = rows.rule_ids[at[order[0]]]
    return decided


def rule_decisions(model, X, prediction=None, rows: RowRules | None = None,
                   decided: np.ndarray | None = None) -> pd.DataFrame:
    """``rules_frame()`` with, per rule, how many rows of X it matches (``n_matched``), votes
    for (``n_voted``) and decides (``n_decided``, ``decided_share`` of the rows), sorted most
    decisive first (then most matched, then rule id)."""
    X = AuditedRows.of(model, X)
    rows = rows if rows is not None else row_rules(model, X, prediction)
    if decided is None:
        decided = deciding_rules(model, X, prediction, rows)
    frame = model.rules_frame()
    frame["n_matched"] = rows.counts(rows.match_ids)
    frame["n_voted"] = rows.counts(rows.voter_ids)
    frame["n_decided"] = rows.counts(decided[decided >= 0])
    frame["decided_share"] = frame["n_decided"] / max(len(decided), 1)
    return _most_decisive_first(frame)


def _most_decisive_first(frame):
    return frame.assign(_id=frame.index).sort_values(
        ["n_decided", "n_matched", "_id"], ascending=[False, False, True]
    ).drop(columns="_id")


def coverage_curve(rules: pd.DataFrame, rows: RowRules, decided: np.ndarray) -> pd.DataFrame:
    """How much of the data the first k rules of ``rules`` (in its order, e.g. most decisive
    first) account for, for k = 1 .. number of rules: ``covered``, the fraction of rows some of
    them match, and ``decided``, the fraction of rows one of them decides."""
    n_rows = len(rows.covered)
    rank = np.empty(len(rules), dtype=np.int64)  # by position
    rank[rows.positions(rules.index.to_numpy())] = np.arange(len(rules))
    # the rank at which each row is first matched / decided; rows never matched never count
    first_match = np.full(n_rows, len(rules), dtype=np.int64)
    if len(rows.match_ids):
        owner = np.repeat(np.arange(n_rows), np.diff(rows.match_start))
        np.minimum.at(first_match, owner, rank[rows.positions(rows.match_ids)])
    first_decided = np.full(n_rows, len(rules), dtype=np.int64)
    first_decided[decided >= 0] = rank[rows.positions(decided[decided >= 0])]
    k = np.arange(1, len(rules) + 1)
    covered = np.bincount(first_match, minlength=len(rules) + 1)[:-1].cumsum()
    decides = np.bincount(first_decided, minlength=len(rules) + 1)[:-1].cumsum()
    return pd.DataFrame({
        "n_rules": k,
        "rule_id": rules.index.to_numpy(),
        "covered": covered / max(n_rows, 1),
        "decided": decides / max(n_rows, 1),
    })


def rules_needed(curve: pd.DataFrame, column: str, share: float) -> int:
    """The fewest rules (from the top of ``curve``) that reach ``share`` of the rows in
    ``column`` (``covered`` or ``decided``); -1 if never reached."""
    if curve.empty:
        return 0 if share <= 0 else -1
    reached = np.flatnonzero(curve[column].to_numpy() >= share - 1e-12)
    return int(curve["n_rules"].iloc[reached[0]]) if len(reached) else -1


def _predict_with(model, keep, X_scaled, mode):
    """What the model would predict for the scaled rows with only the rules ``keep`` (bool per
    rule position)."""
    rule_set = model._rule_set_for(mode)
    return rule_set.subset(rule_set.rule_ids[keep]).labels_scaled(X_scaled, mode)


def trim(model, X, prediction=None, keep_predictions=True, rows: RowRules | None = None,
         decided: np.ndarray | None = None) -> Trimmed:
    """Drop the rules that decide no row of X, by default putting back those that keep every
    prediction on X as it was (a compact model of k rules with refitted weights is
    ``mlr_core.compaction.compact``'s, a different thing).

    With ``keep_predictions=False`` that is all: the deciding rules alone, whose predictions may
    differ (with MLR_agg a label's share of the vote moves when its other voters go). Otherwise
    rules are put back until every prediction on X is unchanged: start from the deciding rules,
    plus all voters of rows no rule matches (their nearest rules must stay the nearest); while
    some row's prediction differs from the full model's, give each such row back its missing
    voter of largest contribution (then weight). A row whose voters are all kept votes exactly as
    before, and each pass puts back at least one rule, so this ends, at worst with every voter
    kept. With fitted rule weights every matching rule moves every score a little, so putting
    back keeps most rules; there the other rules are instead dropped one by one, lightest first,
    while no prediction on X changes (``WeightScorer.prune``), then put back as above should
    rounding have moved one. The result is then checked on the model itself: the compacted
    model (``model.subset``) must predict exactly as the full model on X (`AuditedRows.labels`,
    ``predict``'s path past the scaling; a ``RuntimeError`` otherwise, a bug)."""
    mode = _mode(model, prediction)
    X = AuditedRows.of(model, X)
    rows = rows if rows is not None else row_rules(model, X, mode)
    if decided is None:
        decided = deciding_rules(model, X, mode, rows)
    influence = _influence(model, mode)
    keep = np.zeros(len(influence.weight), dtype=bool)  # by position
    keep[rows.positions(decided[decided >= 0])] = True
    deciding = rows.rule_ids[keep]
    if keep_predictions:
        full = X.labels(model, mode)
        rule_set = model._rule_set_for(mode)
        rule_set.scorer_for(mode).prune(rule_set, X.scaled, full, influence.weight, keep)
        _put_back(model, X.scaled, mode, rows, full, influence, keep)
    kept = rows.rule_ids[keep]
    compacted = model.subset(kept)
    if keep_predictions and len(kept) and not np.array_equal(X.labels(compacted, mode), full):
        raise RuntimeError("The compacted model predicts differently from the full one on the "
                           "data it was compacted on; please report this as a bug.")
    return Trimmed(model=compacted, kept=kept, deciding=deciding)


def _put_back(model, scaled, mode, rows, full, influence, keep):
    """Grow ``keep`` (by position, in place) until the kept rules predict ``full`` on the
    ``scaled`` rows (see `trim`)."""
    for r in np.flatnonzero(~rows.covered):
        keep[rows.positions(rows.voters(r))] = True
    while keep.any():
        # every row again: a rule put back for one row also votes in others
        wrong = np.flatnonzero((_predict_with(model, keep, scaled, mode) != full).any(axis=1))
        if not len(wrong):
            return
        for r in wrong:
            at = rows.positions(rows.voters(r))
            missing = at[~keep[at]]
            if not len(missing):  # filled in this pass for an earlier row
                continue
            contribution = influence.contributions(missing, full[r], mode)
            order = np.lexsort((missing, -influence.weight[missing], -contribution))
            keep[missing[order[0]]] = True


def audit(model, X=None, Y=None, X_test=None, Y_test=None, prediction=None) -> Audit:
    """Audit ``model`` on X (its training data, typically): decisions, coverage, the two
    compactions of :func:`trim`, and, when labels are given, the measures of the full model,
    the compacted one (``trim``: same predictions on X) and the deciding rules alone
    (``deciding``) side by side, on X and on the optional held-out ``X_test``. X None: the
    training rows the model has bound, Y their labels (`AuditedRows.bound`: read where they
    are, with no copy scaled again).

    ``summary`` holds: ``prediction``, ``weighting`` (what scored it: ``"fitted"`` rule
    weights or the ``"vote"``), ``how`` (how it is made, the cut included, in words:
    ``RuleSet.prediction_text``), ``n_rows``, ``n_rules``, ``coverage`` (fraction of rows
    some rule matches), ``n_deciding`` (rules deciding at least one row), ``rules_for_50``,
    ``rules_for_80``, ``rules_for_90`` (fewest most-decisive rules deciding that percentage of
    the rows), ``rules_for_coverage`` (fewest most-decisive rules matching every row the whole
    set matches), ``n_compact``, ``n_restored`` (kept rules that decide nothing) and
    ``deciding_agreement`` (fraction of rows of X on which the deciding rules alone predict as
    the full model).
    """
    from mlr_core.evaluation.measures import evaluate

    mode = _mode(model, prediction)
    if X is None:
        X, Y = AuditedRows.bound(model), model.run_.truth() if Y is None else Y
    else:
        X = AuditedRows.of(model, X)
    rows = row_rules(model, X, mode)
    decided = deciding_rules(model, X, mode, rows)
    rules = rule_decisions(model, X, mode, rows, decided)
    curve = coverage_curve(rules, rows, decided)
    compaction = trim(model, X, mode, True, rows, decided)
    deciding = trim(model, X, mode, False, rows, decided)
    rules["kept"] = np.isin(rules.index.to_numpy(), compaction.kept)
    coverage = float(rows.covered.mean()) if len(rows.covered) else 0.0
    models = {"full": model, "compact": compaction.model, "deciding": deciding.model}
    agreement = (X.labels(deciding.model, mode) == X.labels(model, mode)).all(axis=1)
    summary = {
        "prediction": mode,
        "weighting": model._rule_set_for(mode).scorer_for(mode).kind,
        "how": model._rule_set_for(mode).prediction_text(mode),
        "n_rows": len(decided),
        "n_rules": len(rules),
        "coverage": coverage,
        "n_deciding": len(compaction.deciding),
        "rules_for_50": rules_needed(curve, "decided", 0.5),
        "rules_for_80": rules_needed(curve, "decided", 0.8),
        "rules_for_90": rules_needed(curve, "decided", 0.9),
        "rules_for_coverage": rules_needed(curve, "covered", coverage),
        "n_compact": len(compaction.kept),
        "n_restored": len(compaction.restored),
        "deciding_agreement": float(agreement.mean()) if len(agreement) else 1.0,
    }
    measures, absent, n_labels = {}, {}, 0
    for name, (data_X, data_Y) in {"audited": (X, Y), "held-out": (X_test, Y_test)}.items():
        if data_X is not None and data_Y is not None:
            data_X = AuditedRows.of(model, data_X)
            for which, fitted in models.items():
                measures[(name, which)] = evaluate(data_Y, data_X.labels(fitted, mode))
            held = np.asarray(data_Y).any(axis=0)
            absent[name], n_labels = int((~held).sum()), len(held)
    return Audit(summary=summary, rules=rules, curve=curve, compaction=compaction,
                 deciding=deciding, measures=pd.DataFrame(measures), absent_labels=absent,
                 n_labels=n_labels)


# ------------------------------------------------------------------ browsing and exporting rules

def trusted_accuracy(accuracy, experience, confidence: float = 0.95):
    """A lower confidence bound on each rule's accuracy given how often it was tested: Wilson's
    score interval, with the rule's experience as the number of trials. For the
    Hamming-loss score, a mean of values in [0, 1], p (1 - p) still bounds the variance, so the
    bound stays conservative. F = 1 after one match bounds to 0.21; 0.9 after 300 matches to
    0.86. Written out because scipy's intervals need whole counts of successes."""
    z = float(norm.ppf((1.0 + confidence) / 2.0))
    p = np.asarray(accuracy, dtype=np.float64)
    n = np.maximum(np.asarray(experience, dtype=np.float64), 1.0)
    spread = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    bound = (p + z * z / (2.0 * n) - spread) / (1.0 + z * z / n)
    return np.where(np.asarray(experience) > 0, np.clip(bound, 0.0, 1.0), 0.0)


def order_rules(frame: pd.DataFrame) -> pd.DataFrame:
    """The rules table in a sensible reading order, with a ``trusted_accuracy`` column
    (:func:`trusted_accuracy`): most trustworthy accuracy first, then numerosity, then rule id,
    so that rules with F = 1 after a handful of matches do not open the list."""
    trusted = trusted_accuracy(frame["accuracy"], frame["experience"])
    return frame.assign(trusted_accuracy=trusted, _id=frame.index).sort_values(
        ["trusted_accuracy", "numerosity", "_id"], ascending=[False, False, True]
    ).drop(columns="_id")


def filter_rules(frame: pd.DataFrame, min_experience: int = 0) -> pd.DataFrame:
    """The rules matched at least ``min_experience`` times during training."""
    return frame[frame["experience"] >= min_experience]


def _frame_rule_ids(frame: pd.DataFrame) -> np.ndarray:
    if "rule_id" in frame.columns:
        return frame["rule_id"].to_numpy(dtype=np.int64)
    if frame.index.name == "rule_id":
        return frame.index.to_numpy(dtype=np.int64)
    raise InputError("The rules table needs its rule ids: the 'rule_id' index of rules_frame() "
                     "or a 'rule_id' column.")


def export_rules(model, frame: pd.DataFrame) -> tuple[str, str]:
    """(CSV text, JSON text) of the rules in ``frame``, a possibly filtered and sorted
    ``rules_frame()``: the CSV is the table as shown (rows in its order, ``rule_id`` first;
    ``conditions`` left out: a rule's text holds them); the JSON is a loadable model holding
    only those rules (``model.subset``)."""
    ids = _frame_rule_ids(frame)
    frame = frame.drop(columns="conditions", errors="ignore")
    table = frame.reset_index() if "rule_id" not in frame.columns else frame
    return table.to_csv(index=False, lineterminator="\n"), model.subset(ids).to_json()


_RENAMED = {"compact": "trim", "Compaction": "Trimmed"}
"""Names this module had before ``mlr_core.compaction.compact`` (k rules, refitted) was told
apart from `trim` (same predictions): the old names still work, with a FutureWarning."""


def __getattr__(name):
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(f"mlr_core.audit.{name} is now mlr_core.audit.{new}; the old name will go.",
                      FutureWarning, stacklevel=2)
        return globals()[new]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
