"""Every parameter declared once (``mlr_core/params.py``): the estimator's signature, constraints
and docstring, the engine's Config and the dashboard's defaults all follow the declarations."""

import inspect

import pytest

from mlr_core import MLRClassifier, params
from mlr_core._engine.cycle import Config


def test_the_signature_is_the_declarations_keyword_only():
    signature = inspect.signature(MLRClassifier.__init__)
    declared = [(p.name, p.default) for p in params.PARAMETERS]
    assert [(p.name, p.default) for p in list(signature.parameters.values())[1:]] == declared
    assert {p.kind for p in list(signature.parameters.values())[1:]} == {
        inspect.Parameter.KEYWORD_ONLY}
    assert MLRClassifier().get_params() == params.DEFAULTS
    with pytest.raises(TypeError, match="n_rule"):
        MLRClassifier(n_rule=10)
    with pytest.raises(TypeError):
        MLRClassifier(100)


def test_constraints_and_docstring_cover_every_parameter():
    assert set(MLRClassifier._parameter_constraints) == set(params.DEFAULTS)
    for param in params.PARAMETERS:
        assert f"\n    {param.name} : " in MLRClassifier.__doc__
    assert "{parameters}" not in MLRClassifier.__doc__


def test_the_engine_config_is_made_from_the_declarations():
    config = params.engine_config(MLRClassifier(selection="roulette").get_params(), 200, 700, 4)
    assert set(Config._fields) == {p.engine_field or p.name for p in params.PARAMETERS
                                   if p.engine is not None}
    assert config.n_rules == 700 and config.max_specified == 4
    assert config.roulette is True and config.mu == min(0.04, 4 / 200)
    assert config.theta_sub == 20.0 and isinstance(config.theta_sub, float)


def test_the_dashboard_starts_from_the_library_defaults():
    from dashboard.choices import DEFAULT_PARAMS

    differ = {name for name, value in DEFAULT_PARAMS.items() if params.DEFAULTS[name] != value}
    assert differ == {"n_rules", "random_state"}
