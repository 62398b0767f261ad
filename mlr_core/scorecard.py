"""A scorecard as one CSV file that gives ``predict``'s labels without this package: the baseline
and each rule's weight per label, each rule's condition as exact bounds in the data's units, and
notes saying how the scores are added, made scores in [0, 1] (clipped, or the logistic function:
the weights' link) and cut, the link and the cut last in a form a program reads
(``# link: <clip or logistic>``, ``# cut: <method> <value>``, as ``mlr_core/links.py`` and
``mlr_core/bipartition.py`` name them).

Names are data: the notes come first and the first line counts them (``# notes: <n> ...``), so a
reader takes exactly those lines as notes and the rest as CSV, where every text cell is quoted;
a name holding a line break and ``# cut: ...`` stays inside its quoted cell, never a note. A text
cell that a spreadsheet would run as a formula gets a ``'`` before it (`neutralised`, as OWASP's
advice on CSV injection says); numbers are written unquoted and never changed.

The bounds are exact: a value lies within a rule's bounds exactly when the rule's condition
accepts it on the model's [0, 1] axes (`Scaling.accepted`); numbers are written as round-trip
decimals; and adding the weights in ascending ``rule_id`` after the baseline repeats the
library's additions in its order (``_engine/scoring.py``), so the labels come out bit for bit.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pandas as pd

NOTES = "# notes: "
"""How the file's first line starts: the number of note lines after it follows."""

CUT = "# cut: "
"""How the file's last note starts: the bipartition's method and value follow."""

LINK = "# link: "
"""How the note before it starts: ``clip`` or ``logistic`` (``mlr_core/links.py``) follows."""

BASELINE = "(every row: the score when no rule matches)"

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a text cell may not start with, lest a spreadsheet take it for a formula (OWASP)."""


def neutralised(cell: str) -> str:
    """A text cell that no spreadsheet runs: ``'`` before one that starts as a formula may
    (`FORMULA_STARTS`) or with ``'`` itself, so that a reader drops exactly one leading ``'``
    wherever there is one and gets the text back."""
    return "'" + cell if cell.startswith((*FORMULA_STARTS, "'")) else cell


def notes(rule_set) -> list[str]:
    """The file's opening lines: how many they are, what the file holds, how to score and cut a
    row, how its cells are written."""
    body = [
        f"# MLR Studio scorecard: {rule_set.rule_count} rules and the baseline. rule_id is the "
        "rule's id in the rules table of the model it was taken from.",
        f"# {rule_set.prediction_text()}",
        "# A rule matches a row when each feature named in its bounds lies in [lower, upper] "
        "(null: no bound); its condition says the same, rounded.",
        missing_note(rule_set),
        "# To reproduce predict: start each label at the baseline, add the weights of the "
        "matching rules in ascending rule_id; each sum (total) is then "
        f"{rule_set.scorer.squash.words}; then cut (between labels that score the same, the "
        "earlier column ranks first).",
        "# Cells: text is in double quotes (a name may hold commas, quotes or line breaks; only "
        "the lines counted on the first line are notes); numbers are unquoted and exact. A text "
        "cell that would start with =, +, -, @, a tab, a carriage return or an apostrophe "
        "starts with one more apostrophe, so that no spreadsheet runs it as a formula: drop "
        "that first apostrophe to read the text.",
        f"{LINK}{rule_set.scorer.link}",
        f"{CUT}{rule_set.bipartition.method} {rule_set.bipartition.value_text}",
    ]
    return [f"{NOTES}{len(body)} lines follow this one, then the table (CSV, a header row "
            "first)", *body]


def missing_note(rule_set) -> str:
    """How a missing value is read, and under ``missing="typical"`` what it reads as for each
    feature a rule tests (JSON: feature name -> value, a nominal feature's category)."""
    scaling = rule_set.scaling
    note = f"# {scaling.missing_words}"
    if scaling.fills is None:
        return note
    tested = sorted({j for tests in rule_set.tests() for j, *_ in tests}
                    | {j for sets in rule_set.set_tests() for j, _ in sets})
    fills = {rule_set.feature_names[j]: scaling.fill_value(j) for j in tested}
    return f"{note} For the features the rules test: {json.dumps(fills)}"


def bounds_json(rule_set) -> list[str]:
    """Per rule, ``{feature: [lower, upper]}`` in the data's units (null where unbounded), and
    ``{feature: {"in": [categories]}}`` for a nominal test, as JSON text: the values its
    condition accepts (`RuleSet.tests`, `RuleSet.set_tests`)."""
    return [json.dumps({**{rule_set.feature_names[j]: [None if lo == -np.inf else lo,
                                                       None if hi == np.inf else hi]
                           for j, lo, hi, _ in tests},
                        **{rule_set.feature_names[j]: {"in": list(values)}
                           for j, values in sets}})
            for tests, sets in zip(rule_set.tests(), rule_set.set_tests(), strict=True)]


def to_csv(rule_set, X, order=None) -> str:
    """The scorecard file of ``rule_set`` (fitted weights; e.g. a model's ``rule_set_``), support
    and coverage on the rows ``X`` (the data's units): the notes, then the baseline and the
    rules (``order``: their ids in the order listed; ascending by default) with the columns of
    `RuleSet.scorecard` and ``bounds``. From it ``predict``'s labels follow without this
    package: the cut in words and as ``# cut: <method> <value>``, the rules' exact bounds."""
    return csv_of(rule_set, rule_set.scorecard(X), order)


def csv_of(rule_set, card, order=None) -> str:
    """`to_csv` of a scorecard already made (``rule_set.scorecard`` or ``scorecard_scaled``)."""
    card = card.assign(bounds=bounds_json(rule_set))
    if order is not None:
        card = card.loc[list(order)]
    card["support"] = card["support"].astype("Int64")
    base = pd.DataFrame([dict(zip(card.filter(like="weight: ").columns,
                                  rule_set.scorer.intercept, strict=True),
                              condition=BASELINE, bounds="{}")], index=["baseline"])
    table = pd.concat([base, card.rename(index=str)])[card.columns].rename_axis(
        "rule_id").reset_index()
    for column in table.select_dtypes(exclude="number").columns:  # rule_id, condition, bounds
        table[column] = table[column].map(neutralised)
    table.columns = table.columns.map(neutralised)
    return "\n".join(notes(rule_set)) + "\n" + table.to_csv(
        index=False, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")

