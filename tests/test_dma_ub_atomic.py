"""Data movement forms beyond GM <-> UB blocks: DataCopy UB -> UB (count and DataCopyParams, the pages'
two examples), DataCopyPad's Compact mode (the page's 48 B blocks), and atomics: the DMA atomic mode of
UB -> GM copies (add / max / min in the atomic type, SetAtomicType alone, SetStoreAtomicConfig, the CTRL
bits SetCtrlSpr sees) and the scalar GM atomics. References: numpy on the same bytes."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc import atomic, system
from toolkit.ascendc.atomic import AtomicDtype, AtomicOp
from toolkit.ascendc.dma import DataCopy, DataCopyExtParams, DataCopyPad, DataCopyPadExtParams, DataCopyParams, PaddingMode
from toolkit.ascendc.dtypes import uint16_t
from toolkit.ascendc.tensor import GlobalTensor, GmPtr, LocalTensor
from toolkit.engine.launch import gm_alloc
from toolkit.record.events import Dma

from api_support import abort_code, get, put

F32, F16, I16, U8 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int16), np.dtype(np.uint8)
BF16 = np.dtype(ml_dtypes.bfloat16)


def gm(arr, name="y"):
    g = GlobalTensor(arr.dtype)
    g.SetGlobalBuffer(gm_alloc(name, arr))
    return g


# -- UB -> UB ----------------------------------------------------------------------------------------
def test_ub_to_ub_count_copies_whole_blocks(ctx):
    x = np.arange(512, dtype=F16)
    put(ctx, 0, x)
    DataCopy(LocalTensor(4096, F16, 512), LocalTensor(0, F16, 512), 512)
    np.testing.assert_array_equal(get(ctx, 4096, F16, 512), x)
    DataCopy(LocalTensor(8192, F16, 20), LocalTensor(0, F16, 20), 20)        # 40 B: one 32 B block
    assert ctx.ub.defined[8192:8224].all() and not ctx.ub.defined[8224:8256].any()
    assert ctx.diag.codes() == ["DATACOPY_TRUNCATED"]
    assert [(e.direction, e.nbytes) for e in ctx.events if isinstance(e, Dma)] == [("UB2UB", 1024), ("UB2UB", 32)]


def test_ub_to_ub_params_with_gaps_as_the_page_draws_it(ctx):
    # 112 halves (7 blocks); 2 blocks of 3 DataBlocks, source gap 1, destination gap 2
    x = np.arange(112, dtype=F16)
    put(ctx, 0, x)
    DataCopy(LocalTensor(2048, F16, 256), LocalTensor(0, F16, 112), DataCopyParams(2, 3, 1, 2))
    out = get(ctx, 2048, F16, 16 * 8)
    np.testing.assert_array_equal(out[:48], x[:48])
    np.testing.assert_array_equal(out[80:128], x[64:112])
    assert not ctx.ub.defined[2048 + 96:2048 + 160].any()                   # the 2 gap blocks untouched
    DataCopy(LocalTensor(2048, F16, 256), LocalTensor(0, F16, 112), DataCopyParams(0, 3, 0, 0))   # a NOP
    assert abort_code(DataCopy, LocalTensor(2050, F16, 8), LocalTensor(0, F16, 8), 16) == "UB_MISALIGNED"


# -- DataCopyPad Compact -------------------------------------------------------------------------------
def test_compact_mode_packs_the_blocks_and_pads_once(ctx):
    # 4 blocks of 48 B (24 halves), right padding 8 halves: 192 + 16 = 208 B -> 224 B (page: Normal 256 B)
    src = gm(np.arange(96, dtype=F16), "x")
    pad = DataCopyPadExtParams(True, 0, 8, 7.0)
    ext = DataCopyExtParams(4, 48, 0, 0, 0)
    DataCopyPad(PaddingMode.Compact, LocalTensor(0, F16, 112), src, ext, pad)
    out = get(ctx, 0, F16, 112)
    np.testing.assert_array_equal(out[:96], np.arange(96))
    np.testing.assert_array_equal(out[96:112], 7.0)            # the padding, then the dummy (isPad: the value)
    assert ctx.ub.defined[:224].all() and not ctx.ub.defined[224:256].any()
    DataCopyPad(PaddingMode.Normal, LocalTensor(4096, F16, 128), src, ext, pad)
    normal = get(ctx, 4096, F16, 128).reshape(4, 32)
    np.testing.assert_array_equal(normal[:, :24], np.arange(96).reshape(4, 24))
    np.testing.assert_array_equal(normal[:, 24:], 7.0)


def test_compact_mode_out_reads_packed_blocks(ctx):
    put(ctx, 0, np.arange(96, dtype=F16))
    dst = gm(np.zeros(200, F16))
    DataCopyPad(PaddingMode.Compact, dst, LocalTensor(0, F16, 96), DataCopyExtParams(4, 48, 0, 4, 0))
    out = dst.buf.data.view(F16)
    for k in range(4):                          # GM blocks 48 B + 4 B gap apart
        np.testing.assert_array_equal(out[k * 26:k * 26 + 24], np.arange(24) + 24 * k)


# -- DMA atomics ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt, op, ref", [
    (F32, "add", lambda a, b: (a.astype(np.float64) + b).astype(F32)),
    (F16, "add", lambda a, b: (a.astype(np.float64) + b).astype(F16)),
    (BF16, "add", lambda a, b: (a.astype(np.float64) + b.astype(np.float64)).astype(BF16)),
    (I16, "add", lambda a, b: (a.astype(np.int64) + b).astype(I16)),          # wraps
    (F32, "max", np.maximum), (F16, "min", np.minimum), (np.dtype(np.int8), "max", np.maximum),
])
def test_dma_atomic_modes_combine_with_gm(ctx, dt, op, ref):
    rng = np.random.default_rng(3)
    if dt.kind == "i":
        old, new = (rng.integers(-30000 if dt == I16 else -100, 30000 if dt == I16 else 100, 64).astype(dt)
                    for _ in range(2))
    else:
        old, new = (rng.standard_normal(64).astype(np.float32).astype(dt) for _ in range(2))
    g = gm(old.copy())
    put(ctx, 0, new)
    {"add": atomic.SetAtomicAdd, "max": atomic.SetAtomicMax, "min": atomic.SetAtomicMin}[op](dt)
    DataCopy(g, LocalTensor(0, dt, 64), 64)
    np.testing.assert_array_equal(g.buf.data.view(dt), ref(old, new))
    atomic.DisableDmaAtomic()
    DataCopy(g, LocalTensor(0, dt, 64), 64)
    np.testing.assert_array_equal(g.buf.data.view(dt), new)


def test_set_atomic_type_alone_adds_and_the_config_reads_back(ctx):
    g = gm(np.full(8, 1.5, F32))
    put(ctx, 0, np.full(8, 2.0, F32))
    atomic.SetAtomicType(float)                 # CTRL[8:6] set, CTRL[10:9] still 0: add
    DataCopyPad(g, LocalTensor(0, F32, 8), DataCopyExtParams(1, 32, 0, 0, 0))
    np.testing.assert_array_equal(g.buf.data.view(F32), 3.5)
    t, o = uint16_t(9), uint16_t(9)
    atomic.SetStoreAtomicConfig(AtomicDtype.ATOMIC_F16, AtomicOp.ATOMIC_SUM)
    atomic.GetStoreAtomicConfig(t, o)
    assert (t.value, o.value) == (2, 0)
    assert system.GetCtrlSpr[6, 8]() == 2 and system.GetCtrlSpr[60, 60]() == 1
    system.SetCtrlSpr[9, 10](1)                  # MAX through the register
    atomic.SetAtomicType(float)
    DataCopy(g, LocalTensor(0, F32, 8), 8)
    np.testing.assert_array_equal(g.buf.data.view(F32), 3.5)                 # max(3.5, 2.0)
    atomic.SetStoreAtomicConfig(AtomicDtype.ATOMIC_NONE, AtomicOp.ATOMIC_SUM)
    atomic.GetStoreAtomicConfig(t, o)
    assert t.value == 0
    with pytest.raises(TypeError):
        atomic.SetAtomicAdd(np.uint32)         # not a DMA atomic type


# -- scalar GM atomics -----------------------------------------------------------------------------------
def test_scalar_atomics_return_the_old_value(ctx):
    buf = gm_alloc("y", np.array([10, 4294967295], np.uint32)).buf
    p = GmPtr(buf, 0, np.uint32)
    assert atomic.AtomicAdd(p, 5) == 10 and atomic.AtomicMax(p, 3) == 15 and atomic.AtomicMin(p, 12) == 15
    assert atomic.AtomicExch(p, 7) == 12 and atomic.AtomicCas(p, 7, 99) == 7 and atomic.AtomicCas(p, 7, 1) == 99
    q = GmPtr(buf, 4, np.uint32)
    assert atomic.AtomicAdd(q, 2) == 4294967295
    np.testing.assert_array_equal(buf.data.view(np.uint32), [99, 1])        # the add wrapped
    f = GmPtr(gm_alloc("f", np.array([1.25], F32)).buf, 0, F32)
    assert atomic.AtomicAdd(f, 0.5) == 1.25 and f.buf.data.view(F32)[0] == 1.75
    with pytest.raises(TypeError):
        atomic.AtomicCas(f, 1.0, 2.0)          # Cas / Exch take uint32 / uint64


def test_any_dma_mode_is_true_exactly_when_some_core_has_a_dma_atomic_mode():
    """A group's check decodes each distinct CTRL value once; it must agree with dma_mode core by core,
    over every 3-bit type field and 2-bit op field (valid and reserved codes)."""
    class Core:
        def __init__(self, ctrl):
            self.state = {} if ctrl is None else {"ctrl": ctrl}

    values = [None] + [atomic.CTRL_RESET | t << 6 | op << 9 for t in range(8) for op in range(4)]
    for v in values:
        for other in (None, values[-1]):
            cores = [Core(None), Core(v), Core(other)]
            assert atomic.any_dma_mode(cores) == any(atomic.dma_mode(c) is not None for c in cores)
    assert not atomic.any_dma_mode([Core(None), Core(atomic.CTRL_RESET)])
