"""The Rules page's content: the rules in a trustworthy order, the filters whose result is exactly
what gets exported, and the audit of a compact model (coverage, deciding rules, pruning) laid out
for the page.

Pure (no Streamlit): the page and its tests call the same functions. The audit itself and the
exports are the engine's (``mlr_core.audit``, ``mlr_core.audit_report``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from mlr_core import audit as engine_audit
from mlr_core.audit_report import _MEASURE_NAMES

#: The table's columns, the numbers that judge a rule before its long text; ``labelset_id`` is the
#: session's join key, used by the filters, and ``conditions`` lay the chosen rule out a condition
#: a line: neither is shown nor exported.
COLUMNS = ["labelset", "trusted_accuracy", "accuracy", "experience", "fitness", "numerosity",
           "rule", "generality", "n_specified", "correct_set_size", "last_ga", "birth"]
HIDDEN = ["labelset_id", "conditions"]
#: The columns the page shows at first: what fits a 1,300 px window beside the rule's first words
#: (the rest one choice away; the selected row's rule is shown whole below the table).
SHOWN = ["labelset", "trusted_accuracy", "experience", "rule"]
#: Names in the measures table: of its rows (each measure on the training rows, then on the
#: held-out rows) and of its three columns.
DATA_NAMES = {"audited": "train", "held-out": "held-out"}
MODEL_NAMES = {"full": "this model", "compact": "pruned", "deciding": "deciding only"}


@dataclass(frozen=True)
class RuleFilters:
    """What the Rules page lets an auditor narrow the table to."""

    text: str = ""
    labelset_ids: tuple[int, ...] = ()
    min_fitness: float = 0.0
    min_numerosity: int = 1
    min_experience: int = 0


def rules_table(rules: pd.DataFrame, filters: RuleFilters) -> pd.DataFrame:
    """The snapshot's rules that pass ``filters``, most trustworthy first (``trusted_accuracy``:
    the Wilson lower bound on accuracy, so F = 1 after a handful of matches does not lead)."""
    chosen = engine_audit.filter_rules(engine_audit.order_rules(rules), filters.min_experience)
    keep = (chosen["fitness"] >= filters.min_fitness) & (
        chosen["numerosity"] >= filters.min_numerosity)
    if filters.labelset_ids:
        keep &= chosen["labelset_id"].isin(list(filters.labelset_ids))
    if filters.text:
        keep &= chosen["rule"].str.contains(filters.text, case=False, regex=False)
    return chosen.loc[keep, [*COLUMNS, *HIDDEN]]


def exports(model, table: pd.DataFrame) -> tuple[str, str]:
    """(CSV, JSON) of exactly the rules in ``table``, in its order: the CSV as shown, the JSON a
    model holding only those rules (loadable back on the Rules page)."""
    return engine_audit.export_rules(model, table.drop(columns=HIDDEN, errors="ignore"))


def run_audit(model, dataset, test_idx) -> engine_audit.Audit:
    """The audit of the model on the rows it trained on (bound to it: read where they are,
    not scaled again), with the held-out rows ``test_idx`` of ``dataset`` measured too."""
    return engine_audit.audit(model, X_test=dataset.features(test_idx),
                             Y_test=dataset.Y[test_idx])


def headline(result: engine_audit.Audit) -> list[tuple[str, str, str]]:
    """(label, value, help) of the audit's headline numbers, for metrics."""
    s = result.summary

    def count(n: int) -> str:
        return f"{n:,}" if n >= 0 else "–"  # "never" cut the metric short at 1,400 px

    return [
        ("Rows some rule matches", f"{s['coverage']:.1%}",
         f"of the {s['n_rows']:,} training rows"),
        ("Deciding rules", f"{s['n_deciding']:,} of {s['n_rules']:,}",
         "rules that decide at least one training row's prediction"),
        ("Rules deciding 50 / 80 / 90%",
         " / ".join(count(s[f"rules_for_{p}"]) for p in (50, 80, 90)),
         "the fewest most decisive rules that decide that share of the rows; – when all of "
         "them decide less (the rules match fewer rows)"),
        ("Pruned", f"{s['n_compact']:,} rules",
         "the rules left when those deciding no training row go, except the "
         f"{s['n_restored']:,} needed to keep every training prediction"),
    ]


def measures_table(result: engine_audit.Audit) -> pd.DataFrame:
    """Measures of the audited model, its pruned set and its deciding rules alone, side by side
    (columns), each on the training rows and then on the held-out rows (index: measure, rows).
    Three columns, not six: six named "held-out · deciding only" made the table 1,447 px wide,
    and a 1,400 px window hid the held-out ones."""
    frame = result.measures.rename(index=_MEASURE_NAMES).stack(level=0, future_stack=True)
    frame = frame.rename(index=DATA_NAMES, level=1).rename(columns=MODEL_NAMES)
    return frame[list(MODEL_NAMES.values())].rename_axis(["measure", "rows"])

