"""The instance a tab talks about: the Population page's click and the Explain page's picker set
it, both pages show it."""

from __future__ import annotations


class Selection:
    """One row of the current dataset (0 until chosen); out-of-range rows are refused."""

    def __init__(self, n_rows: int) -> None:
        self.n_rows = n_rows
        self.index = 0

    def select(self, index: int) -> None:
        index = int(index)
        if not 0 <= index < self.n_rows:
            raise IndexError(f"instance {index} is not in the data (0 to {self.n_rows - 1})")
        self.index = index
