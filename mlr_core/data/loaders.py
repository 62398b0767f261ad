"""Load multi-label data (MULAN and MEKA ARFF, CSV, pandas DataFrames) into one validated `Dataset`.

A user's file must never crash the program: every problem is raised as `DatasetError` with a
message that names the file and, where it can, the line, column or attribute at fault. The
dashboard shows that message as it is.

Formats
-------
- **MULAN**: ``name.arff`` (dense or sparse) plus ``name.xml`` naming the label attributes. The
  XML decides which attributes are labels, matched by name; ``Y``'s columns keep the ARFF's order
  (yeast.xml lists its labels in another). A stale MEKA ``-C`` in ``@relation`` is then ignored
  (with a note).
- **MEKA**: one ARFF whose ``@relation`` carries ``-C m``: the first ``m`` attributes are labels
  when ``m > 0``, the last ``|m|`` when ``m < 0``.
- **CSV** (comma-separated, header row): label columns are those named ``label:<name>`` (the
  prefix is dropped from the label name), unless ``labels=`` says otherwise.

Encodings: numeric attributes stay as they are; a nominal attribute whose two values read as
yes/no (``{YES,NO}``, ``{0,1}``, ``{1,0}``, ``{t,f}``, ``{true,false}``, any case) becomes one 0/1
column, decoded by value name and never by position; any other nominal attribute becomes one
one-hot column per value, named ``attribute=value``; string attributes (IDs, free text) are
dropped with a note (ARFF nominal attributes stay one-hot: on flags, MLR learned them so
slightly better than as categories, ``docs/nominal_features.md``). A CSV or DataFrame feature
column whose cells are not all numbers, or a pandas category column, is a nominal feature held
as its codes, its distinct values its categories (`Dataset.categories`, `Dataset.features`). A
missing feature value (``?``, an empty cell, NaN) stays NaN, which the
engine reads as missing (``mlr_core/missing.py``; a missing nominal is NaN in each of its
one-hot columns); a missing label and inf are errors. So are two columns of one name (in
a header, or made by one-hot encoding) and a sparse row giving one index twice: a name picks one
column, and the rules, their texts and exports address features by name.

Size: a file of under 1 MB can declare gigabytes (a sparse ARFF row lists only its non-zero
values), so the size of the arrays a file will become is computed from its header and its number
of lines, and checked against a budget (``max_bytes``, `mlr_core.validation.MEMORY_BUDGET` by
default) before any of them is allocated; the arrays are then filled column by column (ARFF) or
row by row (CSV), never through a dense intermediate of Python objects.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mlr_core.data.arff_format import parse_arff
from mlr_core.data.csv_format import parse_csv
from mlr_core.data.dataset import (
    FEATURE_TYPES,
    LABEL_PREFIX,
    RAISE_BUDGET,
    Dataset,
    as_categories,
    as_numbers,
    label_columns,
    numbers,
    table_to_dataset,
)
from mlr_core.errors import DatasetError
from mlr_core.validation import MEMORY_BUDGET, check_memory

__all__ = ["FEATURE_TYPES", "LABEL_PREFIX", "Dataset", "dataset_from_frame", "load_dataset",
           "load_dataset_bytes"]


def load_dataset(path, labels=None, max_bytes: float = MEMORY_BUDGET,
                 sparse: bool = False) -> Dataset:
    """Load a multi-label dataset from a file (or a DataFrame).

    Parameters
    ----------
    path : str, path-like or pandas.DataFrame
        ``.arff`` (MULAN when ``<stem>.xml`` lies beside it, else MEKA), ``.xml`` (the ``.arff``
        beside it is read), or ``.csv``. A DataFrame is passed to `dataset_from_frame`.
    labels : None, int or sequence of str
        Which columns are labels. ``None``: the file says (XML, MEKA ``-C``, or ``label:`` column
        names). A list of names: those columns, in that order. An int ``k``: the last ``k``
        columns, or the first ``|k|`` when ``k < 0`` (the habit of CSV and MULAN files; note that
        MEKA's ``-C`` read from a file uses the opposite sign convention, as MEKA defines it).
    max_bytes : float
        The most memory the file and the dataset's arrays may take: a larger one is refused
        before it is read or allocated, with a `DatasetError` naming both sizes.
    sparse : bool
        Keep a sparse ARFF's features sparse (``X`` a scipy CSR matrix, its memory growing with
        the values the file holds, not rows x columns; a ``?`` stored as NaN, missing), as
        ``MLRClassifier`` reads them; other files are read dense whatever it says.

    Returns
    -------
    Dataset

    Raises
    ------
    DatasetError
        The file cannot be read or used; the message names the file and the line or attribute.

    Examples
    --------
    >>> ds = load_dataset("sample_data/hypercube_2d.csv")  # doctest: +SKIP
    >>> ds = load_dataset("../shared/datasets/yeast.arff")  # and yeast.xml  # doctest: +SKIP
    """
    if isinstance(path, pd.DataFrame):
        return dataset_from_frame(path, labels)
    path = Path(path)
    if path.suffix.lower() == ".xml":
        path = path.with_suffix(".arff")
    xml = None
    if path.suffix.lower() == ".arff":
        xml_path = path.with_suffix(".xml")
        xml = _read_bytes(xml_path, max_bytes) if xml_path.is_file() else None
    return load_dataset_bytes(_read_bytes(path, max_bytes), str(path), xml=xml, labels=labels,
                              max_bytes=max_bytes, sparse=sparse)


def load_dataset_bytes(
    data: bytes, filename: str, xml: bytes | None = None, labels=None,
    max_bytes: float = MEMORY_BUDGET, sparse: bool = False,
) -> Dataset:
    """Load a dataset from the bytes of a file, e.g. an upload; the bytes are parsed as text only.

    Parameters
    ----------
    data : bytes
        Content of the ``.arff`` or ``.csv`` file (UTF-8; other bytes are read as Latin-1 with a
        note; NUL bytes are refused).
    filename : str
        The file's name: its suffix picks the format, its stem names the dataset, and messages
        quote it.
    xml : bytes, optional
        Content of the MULAN ``.xml`` label file that goes with an ``.arff``.
    labels : None, int or sequence of str
        As in `load_dataset`.
    max_bytes, sparse
        As in `load_dataset`.

    Returns
    -------
    Dataset

    Raises
    ------
    DatasetError
        On anything that cannot be read or used, and only that.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DatasetError(f"{filename}: expected the file's bytes, got {type(data).__name__}")
    check_memory(len(data), filename, DatasetError, max_bytes, RAISE_BUDGET)
    notes: list[str] = []
    text = _decode_text(bytes(data), filename, notes)
    suffix = Path(filename).suffix.lower()
    name = Path(filename).stem
    if suffix == ".arff":
        xml_source = str(Path(filename).with_suffix(".xml"))
        return parse_arff(text, filename, name, xml, xml_source, labels, notes, max_bytes,
                          sparse)
    if suffix == ".csv":
        return parse_csv(text, filename, name, labels, notes, max_bytes)
    raise DatasetError(
        f"{filename}: unsupported file type {suffix or '(none)'!r}; use .arff (MULAN with its "
        ".xml, or MEKA with -C in @relation) or .csv"
    )


def dataset_from_frame(df: pd.DataFrame, labels=None, name: str = "dataframe") -> Dataset:
    """Build a dataset from a DataFrame.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per instance. A feature column of pandas categories, or whose cells are not all
        numbers (or bool), is a nominal feature (`Dataset.categories`); NaN or None is a
        missing value. Label cells are 0/1 (or bool).
    labels : None, int or sequence of str
        As in `load_dataset`; ``None`` takes the columns named ``label:<name>``.
    name : str
        Name of the dataset, also used in messages.

    Returns
    -------
    Dataset
    """
    if not isinstance(df, pd.DataFrame):
        raise DatasetError(f"{name}: expected a pandas DataFrame, got {type(df).__name__}")
    columns = [str(c) for c in df.columns]
    label_idx = label_columns(columns, labels, name)

    def row_label(i: int) -> str:
        return f"row {df.index[i]!r}"

    values, categories = [], {}
    for j, column in enumerate(columns):
        cells = df.iloc[:, j]
        if j in label_idx:
            values.append(as_numbers(cells, f"label column {column!r}", name, row_label))
            continue
        numeric, bad = numbers(cells)
        if bad is not None or isinstance(cells.dtype, pd.CategoricalDtype):
            numeric, categories[j] = as_categories(cells, column, name)
        values.append(numeric)
    table = np.column_stack(values) if values else np.empty((len(df), 0))
    return table_to_dataset(columns, table, label_idx, name, name, row_label, [], categories)


def _decode_text(data: bytes, source: str, notes: list[str]) -> str:
    """Bytes to text: UTF-8 (BOM allowed), else Latin-1 with a note; NUL bytes mean not text."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise DatasetError(
            f"{source}: not a text file (NUL byte at offset {nul}; binary, or UTF-16 text?); "
            "save it as UTF-8 text"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        notes.append(
            f"{source} is not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start}); "
            "it was read as Latin-1"
        )
        return data.decode("latin-1")


def _read_bytes(path: Path, max_bytes: float) -> bytes:
    try:
        check_memory(path.stat().st_size, str(path), DatasetError, max_bytes, RAISE_BUDGET)
        return path.read_bytes()
    except FileNotFoundError as err:
        raise DatasetError(f"{path}: no such file") from err
    except OSError as err:
        raise DatasetError(f"{path}: cannot be read ({err.strerror or err})") from err
