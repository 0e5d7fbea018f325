"""The C API families (C-API/vector_datamove, sync, sys_var, simd_atomic, scalar_compute, vector_compute) on
the Python route: each asc_* call against numpy layouts written from its page (byte offsets from the head-
to-head strides, padding, the loop mode) and against the AscendC call it stands for (same bytes, same
events). The .asc route (one host + kernel program using many of them) is tests/test_capi_asc.py."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from api_support import abort_code

from toolkit.ascendc import (
    atomic,
    capi,
    capi_sync,
    capi_vec,
    dma,
    membase,
    sync,
    system,
)
from toolkit.ascendc.dma import (
    DataCopyExtParams,
    DataCopyMVType,
    DataCopyPadExtParams,
    LoopModeParams,
    PaddingMode,
)
from toolkit.ascendc.membase.relayout import TransDataTo5HDParams
from toolkit.ascendc.regbase.types import SpecialPurposeReg
from toolkit.ascendc.sync import HardEvent, PipeType
from toolkit.ascendc.tensor import GlobalTensor, GmPtr, LocalTensor, UbPtr
from toolkit.engine.launch import gm_alloc
from toolkit.record.events import Dma

U8, I8, F16, F32, I32, U32 = (np.dtype(t) for t in (np.uint8, np.int8, np.float16, np.float32, np.int32, np.uint32))
BF16 = np.dtype(ml_dtypes.bfloat16)
UB = 4096


def gmp(arr: np.ndarray, name: str = "x") -> GmPtr:
    p = gm_alloc(name, np.ascontiguousarray(arr).view(U8).copy())
    return GmPtr(p.buf, 0, arr.dtype)


def ub(ctx, n: int, addr: int = UB) -> np.ndarray:
    return ctx.ub.view(addr, n).copy()


def dmas(ctx) -> list:
    return [(e.direction, e.nbytes, e.bursts) for e in ctx.events if isinstance(e, Dma)]


# -- vector_datamove -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, length, src_stride, dst_stride", [
    (1, 64, 0, 0), (3, 40, 100, 64), (2, 64, 64, 96), (4, 20, 24, 20), (3, 96, 128, 96)])
def test_gm2ub_burst_form_places_each_block_at_its_head_to_head_stride(ctx, n, length, src_stride, dst_stride):
    x = (np.arange(1024) % 251).astype(U8)
    capi.asc_copy_gm2ub(UbPtr(UB, U8), gmp(x), n, length, src_stride, dst_stride)
    got = ub(ctx, 2048)
    for k in range(n):
        np.testing.assert_array_equal(got[k * dst_stride:k * dst_stride + length],
                                      x[k * src_stride:k * src_stride + length])
    assert dmas(ctx) == [("GM2UB", n * length, n)]


def test_zero_sizes_move_nothing(ctx):
    x = np.arange(64, dtype=U8)
    capi.asc_copy_gm2ub(UbPtr(UB, U8), gmp(x), 0)
    capi.asc_copy_gm2ub(UbPtr(UB, U8), gmp(x, "y"), 0, 32, 32, 32)
    capi.asc_copy_ub2gm(gm_alloc("out", 64), UbPtr(UB, U8), 0)
    assert dmas(ctx) == [] and not ctx.ub.defined[UB:UB + 64].any() and ctx.diag.codes() == []


def test_an_unaligned_ub_stride_is_a_bad_parameter(ctx):
    assert abort_code(capi.asc_copy_gm2ub, UbPtr(UB, U8), gmp(np.zeros(256, U8)), 2, 40, 40, 48) == "BAD_PARAMETER"


def test_gm2ub_size_form_is_one_datacopypad_block(ctx):
    x = np.arange(64, dtype=F32)
    capi.asc_copy_gm2ub(UbPtr(UB, F32), gmp(x), 256)
    np.testing.assert_array_equal(ub(ctx, 256).view(F32), x)
    capi.asc_copy_gm2ub_sync(UbPtr(UB + 512, F32), gmp(x, "y"), 128)
    np.testing.assert_array_equal(ub(ctx, 128, UB + 512).view(F32), x[:32])


@pytest.mark.parametrize("n, length, dst_stride, src_stride", [(1, 48, 0, 0), (3, 40, 50, 64), (2, 20, 20, 20)])
def test_ub2gm_burst_form(ctx, n, length, dst_stride, src_stride):
    data = (np.arange(512) * 7 % 253).astype(U8)
    ctx.ub.write(UB, data)
    out = gm_alloc("out", 1024)
    capi.asc_copy_ub2gm(out, UbPtr(UB, U8), n, length, dst_stride, src_stride)
    for k in range(n):
        np.testing.assert_array_equal(out.buf.data[k * dst_stride:k * dst_stride + length],
                                      data[k * src_stride:k * src_stride + length])


def test_ub2gm_align_2201_form_counts_gaps_in_datablocks(ctx):
    data = (np.arange(256) % 241).astype(U8)
    ctx.ub.write(UB, data)
    out = gm_alloc("out", 512)
    capi.asc_copy_ub2gm_align(out, UbPtr(UB, U8), 2, 32, 0, 0, 1, 2)     # UB gap 32 B, GM gap 64 B
    np.testing.assert_array_equal(out.buf.data[:32], data[:32])
    np.testing.assert_array_equal(out.buf.data[96:128], data[64:96])


def test_ub2gm_and_align_sync_forms_wait_for_the_vector_pipe_and_the_copy(ctx):
    data = np.arange(16, dtype=F32)
    ctx.ub.write(UB, data.view(U8))
    out = gm_alloc("out", 64)
    capi.asc_copy_ub2gm_align_sync(GmPtr(out.buf, 0, F32), UbPtr(UB, F32), 64)
    np.testing.assert_array_equal(out.buf.data[:64].view(F32), data)
    kinds = [type(e).__name__ for e in ctx.events]
    assert kinds.index("Dma") > 0 and kinds[-1] == "Sync"


@pytest.mark.parametrize("constant", [True, False])
def test_gm2ub_align_pads_left_and_right_with_the_pad_register_or_the_first_element(ctx, constant):
    x = np.arange(1, 41, dtype=np.int16)
    capi.asc_set_copy_pad_val(-7)
    capi.asc_copy_gm2ub_align(UbPtr(UB, np.dtype(np.int16)), gmp(x), 2, 20 * 2, 2, 3, constant, 0, 40, 64)
    fill = -7 if constant else 1
    got = ub(ctx, 128).view(np.int16)
    for k in range(2):
        block = got[k * 32:k * 32 + 25]
        np.testing.assert_array_equal(block, [fill] * 2 + list(x[k * 20:k * 20 + 20]) + [fill] * 3)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.float16, ml_dtypes.bfloat16, np.int32,
                                np.uint32, np.float32])
def test_align_copies_round_trip_every_listed_dtype(ctx, dt):
    dt = np.dtype(dt)
    n = 96 // dt.itemsize
    x = (np.arange(n) % 120).astype(dt)
    capi.asc_copy_gm2ub_align(UbPtr(UB, dt), gmp(x), 96)
    out = gm_alloc("out", 96)
    capi.asc_copy_ub2gm_align(GmPtr(out.buf, 0, dt), UbPtr(UB, dt), 2, 32, 0, 32, 64)   # every other block
    np.testing.assert_array_equal(out.buf.data[:64], np.concatenate([x.view(U8)[:32], x.view(U8)[64:96]]))


def test_gm2ub_align_2201_form_counts_gaps_in_datablocks(ctx):
    x = np.arange(256, dtype=U8)
    capi.asc_copy_gm2ub_align(UbPtr(UB, U8), gmp(x), 2, 32, 0, 0, 1, 1)     # src gap 32 B, dst gap 32 B
    got = ub(ctx, 256)
    np.testing.assert_array_equal(got[:32], x[:32])
    np.testing.assert_array_equal(got[64:96], x[64:96])


def _loop_reference(x: np.ndarray, base: int = 0) -> np.ndarray:
    """The SetLoopModePara page's example: int8, 2 blocks of 48 B packed (Compact), inner loop 2 x (96 B in,
    128 B out), outer loop 2 x (192 B in, 288 B out)."""
    out = np.zeros(1024, U8)
    for i2 in range(2):
        for i1 in range(2):
            s, d = i2 * 192 + i1 * 96, i2 * 288 + i1 * 128
            out[d:d + 96] = x[s:s + 96]
    return out


def test_loop_mode_of_setloopmodepara_and_of_the_c_api_registers_move_the_same_bytes(ctx):
    x = (np.arange(1024) * 3 % 255).astype(U8)
    dma.SetLoopModePara(LoopModeParams(2, 2, 96, 128, 192, 288), DataCopyMVType.OUT_TO_UB)
    g = GlobalTensor(I8)
    g.SetGlobalBuffer(GmPtr(gmp(x).buf, 0, I8))
    dma.DataCopyPad(PaddingMode.Compact, LocalTensor(UB, I8, 1024), g, DataCopyExtParams(2, 48, 0, 0, 0),
                    DataCopyPadExtParams())
    dma.ResetLoopModePara(DataCopyMVType.OUT_TO_UB)
    want = _loop_reference(x)
    got = ub(ctx, 1024)
    for d in (0, 128, 288, 416):
        np.testing.assert_array_equal(got[d:d + 96], want[d:d + 96])
    assert len(dmas(ctx)) == 4
    capi.asc_set_gm2ub_loop_size(2, 2)
    capi.asc_set_gm2ub_loop1_stride(96, 128)
    capi.asc_set_gm2ub_loop2_stride(192, 288)
    capi.asc_copy_gm2ub_align(UbPtr(UB + 2048, I8), GmPtr(g.buf, 0, I8), 2, 48, 0, 0, False, 0, 48, 48)
    capi.asc_set_gm2ub_loop_size(1, 1)
    for d in (0, 128, 288, 416):
        np.testing.assert_array_equal(ub(ctx, 1024, UB + 2048)[d:d + 96], want[d:d + 96])
    capi.asc_copy_gm2ub(UbPtr(UB, U8), GmPtr(g.buf, 0, U8), 64)      # registers reset: one block again
    assert dmas(ctx)[-1] == ("GM2UB", 64, 1)


def test_ub2gm_loop_registers(ctx):
    data = (np.arange(1024) % 250).astype(U8)
    ctx.ub.write(UB, data)
    out = gm_alloc("out", 2048)
    capi.asc_set_ub2gm_loop_size(2, 1)
    capi.asc_set_ub2gm_loop1_stride(64, 100)
    capi.asc_copy_ub2gm(out, UbPtr(UB, U8), 32)
    capi.asc_set_ub2gm_loop_size(1, 1)
    np.testing.assert_array_equal(out.buf.data[0:32], data[0:32])
    np.testing.assert_array_equal(out.buf.data[100:132], data[64:96])


def test_setpadvalue_fills_the_padding_of_a_copy_without_its_own_pad_value(ctx):
    x = np.arange(1, 21, dtype=F16)
    g = GlobalTensor(F16)
    g.SetGlobalBuffer(GmPtr(gmp(x).buf, 0, F16))
    dma.SetPadValue(1.5)
    dma.DataCopyPad(LocalTensor(UB, F16, 32), g, DataCopyExtParams(1, 40, 0, 0, 0), DataCopyPadExtParams(False, 0, 12, 0))
    got = ub(ctx, 64).view(F16)
    np.testing.assert_array_equal(got[:20], x)
    np.testing.assert_array_equal(got[20:32], np.full(12, 1.5, F16))
    assert ctx.ub.defined[UB:UB + 64].all()


def test_ndim_copy_pads_a_2d_tile_with_the_constant_or_the_nearest_value(ctx):
    x = np.arange(1, 13, dtype=F32).reshape(3, 4)               # 3 rows of 4
    src = gmp(x)
    capi.asc_set_ndim_loop0_stride(1, 1)
    capi.asc_set_ndim_loop1_stride(6, 4)                        # destination rows of 6 (1 + 4 + 1)
    for d in (2, 3, 4):
        getattr(capi, f"asc_set_ndim_loop{d}_stride")(0, 0)
    capi.asc_set_ndim_pad_count(0)
    capi.asc_set_ndim_pad_value(9.0)
    capi.asc_ndim_copy_gm2ub(UbPtr(UB, F32), src, 4, 3, 1, 1, 1, 1, 1, True, 0)
    got = ub(ctx, 18 * 4).view(F32).reshape(3, 6)
    np.testing.assert_array_equal(got, np.pad(x, ((0, 0), (1, 1)), constant_values=9.0))
    capi.asc_set_ndim_pad_count(1 << 8)                         # loop1_rp_count = 1: one more row
    capi.asc_ndim_copy_gm2ub(UbPtr(UB + 1024, F32), src, 4, 3, 1, 1, 1, 1, 1, False, 0)
    got = ub(ctx, 24 * 4, UB + 1024).view(F32).reshape(4, 6)
    np.testing.assert_array_equal(got, np.pad(x, ((0, 1), (1, 1)), mode="edge"))


def test_ub2ub_forms_are_datacopy_ub_to_ub(ctx):
    data = (np.arange(256) % 199).astype(U8)
    ctx.ub.write(UB, data)
    capi.asc_copy_ub2ub(UbPtr(UB + 1024, U8), UbPtr(UB, U8), 64)
    np.testing.assert_array_equal(ub(ctx, 64, UB + 1024), data[:64])
    capi.asc_copy_ub2ub(UbPtr(UB + 2048, U8), UbPtr(UB, U8), 2, 1, 1, 0)   # 2 blocks of 32 B, src gap 1
    np.testing.assert_array_equal(ub(ctx, 64, UB + 2048), np.concatenate([data[:32], data[64:96]]))


def test_ub2l1_is_refused_with_a_diagnostic(ctx):
    assert abort_code(capi.asc_copy_ub2l1, 0, UbPtr(UB, U8), 64) == "UNSUPPORTED_API"


# -- sync ----------------------------------------------------------------------------------------------------
def _events(ctx, fn) -> list:
    n = len(ctx.events)
    fn()
    return [repr(e) for e in ctx.events[n:]]


@pytest.mark.parametrize("capi_call, cpp_call", [
    (lambda: capi_sync.asc_sync_notify(PipeType.PIPE_MTE2, PipeType.PIPE_V, 1), lambda: sync.SetFlag[HardEvent.MTE2_V](1)),
    (lambda: capi_sync.asc_sync_wait(PipeType.PIPE_V, PipeType.PIPE_MTE3, 2), lambda: sync.WaitFlag[HardEvent.V_MTE3](2)),
    (capi_sync.asc_sync, lambda: sync.PipeBarrier[PipeType.PIPE_ALL]()),
    (capi_sync.asc_sync_vec, lambda: sync.PipeBarrier[PipeType.PIPE_ALL]()),
    (lambda: capi_sync.asc_sync_pipe(PipeType.PIPE_MTE2), lambda: sync.PipeBarrier[PipeType.PIPE_MTE2]()),
    (lambda: capi_sync.asc_sync_mte2(3), lambda: (sync.SetFlag[HardEvent.MTE2_S](3), sync.WaitFlag[HardEvent.MTE2_S](3))),
    (lambda: capi_sync.asc_sync_mte3(3), lambda: (sync.SetFlag[HardEvent.MTE3_S](3), sync.WaitFlag[HardEvent.MTE3_S](3))),
    (lambda: capi_sync.asc_sync_data_barrier(1), lambda: sync.DataSyncBarrier[sync.MemDsbT.DDR]()),
])
def test_sync_calls_record_what_their_cpp_counterpart_records(ctx, capi_call, cpp_call):
    assert _events(ctx, capi_call) == _events(ctx, cpp_call)


def test_sync_refuses_pipe_s_barriers_and_edges_the_core_lacks(ctx):
    assert abort_code(capi_sync.asc_sync_pipe, PipeType.PIPE_S) == "BAD_PARAMETER"
    with pytest.raises(TypeError, match="no such event"):
        capi_sync.asc_sync_notify(PipeType.PIPE_V, PipeType.PIPE_V, 0)


def test_lock_unlock_and_the_arrive_wait_counters(ctx):
    capi_sync.asc_lock(PipeType.PIPE_MTE2, 1)
    capi_sync.asc_unlock(PipeType.PIPE_MTE2, 1, 1)
    for arrive, wait in (("inter", "inter"), ("block", "block"), ("subblock", "subblock"), ("intra", "intra")):
        getattr(capi_sync, f"asc_sync_{arrive}_arrive")(PipeType.PIPE_S, 1)
        getattr(capi_sync, f"asc_sync_{wait}_wait")(PipeType.PIPE_S, 1)
    assert ctx.diag.codes() == []
    # a wait nobody arrives for: no other core can signal it
    assert abort_code(capi_sync.asc_sync_block_wait, PipeType.PIPE_S, 2) == "CROSS_CORE_DEADLOCK"


# -- sys_var -------------------------------------------------------------------------------------------------
def test_ctrl_and_ar_registers_are_the_cpp_api_registers(ctx):
    capi_sync.asc_set_ctrl((1 << 48) | (1 << 60))
    assert capi_sync.asc_get_ctrl() == system.GetCtrlSpr[0, 63]() == (1 << 48) | (1 << 60)
    assert system.GetCtrlSpr[48, 48]() == 1
    ctx.state[SpecialPurposeReg.AR.name] = 96
    assert capi_sync.asc_get_squeeze_status() == capi_sync.asc_get_ar_spr() == 96


# -- simd_atomic ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op, fn", [("add", atomic.SetAtomicAdd), ("max", atomic.SetAtomicMax), ("min", atomic.SetAtomicMin)])
@pytest.mark.parametrize("suffix, dt", [("bfloat", BF16), ("float", F32), ("float16", F16), ("int", I32),
                                        ("int16", np.dtype(np.int16)), ("int8", I8)])
def test_atomic_modes_set_the_ctrl_bits_of_their_cpp_counterpart(ctx, op, fn, suffix, dt):
    getattr(capi_sync, f"asc_set_atomic_{op}_{suffix}")()
    mine = atomic.dma_mode(ctx)
    capi_sync.asc_set_atomic_none()
    assert atomic.dma_mode(ctx) is None
    fn(dt)
    assert mine == atomic.dma_mode(ctx) and mine.dtype == dt and mine.op == op


def test_store_atomic_config_v2_and_an_atomic_copy(ctx):
    capi_sync.asc_set_store_atomic_config_v2(1, 0)               # float, sum
    out = gm_alloc("out", np.ones(8, F32).view(U8).copy())
    ctx.ub.write(UB, np.arange(8, dtype=F32).view(U8))
    capi.asc_copy_ub2gm(out, UbPtr(UB, U8), 32)
    capi_sync.asc_set_atomic_none()
    np.testing.assert_array_equal(out.buf.data[:32].view(F32), np.arange(8, dtype=F32) + 1)


# -- scalar_compute: GM atomics ------------------------------------------------------------------------------
def _np_op(op, old, *v):
    big = (lambda a: int(a)) if np.asarray(old).dtype.kind in "iu" else (lambda a: a)
    old, v = big(old), tuple(big(a) for a in v)
    m = {"add": lambda: old + v[0], "sub": lambda: old - v[0], "max": lambda: max(old, v[0]),
         "min": lambda: min(old, v[0]), "exch": lambda: v[0], "cas": lambda: v[1] if old == v[0] else old,
         "and": lambda: old & v[0], "or": lambda: old | v[0], "xor": lambda: old ^ v[0],
         "inc": lambda: 0 if old >= v[0] else old + 1, "dec": lambda: v[0] if old == 0 or old > v[0] else old - 1}
    return m[op]()


@pytest.mark.parametrize("op, dt, old, values", [
    ("add", I32, 5, (7,)), ("add", U32, 2**32 - 1, (2,)), ("add", F32, 1.5, (0.25,)), ("sub", I32, 5, (7,)),
    ("sub", U32, 1, (2,)), ("sub", F32, 1.0, (0.5,)), ("max", I32, -3, (2,)), ("min", F32, 2.0, (-1.0,)),
    ("exch", F32, 1.0, (3.0,)), ("exch", I32, 1, (-4,)), ("cas", U32, 4, (4, 9)), ("cas", I32, 4, (5, 9)),
    ("cas", F32, 2.0, (2.0, 8.0)), ("and", I32, 0b1100, (0b1010,)), ("or", U32, 0b1100, (0b1010,)),
    ("xor", np.dtype(np.int64), -1, (5,)), ("inc", U32, 3, (5,)), ("inc", U32, 5, (5,)),
    ("dec", np.dtype(np.uint64), 0, (7,)), ("dec", U32, 9, (7,)), ("dec", U32, 4, (7,))])
def test_scalar_gm_atomics_return_the_old_value_and_store_the_page_formula(ctx, op, dt, old, values):
    g = gmp(np.array([old], dt))
    got = getattr(capi_sync, f"asc_atomic_{op}")(g, *values)
    assert got == np.array([old], dt)[0]
    r = _np_op(op, *(np.array([v], dt)[0] for v in (old, *values)))
    want = np.array([r % 2 ** (8 * dt.itemsize) if dt.kind == "u" else r]).astype(dt)
    np.testing.assert_array_equal(g.buf.data[:dt.itemsize].view(dt), want)


def test_scalar_atomics_refuse_the_types_their_page_does_not_list(ctx):
    with pytest.raises(TypeError, match="asc_atomic_and<float32>"):
        capi_sync.asc_atomic_and(gmp(np.zeros(1, F32)), 1)
    assert capi_sync.asc_atomic_add(gmp(np.array([3], I32)), 4) == atomic.AtomicAdd(gmp(np.array([3], I32), "y"), 4)


# -- vector_compute ------------------------------------------------------------------------------------------
def test_bitsort_is_sort32(ctx):
    rng = np.random.default_rng(3)
    scores = rng.standard_normal(64).astype(F32)
    ctx.ub.write(UB, scores.view(U8))
    ctx.ub.write(UB + 512, np.arange(64, dtype=U32).view(U8))
    capi_vec.asc_bitsort_sync(UbPtr(UB + 1024, F32), UbPtr(UB, F32), UbPtr(UB + 512, U32), 2)
    got = ub(ctx, 512, UB + 1024).view(F32).reshape(64, 2)
    membase.Sort32(LocalTensor(UB + 2048, F32, 128), LocalTensor(UB, F32, 64), LocalTensor(UB + 512, U32, 64), 2)
    np.testing.assert_array_equal(ub(ctx, 512, UB + 1024), ub(ctx, 512, UB + 2048))
    for r in range(2):
        np.testing.assert_array_equal(got[32 * r:32 * r + 32, 0], np.sort(scores[32 * r:32 * r + 32])[::-1])


def test_mrgsort4_merges_four_sorted_queues(ctx):
    q = [np.sort(np.random.default_rng(k).standard_normal(8).astype(F32))[::-1] for k in range(4)]
    for k in range(4):
        pairs = np.zeros((8, 2), F32)
        pairs[:, 0] = q[k]
        pairs.view(U32)[:, 1] = np.arange(8) + 8 * k
        ctx.ub.write(UB + 64 * k, pairs.view(U8).ravel())
    srcs = [UbPtr(UB + 64 * k, F32) for k in range(4)]
    capi_vec.asc_mrgsort4(UbPtr(UB + 1024, F32), *srcs, 1, 8, 8, 8, 8, False, 15)
    got = ub(ctx, 256, UB + 1024).view(F32).reshape(32, 2)[:, 0]
    np.testing.assert_array_equal(got, np.sort(np.concatenate(q))[::-1])


def test_transpose_is_the_16x16_transpose(ctx):
    x = np.arange(256, dtype=np.int16)
    ctx.ub.write(UB, x.view(U8))
    capi_vec.asc_transpose_sync(UbPtr(UB + 1024, np.dtype(np.int16)), UbPtr(UB, np.dtype(np.int16)))
    np.testing.assert_array_equal(ub(ctx, 512, UB + 1024).view(np.int16).reshape(16, 16), x.reshape(16, 16).T)


@pytest.mark.parametrize("bits", [16, 32])
def test_transto5hd_over_va_registers_is_transdatato5hd(ctx, bits):
    dt = np.dtype(np.uint16 if bits == 16 else np.uint32)
    per = 32 // dt.itemsize
    x = np.arange(16 * per, dtype=dt)
    ctx.ub.write(UB, x.view(U8))
    src = [UbPtr(UB + 32 * k, dt) for k in range(16)]
    dst = [UbPtr(UB + 1024 + 32 * k, dt) for k in range(16)]
    capi_vec.asc_set_va_reg(0, *dst[:8])
    capi_vec.asc_set_va_reg(1, *dst[8:])
    capi_vec.asc_set_va_reg(2, *src[:8])
    capi_vec.asc_set_va_reg(3, *src[8:])
    getattr(capi_vec, f"asc_transto5hd_b{bits}")(0, 2, 1, 0, 0)
    membase.TransDataTo5HD[dt]([p.addr + 1024 for p in dst], [p.addr for p in src],
                               TransDataTo5HDParams(False, False, 1, 0, 0))
    np.testing.assert_array_equal(ub(ctx, 512, UB + 1024), ub(ctx, 512, UB + 2048))
    if bits == 16:
        np.testing.assert_array_equal(ub(ctx, 512, UB + 1024).view(dt).reshape(16, 16), x.reshape(16, 16).T)


def test_transto5hd_needs_both_registers_of_a_pair(ctx):
    assert abort_code(capi_vec.asc_transto5hd_b16, 4, 6, 1, 0, 0) == "BAD_PARAMETER"
