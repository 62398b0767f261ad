"""Why the model predicts what it predicts for one instance."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlr_core.bipartition import Bipartition


@dataclass(frozen=True)
class Explanation:
    """The rules behind the answer for one instance and how they became labels.

    Attributes
    ----------
    match_set : DataFrame
        The rules behind the answer (rules_frame columns) with one ``contribution: <label>``
        column per label. With fitted weights: the matching rules and what each adds to the
        label's score (its weight, negative when it lowers it). With the vote: the voters and
        the rule's F * num over the total vote when it advocates the label, else 0.
    rule_ids : ndarray
        Their ids (the ``rule_id`` of the model's ``rules_frame()``: for a compact model,
        the ids its rules have in the full model).
    fallback : bool
        True when no rule matched: the baseline answered (fitted), or the nearest rules (vote).
    union : list of str
        Labels advocated by at least one of these rules' labelsets.
    scores : Series
        Score per label: baseline + the contribution column's sum, made a score by the link
        (fitted); the contribution column's sum with ``score_norm="total"`` (vote).
    baseline : Series
        Per label, the score when no rule matches (the weights' intercept); 0 with the vote.
    bipartition : Bipartition
        ``("threshold", t)``, ``("threshold_or_top", t)``,
        ``("threshold_or_top_floor", (t, floor))`` or ``("rcut", k)``, as used for
        ``agg_labels`` (``mlr_core/bipartition.py``; ``line``: the score a chart draws as the
        cut, None for a rank cut).
    agg_labels, max_labels : list of str
        MLR_agg's and MLR_max's answers.
    how : str
        How MLR_agg's scores are made and cut, in words (``RuleSet.prediction_text``).
    link : str or None
        How a total becomes a score with fitted weights (``"clip"`` or ``"logistic"``,
        ``mlr_core/links.py``); None with the vote.
    missing : tuple of (int, str, str)
        The row's missing values: (feature index, name, how the model read it: ``missing (read
        as 3.2)``, or ``missing`` where a test on one fails: ``Scaling.fill_text``).
    """

    match_set: pd.DataFrame
    rule_ids: np.ndarray
    fallback: bool
    union: list
    scores: pd.Series
    baseline: pd.Series
    bipartition: Bipartition
    agg_labels: list
    max_labels: list
    how: str
    link: str | None = None
    missing: tuple = ()

    def waterfall(self) -> pd.DataFrame:
        """The score of each label built up rule by rule: the baseline, then the running total
        after each rule's contribution, in rule order (rows ``baseline``, ``rule <id>``...).
        With fitted weights the last row, through the link, is exactly ``scores``: the same
        additions in the same order as the scoring kernel."""
        parts = self.match_set.filter(like="contribution: ").to_numpy()
        steps = np.vstack([self.baseline.to_numpy()[None, :], parts])
        running = np.cumsum(steps, axis=0)
        index = ["baseline", *(f"rule {i}" for i in self.rule_ids)]
        return pd.DataFrame(running, index=index, columns=self.scores.index)

    def text(self) -> str:
        """A plain-text report, for notebooks and logs: the baseline, then each rule (20 at
        most) with what it adds to each label's score, then the scores and the answers."""
        head = (f"{len(self.rule_ids)} rules matched." if not self.fallback
                else "No rule matched: the baseline or the nearest rules answered.")
        parts = self.match_set.filter(like="contribution: ").to_numpy()
        labels = list(self.scores.index)

        def signed(values):
            return ", ".join(f"{v:+.3f} {label}" for v, label in zip(values, labels, strict=True)
                             if v != 0.0) or "nothing"

        read = "; ".join(f"{name} = {reading}" for _, name, reading in self.missing)
        lines = [head, *([f"missing values: {read}"] if read else []),
                 f"baseline: {signed(self.baseline.to_numpy())}"]
        lines += [f"rule {i}: {rule}\n    adds {signed(row)}"
                  for i, rule, row in zip(self.rule_ids[:20], self.match_set["rule"], parts,
                                          strict=False)]
        lines += [""] + [f"{label}: {score:.3f}" for label, score in self.scores.items()]
        lines += [self.how, f"agg: {self.agg_labels}", f"max: {self.max_labels}"]
        return "\n".join(lines)


def contribution_columns(label_names) -> list[str]:
    return [f"contribution: {name}" for name in label_names]


def contributions(fit, num, labelsets, total, label_names) -> pd.DataFrame:
    """Each voter's share of the total vote, for every label it advocates."""
    weight = fit * num / total if total > 0 else np.zeros(len(fit))
    return pd.DataFrame(weight[:, None] * labelsets, columns=contribution_columns(label_names))
