"""Raw ``.bin`` files of a gen_data directory: little-endian, flattened, no header.

bf16 tensors are stored as their uint16 bit patterns, ``index`` as int64. ``case_layout`` is the
single description of which file holds what; ``operators.kv_rms_norm_rope_cache.gen_data`` writes it and ``load_case`` reads it.
"""
from __future__ import annotations

import os
import stat
from typing import Any

import numpy as np

from .data import BadInput

INPUT_NAMES = ("kv", "gamma", "cos", "sin", "index", "k_cache", "v_cache")
GOLDEN_NAMES = ("k_cache", "v_cache", "k_out", "v_out")


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


def _why_unreadable(err: OSError) -> str:
    if isinstance(err, FileNotFoundError):
        return "file not found"
    if isinstance(err, PermissionError):
        return "permission denied"
    if isinstance(err, NotADirectoryError):
        return "a component of the path is not a directory"
    return f"cannot read: {(err.strerror or str(err)).lower()}"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_bin(path: str | os.PathLike, dtype: Any, count: int) -> np.ndarray:
    """Read ``count`` little-endian elements of ``dtype`` from ``path`` (native byte order, 1-D).

    Raises BadInput, one line naming the file, when it is missing, unreadable, not a regular file
    (a directory, FIFO or device is never opened for reading), or not ``count * itemsize`` bytes.
    """
    dt = np.dtype(dtype)
    path = os.fspath(path)
    want = count * dt.itemsize
    expected = f"expected {want} bytes ({count} x {dt.name})"
    try:                                    # O_NONBLOCK: opening a FIFO must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise BadInput(f"{path}: {_why_unreadable(err)} ({expected})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"{path}: {_kind(st.st_mode)}, not a data file ({expected})")
        if st.st_size != want:
            raise BadInput(f"{path}: size {st.st_size} bytes, {expected}")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(want + 1)
    except OSError as err:
        raise BadInput(f"{path}: {_why_unreadable(err)}") from None
    finally:
        os.close(fd)
    if len(raw) != want:
        raise BadInput(f"{path}: changed while being read ({len(raw)} bytes read, {expected})")
    return np.frombuffer(raw, dtype=dt.newbyteorder("<")).astype(dt)


def file_bytes(array: np.ndarray) -> bytes:
    """The ``.bin`` content of an array: flattened, little-endian, no header."""
    arr = np.asarray(array)
    return arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes(order="C")


def write_bin(path: str | os.PathLike, array: np.ndarray) -> None:
    """Write ``array`` as a ``.bin`` file (creates the parent directory; atomic, see toolkit.console.outputs)."""
    from toolkit.console.outputs import OutputPlan

    OutputPlan({"bin": path}, labels={"bin": "file"}, make_dirs=True).commit({"bin": file_bytes(array)})


def read_files(data_dir: str | os.PathLike, layout: dict[str, tuple[Any, tuple[int, ...]]]) -> dict[str, np.ndarray]:
    """The files of a layout (key ``'input/x'`` -> (dtype, shape), read from ``DIR/input/x.bin``), shaped."""
    out = {}
    for key, (dtype, shape) in layout.items():
        count = int(np.prod(shape))
        out[key] = read_bin(os.path.join(data_dir, key + ".bin"), dtype, count).reshape(shape)
    return out


def load_case(data_dir: str | os.PathLike, batch: int, num_head: int, seq: int, dv: int,
              dk: int) -> dict[str, np.ndarray]:
    """Every input and golden file of a KV gen_data directory, shaped; keys as ``case_layout``."""
    return read_files(data_dir, case_layout(batch, num_head, seq, dv, dk))
