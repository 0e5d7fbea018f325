"""``Histograms<T, U, HistogramsBinType, HistogramsType>(dst, src, mask)``: counts of the uint8 values of
``src`` (256 lanes) added to the uint16 lanes of ``dst`` (128 bins: BIN0 values 0..127, BIN1 128..255).

FREQUENCY: dst[n] += the number of active lanes equal to n (+128 for BIN1). ACCUMULATE: dst[n] += the
number of active lanes at most that value; the pages' "from 0 to n" is read as a count from value 0 for
both bins (machine setting ``[numerics] histogram_accumulate``: "from_zero", or "bin_start" to count from
the bin's first value). Counts wrap at 65536 (uint16), as the page warns.
"""
from __future__ import annotations

import numpy as np

from .template import TArgs, template
from .types import HistogramsBinType, HistogramsType, MaskReg, RegTensor
from .vf import current_recorder

_U16 = np.dtype(np.uint16)


def counts(values: np.ndarray, active: np.ndarray, bin_high: bool, accumulate: bool, from_zero: bool) -> np.ndarray:
    """(rows, 128) counts of uint8 ``values`` (rows, 256) where ``active`` (the module doc)."""
    rows = max(values.shape[0], active.shape[0])
    v = np.broadcast_to(values, (rows, values.shape[1])).astype(np.int64)
    on = np.broadcast_to(active, v.shape)
    freq = np.zeros((rows, 256), np.int64)
    np.add.at(freq, (np.repeat(np.arange(rows), v.shape[1]), v.reshape(-1)), on.reshape(-1).astype(np.int64))
    lo = 128 if bin_high else 0
    if not accumulate:
        return freq[:, lo:lo + 128]
    cum = np.cumsum(freq if from_zero else np.where(np.arange(256) >= lo, freq, 0), axis=1)
    return cum[:, lo:lo + 128]


@template
def Histograms(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    rec = current_recorder()
    active, _ = mask.lanes(1)
    bin_high = t.enum(HistogramsBinType, HistogramsBinType.BIN0) == HistogramsBinType.BIN1
    accumulate = t.enum(HistogramsType, HistogramsType.FREQUENCY) == HistogramsType.ACCUMULATE
    from_zero = rec.machine.params["numerics"]["histogram_accumulate"] == "from_zero"
    add = counts(src.raw, active, bin_high, accumulate, from_zero)
    out = (dst.raw.view(_U16).astype(np.int64) + add).astype(_U16)
    ld = dst.lane_defined(2)
    srcs = (src.id, dst.id, mask.id)
    dst.acc_lanes = None
    dst.set(out, ld, rec, 2)
    rec.emit("RV_VHIST", dst.id, srcs, None, mask=mask.id)
