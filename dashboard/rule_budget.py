"""The rule budget: compact models of the rules being trained, one per size, how well each
predicts the held-out rows, and each one's scorecard laid out for a page.

The dashboard trains all the rules live; a compact model is the library's other answer: k of
those rules (the baseline counted) with fitted weights, chosen and refitted by
``compaction_path`` (``mlr_core/compaction.py``). One path serves every size, so
the Rules and Explain pages share one, kept per snapshot of the model (:func:`kept_or_built`).

Pure (no Streamlit): the pages and the tests call the same functions.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, MutableMapping
from concurrent.futures import Future
from dataclasses import dataclass, field

import pandas as pd

from dashboard import engine
from mlr_core.compaction import SIZES, compaction_path
from mlr_core.errors import MLRError

#: Where a tab keeps its rule budget (``st.session_state``; ui.DATA_VIEWS drops it with the data).
KEY = "rules_audit"
#: What the wait is for, said while the path is computed.
WHY = ("Fitting a weight per rule and label to the rules being trained, then eliminating rules "
       "down to {sizes} and refitting at each size (about 1 s on emotions and yeast and "
       "2-3 s on ohsumed's words on 2 cores; kept until the model changes)…")
MEASURES = {"accuracy": "accuracy", "f1": "F1"}
#: Names of the three kinds of model the curve compares.
COMPACT, FULL, VOTE = "compact (fitted weights)", "all rules, fitted weights", "the paper's vote"
#: Orders the scorecard can be read in: name -> sort key over the scorecard frame.
ORDERS: dict[str, Callable[[pd.DataFrame], pd.Series]] = {
    "largest weight first": lambda card: -weights_of(card).abs().max(axis=1),
    "most rows matched first": lambda card: -card["support"],
    "rule id": lambda card: pd.Series(card.index, index=card.index),
}
BY_LABEL = "weight for {label}"
#: A heatmap row names its rule by this many characters of its first condition.
SHORT = 44


def first_shown(sizes: list[int]) -> int:
    """The budget a page shows first: 20 rules, else the largest offered."""
    return 20 if 20 in sizes else sizes[-1]


def budgets(n_rules: int) -> list[int]:
    """The sizes worth offering for a model of ``n_rules`` rules: those that drop some of them (a
    budget counts the baseline), or the smallest when there are fewer rules than that."""
    return [k for k in SIZES if k - 1 < n_rules] or [SIZES[0]]


def sizes_text(sizes) -> str:
    return ", ".join(map(str, sizes[:-1])) + f" and {sizes[-1]} rules" if len(sizes) > 1 \
        else f"{sizes[0]} rules"


def weights_of(card: pd.DataFrame) -> pd.DataFrame:
    """The ``weight: <label>`` columns of a scorecard, named by their labels."""
    weights = card.filter(like="weight: ")
    return weights.set_axis([c.removeprefix("weight: ") for c in weights.columns], axis=1)


def held_out_measures(model, rows, Y) -> dict[str, float]:
    """The curve's measures of ``model`` on held-out ``rows`` (`mlr_core.audit.AuditedRows`:
    scaled once for every model of the budget, whose rules share the full model's axes)."""
    from mlr_core.evaluation import measures

    predicted = rows.labels(model, model.prediction)
    return {name: float(getattr(measures, name)(Y, predicted)) for name in MEASURES}


@dataclass
class RuleBudget:
    """Compact models of one snapshot's rules (``models``: budget k -> model), the fitted model
    of all of them (``full``), the held-out ``curve``, and the audits and scorecards made so far
    (by k)."""

    snap: object
    models: dict[int, object]
    full: object
    curve: pd.DataFrame
    audits: dict = field(default_factory=dict)
    cards: dict = field(default_factory=dict)

    @property
    def sizes(self) -> list[int]:
        return list(self.models)

    def n_rules(self, k: int) -> int:
        """Rules of the compact model of budget k, the baseline counted (at most k)."""
        return self.models[k].rule_set_.rule_count + 1

    def card(self, k: int) -> pd.DataFrame:
        """The compact model's scorecard (``RuleSet.scorecard``) on the training rows, made once:
        on the rows it has bound (the session's own, shared), not scaled again."""
        if k not in self.cards:
            model = self.models[k]
            self.cards[k] = model.rule_set_.scorecard_scaled(model.run_.X)
        return self.cards[k]

    def table(self, k: int, order: str = "largest weight first") -> pd.DataFrame:
        """The compact model's `scorecard` in ``order``, with each rule's conditions one by one
        (``conditions``, ``RuleSet.rule_conditions``) to lay it out a condition a line."""
        rules = self.models[k].rule_set_
        conditions = pd.Series(rules.rule_conditions(), index=rules.rule_ids, dtype=object)
        return scorecard(self.card(k), order).assign(conditions=conditions)

    def rules_per_row(self, k: int):
        """How many of the compact model's rules match each training row."""
        model = self.models[k]
        return model.rule_set_.match_counts_scaled(model.run_.X)


def build(snap, fitted, vote, X_test, Y_test) -> RuleBudget:
    """The compaction path of ``fitted`` (the snapshot's rules with fitted weights, training
    rows bound) and the held-out measures of each compact model, of ``fitted`` itself and of
    ``vote``, the same rules scored by the paper's vote."""
    from mlr_core.audit import AuditedRows

    n = len(snap.rules)
    models = compaction_path(fitted, budgets(n))
    held_out = AuditedRows.of(fitted, X_test)
    rows = [{"model": COMPACT, "budget": k, "rules": model.rule_set_.rule_count + 1,
             **held_out_measures(model, held_out, Y_test)} for k, model in models.items()]
    rows.append({"model": FULL, "budget": None, "rules": n + 1,
                 **held_out_measures(fitted, held_out, Y_test)})
    rows.append({"model": VOTE, "budget": None, "rules": n,
                 **held_out_measures(vote, held_out, Y_test)})
    return RuleBudget(snap, models, fitted, pd.DataFrame(rows))


def kept_or_built(store: MutableMapping, session, snap) -> RuleBudget:
    """The tab's rule budget for ``snap``: kept in ``store``, else the one `prefetch` began (its
    wait), else made now; then kept in ``store``."""
    budget = kept(store, snap)
    if budget is None:
        budget = _making(session, snap).result()
        store[KEY] = budget
    return budget


def prefetch(session, snap) -> None:
    """Begin making the budget of ``snap`` (the model as a paused page shows it) in a thread of
    its own, while the person reads the page: "Compact and audit" then only draws it. Only
    where the fitted weights are at hand (``Session.weights_at_hand``): a refit would hold the
    model's lock. On yeast the click's server part was about 0.55 s of one core, which a
    loaded machine stretches 2.5-fold (docs/classroom.md)."""
    if session.weights_at_hand():
        with contextlib.suppress(MLRError):  # the model moved on since the page was drawn
            _making(session, snap)


def _making(session, snap) -> Future:
    """The budget of ``snap`` being made, or made: once per state of the model (the session's
    ``ModelCache``, dropped when the model changes; MLRError if it changed since ``snap``).
    The model and its vote are copied under the session's lock (milliseconds) and compacted
    outside it, so that Start, Step and the tab's other pages do not wait for the compaction,
    and neither does another thread's read of the same model."""
    cache = session.model_cache()
    # A refit first, where the click needs one: should it change what the rules are (the fit's
    # one-condition rules), the read below says the page is out of date.
    cache.fitted_model()

    def begin() -> Future:
        fitted, vote = (engine.copy_model(m) for m in (cache.fitted_model(), cache.vote_model()))
        future: Future = Future()
        threading.Thread(target=_make, args=(future, snap, fitted, vote, session.split),
                         name="mlr-rule-budget", daemon=True).start()
        return future
    return session.read_model(snap, lambda _: cache.once(KEY, begin), weights=False)


def _make(future: Future, snap, fitted, vote, split) -> None:
    """Make the budget (`build`), with the scorecard and the audit of the budget shown first,
    into ``future``; an error goes to whoever waits for it."""
    try:
        data, test = split.dataset, split.test_idx
        budget = build(snap, fitted, vote, data.features(test), data.Y[test])
        k = first_shown(budget.sizes)
        budget.card(k)
        audit(budget, k, data, test)
    except BaseException as error:  # handed to the page that waits for it, whatever it is
        future.set_exception(error)
    else:
        future.set_result(budget)


def kept(store: MutableMapping, snap) -> RuleBudget | None:
    """The budget kept for this very snapshot, else None (the model moved on since)."""
    budget = store.get(KEY)
    return budget if isinstance(budget, RuleBudget) and budget.snap is snap else None


def audit(budget: RuleBudget, k: int, dataset, test_idx):
    """The audit (``mlr_core.audit.audit``) of the compact model of budget k, run once."""
    if k not in budget.audits:
        from dashboard.rules_audit import run_audit

        budget.audits[k] = run_audit(budget.models[k], dataset, test_idx)
    return budget.audits[k]


# ---------------------------------------------------------------------- the scorecard


def orders(label_names) -> list[str]:
    return [*ORDERS, *(BY_LABEL.format(label=name) for name in label_names)]


def sorted_by_label(order: str, label_names) -> str | None:
    """The label whose weight ``order`` sorts by, else None."""
    return next((name for name in label_names if order == BY_LABEL.format(label=name)), None)


def labels_that_fit(labels, room: int, first: str | None = None) -> list[str]:
    """The label columns a scorecard table shows at first: ``first`` (the label it is sorted
    by), then the others in order, ``room`` of them (one at least). The heatmap shows every
    weight; a page lets the reader choose others."""
    ordered = ([first] if first else []) + [name for name in labels if name != first]
    return ordered[:max(1, room)]


def scorecard(card: pd.DataFrame, order: str = "largest weight first") -> pd.DataFrame:
    """A scorecard (``RuleSet.scorecard``: `RuleBudget.card`) laid out in ``order`` (one of
    :func:`orders`): support, coverage, a weight column per label (named by it), then the long
    condition; ``rule_id`` stays the index."""
    weights = weights_of(card)
    label = sorted_by_label(order, weights.columns)
    key = -weights[label] if label is not None else ORDERS[order](card)
    table = pd.concat([card[["support", "coverage"]], weights, card["condition"]], axis=1)
    return table.loc[key.sort_values(kind="stable").index].rename_axis("rule_id")


def baseline(model) -> pd.Series:
    """Each label's score when no rule matches (the weights' intercept)."""
    return pd.Series(model.rule_weights_.intercept, index=model.label_names_, name="baseline")


def short_condition(conditions, width: int = SHORT) -> str:
    """The first of a rule's conditions (``RuleSet.rule_conditions``; ``TRUE`` when none), cut
    to ``width`` characters, and how many more there are."""
    first = conditions[0] if conditions else "TRUE"
    if len(first) > width:
        first = first[: width - 1] + "…"
    return first + (f" +{len(conditions) - 1} more" if len(conditions) > 1 else "")
