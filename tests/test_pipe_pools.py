"""Resource management beyond InitBuffer: the TQue / TQueBind queries and in-place forms (the pages'
examples: 4 buffers of 1024 B, depth 4), TBuf::GetWithOffset, TPipe::Reset (a second 192 KB InitBuffer),
TBufPool (the InitBufPool page's nesting and sharing), the custom pool hooks, LocalMemAllocator (the Alloc
page), PopStackBuffer and the SPM buffer. Addresses are hand-computed from the 32 B rounding rule."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.ascendc.bufpool import LocalMemAllocator, PopStackBuffer, TBufPool
from toolkit.ascendc.dma import DataCopyParams
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition, TQue
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor
from toolkit.engine.launch import gm_alloc
from toolkit.record.events import BufferInit

from api_support import abort_code, get, put

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)


def plan(ctx):
    return [(e.name, e.kind, e.num, e.bytes_each, e.addr) for e in ctx.events if isinstance(e, BufferInit)]


def test_queue_queries_follow_the_pages_examples(ctx):
    pipe, que = TPipe(), TQue(TPosition.VECOUT, 4)
    pipe.InitBuffer(que, 4, 1024)
    assert que.HasIdleBuffer() and que.VacantInQue() and que.GetTensorCountInQue() == 0
    tensors = [que.AllocTensor(F16) for _ in range(4)]
    assert not que.HasIdleBuffer()
    for t in tensors:
        que.EnQue(t)
    assert que.GetTensorCountInQue() == 4 and not que.VacantInQue()
    got = que.DeQue(F16)
    assert got.addr == 0 and que.GetTensorCountInQue() == 3
    que.FreeAllEvent()                          # no event ids are held by the emulated queue


def test_inplace_forms_and_bind_positions(ctx):
    pipe = TPipe()
    bind = TQue(TPosition.VECIN, 1)             # what TQueBind<VECIN, VECOUT, 1> makes on the .asc route
    pipe.InitBuffer(bind, 2, 100)
    t = bind.AllocTensor(F16, LocalTensor(0, F16, 0))
    assert (t.addr, t.count) == (0, 64)        # 100 B rounded to 128 B
    bind.EnQue(TPosition.GM, TPosition.VECIN, t)
    back = bind.DeQue(TPosition.GM, TPosition.VECIN, F16)
    assert back.addr == t.addr
    bind.FreeTensor(back)
    assert ctx.diag.codes() == []


def test_get_with_offset_checks_alignment_and_size(ctx):
    pipe, buf = TPipe(), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 1024)
    t = buf.GetWithOffset(np.int32, 128, 64)
    assert (t.addr, t.count) == (64, 128)
    assert abort_code(buf.GetWithOffset, np.int32, 8, 48) == "BAD_PARAMETER"
    assert abort_code(buf.GetWithOffset, np.int32, 256, 64) == "BAD_PARAMETER"


def test_reset_gives_the_ub_back_and_records_the_plan_once(ctx):
    pipe, que = TPipe(), TQue(TPosition.VECOUT, 1)
    for _ in range(2):                          # the Reset page's loop: 192 KB twice
        pipe.InitBuffer(que, 1, 192 * 1024)
        pipe.Reset()
    assert ctx.diag.codes() == [] and plan(ctx) == [("que", "TQue", 1, 196608, 0)]


def test_tbufpool_nesting_and_sharing_as_the_page_draws_it(ctx):
    size = 1024
    pipe = TPipe()
    pool0, pool1, pool2 = (TBufPool(TPosition.VECCALC) for _ in range(3))
    q0, q1, q2, q3 = (TQue(TPosition.VECIN, 1) for _ in range(4))
    pipe.InitBufPool(pool0, size * 4)
    pool0.InitBufPool(pool1, size * 2)
    pool0.InitBuffer(q0, 1, size * 2)
    pool0.InitBufPool(pool2, size * 2, pool1)
    pool1.InitBuffer(q1, 1, size)
    pool1.InitBuffer(q2, 1, size)
    assert (pool1.base, pool2.base, q0.addrs, q1.addrs, q2.addrs) == (0, 0, [2048], [0], [1024])
    pool1.Reset()
    pool2.InitBuffer(q3, 1, size)
    assert q3.addrs == [0]                      # pool2 shares pool1's start
    assert plan(ctx) == [("pool0", "TBufPool", 1, 4096, 0)]     # one row: the pool, its buffers inside
    assert abort_code(pool1.InitBuffer, TQue(TPosition.VECIN, 1), 1, 4096) == "UB_OVER_BUDGET"


def test_tbufpool_buffer_count_and_uninitialised_use(ctx):
    pool = TBufPool(TPosition.VECCALC, 2)
    assert abort_code(pool.InitBuffer, TBuf(), 32) == "QUEUE_NOT_INITIALISED"
    TPipe().InitBufPool(pool, 1024)
    pool.InitBuffer(TBuf(), 32)
    pool.InitBuffer(TBuf(), 32)
    assert abort_code(pool.InitBuffer, TBuf(), 32) == "TOO_MANY_BUFFERS"


def test_custom_pool_hands_out_buffers_through_the_handles(ctx):
    # EXTERN_IMPL_BUFPOOL page: the user's InitBuffer places a queue with InitStartBufHandle / InitBufHandle
    pipe, pool, que = TPipe(), TBufPool(TPosition.VECCALC, 16), TQue(TPosition.VECIN, 2)
    pipe.InitBuffer(TBuf(), 512)
    pipe.InitBufPool(pool, 4096)
    pool.Init()
    start = pool.GetCurAddr()
    h = pool.GetBufHandle(0)
    que.InitStartBufHandle(h, 2, 1000)
    for i in range(2):
        que.InitBufHandle(i, h, start + i * 1024, 1000)
    pool.SetCurAddr(start + 2048)
    pool.SetCurBufSize(2)
    assert (start, que.addrs, pool.GetCurAddr(), pool.GetCurBufSize()) == (512, [512, 1536], 2560, 2)
    t = que.AllocTensor(F32)
    assert t.addr == 512 and t.count == 256
    que.FreeTensor(t)


def test_local_mem_allocator_follows_the_alloc_page(ctx):
    alloc = LocalMemAllocator()
    assert alloc.GetCurAddr() == 0
    a = alloc.Alloc(TPosition.VECIN, float, 1024)
    b = alloc.Alloc(np.float16, 3)              # 6 B rounded to 32 B
    c = alloc.Alloc(np.int32, 8)
    assert [(t.addr, t.count, t.position) for t in (a, b, c)] == [(0, 1024, "VECIN"), (4096, 3, "VECCALC"),
                                                                   (4128, 8, "VECCALC")]
    assert alloc.GetCurAddr() == 4160 and len(plan(ctx)) == 3
    assert abort_code(alloc.Alloc, float, 70000) == "UB_OVER_BUDGET"


def test_pop_stack_buffer_is_the_rest_of_the_ub(ctx):
    pipe = TPipe()
    pipe.InitBuffer(TBuf(), 1000)
    t = PopStackBuffer(np.int16, TPosition.VECCALC)
    assert (t.addr, t.count) == (1024, (ctx.machine.ub_budget_bytes - 1024) // 2)


def test_spm_buffer_round_trip(ctx):
    pipe = TPipe()
    ws = GlobalTensor(np.float16)
    ws.SetGlobalBuffer(gm_alloc("workspace", 4096))
    pipe.InitSpmBuffer(ws, 1024)
    data = np.arange(128, dtype=F16)
    put(ctx, 0, data)
    pipe.WriteSpmBuffer(LocalTensor(0, F16, 128), DataCopyParams(2, 2, 0, 0), 32)    # 2 blocks of 64 B
    pipe.WriteSpmBuffer(LocalTensor(0, F16, 128), 64, 512)
    np.testing.assert_array_equal(ws.buf.data[32:160].view(F16), data[:64])
    pipe.ReadSpmBuffer(LocalTensor(1024, F16, 128), 64, 512)
    np.testing.assert_array_equal(get(ctx, 1024, F16, 32), data[:32])
    assert abort_code(pipe.WriteSpmBuffer, LocalTensor(0, F16, 128), 64, 992) == "GM_OUT_OF_BOUNDS"
    with pytest.raises(TypeError):
        TPipe().InitSpmBuffer(1024)             # the L1 form is not on Ascend 950
