"""A scorecard as plain code an auditor can run and diff without this package: a Python function
and one SQL ``CASE WHEN`` expression per label.

Both do the library's arithmetic step for step, so they give exactly ``predict``'s labels: a
feature is put on the rule's axis as ``min(max((x - data_min) / span, 0), 1)``, a rule matches
when ``abs(scaled - centre) <= spread`` on each feature it specifies, a label's score is the
baseline plus the weights of the matching rules, added one at a time in rule order, clipped to
[0, 1], and
the bipartition cuts the scores. Each rule is preceded by its readable condition in the data's
units. Only fitted weights export (the vote's nearest-rule fallback is no scorecard).
"""

from __future__ import annotations

import numpy as np

from mlr_core.errors import InputError
from mlr_core.rule_set import RuleSet, WeightScorer


def _checked(rule_set: RuleSet) -> WeightScorer:
    if not isinstance(rule_set.scorer, WeightScorer):
        raise InputError("Only a scorecard (weighting='fitted') exports as code; this model "
                         "scores by the vote.")
    return rule_set.scorer


def _conditions(rule_set: RuleSet, i: int):
    """(feature index, centre, spread) of rule i's specified features."""
    pop = rule_set.rules
    return [(int(pop.feat[i, k]), float(pop.center[i, k]), float(pop.spread[i, k]))
            for k in range(pop.nspec[i])]


def to_python(rule_set: RuleSet, name: str = "predict") -> str:
    """Source of ``name(row)``: ``row`` maps each feature name to its value; returns the
    predicted label names (and ``name_scores(row)``, the scores by label)."""
    scorer = _checked(rule_set)
    features, labels = list(rule_set.feature_names), list(rule_set.label_names)
    span = rule_set.scaling.span
    texts = rule_set.rule_texts()
    lines = [
        f'"""A scorecard of {rule_set.n_rules} rules exported by MLR Studio: plain Python, no',
        'imports. Give a dict of feature values; get the predicted labels."""',
        "",
        f"FEATURES = {features!r}",
        f"LABELS = {labels!r}",
        f"DATA_MIN = {rule_set.scaling.data_min.tolist()!r}",
        f"SPAN = {span.tolist()!r}",
        f"BASELINE = {scorer.intercept.tolist()!r}",
        "",
        "",
        "def _axis(row, j):",
        "    return min(max((float(row[FEATURES[j]]) - DATA_MIN[j]) / SPAN[j], 0.0), 1.0)",
        "",
        "",
        f"def {name}_scores(row):",
        '    """Each label\'s score: the baseline plus the weights of the matching rules."""',
        "    total = list(BASELINE)",
    ]
    for i, text in enumerate(texts):
        tests = " and ".join(f"abs(_axis(row, {j}) - {c!r}) <= {s!r}"
                             for j, c, s in _conditions(rule_set, i)) or "True"
        lines += [f"    # rule {i}: {text}", f"    if {tests}:"]
        lines += [f"        total[{j}] += {float(w)!r}"
                  for j, w in enumerate(scorer.coef[i]) if w != 0.0] or ["        pass"]
    lines += [
        "    return {label: min(max(total[j], 0.0), 1.0)",
        "            for j, label in enumerate(LABELS)}",
        "",
        "",
        f"def {name}(row):",
        f'    """The predicted labels: {_cut_words(rule_set)}."""',
        f"    scores = [{name}_scores(row)[label] for label in LABELS]",
        *_python_cut(rule_set),
        "",
    ]
    return "\n".join(lines)


def _cut_words(rule_set):
    method, value = rule_set.bipartition
    if method == "rcut":
        return f"the {value} best-scoring labels with a score above 0"
    words = f"the labels scoring at least {value}"
    if method == "threshold_or_top":
        words += ", or the best-scoring one when none does (if it scores above 0)"
    return words


def _python_cut(rule_set):
    method, value = rule_set.bipartition
    if method == "rcut":
        return ["    order = sorted(range(len(LABELS)), key=lambda j: -scores[j])",
                f"    return [LABELS[j] for j in sorted(order[:{value}]) if scores[j] > 0]"]
    lines = [f"    chosen = [j for j in range(len(LABELS)) if scores[j] >= {_num(value)}]"]
    if method == "threshold_or_top":
        lines += ["    if not chosen and max(scores) > 0:",
                  "        chosen = [scores.index(max(scores))]"]
    return lines + ["    return [LABELS[j] for j in chosen]"]


def to_sql(rule_set: RuleSet, table: str = "data") -> str:
    """A ``SELECT`` over ``table`` (one column per feature, named as the features) giving one
    0/1 column per label, each a ``CASE WHEN`` expression over the label scores; plain SQL
    (CASE, ABS and arithmetic only)."""
    scorer = _checked(rule_set)
    features, labels = list(rule_set.feature_names), list(rule_set.label_names)
    span = rule_set.scaling.span
    texts = rule_set.rule_texts()

    def axis(j):
        raw = (f'(("{_ident(features[j])}" - {_num(rule_set.scaling.data_min[j])}) / '
               f'{_num(span[j])})')
        return f"(CASE WHEN {raw} < 0.0 THEN 0.0 WHEN {raw} > 1.0 THEN 1.0 ELSE {raw} END)"

    matches = []
    for i in range(rule_set.n_rules):
        tests = " AND ".join(f"ABS({axis(j)} - {c!r}) <= {s!r}"
                             for j, c, s in _conditions(rule_set, i)) or "1 = 1"
        matches.append(tests)
    scores = []
    for j in range(len(labels)):
        terms = [f"\n      /* rule {i}: {texts[i].replace('*/', '* /')} */ "
                 f"+ CASE WHEN {matches[i]} THEN {float(scorer.coef[i, j])!r} ELSE 0.0 END"
                 for i in range(rule_set.n_rules) if scorer.coef[i, j] != 0.0]
        raw = f"({_num(scorer.intercept[j])}{''.join(terms)})"
        scores.append(f"  CASE WHEN {raw} < 0.0 THEN 0.0 WHEN {raw} > 1.0 THEN 1.0 "
                      f"ELSE {raw} END AS \"s{j}\"")
    cuts = [f'  {_sql_cut(rule_set, j, len(labels))} AS "{_ident(label)}"'
            for j, label in enumerate(labels)]
    return (f"-- A scorecard of {rule_set.n_rules} rules exported by MLR Studio: one 0/1 column "
            f"per label ({_cut_words(rule_set)}).\n"
            "SELECT\n" + ",\n".join(cuts) + "\nFROM (SELECT\n" + ",\n".join(scores)
            + f'\nFROM "{_ident(table)}") AS scores')


def _sql_cut(rule_set, j, m):
    method, value = rule_set.bipartition
    s = [f'"s{i}"' for i in range(m)]
    if method == "rcut":  # ahead of j: a higher score, or the same score and an earlier label
        ahead = " + ".join(f"CASE WHEN {s[i]} > {s[j]}{f' OR {s[i]} = {s[j]}' if i < j else ''}"
                           " THEN 1 ELSE 0 END" for i in range(m) if i != j) or "0"
        return f"CASE WHEN {s[j]} > 0.0 AND ({ahead}) < {value} THEN 1 ELSE 0 END"
    when = f"{s[j]} >= {_num(value)}"
    if method == "threshold_or_top":  # none reaches it, and j is the first best, above 0
        none = " AND ".join(f"{x} < {_num(value)}" for x in s)
        first_best = " AND ".join([f"{s[i]} < {s[j]}" for i in range(j)]
                                  + [f"{s[i]} <= {s[j]}" for i in range(j + 1, m)]) or "1 = 1"
        when += f" OR ({none} AND {s[j]} > 0.0 AND {first_best})"
    return f"CASE WHEN {when} THEN 1 ELSE 0 END"


def _num(value) -> str:
    """A float as the shortest text that reads back to the same bits."""
    return repr(float(value))


def _ident(name: str) -> str:
    return str(name).replace('"', '""')


def python_labels(source: str, rows, feature_names, name: str = "predict") -> np.ndarray:
    """Run exported Python source on rows (for tests and the audit report): a 0/1 matrix."""
    namespace: dict = {}
    exec(compile(source, "<scorecard>", "exec"), namespace)  # our own generated source
    labels = namespace["LABELS"]
    out = np.zeros((len(rows), len(labels)), dtype=np.uint8)
    for r, row in enumerate(rows):
        chosen = namespace[name](dict(zip(feature_names, row, strict=True)))
        out[r, [labels.index(label) for label in chosen]] = 1
    return out
