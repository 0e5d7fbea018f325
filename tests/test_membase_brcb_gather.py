"""MemBase Brcb and GatherMask (normal and counter mode), against references written here."""
from collections import Counter

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.dtypes import uint64_t
from toolkit.ascendc.membase import BrcbRepeatParams, GatherMaskParams
from toolkit.record.diagnostics import KernelAbort

from api_support import get, membase_vf, ops, put, T

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
BF16 = np.dtype(ml_dtypes.bfloat16)
PATTERN_BYTE = {1: 0x55, 2: 0xAA, 3: 0x11, 4: 0x22, 5: 0x44, 6: 0x88, 7: 0xFF}


def selected(pattern, i):
    return (PATTERN_BYTE[pattern] >> (i % 8)) & 1 == 1


# -- Brcb ------------------------------------------------------------------------------------------
def ref_brcb(mem_elems, dst_e, src_e, w, repeat, blk, rep):
    epb = 32 // w
    for i in range(repeat):
        for j in range(8):
            start = dst_e + (i * rep + j * blk) * epb
            mem_elems[start:start + epb] = mem_elems[src_e + 8 * i + j]


def test_brcb_sample_fills_one_block_per_row(ctx):
    rows = 8
    rms = np.random.default_rng(1).uniform(0.5, 2, rows).astype(np.float32)
    put(ctx, 0, rms)
    put(ctx, 1024, np.full(128, -3.0, np.float32))
    AscendC.Brcb(T(1024, F32), T(0, F32), (rows + 7) // 8, BrcbRepeatParams(1, 8))
    out = get(ctx, 1024, F32, 128)
    np.testing.assert_array_equal(out[:64], np.repeat(rms, 8))
    assert (out[64:] == -3.0).all()
    ev = membase_vf(ctx)
    assert ev.name == "Brcb" and ev.instrs[0][:4] == ("RV_PSET", 1, (), 4)
    assert [i[:4] for i in ev.instrs[1:]] == [("RV_VLOOP", -1, (), 1), ("ITER", -1, (), 1), ("RV_VLD", 2, (), None),
                                              ("RV_VSSTB", -1, (2, 1), 1)]
    assert ev.instrs[3].dist == "E2B_B32"


@pytest.mark.parametrize("dt,blk,rep", [(F32, 2, 16), (F32, 0, 8), (F16, 1, 8), (F16, 3, 30)])
def test_brcb_strides_and_half(ctx, dt, blk, rep):
    w = np.dtype(dt).itemsize
    src = np.random.default_rng(2).uniform(-5, 5, 16).astype(dt)
    put(ctx, 0, src)
    put(ctx, 2048, np.full(4096 // w, 11, dt))
    mem = ctx.ub.data.copy()
    AscendC.Brcb(T(2048, dt), T(0, dt), 2, BrcbRepeatParams(blk, rep))
    ref_brcb(mem.view(dt), 2048 // w, 0, w, 2, blk or 1, rep)      # dstBlkStride 0 behaves as 1
    np.testing.assert_array_equal(ctx.ub.data, mem)
    ev = membase_vf(ctx)
    assert ops(ev)["RV_VSSTB"] == 2 and {i.dist for i in ev.instrs if i[0] == "RV_VLD"} == {f"E2B_B{8 * w}"}


def test_brcb_definedness(ctx):
    put(ctx, 0, np.ones(4, np.float32))             # src elements 4..7 never written
    AscendC.Brcb(T(1024, F32), T(0, F32), 1, BrcbRepeatParams(1, 8))
    d = ctx.ub.defined[1024:1024 + 256].reshape(8, 32).all(axis=1)
    assert list(d) == [True] * 4 + [False] * 4


# -- GatherMask ------------------------------------------------------------------------------------
def ref_gather(src_elems, w, pattern, counter, n, repeat, blk, rep):
    lanes, epb = 256 // w, 32 // w
    out = []
    per_rep = n if counter else lanes
    for r in range(repeat):
        for e in range(per_rep):
            j, i = divmod(e, lanes)
            if selected(pattern, i):
                out.append(src_elems[r * rep * epb + (j * 8 + i // epb) * blk * epb + i % epb])
    return np.array(out, dtype=src_elems.dtype)


@pytest.mark.parametrize("pattern", range(1, 8))
@pytest.mark.parametrize("dt,blk,rep", [(F32, 1, 8), (np.dtype(np.uint16), 2, 20)])
def test_gather_mask_normal_mode_patterns(ctx, pattern, dt, blk, rep):
    w = np.dtype(dt).itemsize
    src = np.arange(4096 // w).astype(dt)
    put(ctx, 0, src)
    put(ctx, 8192, np.full(2048 // w, 7777, dt))
    cnt = uint64_t(0)
    AscendC.GatherMask(T(8192, dt), T(0, dt), pattern, False, 0, GatherMaskParams(blk, 3, rep, 0), cnt)
    ref = ref_gather(src, w, pattern, False, 0, 3, blk, rep)
    out = get(ctx, 8192, dt, 2048 // w)
    assert cnt.value == ref.size
    np.testing.assert_array_equal(out[:ref.size], ref)
    assert (out[ref.size:] == 7777).all()
    ev = membase_vf(ctx)
    load = "RV_VLD" if blk == 1 else "RV_VSLDB"
    assert ops(ev) == Counter({"RV_PMOV": 1, "RV_VLOOP": 1, "ITER": 3, load: 3, "RV_VSQZ": 3, "RV_VSTUI": 3,
                               "RV_VSTAS": 1})


def test_gather_mask_counter_mode_sample_deinterleave(ctx):
    rows, dk = 8, 128
    rope = np.random.default_rng(3).uniform(-1, 1, rows * dk).astype(BF16)
    put(ctx, 0, rope)
    real, imag = uint64_t(0), uint64_t(0)
    AscendC.GatherMask(T(4096, BF16), T(0, BF16), 1, True, rows * dk, GatherMaskParams(1, 1, 8, 0), real)
    AscendC.GatherMask(T(8192, BF16), T(0, BF16), 2, True, rows * dk, GatherMaskParams(1, 1, 8, 0), imag)
    assert real.value == imag.value == rows * dk // 2
    np.testing.assert_array_equal(get(ctx, 4096, np.uint16, 512), rope.view(np.uint16)[0::2])
    np.testing.assert_array_equal(get(ctx, 8192, np.uint16, 512), rope.view(np.uint16)[1::2])
    ev = membase_vf(ctx)
    assert ops(ev) == Counter({"RV_PMOV": 1, "RV_VLOOP": 2, "ITER": 9, "RV_PLT": 8, "RV_VLD": 8, "RV_VSQZ": 8,
                               "RV_VSTUI": 8, "RV_VSTAS": 1})
    assert [i[3] for i in ev.instrs if i[0] == "RV_PLT"] == [1024 - 128 * k for k in range(8)]
    assert {i[3] for i in ev.instrs if i[0] == "RV_VSTUI"} == {128}
    assert ev.instrs[-1][0] == "RV_VSTAS"


@pytest.mark.parametrize("pattern", [1, 2, 4, 7])
def test_gather_mask_counter_mode_partial_chunk_repeats(ctx, pattern):
    src = np.arange(4096, dtype=np.uint16)
    put(ctx, 0, src)
    put(ctx, 16384, np.full(512, 0xBEEF, np.uint16))
    cnt = uint64_t(0)
    AscendC.GatherMask(T(16384, np.uint16), T(0, np.uint16), pattern, True, 200, GatherMaskParams(1, 2, 16, 0), cnt)
    ref = ref_gather(src, 2, pattern, True, 200, 2, 1, 16)
    out = get(ctx, 16384, np.uint16, 512)
    assert cnt.value == ref.size
    np.testing.assert_array_equal(out[:ref.size], ref)
    assert (out[ref.size:] == 0xBEEF).all()


def test_gather_mask_definedness_and_checks(ctx):
    put(ctx, 0, np.arange(64, dtype=np.float32))
    ctx.ub.defined[2 * 4] = False                  # element 2 (even: selected by pattern 1)
    ctx.ub.defined[3 * 4] = False                  # element 3 (odd: not selected)
    cnt = uint64_t(0)
    AscendC.GatherMask(T(1024, F32), T(0, F32), 1, False, 0, GatherMaskParams(1, 1, 8, 0), cnt)
    d = ctx.ub.defined[1024:1024 + 32 * 4].reshape(32, 4).all(axis=1)
    assert list(np.flatnonzero(~d)) == [1]
    with pytest.raises(KernelAbort) as e:
        AscendC.GatherMask(T(1024, F32), T(0, F32), 8, False, 0, GatherMaskParams(1, 1, 8, 0), cnt)
    assert e.value.diag.code == "BAD_PARAMETER"
