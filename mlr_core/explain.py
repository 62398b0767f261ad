"""Why the model predicts what it predicts for one instance."""

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Explanation:
    """The voters for one instance and how their votes became labels.

    Attributes
    ----------
    match_set : DataFrame
        The voting rules (rules_frame columns) with one ``contribution: <label>`` column per
        label: the rule's F * num over the total vote when it advocates the label, else 0.
    rule_ids : ndarray
        Their row positions in ``rules_frame()``.
    fallback : bool
        True when no rule matched and the nearest rules answered instead.
    union : list of str
        Labels advocated by at least one voter.
    scores : Series
        Aggregated score per label (sums of the contribution columns with ``score_norm="total"``).
    bipartition : tuple
        ``("threshold", t)`` or ``("rcut", k)``, as used for ``agg_labels``.
    agg_labels, max_labels : list of str
        MLR_agg's and MLR_max's answers.
    """

    match_set: pd.DataFrame
    rule_ids: np.ndarray
    fallback: bool
    union: list
    scores: pd.Series
    bipartition: tuple
    agg_labels: list
    max_labels: list

    def text(self) -> str:
        """A plain-text report, for notebooks and logs."""
        head = "No rule matched: the nearest rules answered." if self.fallback else (
            f"{len(self.rule_ids)} rules matched."
        )
        lines = [head, *self.match_set["rule"].head(20), ""]
        lines += [f"{label}: {score:.3f}" for label, score in self.scores.items()]
        lines += [f"agg ({self.bipartition[0]} {self.bipartition[1]}): {self.agg_labels}",
                  f"max: {self.max_labels}"]
        return "\n".join(lines)


def contributions(fit, num, labelsets, total, label_names) -> pd.DataFrame:
    """Each voter's share of the total vote, for every label it advocates."""
    weight = fit * num / total if total > 0 else np.zeros(len(fit))
    return pd.DataFrame(
        weight[:, None] * labelsets,
        columns=[f"contribution: {name}" for name in label_names],
    )
