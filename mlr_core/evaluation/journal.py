"""The run's journal, ``folds.jsonl`` in ``--out``: each finished task's rows appended as it
completes, read back by ``--resume``, whose seed and folds must then be this run's."""

from __future__ import annotations

import json
from pathlib import Path

from mlr_core.errors import DatasetError
from mlr_core.evaluation.folds import Fold

KEY = ["learner", "dataset", "fold"]
"""The columns that name one result row: which learner, on which dataset, on which fold."""
JOURNAL = "folds.jsonl"
"""The file in ``--out`` where each finished task's rows are appended as it completes."""


def read_journal(path) -> list[dict]:
    """The rows a journal (``folds.jsonl``) holds; a last line cut short by a kill is left out."""
    path = Path(path)
    if not path.is_file():
        return []
    lines = path.read_text().splitlines()
    rows = []
    for number, line in enumerate(lines, start=1):
        try:
            row = json.loads(line)
        except ValueError as err:
            if number == len(lines):  # the process died while writing it
                break
            raise DatasetError(f"{path}, line {number}: not a result row ({err})") from err
        if not isinstance(row, dict) or not {*KEY, "seed", "folds_sha256"} <= row.keys():
            raise DatasetError(f"{path}, line {number}: not a result row of this runner")
        wrong = _wrong_field(row)
        if wrong:
            raise DatasetError(f"{path}, line {number} ({row['learner']!r} on "
                               f"{row['dataset']!r}): {wrong}; this runner never writes that. "
                               "Correct the line, or delete it to run that fit again.")
        rows.append(row)
    return rows


def _wrong_field(row: dict) -> str | None:
    """What is wrong with a journal row's values, in words, or None: the names are text, the
    fold and seed whole numbers, every other value (the measures and seconds) a number. A bad
    row refuses the resume rather than being skipped: the journal is the runner's own, so
    such a row was edited or damaged, and a resume that left it out would rewrite the journal
    without it."""
    for column in ("learner", "dataset", "folds_sha256"):
        if not isinstance(row[column], str):
            return f"{column} is {_quoted(row[column])}, not text"
    for column in ("fold", "seed"):
        if type(row[column]) is not int or not 0 <= row[column] < 2**32:
            return f"{column} is {_quoted(row[column])}, not a whole number from 0 to 2**32"
    for column, value in row.items():
        if column not in (*KEY, "seed", "folds_sha256") and type(value) not in (int, float):
            return f"{column} is {_quoted(value)}, not a number"
    return None


def _quoted(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def earlier_rows(out: Path, resume: bool) -> list[dict]:
    """The rows of the earlier runs in ``out`` that this one adds to; without ``--resume``, a
    folder holding results is refused (never silently replaced)."""
    held = [name for name in (JOURNAL, "folds.csv", "means.csv", "tables.md")
            if (out / name).is_file() and (out / name).stat().st_size]
    if not resume:
        if held:
            raise SystemExit(f"{out} already holds results ({', '.join(held)}): rerun with "
                             "--resume to add this run's missing folds to them, or choose "
                             "another --out")
        return []
    if held and JOURNAL not in held:
        raise SystemExit(f"{out} holds results but no {JOURNAL} to resume from: choose another "
                         "--out")
    return read_journal(out / JOURNAL)


def check_same_settings(rows: list[dict], seed: int, folds: dict[str, list[Fold]],
                         fingerprints: dict[str, str], journal: Path) -> None:
    """Refuse to add to rows made with another seed, or on other folds of a dataset, or of a
    fold the dataset does not have."""
    for row in rows:
        name = row["dataset"]
        if row["seed"] != seed:
            made = f"made with --seed {row['seed']}"
        elif row["folds_sha256"] != fingerprints.get(name, row["folds_sha256"]):
            made = "made on other folds (or rows)"
        elif name in folds and row["fold"] >= len(folds[name]):
            raise SystemExit(f"{journal} holds a result of {row['learner']} on {name} for fold "
                             f"{row['fold']}, but its folds are 0 to {len(folds[name]) - 1}: "
                             "correct that line, or delete it")
        else:
            continue
        raise SystemExit(f"{journal} holds results of {row['learner']} on {name} {made}; resume "
                         "with the settings of that run, or choose another --out")
