"""A one-core Python-route harness for the high-level reduce / index / random tests: raw input bytes to UB,
``body(src, out, tmp)`` on uint8 LocalTensors (reinterpret them), the output bytes back."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

U8 = np.dtype(np.uint8)


def run(body, inp: np.ndarray, out_bytes: int, tmp_bytes: int = 16384):
    """(output bytes as uint8, launch result); the output starts zeroed, the input is ``inp``'s bytes."""
    raw = np.ascontiguousarray(inp).view(U8).ravel()
    nin = (raw.size + 31) // 32 * 32
    out_bytes = (out_bytes + 31) // 32 * 32

    def kernel(xg_addr, og_addr):
        pipe = TPipe()
        buf, tb = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
        pipe.InitBuffer(buf, nin + out_bytes)
        if tmp_bytes:
            pipe.InitBuffer(tb, tmp_bytes)
        xg, og = GlobalTensor(U8), GlobalTensor(U8)
        xg.SetGlobalBuffer(gm_cast(U8, xg_addr))
        og.SetGlobalBuffer(gm_cast(U8, og_addr))
        w = buf.Get(U8)
        DataCopyPad(w, xg, DataCopyExtParams(1, raw.size, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
        MB.Duplicate(w[nin].ReinterpretCast(np.uint16), np.uint16(0), out_bytes // 2)
        body(w, w[nin], tb.Get(U8) if tmp_bytes else None)
        DataCopyPad(og, w[nin], DataCopyExtParams(1, out_bytes, 0, 0, 0))
    gm = [gm_alloc("x", raw.copy()), gm_alloc("out", out_bytes)]
    res = launch(kernel, 1, gm)
    return gm[1].buf.data.copy(), res


def as_(t, dtype):
    return t.ReinterpretCast(np.dtype(dtype))
