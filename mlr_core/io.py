"""Save and load a model as versioned JSON (never pickle: a shared rule set must be safe to open).

Conditions are written as XCSF writes a ``hyperrectangle_csr``: a centre and a spread per feature
on the model's [0, 1]-scaled axes (``null`` for a wildcard); ``data_min``/``data_max`` give the
scaling back to the original units. Floats are written exactly, so a loaded model predicts
exactly as the saved one did. The training run's part of the file (rules, counters, random
state, history) is written and read by the run itself (`TrainingRun.to_dict` / ``from_dict``);
``label_dtype`` and ``history`` are optional, for files written before they were saved; so is
``rule_weights`` (per live rule, in slot order), and a file without ``weighting`` in its
parameters predates the fitted weights and votes.
"""

import json

import numpy as np

from mlr_core import bipartition as bp
from mlr_core.errors import ModelFormatError, require
from mlr_core.rule_weights import RuleWeights
from mlr_core.training_run import TrainingRun

FORMAT = "mlr-studio-model"
VERSION = 1


def to_dict(model) -> dict:
    """The fitted model as plain JSON-ready data."""
    params = model.get_params()
    if not isinstance(params["random_state"], (int, type(None))):
        params["random_state"] = None
    return {
        "format": FORMAT,
        "version": VERSION,
        "params": params,
        "feature_names": list(model.feature_names_),
        "label_names": list(model.label_names_),
        "label_dtype": np.dtype(model.label_dtype_).str,
        "data_min": model.data_min_.tolist(),
        "data_max": model.data_max_.tolist(),
        "bipartition": list(model.bipartition_),
        **model.run_.to_dict(),
        **_weights_dict(getattr(model, "rule_weights_", None)),
    }


def _weights_dict(weights) -> dict:
    if weights is None:
        return {}
    return {"rule_weights": {"coef": weights.coef.tolist(),
                             "intercept": weights.intercept.tolist(),
                             "alpha": weights.alpha, "iteration": weights.iteration}}


def _weights(data, n_rules, m):
    """The saved rule weights, checked against the rules they weigh."""
    saved = data["rule_weights"]
    coef = np.asarray(saved["coef"], dtype=np.float64)
    if coef.size == 0:  # no rules: JSON keeps no row length
        coef = coef.reshape(0, m)
    intercept = np.asarray(saved["intercept"], dtype=np.float64)
    require(coef.shape == (n_rules, m) and intercept.shape == (m,)
            and np.isfinite(coef).all() and np.isfinite(intercept).all(),
            f"rule_weights must hold {n_rules} x {m} finite weights and {m} intercepts.")
    return RuleWeights(coef, intercept, float(saved["alpha"]), int(saved["iteration"]))


def to_json(model) -> str:
    return json.dumps(to_dict(model))


def from_json(cls, text):
    """Rebuild a model from :func:`to_json` output; every field is checked first."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as err:
        raise ModelFormatError(f"The model file is not valid JSON: {err}") from err
    try:
        return _build(cls, data)
    except ModelFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise ModelFormatError(f"The model file is malformed: {type(err).__name__}: {err}") from err


def _build(cls, data):
    require(isinstance(data, dict) and data.get("format") == FORMAT,
            f"Not an MLR Studio model (expected \"format\": \"{FORMAT}\").")
    require(data.get("version") == VERSION,
            f"Unsupported model version {data.get('version')!r}; this MLR Studio reads "
            f"version {VERSION}.")
    params = {"weighting": "vote", **data["params"]}  # older files voted
    model = cls(**params)
    model._validate_params()
    features = [str(n) for n in data["feature_names"]]
    labels = [str(n) for n in data["label_names"]]
    d, m = len(features), len(labels)
    require(d >= 1 and m >= 1, "A model needs at least one feature and one label.")
    data_min = np.asarray(data["data_min"], dtype=np.float64)
    data_max = np.asarray(data["data_max"], dtype=np.float64)
    require(data_min.shape == (d,) and data_max.shape == (d,)
            and np.isfinite(data_min).all() and np.isfinite(data_max).all()
            and (data_min <= data_max).all(),
            f"data_min/data_max must be {d} finite values with min <= max.")
    label_dtype = np.dtype(data.get("label_dtype", "<i8"))
    require(label_dtype.kind in "biuf", "label_dtype must be a bool, integer or float type.")
    method, value = data["bipartition"]
    require(method in bp.METHODS, f"bipartition must be one of {', '.join(bp.METHODS)}.")
    value = int(value) if method == "rcut" else float(value)

    n_rules = data.get("n_rules", model.n_rules)  # files before n_rules="auto" saved it as a param
    require(isinstance(n_rules, int) and n_rules >= 1, "n_rules must be a positive integer.")
    config = model._config(int(data["max_specified"]), d, n_rules)
    run = TrainingRun.from_dict(data, config, model.fitness, d, m, model.history_every)
    weights = None
    if model.weighting == "fitted":
        require("rule_weights" in data, "weighting is fitted but the file has no rule_weights.")
        weights = _weights(data, int(run.population.size[0]), m)
    return model._adopt(run, (method, value), label_dtype, features, labels, data_min, data_max,
                        weights)
