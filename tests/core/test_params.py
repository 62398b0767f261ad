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
                                   if p.engine is not None} | {"levels", "shares"}  # the data's
    assert config.n_rules == 700 and config.max_specified == 4
    assert config.roulette is True and config.mu == min(0.04, 4 / 200)
    assert config.theta_sub == 20.0 and isinstance(config.theta_sub, float)


def test_the_dashboard_starts_from_the_library_defaults():
    from dashboard.choices import DEFAULT_PARAMS

    differ = {name for name, value in DEFAULT_PARAMS.items() if params.DEFAULTS[name] != value}
    assert differ == {"n_rules", "random_state"}


def test_the_vote_takes_its_defaults_and_bounds_from_the_declarations():
    """`Voting` and `VoteScorer` restated the defaults and a model file's bounds by hand."""
    from mlr_core.errors import ModelFormatError
    from mlr_core.scorers import VoteScorer, Voting

    assert Voting().to_dict() == {name: params.DEFAULTS[name] for name in Voting().to_dict()}
    assert VoteScorer().score_norm == params.DEFAULTS["score_norm"]
    low, high, _ = params.BY_NAME["n_nearest"].bounds
    for n_nearest in (low, high):
        saved = {**Voting().to_dict(), "n_nearest": n_nearest}
        assert Voting.from_dict(saved).n_nearest == n_nearest
    for n_nearest in (low - 1, high + 1, 2.0, True):
        with pytest.raises(ModelFormatError, match=f"voting n_nearest .* {high:,}"):
            Voting.from_dict({**Voting().to_dict(), "n_nearest": n_nearest})
    with pytest.raises(ModelFormatError, match="voting max_by must be 'vote' or 'fittest'"):
        Voting.from_dict({**Voting().to_dict(), "max_by": "best"})


def test_a_rule_between_parameters_is_refused_before_training():
    """``max_rules`` needs fitted weights: refused when training starts, not after a whole run
    (the compaction refused it once the rules had evolved)."""
    import numpy as np

    from mlr_core.errors import InputError
    from mlr_core.training_session import TrainingSession

    X, Y = np.eye(4), np.eye(4, dtype=int)
    for start in (lambda m: m.fit(X, Y), lambda m: TrainingSession(m).start(X, Y)):
        model = MLRClassifier(max_rules=3, weighting="vote", n_iter=20, random_state=0)
        with pytest.raises(InputError, match="max_rules .* needs weighting='fitted'"):
            start(model)
        assert not hasattr(model, "run_")  # nothing was trained
