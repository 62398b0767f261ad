"""The Explain page's words and table: each voter with its labelset and share of the vote, and the
whole vote told in one plain paragraph.

Pure (an engine ``Explanation`` in, text and frames out) so the wording is unit-tested. The text
is Markdown: the label names in it are `literal`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from dashboard.markdown_text import literal
from mlr_core import bipartition as bp

VOTER_COLUMNS = ["rule_id", "labelset", "vote_share", "fitness", "numerosity", "experience",
                 "accuracy", "rule", "conditions"]
#: What the voters' table shows, to fit a 1,300 px window; the chosen voter's experience and
#: accuracy are said below it.
VOTER_SHOWN = ["rule_id", "labelset", "vote_share", "fitness", "numerosity", "rule"]
#: Labels named in the paragraph's list of shares (the chart shows them all).
LISTED_LABELS = 6


def voters_table(exp) -> pd.DataFrame:
    """The voters, strongest first: ``vote_share`` is a rule's F × num over the vote of all the
    voters, which is what it adds to the score of every label of its labelset."""
    frame = exp.match_set
    weight = frame["fitness"].to_numpy(float) * frame["numerosity"].to_numpy(float)
    total = weight.sum()
    table = frame.assign(vote_share=weight / total if total > 0 else np.zeros(len(frame)))
    return table[VOTER_COLUMNS].sort_values(["vote_share", "rule_id"], ascending=[False, True],
                                            kind="stable").reset_index(drop=True)


def share_text(share: float) -> str:
    """``25%``; below 1%, one decimal (``0.4%``), so a real share never reads ``0%``."""
    return f"{share:.0%}" if share >= 0.01 or share == 0 else f"{share:.1%}"


def braces(labels: Sequence[str]) -> str:
    """``{a, b}`` in Markdown, the names as written."""
    return literal("{" + ", ".join(labels) + "}")


def mistakes(labels: Sequence[str], truth: Sequence[str]) -> str:
    """Which true labels an answer misses and which it adds wrongly (empty when it is right),
    in Markdown."""
    missed = [label for label in truth if label not in labels]
    extra = [label for label in labels if label not in truth]
    parts = ([f"misses {literal(', '.join(missed))}"] if missed else []) + (
        [f"wrongly adds {literal(', '.join(extra))}"] if extra else [])
    return " and ".join(parts)


def _verdict(name: str, labels: Sequence[str], truth: Sequence[str]) -> str:
    return f"{name} {mistakes(labels, truth) or 'is right'}"


def vote_paragraph(exp, index: int, true_labels: Sequence[str]) -> str:
    """How the voters of instance ``index`` reached MLR_agg's and MLR_max's answers, in plain
    words (markdown), ending with how they compare with ``true_labels``."""
    voters = voters_table(exp)
    n = len(voters)
    if exp.fallback:
        who = (f"No rule matches instance #{index}, so its {n} nearest rule"
               f"{'s vote' if n != 1 else ' votes'} instead.")
    else:
        who = (f"{n} rule{'s match' if n != 1 else ' matches'} instance #{index} (its match "
               "set [M]).")
    if n == 0:
        return who + " With no voter, no label is predicted."
    top = voters.iloc[0]
    parts = [
        who,
        "Each voter backs its whole labelset with a weight of fitness × numerosity.",
        f"The strongest, rule {top.rule_id}, backs {literal(top.labelset)} with "
        f"{share_text(top.vote_share)} of the vote.",
    ]
    scores = exp.scores[exp.scores > 0].sort_values(ascending=False, kind="stable")
    listed = ", ".join(f"{literal(label)} {share_text(share)}" for label, share in
                       scores.head(LISTED_LABELS).items())
    more = len(scores) - LISTED_LABELS
    parts.append(f"Added up per label, the labels get {listed}"
                 + (f" and {more} more below that" if more > 0 else "")
                 + (" (the others none)." if len(scores) < len(exp.scores) else "."))
    parts.append(f"MLR_agg cuts by {bp.words(exp.bipartition)}: {braces(exp.agg_labels)}.")
    parts.append("MLR_max answers the one labelset its voters back most: "
                 f"{braces(exp.max_labels)}.")
    parts.append(f"The true labelset is {braces(true_labels)}: "
                 f"{_verdict('MLR_agg', exp.agg_labels, true_labels)}; "
                 f"{_verdict('MLR_max', exp.max_labels, true_labels)}.")
    return " ".join(parts)
