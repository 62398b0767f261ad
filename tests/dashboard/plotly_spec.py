"""Read plotly figure dicts in tests: plotly >= 6 stores numpy arrays as base64 typed arrays."""

import base64

import numpy as np


def values(data) -> np.ndarray:
    """A trace attribute as a numpy array, whether plain list or ``{"dtype", "bdata"}``."""
    if isinstance(data, dict) and "bdata" in data:
        flat = np.frombuffer(base64.b64decode(data["bdata"]), dtype=np.dtype(data["dtype"]))
        shape = data.get("shape")
        if isinstance(shape, str):
            shape = [int(size) for size in shape.split(",")]
        return flat.reshape(shape) if shape else flat
    return np.asarray(data)
