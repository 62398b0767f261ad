"""What a tab offers to train, in the words and limits the pages show: the two models, the
parameters the Train page exposes with their defaults and ranges, and the checks a model file's
parameters pass before the page takes it."""

from __future__ import annotations

from mlr_core.errors import InputError
from mlr_core.params import DEFAULTS as LIBRARY_DEFAULTS
from mlr_core.params import number_type

#: Parameters the Train page exposes, at the library's defaults (``mlr_core/params.py``) but for a
#: fixed N and seed; the rest keep the engine's defaults (``max_specified="auto"`` among them:
#: rules of at most 3 conditions with fitted weights, ceil(log2 n) with the vote).
DEFAULT_PARAMS = {
    **{name: LIBRARY_DEFAULTS[name] for name in ("n_rules", "p_hash", "fitness", "nu", "theta_ga",
                                                 "r0", "prediction", "weighting")},
    "n_rules": 1000, "random_state": 0,
}
#: The two models a tab can train, by ``weighting``: the library's default (``MLRClassifier()``)
#: and the paper's, one click away for the lessons about the paper (the race, the theory).
MODELS = {
    "fitted": "the library's default (fitted rule weights)",
    "vote": "the paper's vote (MLR_agg)",
}
#: The range the Train page offers for each numeric parameter it shows (its form's bounds, within
#: the library's constraints), in the type ``mlr_core/params.py`` declares for it: a loaded
#: model's parameters must lie in them, or the page could not show the model.
PARAM_RANGES = {name: tuple(map(number_type(name), bounds)) for name, bounds in {
    "n_rules": (10, 20_000), "p_hash": (0, 1), "nu": (0.5, 50), "theta_ga": (0, 1_000),
    "r0": (0.05, 1), "random_state": (0, 2**31 - 1),
}.items()}
#: Below this many micro rules per distinct labelset the Train page warns that N is small.
RULES_PER_LABELSET = 5


def outside_ranges(params: dict) -> list[str]:
    """The parameters of ``params`` outside the ranges of `PARAM_RANGES`, in its order."""
    return [name for name, (low, high) in PARAM_RANGES.items() if not low <= params[name] <= high]


def model_words(weighting: str, max_specified: int | None) -> str:
    """Which model a tab trains, in words: "the library's default (fitted rule weights), rules
    of at most 3 conditions" (the limit once the model has started, else None: not said)."""
    words = MODELS[weighting]
    return words if max_specified is None else (
        f"{words}, rules of at most {max_specified} conditions")


def params_of_file(model, seed: int) -> dict:
    """The Train page's parameters (`DEFAULT_PARAMS`' names) of ``model``, read from a file: an
    ``auto`` N is the size the file holds, and a model saved without a seed takes ``seed``. A
    parameter outside `PARAM_RANGES` is refused (the page could not show the model)."""
    params = {key: model.get_params()[key] for key in DEFAULT_PARAMS}
    if params["n_rules"] == "auto":
        params["n_rules"] = model.n_rules_
    if params["random_state"] is None:
        params["random_state"] = seed
    if outside := outside_ranges(params):
        key, (low, high) = outside[0], PARAM_RANGES[outside[0]]
        raise InputError(f"The model's {key} = {params[key]:,} is outside what this "
                         f"dashboard offers ({low:,} to {high:,}): load it in Python "
                         "(MLRClassifier.from_json) instead.")
    return params
