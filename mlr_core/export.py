"""A scorecard as plain code an auditor can run and diff without this package: a Python module
and an SQL script (the model's numbers in temporary tables, then one query).

Both test the rules' conditions in the data's units: a rule matches when each feature it tests
lies between the bounds the condition accepts (``lower <= x <= upper``, found exactly from the
rules' [0, 1] axes by `RuleSet.tests`, so the comparisons agree with matching to the bit whatever
the axis); a label's score is the baseline plus the weights of the matching
rules, clipped to [0, 1] or put through the logistic function (the weights' link,
``mlr_core/links.py``), and the bipartition cuts the scores (``mlr_core/bipartition.py``).
The Python adds the weights one at a time in rule order, as ``predict`` does, so its scores are
``predict_proba``'s to the bit; SQL's ``SUM`` adds in the database's order (and subtracts the
weights of a rule counted where it fails), so its scores may differ in the last bits (its
labels matched ``predict`` on every row tested). Only fitted weights export (the vote's
nearest-rule fallback is no scorecard).

Names (features, labels, the rule texts that quote them) are data: Python string literals
(``repr``), SQL quoted identifiers; comments and docstrings hold numbers and fixed words only,
so no name can end a comment or run as code.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.sparse import issparse

from mlr_core.errors import InputError
from mlr_core.rule_set import RuleSet
from mlr_core.scorers import WeightScorer


def _checked(rule_set: RuleSet) -> WeightScorer:
    return rule_set.scorer.fitted("Exporting a scorecard as code")


def _rule_ids(rule_set: RuleSet) -> list[int]:
    """The number each rule carries in the exports: its id in the full model."""
    return rule_set.rule_ids.tolist()


def _header(rule_set: RuleSet, added: str) -> list[str]:
    """The exports' common description (numbers and fixed words only); ``added`` says how the
    weights are added up."""
    return [
        f"A scorecard of {rule_set.rule_count} rules on {len(rule_set.feature_names)} features "
        f"and {len(rule_set.label_names)} labels, exported by MLR Studio.",
        "A rule matches when each feature it tests lies within its bounds, lower <= x <= upper",
        "(in the data's units; an unbounded end is infinite).",
        rule_set.scaling.missing_words,
        "A label's",
        f"score is its baseline plus the weights of the matching rules ({added}),",
        f"then {rule_set.scorer.squash.words}.",
        f"Labels are cut from the scores by {rule_set.bipartition.words()}.",
    ]


# ------------------------------------------------------------------------------------- Python

def to_python(rule_set: RuleSet) -> str:
    """Source of a module with ``predict(row)`` (``row`` maps each feature name to its value;
    returns the predicted label names), ``predict_scores(row)`` (the scores by label),
    ``scores(values)`` (values by feature index, as a list in ``FEATURES`` order; scores in
    ``LABELS`` order) and ``chosen(scores)`` (the indices of the predicted labels). Plain
    CPython, no imports but ``math`` for the logistic link.

    Its cost grows with what the rules test, not with the data's width: only the features a
    rule tests (``TESTED``) are read, once per row; each rule is tested once, its narrowest
    test first and outside the loop over its others (most rules fail there); each label's
    total is one float the matching rules' weights are added to, in rule order, after the
    rules are tested (no list rebuilt per matching rule); the cut is made once."""
    scorer = _checked(rule_set)
    texts = rule_set.rule_texts()
    sets, set_tests = _set_features(rule_set)
    conditions = [_narrowest_first(tests) + extra
                  for tests, extra in zip(rule_set.tests(), set_tests, strict=True)]
    walked = [tests or [PASSED_BY_ALL] for tests in conditions]
    rules = [
        f"    ({rid}, {_py(texts[i])}, "
        f"({''.join(f'({j}, {_py_bound(lo)}, {_py_bound(hi)}), ' for j, lo, hi in walked[i])}), "
        f"{_py_floats(scorer.coef[i])}),"
        for i, rid in enumerate(_rule_ids(rule_set))]
    tested = sorted({j for tests in conditions for j, _, _ in tests} - set(sets)
                    | {j for j, _ in sets.values()})
    nominal = sorted({j for j, _ in sets.values()})
    set_lines = [
        "# Each set a rule tests a nominal feature by, as a test of its own beyond FEATURES",
        "# (index, feature index, the categories it allows): 1.0 when the value is one of them.",
        "SETS = (", *(f"    ({p}, {j}, frozenset(({''.join(f'{v!r}, ' for v in values)}))),"
                      for p, (j, values) in sets.items()), ")",
        f"NOMINAL = ({''.join(f'{j}, ' for j in nominal)})"] if sets else []
    fills = _python_fills(rule_set, tested)
    number = ("NAN if values[j] is None else float(values[j])" if fills is None else
              "FILLS[j] if values[j] is None or values[j] != values[j] else float(values[j])")
    category = ("values[j]" if fills is None else
                "FILLS[j] if values[j] is None or values[j] != values[j] else values[j]")
    reads = [f"    x = {{j: {number} for j in TESTED if j not in NOMINAL}}",
             "    for p, j, allowed in SETS:  # a missing category: " + (
                 "in no set" if fills is None else "its typical one (FILLS)"),
             f"        x[p] = 1.0 if ({category}) in allowed else 0.0"] if sets else \
        [f"    x = {{j: {number} for j in TESTED}}"]
    cut = rule_set.bipartition.words()
    lines = [
        '"""' + "\n".join(_header(rule_set, "added one at a time in rule order")),
        "",
        "predict(row) takes a dict from each feature name (FEATURES) to its value and returns the",
        "predicted label names; it reads only the features a rule tests (TESTED). Plain Python;",
        'names are data, never code."""',
        "",
        *(f"import {module}" for module in scorer.squash.python_imports),
        *([""] if scorer.squash.python_imports else []),
        f"FEATURES = ({''.join(f'{_py(n)}, ' for n in rule_set.feature_names)})",
        f"LABELS = ({''.join(f'{_py(n)}, ' for n in rule_set.label_names)})",
        'INF = float("inf")',
        'NAN = float("nan")',
        f"BASELINE = {_py_floats(scorer.intercept)}",
        "# The features a rule tests (indices into FEATURES): the only ones read.",
        f"TESTED = ({''.join(f'{j}, ' for j in tested)})",
        *([] if fills is None else [
            "# What a missing value (None or NaN) of a tested feature reads as: its typical",
            "# training value (by feature index).", f"FILLS = {{{fills}}}"]),
        *set_lines,
        "# One entry per rule: (rule id, its text, its tests as (feature index, lower, upper) in",
        "# the data's units, narrowest first, its weight for each label in LABELS order). A rule",
        "# that tests no feature is given a test of x[-1] (0.0) that every value passes.",
        "RULES = (",
        *rules,
        ")",
        "# The rules as scores() walks them: (the first test's feature index, lower and upper,",
        "# the other tests, the weights).",
        "WALK = [(*tests[0], tests[1:], weights) for _, _, tests, weights in RULES]",
        "",
        "",
        "def scores(values):",
        '    """Each label\'s score (LABELS order) for the feature values by index in FEATURES (a',
        "    list in FEATURES order, or a dict from each index in TESTED): the baseline plus the",
        f'    weights of every matching rule, added in rule order, then {scorer.squash.words}."""',
        ("    # a missing value (None or NaN) is NaN, which fails every test, as in predict; the"
         if fills is None else
         "    # a missing value (None or NaN) reads as its FILLS entry, as in predict; the"),
        "    # test a rule that tests nothing is given reads x[-1], never missing",
        *reads,
        "    x[-1] = 0.0",
        "    matching = []",
        "    for j, lower, upper, others, weights in WALK:",
        "        if lower <= x[j] <= upper:",
        "            for j, lower, upper in others:",
        "                if not lower <= x[j] <= upper:",
        "                    break",
        "            else:  # every test passed: the rule matches",
        "                matching.append(weights)",
        "    out = []",
        "    for total, *added in zip(BASELINE, *matching):  # a label's baseline, its weights",
        "        for weight in added:",
        "            total += weight",
        f"        out.append({scorer.squash.python('total')})",
        "    return out",
        "",
        "",
        "def chosen(scores):",
        f'    """The indices of the predicted labels: {cut}."""',
        *rule_set.bipartition.python_lines(),
        "",
        "",
        "def predict(row):",
        '    """The predicted label names of row (a dict from each feature name to its value):',
        f"    {cut}.\"\"\"",
        "    return [LABELS[j] for j in chosen(scores({j: row[FEATURES[j]] for j in TESTED}))]",
        "",
        "",
        "def predict_scores(row):",
        '    """Each label\'s score in [0, 1] for row, by label name."""',
        "    return dict(zip(LABELS, scores({j: row[FEATURES[j]] for j in TESTED})))",
        "",
    ]
    return "\n".join(lines)


def _python_fills(rule_set: RuleSet, tested) -> str | None:
    """The Python literal's entries ``j: fill`` of the ``tested`` features (a nominal
    feature's fill its category, as data: ``repr``), or None when a test on a missing value
    fails (``missing="fail"``). A feature with no known training value keeps NaN."""
    scaling = rule_set.scaling
    if scaling.fills is None:
        return None
    return "".join(f"{j}: {_py_fill(scaling.fill_value(j))}, " for j in tested)


def _py_fill(value) -> str:
    if value is None:
        return "NAN"
    return _py_bound(value) if isinstance(value, float) else repr(value)


PASSED_BY_ALL = (-1, -np.inf, np.inf)
"""The test a rule that tests no feature is given in the Python export: of ``x[-1]``, a value
that is never missing (a missing one fails every test, ``mlr_core/missing.py``)."""


def _set_features(rule_set: RuleSet) -> tuple[dict, list]:
    """The rules' nominal tests as tests of their own: ({index: (feature, categories)}, one
    index per distinct set, numbered after the features; per rule its tests on them as
    (index, 1.0, 1.0): the test holds where the value is in the set)."""
    sets: dict = {}
    per_rule = []
    for tests in rule_set.set_tests():
        per_rule.append([(sets.setdefault(test, len(rule_set.feature_names) + len(sets)), 1.0,
                          1.0) for test in tests])
    return {p: test for test, p in sets.items()}, per_rule


def _narrowest_first(tests) -> list[tuple[int, float, float]]:
    """A rule's tests (`RuleSet.tests`) as (feature, lower, upper), narrowest on its axis first:
    a row fails most rules, and most often on their narrowest test, so the exports try it
    first."""
    return [(j, lower, upper) for j, lower, upper, _ in sorted(tests, key=lambda t: t[3])]


def _py(name) -> str:
    """A name as a Python string literal: quotes, backslashes, line breaks, NUL and every other
    unprintable character escaped."""
    return repr(str(name))


def _py_bound(value: float) -> str:
    """A bound as Python text: the float's round-trip ``repr``, ``INF`` or ``-INF``."""
    return ("INF" if value > 0 else "-INF") if np.isinf(value) else repr(float(value))


def _py_floats(values) -> str:
    return "(" + "".join(f"{float(v)!r}, " for v in values) + ")"


def python_labels(source: str, rows, feature_names=None) -> np.ndarray:
    """Run exported Python source on rows (for tests and the audit report): a 0/1 matrix.
    The rows are given by position (``FEATURES`` order), so repeated names do no harm;
    ``feature_names``, when given, must be the exported ones."""
    namespace: dict = {}
    exec(compile(source, "<scorecard>", "exec"), namespace)  # our own generated source
    if feature_names is not None and list(feature_names) != list(namespace["FEATURES"]):
        raise InputError("The rows' feature names are not the exported model's.")
    scores, chosen = namespace["scores"], namespace["chosen"]
    sparse = issparse(rows)  # scipy sparse rows: each densified alone, never rows x features
    out = np.zeros((rows.shape[0] if sparse else len(rows), len(namespace["LABELS"])),
                   dtype=np.uint8)
    for r in range(len(out)):
        out[r, chosen(scores(rows[[r]].toarray()[0] if sparse else rows[r]))] = 1
    return out


# ---------------------------------------------------------------------------------------- SQL

MODEL_TABLES = ("mlr_feature", "mlr_test", "mlr_weight", "mlr_row", "mlr_axis")

_LARGEST = float(np.finfo(np.float64).max)


ENGINES = ("sqlite", "duckdb")
"""The databases a script is written for (`sql_statements`' ``engine``)."""


def to_sql(rule_set: RuleSet, table: str = "data", key: str = "row_id",
           engine: str = "sqlite") -> str:
    """The SQL script of :func:`sql_statements`, one statement after another: what a file
    holds, for ``sqlite3 data.db < model.sql``, DuckDB's CLI or ``duckdb.execute`` (which
    return the last statement's rows)."""
    return "\n".join(sql_statements(rule_set, table, key, engine))


def sql_statements(rule_set: RuleSet, table: str = "data", key: str = "row_id",
                   engine: str = "sqlite") -> list[str]:
    """The statements of the SQL export, each ending in ``;``: the model's numbers and the rows'
    values put in temporary tables (``MODEL_TABLES``: replaced if present, gone with the session),
    then one ``SELECT`` over them, after ``table`` has been read: it has a column ``key``
    identifying each row (unique, not NULL) and one numeric column per feature, named as the feature
    (NULL: a missing value, read as in ``predict``: as the feature's fill, ``COALESCE``, or
    failing every test under ``missing="fail"``).
    It returns one row per input row, ordered by ``key``: the key, then one 0/1 column
    per label, named as the label. (Python's ``sqlite3`` runs one statement per ``execute``: run the
    others with ``executescript``, then ``execute`` the last.) Both scripts are standard SQL and
    give the same labels in both databases; ``engine`` says which one the script is written for:
    ``"sqlite"`` (the default, within issue 33's 10 s and 500 MB in both databases) indexes the
    rows' values and the tests (below), ``"duckdb"`` leaves the indexes out: DuckDB joins by hashing
    and reads no index here, and on genbase's 2.4 million values they cost it about 80 MB
    (``docs/export_speed.md``).

    Relational, so that its size grows with the rules' tests and weights, never with rows x rules or
    rules x labels, and no expression is deeper than log(features). A test is the interval of values
    it accepts in the data's units (``Scaling.accepted``: exact, so no axis is computed; every test
    is kept, NULL failing each). Each row is unpivoted once to one row per tested feature
    (``mlr_axis``, keyed by the row's rank times the number of tested features plus the feature's
    position: INTEGER PRIMARY KEY, so SQLite finds a row's value by that key, and indexed by feature
    and value, so that a test's passing or failing values are a range of that index, not a scan of
    every row). A rule is counted on the side it is true on less often in training (its experience
    over its age): where it matches (one join per number of tests, `_matched`: its narrowest test's
    passing values, then its next tests' values looked up by key; up to ``NESTED`` tests) or, for a
    rule that matches most rows or has more tests, where it fails (any test's failing values, each
    pair once): its weights are then in the baseline row (-1) and subtracted where it fails. On
    genbase, whose rules mostly match, that is 250,000 pairs of row and rule against 1.8 million
    matches. The pairs are joined to the weights, summed per row with ``GROUP BY``, clipped, and cut
    with window functions. ``CROSS JOIN`` where SQLite must scan the left table first. Standard SQL,
    run in the tests by SQLite and DuckDB. ``SUM`` adds in an order of the database's own, and a
    rule counted by its failures adds and subtracts its weights, so a score may differ from
    ``predict_proba`` in its last bits.

    Why tables, not ``VALUES`` in the query: DuckDB plans a query's literals at about 2 kB each, and
    a full model has 123,000 weights (a peak of 700 MB, against 500 MB as tables). Why one join per
    number of tests, not a table of the rows still passing after each test (the previous export):
    SQLite stored and read back 3.3 million such rows on the cube of ``docs/export_speed.md`` and
    looked up a rule's next test once per row (its query: 13 to 15 s of CPU against 8.6 s, at load
    10). Why the rows are read in the table's order, unsorted: sorting 2.4 million values by key
    cost SQLite 1 s and DuckDB about 100 MB on genbase. Why the index is made after the rows are in:
    SQLite took twice as long to fill an indexed table. Why not one expression per label (the first
    export): SQLite caps expression depth at 1000 and inlines a label's whole sum wherever the cut
    reads it; DuckDB plans such expressions at a fraction of a millisecond per term, minutes for a
    full model."""
    if engine not in ENGINES:
        raise InputError(f"The SQL export is written for one of {ENGINES}, not {engine!r}.")
    scorer = _checked(rule_set)
    features, labels = rule_set.feature_names, rule_set.label_names
    _sql_names(features, "feature", distinct=True)
    _sql_names(labels, "label")
    _sql_names([table, key], "table or key")
    if str(table).casefold() in MODEL_TABLES:
        raise InputError(f"The export keeps the model in temporary tables named {MODEL_TABLES}"
                         f": rename the table {table!r}.")
    ids = _rule_ids(rule_set)
    sets, set_tests = _set_features(rule_set)
    tests = [rule + extra for rule, extra in zip(_intervals(rule_set), set_tests, strict=True)]
    by_failure = _counted_by_failure(rule_set, tests)
    used = sorted({j for rule in tests for j, _, _ in rule})
    place = {j: p for p, j in enumerate(used)}
    width = max(len(used), 1)  # a row's keys in mlr_axis run from rank * width
    m = len(labels)
    w = [f"w{j}" for j in range(m)]
    baseline = [math.fsum([scorer.intercept[c], *scorer.coef[by_failure, c]]) for c in range(m)]
    sign = np.where(by_failure, -1.0, 1.0)[:, None]
    model = []
    model += _table("mlr_feature", ["j INTEGER", "p INTEGER"],
                    [[str(j), str(p)] for p, j in enumerate(used)],
                    "each feature a rule tests: its index and its position among them")
    model += _table("mlr_weight", ["rule INTEGER PRIMARY KEY", *w], [
        [str(rid), *map(_num, row)]
        for rid, row in [(-1, baseline), *((ids[i], sign[i] * scorer.coef[i])
                                           for i in range(rule_set.rule_count))]],
        "what counting a rule adds to each label's score (w<j>: label j): its weights where it "
        "matches; a rule counted where it fails has its weights in the baseline row (-1, the "
        "intercept plus those weights) and here negated")
    model += _table("mlr_test", ["rule INTEGER", "slot INTEGER", "n INTEGER", "j INTEGER",
                                 "p INTEGER", "lo", "hi"], [
        [str(ids[i]), str(0 if by_failure[i] else slot), str(len(rule)), str(j),
         str(place[j]), _num(lo), _num(hi)]
        for i, rule in enumerate(tests) for slot, (j, lo, hi) in enumerate(rule, 1)],
        "each rule's tests: a value passes when lo <= value <= hi; slots 1, 2, ... narrowest "
        "first for a rule counted where it matches, slot 0 for one counted where it fails; n: "
        "the rule's number of tests")
    if engine == "sqlite":
        model.append("CREATE INDEX mlr_test_by_rule ON mlr_test (rule, slot);")
    rows = [f"-- each row's rank times {width}, and its key\n"
            "DROP TABLE IF EXISTS temp.mlr_row;",
            f"CREATE TEMP TABLE mlr_row AS SELECT (ROW_NUMBER() OVER (ORDER BY {_ident(key)})"
            f" - 1) * {width} AS r, {_ident(key)} AS k FROM {_ident(table)};"]
    query_rows = "temp.mlr_row AS row"
    test, weight, axis = (f"temp.{name} AS {name[4:]}" for name in
                          ("mlr_test", "mlr_weight", "mlr_axis"))
    ctes, counted = [], ["SELECT r, -1 FROM temp.mlr_row"]
    if used:
        rows += ["-- each row's value of each tested feature: cell r + p\n"
                 "DROP TABLE IF EXISTS temp.mlr_axis;",
                 "CREATE TEMP TABLE mlr_axis (cell INTEGER"
                 + (" PRIMARY KEY" if engine == "sqlite" else "") + ", j INTEGER, "
                 "x DOUBLE PRECISION);",
                 f"INSERT INTO temp.mlr_axis\n  SELECT row.r + feature.p, feature.j, "
                 f"{_pick(used, _values(rule_set, sets, table))}\n  FROM {_ident(table)} "
                 f"CROSS JOIN {query_rows} CROSS JOIN temp.mlr_feature AS feature\n  WHERE "
                 f"{_ident(table)}.{_ident(key)} = row.k;"]
        if engine == "sqlite":
            rows.append("CREATE INDEX mlr_axis_by_value ON mlr_axis (j, x);")
        failing = (f"SELECT axis.cell - test.p, test.rule\n  FROM {test} CROSS JOIN {axis}\n"
                   "  WHERE test.slot = 0 AND axis.j = test.j AND axis.x {}")
        ctes.append("-- the rows and rules counted where they fail that fail a test, a missing "
                    "value (NULL) failing every test (each pair once)\nfailed (r, rule) AS (\n  "
                    + "\n  UNION\n  ".join(failing.format(test) for test in
                                            ("< test.lo", "> test.hi", "IS NULL")) + "\n)")
        counted.append("SELECT r, rule FROM failed")
        lengths = sorted({len(rule) for rule, fail in zip(tests, by_failure, strict=True)
                          if not fail})
        if lengths:
            ctes.append("-- the rows and rules counted where they match that pass every test\n"
                        "matched (r, rule) AS (\n  "
                        + "\n  UNION ALL\n  ".join(map(_matched, lengths)) + "\n)")
            counted.append("SELECT r, rule FROM matched")
    ctes.append("-- each row's counted rules (matched or failed), and the baseline (-1) that "
                "every row counts\ncounted (r, rule) AS (\n  "
                + "\n  UNION ALL\n  ".join(counted) + "\n)")
    ctes.append(_cte("score", ["k", *(f"s{j}" for j in range(m))],
                     ["row.k", *(scorer.squash.sql(f"SUM(weight.{c})") for c in w)],
                     f"counted CROSS JOIN {weight} CROSS JOIN {query_rows}\n"
                     "  WHERE weight.rule = counted.rule AND row.r = counted.r\n"
                     "  GROUP BY counted.r, row.k",
                     "each label's score: the sum of its counted rules' weights, then "
                     + scorer.squash.words))
    ctes.append("-- the label indices\nlabel (j) AS (\n  VALUES "
                + ", ".join(f"({j})" for j in range(m)) + "\n)")
    ctes.append(_cte("long", ["k", "j", "score"],
                     ["k", "j", "CASE j " + " ".join(f"WHEN {j} THEN s{j}" for j in range(m))
                      + " END"], "score CROSS JOIN label", "one row per row and label"))
    ctes.append(_sql_cut(rule_set))
    columns = [f"k AS {_ident(key)}",
               *(f"MAX(CASE WHEN j = {j} THEN picked ELSE 0 END) AS {_ident(name)}"
                 for j, name in enumerate(labels))]
    header = [*_header(rule_set, "summed by SQL in the database's order, so a score may "
                               "differ from the library's in its last bits"),
              "Each test is written as the interval of values it accepts, in the data's units.",
              "A script: the model's numbers and the rows' values go into temporary tables (",
              ", ".join(MODEL_TABLES) + "; replaced if present, gone with the session),",
              "then one SELECT gives the labels.",
              "Input: the table the script reads, with a unique key column and one numeric "
              "column per feature, named as the feature.",
              "Output: one row per input row, ordered by the key: the key, then one 0/1 column "
              "per label, named as the label."]
    query = ("-- the labels of each row\nWITH\n" + ",\n".join(ctes) + "\nSELECT\n  "
             + ",\n  ".join(columns) + "\nFROM cut\nGROUP BY k\nORDER BY k;\n")
    return ["".join(f"-- {line}\n" for line in header) + model[0], *model[1:], *rows, query]


def _intervals(rule_set: RuleSet) -> list[list[tuple[int, float, float]]]:
    """Each rule's tests as (feature index, lo, hi), narrowest first: a value in the data's
    units passes when lo <= value <= hi (`RuleSet.tests`, exact; an end it does not bound is
    the largest float, which every finite value passes, and a test that accepts nothing has
    lo > hi). A test accepting every value is kept: a missing value (NULL) fails it."""
    return [[(j, float(np.clip(lo, -_LARGEST, _LARGEST)), float(np.clip(hi, -_LARGEST, _LARGEST)))
             for j, lo, hi in _narrowest_first(tests)]
            for tests in rule_set.tests()]


NESTED = 4
"""The most tests a rule counted where it matches may have: its tests are one join of twice as
many tables (SQLite joins at most 64); a rule with more is counted where it fails."""


def _matched(n: int) -> str:
    """The rows and rules of ``n`` tests, counted where they match, that pass them all: one
    join, read in its written order by SQLite (``CROSS JOIN``): a rule's tests (t1 to tn, found
    by rule and slot), then the values passing its first test (a range of the index on
    ``mlr_axis``), then that row's value of each next test, looked up by its cell. Nothing is
    stored between tests, and a rule's tests are found once, not once per row."""
    slots = range(2, n + 1)
    tables = [f"temp.mlr_test AS t{s}" for s in range(1, n + 1)] + [
        f"temp.mlr_axis AS a{s}" for s in range(1, n + 1)]
    where = [f"t1.slot = 1 AND t1.n = {n}",
             *(f"t{s}.rule = t1.rule AND t{s}.slot = {s}" for s in slots),
             "a1.j = t1.j AND a1.x >= t1.lo AND a1.x <= t1.hi",
             *(f"a{s}.cell = a1.cell - t1.p + t{s}.p AND a{s}.x >= t{s}.lo AND a{s}.x <= t{s}.hi"
               for s in slots)]
    return (f"SELECT a1.cell - t1.p, t1.rule\n  FROM {' CROSS JOIN '.join(tables)}\n  WHERE "
            + "\n    AND ".join(where))


def _counted_by_failure(rule_set: RuleSet, tests) -> np.ndarray:
    """Per rule, whether the SQL counts it where it fails: a rule that tests nothing or more
    than ``NESTED`` features, or one that matched more than half the training rows it saw (its
    experience over its age; a guess that decides only the speed, never the scores)."""
    pop, n = rule_set.rules, rule_set.rule_count
    age = np.maximum(rule_set.iteration - pop.birth[:n], 1)
    too_few_or_many = np.array([not 0 < len(rule) <= NESTED for rule in tests], dtype=bool)
    return (pop.exp[:n] > age / 2) | too_few_or_many


def _sql_cut(rule_set: RuleSet) -> str:
    """The cut: (k, j, picked), picked 1 for a predicted label (as ``bipartition.apply``)."""
    place = "ROW_NUMBER() OVER (PARTITION BY k ORDER BY score DESC, j)"
    picked, what = rule_set.bipartition.sql_picked(_num, place)
    return _cte("cut", ["k", "j", "picked"], ["k", "j", picked], "long", what)


def _cte(name, columns, values, source, what) -> str:
    """``name (columns) AS (SELECT values FROM source)``, after a comment saying what it is."""
    return (f"-- {what}\n{name} ({', '.join(columns)}) AS (\n  SELECT\n    "
            + ",\n    ".join(values) + f"\n  FROM {source}\n)")


def _values(rule_set: RuleSet, sets, table):
    """A function from a tested index to a row's value there as a double: a feature's column,
    or for a nominal feature's set (`_set_features`) 1 where the column's value is in it, else
    0; a missing value (NULL) read as the feature's fill (``COALESCE``; for a set, 1 where the
    fill is in it), or left NULL (fails every test) under ``missing="fail"``."""
    features, scaling = rule_set.feature_names, rule_set.scaling

    def value(j):
        if j in sets:
            column, values = sets[j]
            cell = f"{_ident(table)}.{_ident(features[column])}"
            null = f" OR {cell} IS NULL" if scaling.fill_value(column) in values else ""
            return (f"CASE WHEN {cell} IN ({', '.join(map(_sql_value, values))}){null} "
                    "THEN 1.0 ELSE 0.0 END")
        cell = f"CAST({_ident(table)}.{_ident(features[j])} AS DOUBLE PRECISION)"
        fill = scaling.fill_value(j)
        return cell if fill is None else f"COALESCE({cell}, {_num(fill)})"
    return value


def _sql_value(value) -> str:
    """A category as an SQL literal (data, never code): a string quoted (quotes doubled), a
    number as `_num`, a boolean as TRUE or FALSE."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return _num(value)
    if "\0" in str(value):
        raise InputError(f"SQL cannot hold the category {value!r}: it holds a NUL character.")
    return "'" + str(value).replace("'", "''") + "'"


def _pick(used, value) -> str:
    """The value of feature ``j`` of a row (``value(j)``, SQL), as a double: a binary search
    over ``used`` (sorted feature indices), so a row's unpivot costs log(features) tests per
    feature, with no ``UNION`` of a term per feature (SQLite 3.5x refuses large ones read more
    than once)."""
    if len(used) == 1:
        return value(used[0])
    half = len(used) // 2
    return (f"CASE WHEN feature.j < {used[half]} THEN {_pick(used[:half], value)} "
            f"ELSE {_pick(used[half:], value)} END")


def _table(name, columns, rows, what, chunk=500) -> list[str]:
    """Statements that make temporary table ``name`` hold ``rows`` (columns are doubles unless
    typed), in ``INSERT``s of ``chunk`` rows, after a comment saying what it holds."""
    typed = [column if " " in column else f"{column} DOUBLE PRECISION" for column in columns]
    return [f"-- {what}\nDROP TABLE IF EXISTS temp.{name};",
            f"CREATE TEMP TABLE {name} ({', '.join(typed)});",
            *(f"INSERT INTO temp.{name} VALUES\n"
              + ",\n".join(f"  ({', '.join(row)})" for row in rows[start:start + chunk]) + ";"
              for start in range(0, len(rows), chunk))]


def _num(value) -> str:
    """A float as 17 significant digits in exponent form, which SQL reads as a double (a plain
    decimal may be read as an exact DECIMAL first) with the same bits. Not the shortest text
    (``repr``): SQLite 3.40 read 7 of 40,001 such texts one bit off (0.03661874934718631
    among them), and none of the same values written with 17 digits."""
    return format(float(value), ".16e")


def _ident(name) -> str:
    """A name as an SQL quoted identifier (double quotes doubled)."""
    return '"' + str(name).replace('"', '""') + '"'


def _sql_names(names, what, distinct=False) -> None:
    """Refuse names no SQL can quote: empty or holding NUL; feature names must also differ
    from each other regardless of case (SQL matches column names without regard to case)."""
    seen: dict = {}
    for i, name in enumerate(map(str, names)):
        if not name or "\0" in name:
            raise InputError(f"An SQL name cannot be empty or hold a NUL character: rename the "
                             f"{what} {name!r}.")
        first = seen.setdefault(name.casefold(), i)
        if distinct and first != i:
            raise InputError(f"SQL reads each {what} from the column of its name, and "
                             f"{str(names[first])!r} and {name!r} name the same column: rename "
                             "one.")
