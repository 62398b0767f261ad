"""CSV files (a header row, numbers only, ``label:`` columns) read into a `Dataset` row by
row."""

from __future__ import annotations

import csv
import io

import numpy as np

from mlr_core.data.dataset import RAISE_BUDGET, Dataset, excerpt, label_columns, table_to_dataset
from mlr_core.errors import DatasetError
from mlr_core.validation import check_memory


def _blank(row: list[str]) -> bool:
    return not row or (len(row) == 1 and not row[0].strip())


def _csv_number(cell: str, column: str, source: str, line: int) -> float:
    """One cell that numpy's bulk conversion refused: empty -> NaN (a missing value; in a label
    column refused afterwards, with its line), true/false -> 1/0, else a number or a
    `DatasetError`."""
    text = cell.strip()
    if not text:
        return np.nan
    if text.lower() in ("true", "false"):
        return float(text.lower() == "true")
    try:
        return float(text)
    except ValueError:
        raise DatasetError(
            f"{source}, line {line}: column {column!r} is {excerpt(repr(cell))}, not a number"
        ) from None


def parse_csv(text: str, source: str, name: str, labels, notes: list[str],
               max_bytes: float) -> Dataset:
    """Read a CSV of numbers with the csv module, one row at a time into a float array sized
    before parsing. Why not pandas: its parser takes about 0.3 ms per column (a minute for
    200,000 columns), and it silently turns a first field too many on every row into the index,
    shifting every column; here each row must have as many fields as the header."""
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
        n = 0
        for row in reader:
            if _blank(row):
                continue
            if len(row) != width:
                raise DatasetError(
                    f"{source}, line {reader.line_num}: {len(row)} fields, but the header names "
                    f"{width} columns"
                )
            try:
                values[n] = row
            except ValueError:
                values[n] = [_csv_number(cell, column, source, reader.line_num)
                             for cell, column in zip(row, header, strict=True)]
            lines[n] = reader.line_num
            n += 1
    except csv.Error as err:
        raise DatasetError(
            f"{source}, line {reader.line_num}: cannot parse as CSV ({err})"
        ) from err

    def row_label(i: int) -> str:
        return f"line {lines[i]}"

    return table_to_dataset(header, values[:n], label_idx, source, name, row_label, notes)
