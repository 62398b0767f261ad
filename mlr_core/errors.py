"""The exceptions of MLR Studio: one base class, so a caller (the dashboard) can catch them all."""

import math

SAVED_LIMIT = 2**62
"""The largest magnitude a saved whole number may have: counts and iterations stay far from
int64's end, so that no sum or difference of two of them overflows."""


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


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def saved_whole(value, what: str, low: int = 0, high: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool, not 2.0) in [low, `SAVED_LIMIT`) and at
    most ``high``, else a ModelFormatError naming ``what``: a saved count, iteration or id."""
    require(type(value) is int and low <= value < SAVED_LIMIT
            and (high is None or value <= high),
            f"{what} must be a whole number from {low:,} to "
            f"{'2**62' if high is None else f'{high:,}'}, got {_shown(value)}.")
    return value


def saved_real(value, what: str, low: float = -math.inf, high: float = math.inf,
               nan: bool = False) -> float:
    """``value`` as a float if it is a finite number (an int or a float, not a bool) in
    [low, high] (or NaN, where ``nan`` allows the unknown), else a ModelFormatError naming
    ``what``: a saved statistic."""
    finite = (isinstance(value, float) and math.isfinite(value)
              or type(value) is int and abs(value) < SAVED_LIMIT)
    unknown = nan and isinstance(value, float) and math.isnan(value)
    if math.isinf(low) and math.isinf(high):
        allowed = "a finite number"
    elif math.isinf(high):
        allowed = f"a number of at least {low:g}"
    else:
        allowed = f"a number from {low:g} to {high:g}"
    require(finite and low <= value <= high or unknown,
            f"{what} must be {allowed}{' or NaN' if nan else ''}, got {_shown(value)}.")
    return float(value)
