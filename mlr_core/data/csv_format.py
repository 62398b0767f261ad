"""CSV files (a header row, ``label:`` columns) read into a `Dataset` row by row.

A feature column whose non-empty cells are not all numbers holds text: it becomes a nominal
feature, its distinct values (surrounding spaces stripped) its categories, sorted
(`dataset.as_categories`); a label column must hold 0/1 (or true/false)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

from mlr_core.data.dataset import (
    RAISE_BUDGET,
    Dataset,
    as_categories,
    excerpt,
    label_columns,
    table_to_dataset,
)
from mlr_core.errors import DatasetError
from mlr_core.validation import check_memory


def _blank(row: list[str]) -> bool:
    return not row or (len(row) == 1 and not row[0].strip())


def _csv_number(cell: str) -> float | None:
    """One cell that numpy's bulk conversion refused: empty -> NaN (a missing value; in a label
    column refused afterwards, with its line), true/false -> 1/0, else a number, or None for
    text."""
    text = cell.strip()
    if not text:
        return np.nan
    if text.lower() in ("true", "false"):
        return float(text.lower() == "true")
    try:
        return float(text)
    except ValueError:
        return None


def parse_csv(text: str, source: str, name: str, labels, notes: list[str],
               max_bytes: float) -> Dataset:
    """Read a CSV with the csv module, one row at a time into a float array sized before
    parsing; the columns found to hold text are then read again as text (`_text_cells`) and
    hold their category codes. Why not pandas: its parser takes about 0.3 ms per column (a
    minute for 200,000 columns), and it silently turns a first field too many on every row
    into the index, shifting every column; here each row must have as many fields as the
    header."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next((row for row in reader if not _blank(row)), None)
        if header is None:
            raise DatasetError(f"{source}: the file is empty (no header row)")
        label_idx = label_columns(header, labels, source)
        width = len(header)
        n_lines = text.count("\n") + text.count("\r") - text.count("\r\n")
        n_lines += not text.endswith(("\n", "\r"))  # a last line without its line break
        bound = max(n_lines - reader.line_num, 0)  # rows left, blank ones included
        check_memory(8 * bound * width, f"{source}: {bound:,} rows x {width:,} columns",
                     DatasetError, max_bytes, RAISE_BUDGET)
        values = np.empty((bound, width))
        lines = np.empty(bound, dtype=np.int64)  # the physical line of each data row
        is_label, text_columns = set(label_idx), set()
        n = 0
        for row in reader:
            if _blank(row):
                continue
            if len(row) != width:
                raise DatasetError(
                    f"{source}, line {reader.line_num}: {len(row)} fields, but the header names "
                    f"{width} columns"
                )
            for j in text_columns:  # read as text afterwards
                row[j] = "nan"
            try:
                values[n] = row
            except ValueError:
                values[n] = [_cell(cell, j, header, is_label, text_columns, source,
                                   reader.line_num) for j, cell in enumerate(row)]
            lines[n] = reader.line_num
            n += 1
    except csv.Error as err:
        raise DatasetError(
            f"{source}, line {reader.line_num}: cannot parse as CSV ({err})"
        ) from err

    def row_label(i: int) -> str:
        return f"line {lines[i]}"

    categories = {}
    for j, cells in _text_cells(text, sorted(text_columns)).items():
        values[:n, j], categories[j] = as_categories(pd.Series(cells, dtype=object), header[j],
                                                     source)
    return table_to_dataset(header, values[:n], label_idx, source, name, row_label, notes,
                            categories)


def _cell(cell: str, j: int, header: list[str], is_label: set, text_columns: set, source: str,
          line: int) -> float:
    """One cell of a row that numpy's bulk conversion refused, as a number (`_csv_number`);
    text makes a feature column a text column (NaN here, read again as text), and is refused in
    a label column."""
    number = _csv_number(cell)
    if number is not None:
        return number
    if j in is_label:
        raise DatasetError(
            f"{source}, line {line}: label column {header[j]!r} is {excerpt(repr(cell))}; a "
            "label is 0 or 1 (or true/false)")
    text_columns.add(j)
    return np.nan


def _text_cells(text: str, columns: list[int]) -> dict[int, list]:
    """The cells of ``columns`` in every data row (the rows `parse_csv` read: not blank, after
    the header), stripped, None where empty."""
    if not columns:
        return {}
    cells = {j: [] for j in columns}
    rows = (row for row in csv.reader(io.StringIO(text, newline="")) if not _blank(row))
    next(rows)  # the header
    for row in rows:
        for j in columns:
            cells[j].append(row[j].strip() or None)
    return cells
