"""ARFF files, MULAN (labels named by an XML file beside it) and MEKA (``-C`` in
``@relation``), sparse or dense, read into a `Dataset` column by column."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import arff
import numpy as np
import scipy.sparse as sp

from mlr_core.data.dataset import (
    RAISE_BUDGET,
    Dataset,
    RowLabel,
    as_numbers,
    checked_arrays,
    excerpt,
    pick_columns,
)
from mlr_core.errors import DatasetError
from mlr_core.validation import check_memory, check_unique_names

_TRUE_NAMES = frozenset({"1", "yes", "y", "true", "t"})
_FALSE_NAMES = frozenset({"0", "no", "n", "false", "f"})
_MEKA_C = re.compile(r"(?:^|\s)-C\s+(-?\d+)")
_SPARSE_PAIR = re.compile(  # "index value" in a sparse ARFF row; a value may be quoted
    r"""(?:^\s*\{|,)\s*(\d+)\s+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,\s"'{}]+)""")


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
        raise DatasetError(f"{source}: {excerpt(_arff_error_text(err))}{hint}") from err
    except Exception as err:  # liac-arff lets some malformed input escape as other exceptions
        line = getattr(decoder, "_current_line", "?")
        raise DatasetError(
            f"{source}, line {line}: cannot parse ({type(err).__name__}: {excerpt(str(err))})"
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
    value. A ``?`` is missing (None), in a sparse row as in a dense one.
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
            cells = np.zeros(n)  # a missing value ('?', None) becomes NaN
        cells[present[j][0]] = present[j][1]
        return cells

    return column


class _SparseColumns:
    """Feature columns written one at a time (``X[:, k] = cells``, as into a dense matrix),
    kept as their non-zero cells: a sparse ARFF read with ``sparse=True`` never takes rows x
    columns (each column is dense alone while it is encoded)."""

    def __init__(self, n: int, width: int):
        self.shape = (n, width)
        self.rows, self.cols, self.values = [], [], []

    def __setitem__(self, at, cells):
        held = np.flatnonzero(cells)
        self.rows.append(held)
        self.cols.append(np.full(len(held), at[1]))
        self.values.append(np.asarray(cells, dtype=np.float64)[held])

    def tocsr(self) -> sp.csr_matrix:
        def joined(parts, dtype):
            return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
        return sp.csr_matrix((joined(self.values, np.float64),
                              (joined(self.rows, np.int64), joined(self.cols, np.int64))),
                             shape=self.shape)


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


def _nominal_indicators(col, values, what: str, source: str, row_label: RowLabel,
                        missing: bool = False) -> list:
    """One 0/1 column per declared value; a cell matching none raises with its line, unless it
    is missing (``?``) and ``missing`` allows that (a feature's): then it is NaN in each."""
    indicators = [(col == value).astype(np.float64) for value in values]
    absent = np.array([cell is None for cell in col], dtype=bool) if missing else False
    bad = ~np.logical_or.reduce(indicators).astype(bool) & ~absent
    if missing:
        indicators = [np.where(absent, np.nan, indicator) for indicator in indicators]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        value = "missing ('?')" if col[i] is None else f"{col[i]!r}, not one of {values}"
        raise DatasetError(f"{source}, {row_label(i)}: {what} is {value}")
    return indicators


def _label_indices(
    names, relation, labels, xml, xml_source, source, notes
) -> tuple[list[int], str]:
    """Which attributes are labels, and by what rule (explicit, XML, MEKA)."""
    meka = _MEKA_C.search(relation)
    if labels is not None:
        if xml is not None:
            notes.append(f"labels given by the caller; {xml_source} was not used")
        return pick_columns(names, labels, source), "explicit"
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
        return as_numbers(col, what, source, row_label)
    true = _binary_true_value(kind)
    if true is None:
        raise DatasetError(
            f"{source}: {what} is nominal with values {kind}; a label needs two values such as "
            "{0,1}"
        )
    return _nominal_indicators(col, kind, what, source, row_label)[kind.index(true)]


def _encode_features(attributes, column, n, skip, source, row_label: RowLabel, notes,
                     sparse=False):
    """Feature matrix, names, types and source attributes of the non-label attributes; the
    matrix is allocated once, at its final size, and filled column by column (``sparse``:
    kept as its non-zero cells, a CSR matrix)."""
    kept = [(j, attr, kind) for j, (attr, kind) in enumerate(attributes) if j not in skip]
    width = sum(_encoded_width(kind) for _, _, kind in kept)
    X = _SparseColumns(n, width) if sparse else np.empty((n, width))
    names, types, sources = [], [], []
    for j, attr, kind in kept:
        what = f"attribute {attr!r}"
        k = len(names)  # X's next column
        if kind == "STRING":
            notes.append(f"dropped string attribute {attr!r} (an ID or free text is not a feature)")
            continue
        if not isinstance(kind, list):
            X[:, k] = as_numbers(column(j), what, source, row_label)
            names.append(attr)
            types.append("numeric")
            sources.append((attr, "numeric"))
            continue
        indicators = _nominal_indicators(column(j), kind, what, source, row_label, missing=True)
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
    return (X.tocsr() if sparse else X), names, types, sources


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


def parse_arff(text, source, name, xml, xml_source, labels, notes, max_bytes,
               stay_sparse=False) -> Dataset:
    """An ARFF file's text as a `Dataset`; with ``stay_sparse``, a sparse ARFF's features stay
    sparse (a CSR matrix), checked against ``max_bytes`` by what the file can hold (16 bytes per
    value at most: a value and its index take at least 4 characters; a nominal's ``?`` is NaN
    in each of its one-hot columns, so stores one value per declared value), not rows x
    columns."""
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
    keep_sparse = stay_sparse and lines[next(_iter_data_lines(lines)) - 1].lstrip()[:1] == "{"
    if keep_sparse:
        widest = max([1, *(_encoded_width(kind) for j, (_, kind) in enumerate(attributes)
                           if j not in skip)])
        unknown = sum(line.count("?") for line in lines[data_at + 1:])
        # 8-byte cells: the labels (dense), 2 per stored value (at least 4 characters of the
        # file each), 2 more per further value of a nominal that a "?" makes NaN
        cells = n_rows * len(label_idx) + len(text) // 2 + 2 * unknown * (widest - 1)
    else:
        cells = n_rows * width
    check_memory(8 * cells, f"{source}: {n_rows:,} rows x {width:,} columns",
                 DatasetError, max_bytes, RAISE_BUDGET)
    obj, sparse = _decode_arff(lines, source)
    if sparse:
        _refuse_repeated_indices(lines, obj["data"], source)
    column = _arff_columns(obj, sparse)
    row_label = _row_labeler(lines)
    Y = np.column_stack(
        [_decode_label(*attributes[j], column(j), source, row_label) for j in label_idx]
    )
    X, feature_names, feature_types, source_attributes = _encode_features(
        attributes, column, len(obj["data"]), skip, source, row_label, notes, keep_sparse
    )
    label_names = [names[j] for j in label_idx]
    X, Y = checked_arrays(X, Y, feature_names, label_names, source, row_label)
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
