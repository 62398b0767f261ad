"""The exceptions of MLR Studio: one base class, so a caller (the dashboard) can catch them all."""


class MLRError(ValueError):
    """Base of every error the engine raises on bad input; the message says what to fix."""


class DatasetError(MLRError):
    """A data file or array cannot be used: the message names the file, line or column at fault."""


class InputError(MLRError):
    """Arrays given to the estimator are malformed (NaN, wrong shape, labels not 0/1, ...)."""


class ModelFormatError(MLRError):
    """A saved model (JSON) is corrupted, of an unknown version, or inconsistent."""


def require(condition, message: str) -> None:
    """Raise ModelFormatError(message) unless ``condition``: the checks of a saved model."""
    if not condition:
        raise ModelFormatError(message)
