"""Public names that were renamed or made private, kept one release so user code keeps running.

Each warns with a FutureWarning (scikit-learn's choice for deprecations users should see) that
says what to use instead, then does what it did.
"""

import functools
import warnings

REMOVED_IN = "0.3"


def deprecated_method(old: str, target, advice: str):
    """A method ``old`` that warns (``advice``: what to use instead) and calls ``target``."""

    @functools.wraps(target)
    def alias(self, *args, **kwargs):
        warnings.warn(f"{type(self).__name__}.{old} is deprecated and will be removed in "
                      f"{REMOVED_IN}: {advice}", FutureWarning, stacklevel=2)
        return target(self, *args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated: {advice}"
    return alias
