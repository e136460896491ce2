"""The project's model file, version 2, as Python writes it (docs/design/network-format.md).

The engine's C++ (cardgames/models/model_file.cpp) reads these bytes and checks them; Python
reads a network back through `cardgames.load_network`, the same reader. A header of text lines::

    cardgames-model 2
    # comment lines
    KEY VALUE                      fields: kind, task, form, features, command, seeds, ...
    tensor NAME f32|i16|f64 D1 [D2..]  one line per array, in payload order
    payload BYTES
    checksum HEX16                 FNV-1a 64 of every byte before this line and of the payload

then the arrays, little-endian, row-major.
"""

import os

import numpy as np

MAGIC = "cardgames-model"
VERSION = 2
_DTYPES = {np.dtype(np.float32): "f32", np.dtype(np.int16): "i16", np.dtype(np.float64): "f64"}


def fnv1a64(data, h=0xCBF29CE484222325):
    """FNV-1a, 64 bits, of bytes, continuing from hash h."""
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def format_model(fields, tensors, comments=()):
    """The file's bytes. fields: (key, value) pairs; tensors: (name, float32, int16 or float64 array)."""
    header = f"{MAGIC} {VERSION}\n"
    for c in comments:
        header += f"# {c}\n"
    for key, value in fields:
        value = str(value)
        if not key or any(ch in key for ch in " \n#") or "\n" in value or not value:
            raise ValueError(f"model field {key!r}: cannot be written (value {value!r})")
        header += f"{key} {value}\n"
    payload = bytearray()
    for name, array in tensors:
        array = np.ascontiguousarray(array)
        if array.dtype not in _DTYPES:
            raise ValueError(f"model tensor {name!r}: dtype {array.dtype}, expected float32, int16 or float64")
        if array.dtype != np.int16 and not np.isfinite(array).all():
            raise ValueError(f"model tensor {name!r}: not finite")
        header += f"tensor {name} {_DTYPES[array.dtype]} " + " ".join(map(str, array.shape)) + "\n"
        payload += array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    header += f"payload {len(payload)}\n"
    head = header.encode()
    return head + f"checksum {fnv1a64(payload, fnv1a64(head)):016x}\n".encode() + bytes(payload)


def write_model(path, fields, tensors, comments=()):
    """Writes the file through a temporary file renamed into place."""
    data = format_model(fields, tensors, comments)
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
