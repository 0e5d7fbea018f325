"""DMA layouts that are one contiguous run (a single burst, or blocks back to back) move as one slice;
every layout, run or not, moves the same bytes and reports the same diagnostics as a per-byte
reference computed here from the documented block formulas."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from toolkit.ascendc.dma import DataCopy, DataCopyExtParams, DataCopyPad, DataCopyParams
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor
from toolkit.engine.launch import gm_alloc
from toolkit.engine.runtime import CoreContext, running
from toolkit.record.events import Dma

U8 = np.dtype(np.uint8)
UB = 4096
SENT = 0xA5


def _gm(arr: np.ndarray, name: str) -> GlobalTensor:
    g = GlobalTensor(arr.dtype)
    g.SetGlobalBuffer(gm_alloc(name, arr))
    return g


def _align32(n: int) -> int:
    return -(-n // 32) * 32


@given(n=st.integers(1, 5), blocks=st.integers(1, 3), src_stride=st.sampled_from([0, 0, 1, 2]),
       dst_stride=st.sampled_from([0, 0, 1]))
def test_gm_to_ub_blocks_land_where_the_formula_says(n, blocks, src_stride, dst_stride):
    length = blocks * 32
    src = np.random.default_rng(n * 7 + blocks).integers(0, 256, n * (length + src_stride * 32), dtype=np.uint8)
    ctx = CoreContext()
    with running(ctx):
        DataCopy(LocalTensor(UB, U8, 4096), _gm(src, "x"), DataCopyParams(n, blocks, src_stride, dst_stride))
    want = np.zeros(n * (length + dst_stride * 32), dtype=np.uint8)
    defined = np.zeros(want.size, dtype=bool)
    for k in range(n):
        u, g = k * (length + dst_stride * 32), k * (length + src_stride * 32)
        want[u:u + length], defined[u:u + length] = src[g:g + length], True
    assert np.array_equal(ctx.ub.view(UB, want.size), want)
    assert np.array_equal(ctx.ub.defined[UB:UB + want.size], defined)
    assert not ctx.ub.defined[UB + want.size:UB + want.size + 64].any()
    ev = [e for e in ctx.events if isinstance(e, Dma)]
    assert [(e.direction, e.nbytes, e.bursts, e.burst_len, e.ub_addr) for e in ev] == [
        ("GM2UB", n * length, n, length, UB)]
    assert ctx.ub.high == UB + (n - 1) * (length + dst_stride * 32) + length


@given(n=st.integers(1, 5), blk=st.integers(1, 70), src_stride=st.sampled_from([0, 0, 1]),
       dst_gap=st.sampled_from([0, 0, 3]), holes=st.lists(st.integers(0, 511), max_size=3))
def test_ub_to_gm_moves_and_reports_as_the_per_byte_reference(n, blk, src_stride, dst_gap, holes):
    ub_stride = _align32(src_stride * 32 + blk)
    pattern = np.random.default_rng(blk).integers(0, 256, 512 + ub_stride * n, dtype=np.uint8)
    total = n * (blk + dst_gap) + 8
    ctx = CoreContext()
    with running(ctx):
        ctx.ub.write(UB, pattern)
        ctx.ub.defined[[UB + h for h in holes]] = False
        out = _gm(np.full(total, SENT, dtype=np.uint8), "out")
        DataCopyPad(out, LocalTensor(UB, U8, pattern.size), DataCopyExtParams(n, blk, src_stride, dst_gap, 0))
    want = np.full(total, SENT, dtype=np.uint8)
    order = []                                     # UB bytes in the order the blocks read them
    for k in range(n):
        want[k * (blk + dst_gap):k * (blk + dst_gap) + blk] = pattern[k * ub_stride:k * ub_stride + blk]
        order.extend(range(k * ub_stride, k * ub_stride + blk))
    assert np.array_equal(out.buf.data, want)
    missing = [u for u in order if u in set(holes)]
    got = [(d.address, d.size) for d in ctx.diag if d.code == "UNDEFINED_READ"]
    assert got == ([(UB + missing[0], len(missing))] if missing else [])
    written = [(k * (blk + dst_gap), k * (blk + dst_gap) + blk) for k in range(n)]
    runs = [list(written[0])]
    for s, e in written[1:]:
        if s == runs[-1][1]:
            runs[-1][1] = e
        else:
            runs.append([s, e])
    assert out.buf.writer.ranges() == [(s, e, 0) for s, e in runs]
