"""Save and load a model as versioned JSON (never pickle: a shared rule set must be safe to open).

A file holds three parts, each written and read by its owner:

- ``params``: the estimator's parameters (checked by the estimator itself);
- ``rule_set``: what predicts (`RuleSet.to_dict`): rules as XCSF writes a
  ``hyperrectangle_csr`` (a centre and a spread per feature on the [0, 1]-scaled axes, ``null``
  for a wildcard), the scaling back to the data's units (and which features are 0/1), the scorer
  and the bipartition;
- ``training``: the run's own state (`TrainingRun.to_dict`): counters, random state, history;
- ``fitted_on_frame``: whether training read a DataFrame, whose columns (the rule set's feature
  names) scikit-learn then records as ``feature_names_in_`` and checks at predict time.

Floats are written exactly, so a loaded model predicts exactly as the saved one did. The
population a file declares is checked against the memory budget for what is read from a user's
file (``validation.MEMORY_BUDGET``) before anything is allocated (the population it is loaded
into, sized by ``training.n_rules``, and the one a warm start reallocates to, sized by
``params.n_rules``), and every failure to parse becomes a `ModelFormatError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np

from mlr_core._engine.population import population_bytes
from mlr_core.errors import MLRError, ModelFormatError, require
from mlr_core.params import engine_config, renamed, saved_param
from mlr_core.rule_set import RuleSet
from mlr_core.training_run import EXTRA_SLOTS, TrainingRun
from mlr_core.validation import MEMORY_BUDGET, check_memory

FORMAT = "mlr-studio-model"
VERSION = 2

def to_json(params: dict, label_dtype, rule_set: RuleSet, run: TrainingRun,
            fitted_on_frame: bool) -> str:
    """The model as JSON text."""
    params = dict(params)
    if not isinstance(params["random_state"], (int, type(None))):
        params["random_state"] = None
    return json.dumps({
        "format": FORMAT,
        "version": VERSION,
        "params": params,
        "label_dtype": np.dtype(label_dtype).str,
        "rule_set": rule_set.to_dict(),
        "training": run.to_dict(),
        "fitted_on_frame": bool(fitted_on_frame),
    })


def from_json(text, checked_params: Callable[[dict], dict]):
    """(params, label dtype, rule set, training run, fitted on a frame) from `to_json` output
    (files written before the last field existed were not: they load as before); ``checked_params``
    validates the parameters (the estimator's own check) and returns them complete."""
    try:
        data = json.loads(text)
    except RecursionError as err:
        raise ModelFormatError("The model file nests too deeply to be a model.") from err
    except (TypeError, ValueError) as err:
        raise ModelFormatError(f"The model file is not valid JSON: {err}") from err
    try:
        return _read(data, checked_params)
    except ModelFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            RecursionError) as err:
        detail = f"missing field {err}" if isinstance(err, KeyError) else str(err)
        raise ModelFormatError(f"The model file is malformed: {detail}") from err


def _read(data, checked_params):
    require(isinstance(data, dict) and data.get("format") == FORMAT,
            f"Not an MLR Studio model (expected \"format\": \"{FORMAT}\").")
    require(data.get("version") == VERSION,
            f"Unsupported model version {data.get('version')!r}; this MLR Studio reads "
            f"version {VERSION}.")
    require(isinstance(data["params"], dict), "\"params\" must be an object.")
    try:
        # files written before the axis was a parameter learned on the paper's min-max axis,
        # those written before missing was one read a test on a missing value as failing, and
        # those written before plateau_rows was one cut at the best point of the tuning curve
        params = checked_params({"axis": "minmax", "missing": "fail", "plateau_rows": 0.0,
                                 **renamed(data["params"], warn=False)})
    except MLRError:
        raise
    except (TypeError, ValueError) as err:
        raise ModelFormatError(f"The model's parameters are invalid: {err}") from err
    label_dtype = _label_dtype(data["label_dtype"])
    training = data["training"]
    require(isinstance(training, dict), "\"training\" must be an object.")
    n_rules = saved_param("n_rules", training["n_rules"], "training n_rules")
    max_specified = saved_param("max_specified", training["max_specified"],
                                "training max_specified")
    require(isinstance(data["rule_set"], dict), "\"rule_set\" must be an object.")
    features = data["rule_set"]["feature_names"]
    require(isinstance(features, list), "\"feature_names\" must be a list.")
    max_specified = min(max_specified, max(len(features), 1))  # never more than the features
    declared = {"training": n_rules}  # the population it is loaded into
    if params["n_rules"] != "auto":  # what a warm start reallocates it to (TrainingRun.reconfigure)
        declared["params"] = params["n_rules"]
    for part, count in declared.items():
        check_memory(population_bytes(count + EXTRA_SLOTS, max_specified),
                     f"The population of n_rules={count:,} the model file declares in \"{part}\"",
                     ModelFormatError, MEMORY_BUDGET)
    rule_set = RuleSet.from_dict(data["rule_set"], n_rules, max_specified)
    require(params["missing"] == rule_set.scaling.missing,
            f"The parameters say missing={params['missing']!r} but the rule set "
            f"{'holds no' if rule_set.scaling.fills is None else 'holds'} fills (the values a "
            "missing one reads as): the file was edited.")
    config = engine_config(params, len(rule_set.feature_names), n_rules, max_specified)._replace(
        levels=rule_set.scaling.levels, shares=rule_set.scaling.share_table)
    run = TrainingRun.from_dict(training, config, params["fitness"], rule_set,
                                params["history_every"])
    fitted_on_frame = data.get("fitted_on_frame", False)
    require(isinstance(fitted_on_frame, bool), "\"fitted_on_frame\" must be true or false.")
    return params, label_dtype, rule_set, run, fitted_on_frame


def _label_dtype(name) -> np.dtype:
    """The saved labels' NumPy type (what ``predict`` answers in): a bool, integer or float."""
    require(isinstance(name, str), "label_dtype must be a NumPy type name such as \"<i8\".")
    try:
        dtype = np.dtype(name)
    except (TypeError, ValueError) as err:
        raise ModelFormatError(f"label_dtype {name[:40]!r} is not a NumPy type.") from err
    require(dtype.kind in "biuf", "label_dtype must be a bool, integer or float type.")
    return dtype
