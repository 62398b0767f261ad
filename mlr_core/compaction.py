"""Compact models: a few of the evolved rules, reweighted, as a scorecard a person can read.

After evolution every rule is a 0/1 feature (does it match the row?) and the fitted weights are
one ridge regression per label over all of them (``mlr_core/rule_weights.py``). A compact model
keeps k of those features. They are chosen by backward elimination: rank the rules by
importance under the current weights, keep the better half (or the size asked for), refit the
weights on what is kept, and repeat; each refit chooses its own penalty by leave-one-out error,
and the leave-one-out scores of the last refit are scores for rows those weights did not see,
on which the bipartition is tuned.

Which rules are more important is decided label by label: each label ranks the rules by the
size of their effect on it (``|weight|`` x the spread of the rule's match column), and a rule counts
by its best rank over the labels, then by its effect summed over labels. So every label keeps its
own best rules, rare ones included: ranking by the effect summed over labels lets the common
labels decide, and on genbase (27 labels, most of them rare; fold 0 of the shared folds) that
kept accuracy at 0.68 with 20 rules where the per-label ranks keep 0.99 (``docs/compact.md``).
The first step goes straight from the population to `FIRST_CUT` rules with the weights already
fitted to all of them: a refit on thousands of rules costs as much as the whole weight fit,
which with the stopping rule is a large part of a fit (``docs/profile.md``). From there each step
halves, stopping at every size in `SIZES` (and at the size asked for) on the way down, so a
size's rules are the same whether it is asked for alone or with others.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from mlr_core._engine.matching import match_matrix
from mlr_core.errors import InputError
from mlr_core.rule_weights import fit_rule_weights, fitting_rows, ranking_weights
from mlr_core.training_session import TrainingSession
from mlr_core.validation import check_count

SIZES = (10, 20, 50, 100, 200)
"""The rule budgets the benchmarks and the dashboard offer (the baseline counted as a rule)."""

FIRST_CUT = 4 * (max(SIZES) - 1)
"""Rules kept by the first step, ranked by the full model's weights: two halvings above the
largest of `SIZES` (796 rules and the baseline)."""


#: Columns of the match matrix whose spread is taken at a time (`importance_order`): the spread
#: of all at once held a copy of the whole matrix (79 MB for ohsumed's 5,000 fitting rows by
#: 2,000 rules); a block of columns reduces in the same order, to the same bits.
STD_BLOCK = 256


def importance_order(coef: np.ndarray, A: np.ndarray) -> np.ndarray:
    """Rules (columns of the rows x rules match matrix ``A``, weights ``coef``) from most to
    least important: by their best rank over the labels in effect size (``|weight|`` x std of the
    match column), then by the effect summed over labels, then by id."""
    spread = np.concatenate([A[:, j:j + STD_BLOCK].std(axis=0)
                             for j in range(0, A.shape[1], STD_BLOCK)] or [np.zeros(0)])
    effect = np.abs(coef) * spread[:, None]
    rank = np.argsort(np.argsort(-effect, axis=0, kind="stable"), axis=0, kind="stable")
    best = rank.min(axis=1, initial=len(coef))
    return np.lexsort((np.arange(len(coef)), -effect.sum(axis=1), best))


def selection_path(A: np.ndarray, Y: np.ndarray, scorer, sizes) -> dict:
    """Nested rule selections, one per size in ``sizes`` (numbers of rules, the baseline not
    counted), from the rules' match matrix ``A``, their labels ``Y`` and the weights ``scorer``
    fitted to all of them: {size: (rule ids ascending, WeightScorer over those rules,
    leave-one-out scores)}. A size at or above the number of rules keeps them all, with the
    given weights and no new scores (None).

    The rules are ranked by weights refitted at every step with the full model's penalty, in
    one solve (``ranking_weights``); only the sizes asked for get the full refit (a penalty of
    their own, chosen by leave-one-out error, and the rows' leave-one-out scores), which the
    ranking does not see, so a size's rules do not depend on the other sizes asked for."""
    Y = np.asarray(Y, dtype=np.uint8)
    keep, coef, loo, alpha = np.arange(A.shape[1]), scorer.coef, None, scorer.alpha
    wanted = {int(k) for k in sizes}
    stops = wanted | {k - 1 for k in SIZES}
    path = {}
    for k in sorted(wanted, reverse=True):
        while len(keep) > k:
            kept = A if len(keep) == A.shape[1] else A[:, keep]  # a copy only of fewer rules
            if coef is None:  # the rules kept by the step before, not yet weighed
                coef = ranking_weights(kept, Y, alpha)
            below = max(s for s in stops if s < len(keep))
            step = FIRST_CUT if len(keep) > FIRST_CUT else len(keep) // 2
            keep = np.sort(keep[importance_order(coef, kept)[:max(below, step)]])
            coef = None
            del kept
        if len(keep) < A.shape[1]:
            scorer, loo = fit_rule_weights(A[:, keep], Y)
        path[k] = (keep, scorer, loo)
    return path


def compaction_path(model, sizes=SIZES) -> dict:
    """{k: a compact model of at most k rules} for each k of ``sizes`` from a fitted
    `MLRClassifier`, the baseline (the scores when no rule matches, BOOMER's default rule)
    counted as one rule: k - 1 of its rules (evolved ones, and the fit's one-condition rules
    where it kept them: `RuleSet.n_feature_rules` counts them) chosen by backward
    elimination, their weights refitted and the bipartition tuned on their leave-one-out
    scores. One elimination serves every size; each rule keeps its id here (the ``rule_id``
    of ``rules_frame()``). Needs fitted weights and the training data still bound (as after
    ``fit``); ``model`` is left as it is."""
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Iterable):
        raise InputError(f"compaction_path() takes a list of rule budgets, got {sizes!r}.")
    sizes = [_rule_budget(k, "compaction_path()") for k in sizes]
    rule_set = model._rule_set_for("agg")
    weights = rule_set.scorer.fitted("A compact model (a scorecard of fitted rule weights)")
    run = model.run_
    if not run.bound:
        raise InputError("Compacting refits the weights on the training data: call "
                         "start(X, Y) or fit(X, Y) first (a loaded model has "
                         "none bound).")
    rows = fitting_rows(len(run.y_ids), seed=run.iteration)
    truth = run.truth()[rows]
    path = selection_path(match_matrix(rule_set.rules, run.X[rows]), truth, weights,
                          [k - 1 for k in sizes])
    session = TrainingSession(model)
    models = {}
    for k in sizes:
        ids, scorer, loo = path[k - 1]
        cut = (rule_set.bipartition if loo is None
               else session.bipartition_for(model.target, loo, truth))
        models[k] = model.with_rule_set(rule_set.subset(rule_set.rule_ids[ids])
                                        .with_scorer(scorer, cut))
    return models


def compact(model, max_rules: int):
    """A new fitted model of at most ``max_rules`` rules, the baseline counted as one (see
    `compaction_path`)."""
    max_rules = _rule_budget(max_rules, "compact()")
    return compaction_path(model, [max_rules])[max_rules]


def _rule_budget(k, what: str) -> int:
    """A rule budget given to ``what``: a whole number, at least 1 (the baseline counts as
    one rule)."""
    return check_count(k, what, "rules (the baseline counted as one)", 1)
