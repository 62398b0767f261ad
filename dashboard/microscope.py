"""One training iteration told step by step and drawn on the population plot (Microscope page).

The story comes from the engine's own record (:meth:`TrainingSession.step_traced`); nothing of the
learning classifier system is re-done here. Pure (no Streamlit): a step is a sentence and the
rules to outline, and :func:`step_figure` draws them over the population figure's rectangles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard import figures, frames, plot_axes
from dashboard.bounds import RuleBounds
from dashboard.tables import PAGE_PX
from mlr_core.iteration_trace import IterationTrace

if TYPE_CHECKING:
    from mlr_core.scaling import Scaling

#: Rectangles of the population drawn under the marks (the fittest ones).
BACKGROUND_RULES = 300


@dataclass(frozen=True)
class Traced:
    """A traced iteration with what drawing it needs: the rule bounds before it (rows of
    ``trace.rules_before``), the drawn instance's row in the dataset, and the rules after it."""

    trace: IterationTrace
    bounds: RuleBounds
    index: int
    n_rules_after: int
    #: The model's scaling: its category lists and what it reads a missing value as.
    scaling: Scaling | None = None


@dataclass(frozen=True)
class Mark:
    """Rules outlined in one style: their bounds (n x d, NaN = wildcard) and a legend name."""

    name: str
    lower: np.ndarray
    upper: np.ndarray
    color: str
    width: float = 3.0
    dash: str = "solid"
    #: Their sets (n x d, ``bounds.NO_SET`` where no set is tested); None when no feature is
    #: nominal.
    sets: np.ndarray | None = None


@dataclass(frozen=True)
class Step:
    title: str
    sentence: str
    marks: list[Mark] = field(default_factory=list)
    #: Show [M] as a table beside the figure (the [M] and [C] steps).
    match_table: bool = False


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def steps(traced: Traced, params: dict) -> list[Step]:
    """The iteration in the order the engine runs it, one sentence per step."""
    t = traced.trace
    labels = "{" + ", ".join(t.labelset) + "}"
    M, C = t.match_set, t.correct_set

    def outlined(name, bounds, ids, color, **style):
        return Mark(name, *bounds.rows(ids), color, sets=bounds.row_sets(ids), **style)

    def by_ids(name, ids, color, **style):  # rules of the population before the iteration
        return outlined(name, traced.bounds, ids, color, **style)

    def by_event(event, color, **style):  # rules the trace holds (`IterationTrace.bounds`)
        rules = RuleBounds.of_pairs(traced.bounds.n_features, *t.bounds[event])
        return outlined(event.replace("_", " "), rules, range(rules.n_rules), color, **style)

    match_mark = by_ids(f"[M] ({len(M)})", M, "#FF7F0E", width=1.5)
    out = [
        Step("1. An instance is drawn",
             f"Iteration {t.iteration:,} draws training instance #{traced.index}, whose labels "
             f"are {labels} (ringed in black). The {_plural(len(t.rules_before), 'rule')} "
             "drawn faintly are the population before this iteration."),
        Step("2. The match set [M]",
             (f"[M]: {_plural(len(M), 'rule')} contain the instance in every interval they "
              "specify (orange). They vote for labels at prediction time; in training each one "
              "updates its experience, accuracy and fitness from this instance."
              if M else "[M] is empty: no rule contains the instance in every interval it "
                        "specifies."),
             [match_mark], match_table=True),
        Step("3. The correct set [C]",
             (f"[C]: {_plural(len(C), 'rule')} of [M] predict exactly {labels} (red). They "
              f"count this instance as a success; the other {len(M) - len(C):,} rules of [M] "
              "as a failure, so their accuracy and fitness drop." if C else
              f"[C] is empty: no rule of [M] predicts exactly {labels}"
              + (f"; the {_plural(len(M), 'rule')} of [M] count this instance as a failure."
                 if M else ".")),
             [match_mark, by_ids(f"[C] ({len(C)})", C, "#D62728", width=3.5)],
             match_table=True),
    ]
    if t.covering:
        out.append(Step("4. Covering",
                        f"[C] is empty, so covering makes a new rule around the instance that "
                        f"predicts {labels}: {t.covering} (blue).",
                        [by_event("covering", "#1F77B4", width=4)]))
    else:
        out.append(Step("4. Covering", "[C] is not empty, so no covering is needed."))
    g = t.ga
    if g is None:
        out.append(Step("5. Genetic algorithm",
                        f"No GA this time: it runs in [C] when its rules have gone θ_GA = "
                        f"{params['theta_ga']} iterations on average since their last GA."))
    else:
        parents = by_event("parents", "#9467BD", width=4)
        same = " (the same rule twice)" if g.parent_ids[0] == g.parent_ids[1] else ""
        out += [
            Step("5. GA: two parents",
                 f"The GA runs in [C]: it picks two parents, fitter rules being likelier"
                 f"{same}: {g.parents[0]} and {g.parents[1]} (purple).", [parents]),
            Step("6. GA: crossover",
                 ("Crossover swaps interval bounds between the parents: the two offspring "
                  "after crossover are dashed."
                  if g.crossover else "No crossover this time (it happens with probability "
                                      "χ): the offspring start as copies of the parents "
                                      "(dashed)."),
                 [parents, by_event("after_crossover", "#E377C2", dash="dash")]),
            Step("7. GA: mutation",
                 "Mutation moves some bounds (and may turn a feature into a wildcard or back): "
                 "the offspring after mutation (green). "
                 + ("Both join the population." if g.fates == ["inserted", "inserted"] else
                    f"Offspring 1 is {g.fates[0]}, offspring 2 is {g.fates[1]} (an accurate, "
                    "experienced parent that is more general takes a copy instead)."),
                 [by_event("after_crossover", "#E377C2", dash="dash", width=2),
                  by_event("after_mutation", "#2CA02C", width=4)]),
        ]
    n = len(out) + 1
    if t.subsumed:
        out.append(Step(f"{n}. Subsumption",
                        f"Correct-set subsumption: an accurate, experienced rule of [C] absorbs "
                        f"{_plural(len(t.subsumed), 'more specific rule')} (grey, dash-dot).",
                        [by_event("subsumed", "#555555", dash="dashdot")]))
    else:
        out.append(Step(f"{n}. Subsumption", "No rule is subsumed this time."))
    if t.deleted:
        out.append(Step(f"{n + 1}. Deletion",
                        f"The population is over N = {params['n_rules']:,} copies: deletion "
                        f"removes {_plural(len(t.deleted), 'copy')}, drawn at random with "
                        "crowded or unfit rules likelier (black, dashed).",
                        [by_event("deleted", "#000000", dash="dash")]))
    else:
        out.append(Step(f"{n + 1}. Deletion",
                        f"The population is within N = {params['n_rules']:,} copies: "
                        "nothing is deleted."))
    out.append(Step(f"{n + 2}. Done",
                    f"After iteration {t.iteration:,} the population has "
                    f"{_plural(traced.n_rules_after, 'rule')}. Trace another iteration, or "
                    "train a while and come back: early on covering dominates, later the GA "
                    "refines rules and deletion removes the unfit."))
    return out


def step_figure(traced: Traced, step: Step, X: np.ndarray, instance_labelsets: np.ndarray,
                features: tuple[int, int], feature_names: list[str],
                palette: dict[int, str], labelset_names: list[str]) -> tuple[go.Figure, int]:
    """The population before the iteration (fittest rules, faint) with this step's rules
    outlined on top and the drawn instance ringed; and how many instances it draws (a sample
    of many: `frames.instance_points`), for the caption."""
    t = traced.trace
    rules = t.rules_before.assign(labelset_id=-1)
    axes = plot_axes.axes_of(X, features, traced.scaling)
    chosen, _, axes = frames.projection(rules, traced.bounds, X, features, axes=axes,
                                        cap=BACKGROUND_RULES)
    points = frames.instance_points(X, instance_labelsets, features, axes=axes)
    selected = frames.point_of(points, X, instance_labelsets, features, traced.index, axes)
    fig = figures.population_figure(
        chosen, points, feature_names=(feature_names[features[0]], feature_names[features[1]]),
        axes=axes, color_by="fitness", palette=palette, labelset_names=labelset_names,
        title=f"The population before iteration {t.iteration:,} "
              f"({_plural(len(t.rules_before), 'rule')}"
              + (f", the fittest {BACKGROUND_RULES} drawn)"
                 if len(t.rules_before) > BACKGROUND_RULES else ")"),
        selected=selected, width=PAGE_PX)  # the page's full width
    for mark in step.marks:
        if not len(mark.lower):
            continue
        columns = list(features)
        rects = frames.project_rules(mark.lower[:, columns], mark.upper[:, columns], axes,
                                     None if mark.sets is None else mark.sets[:, columns])
        xs, ys = figures.rectangle_path(rects)
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines", name=mark.name, legend="legend3",
            line={"color": mark.color, "width": mark.width, "dash": mark.dash},
            hoverinfo="skip"))
    # this step's rules in their own row at the bottom, under the rule-opacity key below the
    # x axis title: the side legend is long on real data
    fig.update_layout(legend3={"title": {"text": "This step:"}, "orientation": "h", "x": 0.0,
                               "y": 0.0, "yref": "container", "yanchor": "bottom"},
                      margin={"b": figures.OPACITY_KEY_SHIFT_PX + 100}, height=660)
    return fig, len(points)


def story_features(traced: Traced, story: list[Step]) -> tuple[int, int] | None:
    """The two features the story's key rules specify most ([C], covering, parents,
    offspring, subsumed, deleted; [M] only if nothing else), so that on data with many features
    they show as rectangles rather than bands; ``None`` when they specify none."""
    marks = [mark for step in story for mark in step.marks if not mark.name.startswith("[M]")]
    marks = marks or [mark for step in story for mark in step.marks]
    if not marks:
        return None
    lower = np.vstack([mark.lower for mark in marks])
    if np.isnan(lower).all():
        return None
    usage = frames.specified_matrix(lower).sum(axis=0)
    ranked = [j for j in frames.features_by_usage(usage) if usage[j]]
    return tuple(sorted(ranked[:2])) if len(ranked) > 1 else (ranked[0], ranked[0])


def rules_table(traced: Traced, step: Step) -> pd.DataFrame | None:
    """[M] with a column saying which rules are also in [C] (for the [M] and [C] steps)."""
    if not step.match_table or not traced.trace.match_set:
        return None
    t = traced.trace
    table = t.rules_before.iloc[t.match_set].loc[:, ["rule", "fitness", "numerosity", "experience"]]
    return table.assign(**{"in [C]": [i in t.correct_set for i in t.match_set]})
