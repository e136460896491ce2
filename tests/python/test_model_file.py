"""cardgames.model_file writes the bytes the engine writes: a shipped linear model (version 2, f64
weights) is remade byte for byte from its fields, comments and weights."""
import os

import numpy as np
import pytest

from cardgames import model_file

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "models")


@pytest.mark.parametrize("name", ["hearts4-playout.txt", "spades-partnership-cutoff.txt"])
def test_a_shipped_linear_model_is_written_byte_for_byte(name):
    with open(os.path.join(MODELS, name), "rb") as f:
        data = f.read()
    end = data.index(b"\n", data.index(b"\nchecksum ") + 1) + 1
    lines = data[:end].decode().splitlines()
    assert lines[0] == "cardgames-model 2"
    comments = [l[2:] for l in lines if l.startswith("# ")]
    fields = [tuple(l.split(" ", 1)) for l in lines[1:] if not l.startswith("#")
              and l.split(" ", 1)[0] not in ("tensor", "payload", "checksum")]
    weights = np.frombuffer(data[end:], dtype="<f8")
    assert len(weights) == len(dict(fields)["names"].split())
    assert model_file.format_model(fields, [("weight", weights.astype(np.float64))], comments) == data


def test_float64_weights_must_be_finite():
    with pytest.raises(ValueError, match="not finite"):
        model_file.format_model([("kind", "linear")], [("weight", np.array([1.0, np.nan]))])
