"""Raw ``.bin`` files of a gen_data directory: little-endian, flattened, no header.

bf16 tensors are stored as their uint16 bit patterns, ``index`` as int64. ``case_layout`` is the
single description of which file holds what; ``host.gen_data`` writes it and ``load_case`` reads it.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

INPUT_NAMES = ("kv", "gamma", "cos", "sin", "index", "k_cache", "v_cache")
GOLDEN_NAMES = ("k_cache", "v_cache", "k_out", "v_out")


class BadInput(ValueError):
    """A data file is missing or has the wrong size; the one-line message names the file."""


def case_layout(batch: int, num_head: int, seq: int, dv: int,
                dk: int) -> dict[str, tuple[np.dtype, tuple[int, ...]]]:
    """Key (``'input/kv'`` ...) -> (dtype, shape) of every file; cacheLength equals ``seq``."""
    u16 = np.dtype(np.uint16)
    layout = {
        "input/kv": (u16, (batch, num_head, seq, dv + dk)),
        "input/gamma": (u16, (dv,)),
        "input/cos": (u16, (batch, num_head, seq, dk)),
        "input/sin": (u16, (batch, num_head, seq, dk)),
        "input/index": (np.dtype(np.int64), (batch, seq)),
        "input/k_cache": (u16, (batch, num_head, seq, dk)),
        "input/v_cache": (u16, (batch, num_head, seq, dv)),
    }
    outputs = {"k_cache": dk, "v_cache": dv, "k_out": dk, "v_out": dv}
    for name, width in outputs.items():
        layout[f"output/{name}_golden"] = (u16, (batch, num_head, seq, width))
    return layout


def read_bin(path: str | os.PathLike, dtype: Any, count: int) -> np.ndarray:
    """Read ``count`` little-endian elements of ``dtype`` from ``path`` (native byte order, 1-D).

    Raises BadInput when the file is missing or its size is not ``count * itemsize`` bytes.
    """
    dt = np.dtype(dtype)
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise BadInput(f"{path}: file not found (expected {count} x {dt.name})")
    size = os.path.getsize(path)
    want = count * dt.itemsize
    if size != want:
        raise BadInput(f"{path}: size {size} bytes, expected {want} bytes ({count} x {dt.name})")
    data = np.fromfile(path, dtype=dt.newbyteorder("<"), count=count)
    return data.astype(dt, copy=False)


def write_bin(path: str | os.PathLike, array: np.ndarray) -> None:
    """Write ``array`` flattened, little-endian, without header; creates the parent directory."""
    path = os.fspath(path)
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    arr = np.asarray(array)
    arr.astype(arr.dtype.newbyteorder("<"), copy=False).ravel(order="C").tofile(path)


def load_case(data_dir: str | os.PathLike, batch: int, num_head: int, seq: int, dv: int,
              dk: int) -> dict[str, np.ndarray]:
    """Every input and golden file of a gen_data directory, shaped; keys as ``case_layout``."""
    out = {}
    for key, (dtype, shape) in case_layout(batch, num_head, seq, dv, dk).items():
        count = int(np.prod(shape))
        out[key] = read_bin(os.path.join(data_dir, key + ".bin"), dtype, count).reshape(shape)
    return out
