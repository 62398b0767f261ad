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
- **CSV** (comma-separated, header row, numbers only): label columns are those named
  ``label:<name>`` (the prefix is dropped from the label name), unless ``labels=`` says otherwise.

Encodings: numeric attributes stay as they are; a nominal attribute whose two values read as
yes/no (``{YES,NO}``, ``{0,1}``, ``{1,0}``, ``{t,f}``, ``{true,false}``, any case) becomes one 0/1
column, decoded by value name and never by position; any other nominal attribute becomes one
one-hot column per value, named ``attribute=value``; string attributes (IDs, free text) are
dropped with a note. Missing values (``?`` or empty cells), NaN and inf are errors: the engine
cannot use them and silently imputing would change the data. So are two columns of one name (in
a header, or made by one-hot encoding) and a sparse row giving one index twice: a name picks one
column, and the rules, their texts and exports address features by name.

Size: a file of under 1 MB can declare gigabytes (a sparse ARFF row lists only its non-zero
values), so the size of the arrays a file will become is computed from its header and its number
of lines, and checked against a budget (``max_bytes``, `mlr_core.validation.MEMORY_BUDGET` by
default) before any of them is allocated; the arrays are then filled column by column (ARFF) or
row by row (CSV), never through a dense intermediate of Python objects.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import arff
import numpy as np
import pandas as pd

from mlr_core.errors import DatasetError
from mlr_core.validation import (
    MEMORY_BUDGET,
    check_label_matrix,
    check_memory,
    check_unique_names,
)

LABEL_PREFIX = "label:"
"""CSV and DataFrame columns whose name starts with this prefix are labels when ``labels=None``."""

FEATURE_TYPES = ("numeric", "binary", "nominal")
"""Kinds of feature column: a number, a yes/no attribute decoded to 1/0, a one-hot column."""

_TRUE_NAMES = frozenset({"1", "yes", "y", "true", "t"})
_FALSE_NAMES = frozenset({"0", "no", "n", "false", "f"})
_MEKA_C = re.compile(r"(?:^|\s)-C\s+(-?\d+)")
_SPARSE_PAIR = re.compile(  # "index value" in a sparse ARFF row; a value may be quoted
    r"""(?:^\s*\{|,)\s*(\d+)\s+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,\s"'{}]+)""")
_MAX_SHOWN = 120  # characters of a file's content quoted in an error message
_RAISE_BUDGET = " (max_bytes= of load_dataset or load_dataset_bytes allows more)"

RowLabel = Callable[[int], str]


@dataclass(eq=False)
class Dataset:
    """A multi-label dataset ready for the engine: numeric, finite, 0/1 labels, nothing to parse.

    Construction validates the arrays (shapes, finiteness, 0/1 labels, names), so any ``Dataset``
    can be handed to the engine as it is.

    Attributes
    ----------
    X : ndarray of shape (n, d), float64
        Features, finite.
    Y : ndarray of shape (n, m), uint8
        Labels, 0/1.
    feature_names, label_names : list of str
        Column names of ``X`` and ``Y``.
    name : str
        Short name (the file's stem for loaded files).
    feature_types : list of str
        Per column of ``X``: ``"numeric"``, ``"binary"`` (a yes/no attribute decoded to 1/0) or
        ``"nominal"`` (a one-hot column ``attribute=value``); all ``"numeric"`` when not given.
    notes : list of str
        What the loader decided for the user: dropped string attributes, ignored ``-C``, encoding.
    source_attributes : list of (str, str)
        The input attributes as the file declared them, before one-hot encoding, with their kind
        (``"numeric"``, ``"binary"``, ``"nominal"``); its length is the ``d`` of dataset tables.
        Defaults to one numeric attribute per column of ``X``.
    meta : dict
        Anything else worth keeping: the ARFF relation, the generator's parameters and hypercubes.
    """

    X: np.ndarray
    Y: np.ndarray
    feature_names: list[str]
    label_names: list[str]
    name: str = "dataset"
    feature_types: list[str] | None = None
    notes: list[str] = field(default_factory=list)
    source_attributes: list[tuple[str, str]] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        self.feature_names = [str(f) for f in self.feature_names]
        self.label_names = [str(lab) for lab in self.label_names]
        self.X, self.Y = _checked_arrays(
            self.X,
            self.Y,
            self.feature_names,
            self.label_names,
            f"dataset {self.name!r}",
            lambda i: f"row {i}",
        )
        if self.feature_types is None:
            self.feature_types = ["numeric"] * self.X.shape[1]
        self.feature_types = list(self.feature_types)
        known = set(self.feature_types) <= set(FEATURE_TYPES)
        if len(self.feature_types) != self.X.shape[1] or not known:
            raise DatasetError(
                f"dataset {self.name!r}: feature_types must give one of {FEATURE_TYPES} for each "
                f"of the {self.X.shape[1]} feature columns"
            )
        if self.source_attributes is None:
            self.source_attributes = list(zip(self.feature_names, self.feature_types, strict=True))

    @property
    def n_samples(self) -> int:
        """Number of instances (rows)."""
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        """Number of feature columns of ``X`` (after one-hot encoding)."""
        return self.X.shape[1]

    @property
    def n_labels(self) -> int:
        """Number of labels (columns of ``Y``)."""
        return self.Y.shape[1]

    def to_frame(self) -> pd.DataFrame:
        """Features then labels as one DataFrame, label columns prefixed ``label:``.

        Written with ``to_csv(index=False)`` it is a CSV that ``load_dataset`` reads back with no
        ``labels=`` argument.
        """
        features = pd.DataFrame(self.X, columns=self.feature_names)
        labels = pd.DataFrame(self.Y, columns=[LABEL_PREFIX + lab for lab in self.label_names])
        return pd.concat([features, labels], axis=1)


def load_dataset(path, labels=None, max_bytes: float = MEMORY_BUDGET) -> Dataset:
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
                              max_bytes=max_bytes)


def load_dataset_bytes(
    data: bytes, filename: str, xml: bytes | None = None, labels=None,
    max_bytes: float = MEMORY_BUDGET,
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
    max_bytes : float
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
    check_memory(len(data), filename, DatasetError, max_bytes, _RAISE_BUDGET)
    notes: list[str] = []
    text = _decode_text(bytes(data), filename, notes)
    suffix = Path(filename).suffix.lower()
    name = Path(filename).stem
    if suffix == ".arff":
        xml_source = str(Path(filename).with_suffix(".xml"))
        return _parse_arff(text, filename, name, xml, xml_source, labels, notes, max_bytes)
    if suffix == ".csv":
        return _parse_csv(text, filename, name, labels, notes, max_bytes)
    raise DatasetError(
        f"{filename}: unsupported file type {suffix or '(none)'!r}; use .arff (MULAN with its "
        ".xml, or MEKA with -C in @relation) or .csv"
    )


def dataset_from_frame(df: pd.DataFrame, labels=None, name: str = "dataframe") -> Dataset:
    """Build a dataset from a DataFrame of numbers.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per instance; every cell numeric (or bool).
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
    label_idx = _label_columns(columns, labels, name)

    def row_label(i: int) -> str:
        return f"row {df.index[i]!r}"

    values = [_as_numbers(df.iloc[:, j], f"column {column!r}", name, row_label)
              for j, column in enumerate(columns)]
    table = np.column_stack(values) if values else np.empty((len(df), 0))
    return _table_to_dataset(columns, table, label_idx, name, name, row_label, [])


# --- shared checks -------------------------------------------------------------------------------


def _short(text: str) -> str:
    """Quote at most `_MAX_SHOWN` characters of a file's content in a message."""
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "..."


def _checked_arrays(X, Y, feature_names, label_names, source: str, row_label: RowLabel):
    """Validate and convert ``X`` (float64, finite) and ``Y`` (uint8 0/1); raise `DatasetError`."""
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise DatasetError(f"{source}: features are not numeric ({err})") from err
    if X.ndim != 2:
        raise DatasetError(f"{source}: X must be 2-D (n_samples, n_features), got shape {X.shape}")
    Y = check_label_matrix(
        Y, source, error=DatasetError, row_label=row_label, label_names=label_names
    )
    if X.shape[0] != Y.shape[0]:
        raise DatasetError(f"{source}: X has {X.shape[0]} rows but Y has {Y.shape[0]}")
    if X.shape[1] == 0:
        raise DatasetError(f"{source}: no feature columns, only labels")
    for what, names, width in (
        ("feature", feature_names, X.shape[1]),
        ("label", label_names, Y.shape[1]),
    ):
        if len(names) != width:
            raise DatasetError(f"{source}: {len(names)} {what} names for {width} {what} columns")
        check_unique_names(names, what, DatasetError, source)
    bad = ~np.isfinite(X)
    if bad.any():
        i, j = (int(k) for k in np.argwhere(bad)[0])
        raise DatasetError(
            f"{source}, {row_label(i)}: feature {feature_names[j]!r} is {X[i, j]} "
            "(missing values, NaN and inf are not allowed)"
        )
    return np.ascontiguousarray(X), Y


def _pick_columns(names: Sequence[str], labels, source: str) -> list[int]:
    """Indices of the label columns that the caller's ``labels`` argument selects."""
    if isinstance(labels, (int, np.integer)) and not isinstance(labels, bool):
        k, width = int(labels), len(names)
        if k == 0:
            raise DatasetError(
                f"{source}: labels=0 selects zero labels; a dataset needs at least one"
            )
        if abs(k) >= width:
            raise DatasetError(
                f"{source}: labels={k} but there are only {width} columns; at least one must be "
                "left as a feature"
            )
        return list(range(width - k, width)) if k > 0 else list(range(-k))
    if isinstance(labels, str):
        labels = [labels]
    try:
        wanted = [str(lab) for lab in labels]
    except TypeError as err:
        raise DatasetError(
            f"{source}: labels must be None, an int or a list of column names, got {labels!r}"
        ) from err
    if not wanted:
        raise DatasetError(f"{source}: labels=[] selects zero labels; a dataset needs at least one")
    position = {item: i for i, item in enumerate(names)}
    for lab in wanted:
        if lab not in position:
            shown = ", ".join(repr(n) for n in names[:10]) + (", ..." if len(names) > 10 else "")
            raise DatasetError(f"{source}: no column named {lab!r} (columns: {shown})")
    if len(set(wanted)) != len(wanted):
        raise DatasetError(f"{source}: a label is named twice in labels={wanted!r}")
    return [position[lab] for lab in wanted]


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
        check_memory(path.stat().st_size, str(path), DatasetError, max_bytes, _RAISE_BUDGET)
        return path.read_bytes()
    except FileNotFoundError as err:
        raise DatasetError(f"{path}: no such file") from err
    except OSError as err:
        raise DatasetError(f"{path}: cannot be read ({err.strerror or err})") from err


# --- ARFF (MULAN and MEKA) -----------------------------------------------------------------------


def _unescape(name: str) -> str:
    r"""Undo the ARFF escapes liac-arff keeps in names: ``Swainson\'s`` -> ``Swainson's``."""
    return re.sub(r"\\(.)", r"\1", name)


def _iter_data_lines(lines: Sequence[str]) -> Iterator[int]:
    """1-based numbers of the data lines, skipping blank and ``%`` lines as liac-arff does."""
    in_data = False
    for number, line in enumerate(lines, start=1):
        row = line.strip()
        if in_data:
            if row and not row.startswith("%"):
                yield number
        elif row.upper().startswith("@DATA"):
            in_data = True


def _row_labeler(lines: Sequence[str]) -> RowLabel:
    """Map a data row index to ``line N``, scanning the file only when an error needs it."""
    numbers: list[int] = []

    def row_label(i: int) -> str:
        if not numbers:
            numbers.extend(_iter_data_lines(lines))
        return f"line {numbers[i]}" if i < len(numbers) else f"data row {i + 1}"

    return row_label


def _arff_error_text(err: arff.ArffException) -> str:
    """liac-arff's message with its line; its own ``str`` fails when the bad value holds a ``%``."""
    try:
        return str(err)
    except (TypeError, ValueError):
        return err.message.replace("%d", str(err.line))


def _decode_arff(lines: list[str], source: str) -> tuple[dict, bool]:
    """Parse with liac-arff (dense, or list of dicts for sparse rows); errors -> DatasetError."""
    first = next(_iter_data_lines(lines), None)
    sparse = first is not None and lines[first - 1].lstrip().startswith("{")
    decoder = arff.ArffDecoder()
    try:
        obj = decoder.decode(lines, return_type=arff.LOD if sparse else arff.DENSE)
    except arff.ArffException as err:
        hint = ""
        if not any(line.strip().upper().startswith("@DATA") for line in lines):
            hint = " (no @data section: is the file truncated, or not ARFF?)"
        raise DatasetError(f"{source}: {_short(_arff_error_text(err))}{hint}") from err
    except Exception as err:  # liac-arff lets some malformed input escape as other exceptions
        line = getattr(decoder, "_current_line", "?")
        raise DatasetError(
            f"{source}, line {line}: cannot parse ({type(err).__name__}: {_short(str(err))})"
        ) from err
    return obj, sparse


def _refuse_repeated_indices(lines: Sequence[str], rows: list[dict], source: str) -> None:
    """liac-arff keeps the last value of an index that a sparse row names twice (``{3 1, 3 0}``),
    silently: refuse such a row, naming its line. A row with as many cells as comma-separated
    fields repeats none, so only the others are split into their pairs."""
    for number, row in zip(_iter_data_lines(lines), rows, strict=True):
        line = lines[number - 1]
        if line.count(",") + 1 <= len(row):
            continue
        indices = [int(index) for index in _SPARSE_PAIR.findall(line)]
        if len(indices) > len(row):
            twice = next(index for index in indices if indices.count(index) > 1)
            raise DatasetError(f"{source}, line {number}: attribute index {twice} is given twice "
                               "in one sparse row; give each index once")


def _arff_columns(obj: dict, sparse: bool) -> Callable[[int], np.ndarray]:
    """A function giving attribute j's cells as a 1-D array, one attribute at a time.

    Sparse rows (dicts of their non-zero cells) are regrouped by attribute, so that no dense
    (rows x attributes) array of objects is ever made: a 0.34 MB file can declare 80 million
    cells. An attribute absent from a sparse row is 0; for a nominal attribute, its first declared
    value.
    """
    rows, attributes = obj["data"], obj["attributes"]
    n = len(rows)
    if not sparse:  # one Python object per cell already: the file's own size, not more
        raw = np.array(rows, dtype=object).reshape(n, len(attributes))
        return lambda j: raw[:, j]
    present: list[tuple[list[int], list]] = [([], []) for _ in attributes]
    for i, row in enumerate(rows):
        for j, value in row.items():
            present[j][0].append(i)
            present[j][1].append(value)

    def column(j: int) -> np.ndarray:
        kind = attributes[j][1]
        if isinstance(kind, list):
            cells = np.full(n, kind[0], dtype=object)
        elif kind == "STRING":  # dropped by the encoder: only its length matters
            cells = np.full(n, "", dtype=object)
        else:
            cells = np.zeros(n)  # a missing value ('?', None) becomes NaN, refused by its line
        cells[present[j][0]] = present[j][1]
        return cells

    return column


def _encoded_width(kind) -> int:
    """Columns of X that an attribute becomes: none for a string, one for a number or a yes/no
    nominal, one per value for any other nominal."""
    if kind == "STRING":
        return 0
    if isinstance(kind, list) and _binary_true_value(kind) is None:
        return len(kind)
    return 1


def _binary_true_value(values: Sequence[str]) -> str | None:
    """The value that means 1 when a nominal attribute reads as yes/no, else None."""
    if len(values) != 2:
        return None
    a, b = (v.strip().lower() for v in values)
    if a in _TRUE_NAMES and b in _FALSE_NAMES:
        return values[0]
    if b in _TRUE_NAMES and a in _FALSE_NAMES:
        return values[1]
    return None


def _nominal_indicators(col, values, what: str, source: str, row_label: RowLabel) -> list:
    """One boolean column per declared value; a cell matching none (``?``) raises with its line."""
    indicators = [col == value for value in values]
    bad = ~np.logical_or.reduce(indicators)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        value = "missing ('?')" if col[i] is None else f"{col[i]!r}, not one of {values}"
        raise DatasetError(f"{source}, {row_label(i)}: {what} is {value}")
    return indicators


def _as_numbers(values, what: str, source: str, row_label: RowLabel) -> np.ndarray:
    """A column as float64; a cell that is not a number raises with its line (missing -> NaN,
    which `_checked_arrays` then refuses with its line too)."""
    if isinstance(values, np.ndarray):  # ARFF cells: already floats, unless liac-arff gave up
        try:
            return values.astype(np.float64)
        except (TypeError, ValueError):
            values = pd.Series(values, dtype=object)  # find the cell at fault below
    try:
        numeric = pd.to_numeric(values, errors="coerce")
    except TypeError:  # cells that are lists, dicts, ...
        numeric = pd.Series(np.nan, index=values.index)
    bad = (numeric.isna() & values.notna()).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DatasetError(
            f"{source}, {row_label(i)}: {what} is {_short(repr(values.iloc[i]))}, not a number"
        )
    return numeric.to_numpy(dtype=np.float64, na_value=np.nan)


def _label_indices(
    names, relation, labels, xml, xml_source, source, notes
) -> tuple[list[int], str]:
    """Which attributes are labels, and by what rule (explicit, XML, MEKA)."""
    meka = _MEKA_C.search(relation)
    if labels is not None:
        if xml is not None:
            notes.append(f"labels given by the caller; {xml_source} was not used")
        return _pick_columns(names, labels, source), "explicit"
    if xml is not None:
        wanted = _xml_label_names(xml, xml_source)
        position = {item: i for i, item in enumerate(names)}
        missing = [lab for lab in wanted if lab not in position]
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise DatasetError(
                f"{xml_source}: label {missing[0]!r}{more} is not an attribute of {source}"
            )
        if meka:
            notes.append(
                f"ignored stale '-C {meka.group(1)}' in @relation: {xml_source} names the labels"
            )
        return sorted(position[lab] for lab in wanted), "MULAN"
    if meka:
        k, width = int(meka.group(1)), len(names)
        if k == 0 or abs(k) >= width:
            raise DatasetError(
                f"{source}: '-C {k}' in @relation must select between 1 and {width - 1} of the "
                f"{width} attributes as labels"
            )
        return (list(range(k)) if k > 0 else list(range(width + k, width))), "MEKA"
    raise DatasetError(
        f"{source}: cannot tell which attributes are labels: no {Path(xml_source).name} beside it "
        "and no MEKA '-C <m>' in @relation; add the XML label file or pass labels="
    )


def _xml_label_names(xml: bytes, xml_source: str) -> list[str]:
    """Label names of a MULAN XML file in file order (any namespace, nested labels included)."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as err:
        line, column = err.position
        raise DatasetError(
            f"{xml_source}, line {line}, column {column}: not well-formed XML"
        ) from err
    except (ValueError, LookupError) as err:  # e.g. an unknown encoding declaration
        raise DatasetError(f"{xml_source}: cannot be read as XML ({err})") from err
    names = []
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "label":
            name = element.get("name")
            if name is None:
                raise DatasetError(f"{xml_source}: a <label> element has no name attribute")
            names.append(_unescape(name))
    if not names:
        raise DatasetError(f"{xml_source}: no <label name=...> elements, so zero labels")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise DatasetError(f"{xml_source}: label {twice!r} is listed twice")
    return names


def _decode_label(attr, kind, col, source, row_label: RowLabel) -> np.ndarray:
    """One label attribute as a 0/1 (or not yet checked numeric) column."""
    what = f"label {attr!r}"
    if kind == "STRING":
        raise DatasetError(f"{source}: {what} is a string attribute; labels must be 0/1")
    if not isinstance(kind, list):
        return _as_numbers(col, what, source, row_label)
    true = _binary_true_value(kind)
    if true is None:
        raise DatasetError(
            f"{source}: {what} is nominal with values {kind}; a label needs two values such as "
            "{0,1}"
        )
    return _nominal_indicators(col, kind, what, source, row_label)[kind.index(true)]


def _encode_features(attributes, column, n, skip, source, row_label: RowLabel, notes):
    """Feature matrix, names, types and source attributes of the non-label attributes; the
    matrix is allocated once, at its final size, and filled column by column."""
    kept = [(j, attr, kind) for j, (attr, kind) in enumerate(attributes) if j not in skip]
    X = np.empty((n, sum(_encoded_width(kind) for _, _, kind in kept)))
    names, types, sources = [], [], []
    for j, attr, kind in kept:
        what = f"attribute {attr!r}"
        k = len(names)  # X's next column
        if kind == "STRING":
            notes.append(f"dropped string attribute {attr!r} (an ID or free text is not a feature)")
            continue
        if not isinstance(kind, list):
            X[:, k] = _as_numbers(column(j), what, source, row_label)
            names.append(attr)
            types.append("numeric")
            sources.append((attr, "numeric"))
            continue
        indicators = _nominal_indicators(column(j), kind, what, source, row_label)
        true = _binary_true_value(kind)
        if true is not None:
            X[:, k] = indicators[kind.index(true)]
            names.append(attr)
            types.append("binary")
            sources.append((attr, "binary"))
        else:
            for offset, indicator in enumerate(indicators):
                X[:, k + offset] = indicator
            names.extend(f"{attr}={value}" for value in kind)
            types.extend(["nominal"] * len(kind))
            sources.append((attr, "nominal"))
    # attribute names and each nominal's values are unique (checked with the header), so only
    # a one-hot column can take another column's name
    check_unique_names(names, "feature", DatasetError, source,
                       " (one-hot columns are named 'attribute=value': rename an attribute or a "
                       "value)")
    n_nominal = sum(kind == "nominal" for _, kind in sources)
    if n_nominal:
        notes.append(
            f"{n_nominal} nominal attribute(s) one-hot encoded into {types.count('nominal')} "
            "columns named 'attribute=value'"
        )
    return X, names, types, sources


def _relation_without_comment(line: str) -> str:
    """An ``@relation`` line without a trailing ``% comment`` outside quotes, which Weka reads
    as a comment and liac-arff refuses (slashdot's MULAN file ends its line in ``%50``)."""
    quote = None
    for k, char in enumerate(line):
        if quote:
            quote = None if char == quote and line[k - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char == "%" and k and line[k - 1].isspace():
            return line[:k].rstrip()
    return line


def _parse_arff(text, source, name, xml, xml_source, labels, notes, max_bytes) -> Dataset:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [_relation_without_comment(line) if line.lstrip().upper().startswith("@RELATION")
             else line for line in lines]
    # The header alone first: the attributes and the number of data lines give the arrays' size,
    # checked before the rows are parsed.
    data_at = next((k for k, line in enumerate(lines) if line.strip().upper().startswith("@DATA")),
                   len(lines))
    header, _ = _decode_arff(lines[: data_at + 1], source)
    attributes = [(_unescape(attr), kind) for attr, kind in header["attributes"]]
    names = [attr for attr, _ in attributes]
    check_unique_names(names, "attribute", DatasetError, source)
    for attr, kind in attributes:
        if isinstance(kind, list):  # each value is a one-hot column 'attribute=value'
            check_unique_names(kind, "value", DatasetError, f"{source}: attribute {attr!r}")
    n_rows = sum(1 for _ in _iter_data_lines(lines))
    if not n_rows:
        raise DatasetError(f"{source}: no data rows after @data")
    label_idx, rule = _label_indices(names, header["relation"], labels, xml, xml_source, source,
                                     notes)
    skip = set(label_idx)
    width = len(label_idx) + sum(_encoded_width(kind) for j, (_, kind) in enumerate(attributes)
                                 if j not in skip)
    check_memory(8 * n_rows * width, f"{source}: {n_rows:,} rows x {width:,} columns",
                 DatasetError, max_bytes, _RAISE_BUDGET)
    obj, sparse = _decode_arff(lines, source)
    if sparse:
        _refuse_repeated_indices(lines, obj["data"], source)
    column = _arff_columns(obj, sparse)
    row_label = _row_labeler(lines)
    Y = np.column_stack(
        [_decode_label(*attributes[j], column(j), source, row_label) for j in label_idx]
    )
    X, feature_names, feature_types, source_attributes = _encode_features(
        attributes, column, len(obj["data"]), skip, source, row_label, notes
    )
    label_names = [names[j] for j in label_idx]
    X, Y = _checked_arrays(X, Y, feature_names, label_names, source, row_label)
    return Dataset(
        X,
        Y,
        feature_names,
        label_names,
        name=name,
        feature_types=feature_types,
        notes=notes,
        source_attributes=source_attributes,
        meta={"format": rule, "relation": obj["relation"], "sparse": sparse},
    )


# --- CSV and DataFrames --------------------------------------------------------------------------


def _blank(row: list[str]) -> bool:
    return not row or (len(row) == 1 and not row[0].strip())


def _csv_number(cell: str, column: str, source: str, line: int) -> float:
    """One cell that numpy's bulk conversion refused: empty -> NaN (refused afterwards as a
    missing value, with its line), true/false -> 1/0, else a number or a `DatasetError`."""
    text = cell.strip()
    if not text:
        return np.nan
    if text.lower() in ("true", "false"):
        return float(text.lower() == "true")
    try:
        return float(text)
    except ValueError:
        raise DatasetError(
            f"{source}, line {line}: column {column!r} is {_short(repr(cell))}, not a number"
        ) from None


def _parse_csv(text: str, source: str, name: str, labels, notes: list[str],
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
        label_idx = _label_columns(header, labels, source)
        width = len(header)
        n_lines = text.count("\n") + text.count("\r") - text.count("\r\n")
        n_lines += not text.endswith(("\n", "\r"))  # a last line without its line break
        bound = max(n_lines - reader.line_num, 0)  # rows left, blank ones included
        check_memory(8 * bound * width, f"{source}: {bound:,} rows x {width:,} columns",
                     DatasetError, max_bytes, _RAISE_BUDGET)
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

    return _table_to_dataset(header, values[:n], label_idx, source, name, row_label, notes)


def _label_columns(columns: list[str], labels, source: str) -> list[int]:
    """The label columns of a table: those ``labels`` selects, or those named ``label:<name>``.
    Columns are picked by name, so two of one name are refused first."""
    check_unique_names(columns, "column", DatasetError, source)
    if labels is not None:
        return _pick_columns(columns, labels, source)
    label_idx = [j for j, c in enumerate(columns) if c.startswith(LABEL_PREFIX)]
    if not label_idx:
        raise DatasetError(
            f"{source}: cannot tell which columns are labels: name them "
            f"'{LABEL_PREFIX}<name>' or pass labels= (column names, or a count of last columns)"
        )
    return label_idx


def _table_to_dataset(columns, values, label_idx, source, name, row_label: RowLabel,
                      notes) -> Dataset:
    """A table of numbers (CSV or DataFrame) split into features and labels, then checked."""
    is_label = set(label_idx)
    feature_idx = [j for j in range(len(columns)) if j not in is_label]
    X, Y = values[:, feature_idx], values[:, label_idx]
    feature_names = [columns[j] for j in feature_idx]
    label_names = [columns[j].removeprefix(LABEL_PREFIX) for j in label_idx]
    X, Y = _checked_arrays(X, Y, feature_names, label_names, source, row_label)
    return Dataset(X, Y, feature_names, label_names, name=name, notes=notes, meta={"format": "CSV"})
