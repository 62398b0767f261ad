"""Save and load a model as versioned JSON (never pickle: a shared rule set must be safe to open).

Conditions are written as XCSF writes a ``hyperrectangle_csr``: a centre and a spread per feature
on the model's [0, 1]-scaled axes (``null`` for a wildcard); ``data_min``/``data_max`` give the
scaling back to the original units. Floats are written exactly, so a loaded model predicts
exactly as the saved one did.
"""

import json

import numpy as np

from mlr_core._engine import population as popmod
from mlr_core._engine.cycle import N_COUNTERS
from mlr_core.errors import ModelFormatError

FORMAT = "mlr-studio-model"
VERSION = 1
_RULE_STATS = {  # JSON key -> population array
    "fitness": "fit",
    "accuracy": "acc",
    "correct": "correct",
    "numerosity": "num",
    "experience": "exp",
    "correct_set_size": "cs",
    "last_ga": "ts",
    "birth": "birth",
}


def to_dict(model) -> dict:
    """The fitted model as plain JSON-ready data."""
    pop = popmod.live(model.population_)
    d = len(model.feature_names_)
    rules = []
    for i in range(len(pop.num)):
        center = [None] * d
        spread = [None] * d
        for k in range(pop.nspec[i]):
            center[pop.feat[i, k]] = float(pop.center[i, k])
            spread[pop.feat[i, k]] = float(pop.spread[i, k])
        rule = {
            "condition": {"type": "hyperrectangle_csr", "center": center, "spread": spread},
            "labelset": model.labelsets_[pop.ls[i]].tolist(),
        }
        rule.update({key: getattr(pop, field)[i].item() for key, field in _RULE_STATS.items()})
        rules.append(rule)
    params = model.get_params()
    if not isinstance(params["random_state"], (int, type(None))):
        params["random_state"] = None
    return {
        "format": FORMAT,
        "version": VERSION,
        "params": params,
        "feature_names": list(model.feature_names_),
        "label_names": list(model.label_names_),
        "data_min": model.data_min_.tolist(),
        "data_max": model.data_max_.tolist(),
        "max_specified": int(model.max_specified_),
        "label_cardinality": float(model._card),
        "bipartition": list(model.bipartition_()),
        "counters": model._counters.tolist(),
        "rng_state": [format(int(w), "x") for w in model._rng],
        "rules": rules,
    }


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


def _require(condition, message):
    if not condition:
        raise ModelFormatError(message)


def _build(cls, data):
    _require(isinstance(data, dict) and data.get("format") == FORMAT,
             f"Not an MLR Studio model (expected \"format\": \"{FORMAT}\").")
    _require(data.get("version") == VERSION,
             f"Unsupported model version {data.get('version')!r}; this MLR Studio reads "
             f"version {VERSION}.")
    model = cls(**data["params"])
    model._validate_params()
    features = [str(n) for n in data["feature_names"]]
    labels = [str(n) for n in data["label_names"]]
    d, m = len(features), len(labels)
    _require(d >= 1 and m >= 2, "A model needs at least one feature and two labels.")
    data_min = np.asarray(data["data_min"], dtype=np.float64)
    data_max = np.asarray(data["data_max"], dtype=np.float64)
    _require(data_min.shape == (d,) and data_max.shape == (d,)
             and np.isfinite(data_min).all() and np.isfinite(data_max).all()
             and (data_min <= data_max).all(),
             f"data_min/data_max must be {d} finite values with min <= max.")
    rules = data["rules"]
    _require(isinstance(rules, list), "\"rules\" must be a list.")
    micro = sum(int(r["numerosity"]) for r in rules)
    _require(micro <= model.n_rules,
             f"The rules hold {micro} copies, more than n_rules = {model.n_rules}.")
    k = int(data["max_specified"])
    _require(1 <= k <= d, f"max_specified must be in 1..{d}.")

    labelsets, ls_index = [], {}
    pop = popmod.new_population(model.n_rules + 3, k)
    for i, rule in enumerate(rules):
        where = f"rule {i}"
        bits = np.asarray(rule["labelset"])
        _require(bits.shape == (m,) and np.isin(bits, (0, 1)).all(),
                 f"{where}: labelset must be {m} values of 0 or 1.")
        key = tuple(int(b) for b in bits)
        if key not in ls_index:
            ls_index[key] = len(labelsets)
            labelsets.append(key)
        _fill_condition(pop, i, rule["condition"], d, k, where)
        pop.ls[i] = ls_index[key]
        for key_name, field in _RULE_STATS.items():
            getattr(pop, field)[i] = rule[key_name]
        _require(pop.num[i] >= 1 and pop.exp[i] >= 0, f"{where}: numerosity must be >= 1 and "
                 "experience >= 0.")
        _require(0.0 <= pop.fit[i] <= 1.0 and 0.0 <= pop.acc[i] <= 1.0,
                 f"{where}: fitness and accuracy must lie in [0, 1].")
    pop.size[0] = len(rules)
    pop.micro[0] = micro

    counters = np.asarray(data["counters"], dtype=np.int64)
    _require(counters.shape == (N_COUNTERS,) and (counters >= 0).all(),
             f"\"counters\" must be {N_COUNTERS} non-negative integers.")
    method, value = data["bipartition"]
    _require(method in ("threshold", "rcut"), "bipartition must be threshold or rcut.")
    state = np.array([int(w, 16) for w in data["rng_state"]], dtype=np.uint64)
    _require(state.shape == (4,) and state.any(), "rng_state must be 4 non-zero hex words.")

    model.feature_names_, model.label_names_ = features, labels
    model.classes_ = np.arange(m)
    model.n_features_in_ = d
    model.data_min_, model.data_max_ = data_min, data_max
    model.labelsets_ = np.array(labelsets, dtype=np.uint8).reshape(-1, m)
    model.max_specified_ = k
    model.label_dtype_ = np.dtype(np.int64)
    model.population_ = pop
    model._card = float(data["label_cardinality"])
    model._counters = counters
    model._rng = state
    model._history = []
    model._record_every = model.history_every
    model._next_record = int(counters[0]) + model.history_every
    model._frozen_bipartition = (method, float(value) if method == "threshold" else int(value))
    model._tuned = None
    return model


def _fill_condition(pop, i, condition, d, k, where):
    """Check a ``hyperrectangle_csr`` condition and store it sparsely in slot i."""
    _require(condition.get("type") == "hyperrectangle_csr",
             f"{where}: condition type must be hyperrectangle_csr.")
    center, spread = condition["center"], condition["spread"]
    _require(len(center) == d and len(spread) == d,
             f"{where}: center and spread need {d} entries (null for a wildcard).")
    specified = [j for j in range(d) if center[j] is not None]
    _require(all((spread[j] is None) == (center[j] is None) for j in range(d)),
             f"{where}: center and spread must be null for the same features.")
    _require(len(specified) <= k, f"{where}: more than max_specified = {k} features specified.")
    for slot, j in enumerate(specified):
        c, s = float(center[j]), float(spread[j])
        _require(np.isfinite(c) and np.isfinite(s) and s >= 0,
                 f"{where}, feature {j}: center must be finite and spread finite and >= 0.")
        pop.feat[i, slot], pop.center[i, slot], pop.spread[i, slot] = j, c, s
    pop.nspec[i] = len(specified)
