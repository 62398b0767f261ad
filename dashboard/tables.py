"""Column widths for ``st.dataframe``: each column as wide as its longest text.

Streamlit sizes columns from a sample and clips the rest, and its grid offers no per-cell
tooltip (streamlit/streamlit#7564); so the pages size every column to its content (the grid then
scrolls sideways), and a text column that would outgrow ``MAX_PX`` says in its header's help
that a double-click shows a cell whole (the grid's own cell overlay).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Mean width of a character in the grid's 14 px font, and the cell's padding (px).
CHAR_PX = 7.6
PAD_PX = 30
MIN_PX = 60
#: Beyond this a column is capped (a rule of many conditions) and its cells open on double-click.
MAX_PX = 1200
#: The centred page's content width at a 1,300 px window (px): a wider grid scrolls sideways.
PAGE_PX = 830
#: The row-selection checkbox column a selectable grid (``on_select``) adds on its left.
SELECT_PX = 36
#: Progress bars and checkboxes need no more than this.
BAR_PX = 150
CAPPED_HELP = "Double-click a cell to read it whole."


#: The grid's row height and what its header and borders add (px).
ROW_PX = 35
FRAME_PX = 38


def height_for(n_rows: int, cap: int | None = None) -> int:
    """A grid height that shows ``n_rows`` rows whole (at most ``cap`` px, then it scrolls):
    Streamlit's default shows about ten, which hid the 11th learner of a comparison, the best."""
    height = FRAME_PX + ROW_PX * max(n_rows, 1)
    return height if cap is None else min(cap, height)


def _texts(values: pd.Series, config: dict) -> pd.Series:
    """The column as displayed: printf-style number formats applied, the rest as str."""
    fmt = config.get("type_config", {}).get("format")
    if fmt and isinstance(fmt, str) and fmt.startswith("%") and pd.api.types.is_numeric_dtype(
            values):
        return values.map(lambda v: "" if pd.isna(v) else fmt % v)
    if pd.api.types.is_float_dtype(values):
        return values.map(lambda v: "" if pd.isna(v) else f"{v:.4g}")
    return values.astype(str)


def _px(chars: int) -> int:
    return int(np.clip(PAD_PX + CHAR_PX * chars, MIN_PX, MAX_PX))


def fit_columns(frame: pd.DataFrame, config: dict | None = None,
                index: bool = True, within: int | None = None, selectable: bool = False) -> dict:
    """``column_config`` for ``st.dataframe(frame)``: ``config`` with a width in pixels for every
    column (and the index unless hidden) from its longest header or cell text, unless ``config``
    gives it one (a long label over short numbers, its header cut: name it in the column's
    help); with ``within`` (px), the widest columns give up what the grid has beyond it, cut
    to one width (their cells then open on double-click), for a table that must be read without
    scrolling sideways; ``selectable``: the grid's rows can be selected, and its checkbox
    column (`SELECT_PX`) takes its share of ``within``."""
    config = {key: dict(value) for key, value in (config or {}).items() if value is not None}
    columns = {name: frame[name] for name in frame.columns}
    if index:
        columns["_index"] = frame.index.to_series()
    for name, values in columns.items():
        column = config.setdefault(name, {})
        kind = column.get("type_config", {}).get("type")
        if kind in ("progress", "checkbox"):
            column["width"] = BAR_PX
            continue
        if isinstance(column.get("width"), int):
            continue
        header = column.get("label") or (frame.index.name if name == "_index" else name)
        longest = int(_texts(values, column).str.len().max()) if len(values) else 0
        chars = max(len(str(header or "")) + 3, longest)  # + room for the sort arrow
        column["width"] = _px(chars)
        if PAD_PX + CHAR_PX * chars > MAX_PX:
            _capped(column)
    if within is not None:
        _level(config.values(), within - (SELECT_PX if selectable else 0))
    return config


def selected_row(table: pd.DataFrame, event) -> tuple[pd.Series, bool]:
    """The row of ``table`` selected in its single-row dataframe (``event``, what
    ``st.dataframe(on_select="rerun")`` returns), else its first; and whether one was selected:
    a table of rules shows the chosen rule whole below it."""
    rows = event.selection.rows
    return table.iloc[rows[0] if rows else 0], bool(rows)


def _level(config, within: int) -> None:
    """Cut the widest columns of ``config`` to one width, the widest that keeps the sum within
    ``within`` px (never below ``MIN_PX``): a labelset and a rule text share what the numbers
    beside them leave, rather than one of them taking it all."""
    shown = sorted((column for column in config if column.get("width")),
                   key=lambda column: column["width"], reverse=True)
    if sum(column["width"] for column in shown) <= within:
        return
    for k in range(1, len(shown) + 1):  # the k widest cut to one level
        rest = sum(column["width"] for column in shown[k:])
        level = (within - rest) // k
        if k == len(shown) or level >= shown[k]["width"]:
            break
    for column in shown[:k]:
        column["width"] = max(MIN_PX, int(level))
        _capped(column)


def _capped(column: dict) -> None:
    """Say in the column's help (a page's config may hold ``help=None``) how to read a cut cell."""
    given = column.get("help") or ""
    if CAPPED_HELP not in given:
        column["help"] = f"{given} {CAPPED_HELP}".lstrip()
