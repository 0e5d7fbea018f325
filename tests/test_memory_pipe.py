"""TPipe / TQue / TBuf allocation and queue state machine (api-facts 11), LocalTensor / GlobalTensor views,
GM write conflicts across cores and the UB definedness check of scalar reads."""
from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition, TQue
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor, UbPtr
from toolkit.engine.launch import gm_alloc, launch
from toolkit.engine.runtime import CoreContext, GetBlockIdx, running
from toolkit.record.diagnostics import KernelAbort
from toolkit.record.events import BufferInit, QueueOp, ScalarOp

from api_support import abort_code, line_of

F32 = np.dtype(np.float32)
BF16 = np.dtype(ml_dtypes.bfloat16)
BUDGET = 253952


class Owner:
    def __init__(self, pipe: TPipe):
        self.inQueueX_ = TQue(TPosition.VECIN, 1)
        self.outQueue_ = TQue(TPosition.VECOUT, 1)
        self.tmpBuf = TBuf(TPosition.VECCALC)
        pipe.InitBuffer(self.inQueueX_, 2, 100)
        pipe.InitBuffer(self.outQueue_, 1, 64)
        pipe.InitBuffer(self.tmpBuf, 33)


# -- InitBuffer -------------------------------------------------------------------------------------
def test_init_buffer_rounds_to_32_and_packs_in_call_order(ctx):
    pipe = TPipe()
    o = Owner(pipe)
    assert o.inQueueX_.addrs == [0, 128] and o.inQueueX_.bytes_each == 128
    assert o.outQueue_.addrs == [256] and o.tmpBuf.addrs == [320] and o.tmpBuf.bytes_each == 64
    plan = [(e.name, e.kind, e.position, e.num, e.bytes_each, e.addr) for e in ctx.events if isinstance(e, BufferInit)]
    assert plan == [("inQueueX", "TQue", "VECIN", 2, 128, 0), ("outQueue", "TQue", "VECOUT", 1, 64, 256),
                    ("tmpBuf", "TBuf", "VECCALC", 1, 64, 320)]
    local_que = TQue(TPosition.VECIN, 1)
    pipe.InitBuffer(local_que, 1, 1)
    assert local_que.name == "local_que" and local_que.addrs == [384]


def test_ub_over_budget_reports_the_whole_plan(ctx):
    pipe = TPipe()
    big, extra = TQue(TPosition.VECIN, 1), TBuf()
    pipe.InitBuffer(big, 2, BUDGET // 2)                         # exactly the budget: fine
    with pytest.raises(KernelAbort) as ei:
        pipe.InitBuffer(extra, 1)                                # <- over budget
    d = ei.value.diag
    assert d.code == "UB_OVER_BUDGET" and d.line == line_of(__file__, "# <- over budget")
    assert d.extra["plan"] == [
        {"name": "big", "position": "VECIN", "num": 2, "bytes_each": BUDGET // 2, "bytes": BUDGET},
        {"name": "extra", "position": "VECCALC", "num": 1, "bytes_each": 32, "bytes": 32}]
    assert "big 2x126976" in d.message and "extra 1x32" in d.message


def test_too_many_buffers(ctx):
    pipe = TPipe()
    q, b = TQue(TPosition.VECIN, 1), TBuf()
    pipe.InitBuffer(q, 64, 32)
    assert abort_code(pipe.InitBuffer, b, 32) == "TOO_MANY_BUFFERS"


# -- queues -----------------------------------------------------------------------------------------
def _queue(num, depth=1, nbytes=64):
    pipe = TPipe()
    q = TQue(TPosition.VECIN, depth)
    pipe.InitBuffer(q, num, nbytes)
    return q


def test_alloc_tensor_round_robin(ctx):
    q = _queue(3)
    a = q.AllocTensor(float)
    b = q.AllocTensor(float)
    q.FreeTensor(a)
    c = q.AllocTensor(float)
    q.FreeTensor(b)
    d = q.AllocTensor(float)
    e = q.AllocTensor(float)
    assert [t.addr for t in (a, b, c, d, e)] == [0, 64, 128, 0, 64]
    assert a.count == 16 and a.dtype == F32 and a.position == "VECIN"


def test_enque_deque_fifo(ctx):
    q = _queue(2, depth=2)
    a, b = q.AllocTensor(float), q.AllocTensor(BF16)
    q.EnQue(a)
    q.EnQue(b)
    assert q.HasTensorInQue()
    first, second = q.DeQue(float), q.DeQue(BF16)
    assert (first.addr, second.addr) == (a.addr, b.addr) and second.dtype == BF16 and second.count == 32
    q.FreeTensor(first)
    q.FreeTensor(second)
    kinds = [(e.op, e.slot) for e in ctx.events if isinstance(e, QueueOp)]
    assert kinds == [("alloc", 0), ("alloc", 1), ("enque", 0), ("enque", 1), ("deque", 0), ("deque", 1),
                     ("free", 0), ("free", 1)]


def test_deque_before_enque(ctx):
    q = _queue(1)
    q.AllocTensor(float)
    assert abort_code(q.DeQue, float) == "QUEUE_DEQUE_EMPTY"


def test_double_free(ctx):
    q = _queue(1)
    t = q.AllocTensor(float)
    q.FreeTensor(t)
    assert abort_code(q.FreeTensor, t) == "QUEUE_DOUBLE_FREE"


def test_no_free_buffer(ctx):
    q = _queue(2)
    q.AllocTensor(float)
    q.AllocTensor(float)
    assert abort_code(q.AllocTensor, float) == "QUEUE_NO_FREE_BUFFER"


def test_enque_beyond_depth(ctx):
    q = _queue(2, depth=1)
    q.EnQue(q.AllocTensor(float))
    assert abort_code(q.EnQue, q.AllocTensor(float)) == "QUEUE_DEPTH_EXCEEDED"


def test_use_before_init_buffer(ctx):
    assert abort_code(TQue(TPosition.VECIN, 1).AllocTensor, float) == "QUEUE_NOT_INITIALISED"
    assert abort_code(TBuf().Get, float) == "QUEUE_NOT_INITIALISED"


def test_leak_at_kernel_end_is_reported_by_launch():
    def kernel():
        pipe = TPipe()
        q = TQue(TPosition.VECOUT, 1)
        pipe.InitBuffer(q, 2, 64)
        q.AllocTensor(float)                                     # <- leaked buffer
        kept = q.AllocTensor(float)
        q.FreeTensor(kept)

    r = launch(kernel, 2, [])
    leaks = [d for d in r.diagnostics if d.code == "QUEUE_LEAK"]
    # non-fatal diagnostics are de-duplicated per (code, line) across cores: one report for both cores
    assert [d.core for d in leaks] == [0] and not r.aborted and not leaks[0].fatal
    assert "buffer 0 is still allocated" in leaks[0].message
    assert leaks[0].file == os.path.abspath(__file__) and leaks[0].line == line_of(__file__, "# <- leaked buffer")


def test_tbuf_get(ctx):
    pipe = TPipe()
    pipe.InitBuffer(TQue(TPosition.VECIN, 1), 1, 96)
    calc = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(calc, 1000)
    t = calc.Get(float)
    assert (t.addr, t.count, t.position) == (96, 1024 // 4, "VECCALC")
    h = calc.Get(BF16, 10)
    assert (h.addr, h.count, h.dtype) == (96, 10, BF16)


# -- LocalTensor ------------------------------------------------------------------------------------
def test_local_tensor_views_and_scalar_access(ctx):
    t = LocalTensor(1024, float, 64)
    sub = t[10]
    assert (sub.addr, sub.count, sub.dtype) == (1024 + 40, 54, F32)
    h = t.ReinterpretCast(BF16)
    assert (h.addr, h.count, h.dtype) == (1024, 128, BF16)
    p = t.GetPhyAddr(5)
    assert p == UbPtr(1044, F32) and (p + 3).addr == 1056 and (p + 3) - p == 3 and (p - 5).addr == 1024
    assert t.GetPhyAddr().cast(np.uint8).dtype == np.dtype(np.uint8)
    assert t.GetSize() == 64 and t.GetLength() == 256
    t.SetValue(3, 1.5)
    sub.SetValue(0, -2.0)
    assert t.GetValue(3) == 1.5 and t.GetValue(10) == -2.0
    assert h.GetValue(7) == 1.5                                  # high half of fp32 1.5 is bf16 1.5
    np.testing.assert_array_equal(ctx.ub.view(1024 + 12, 4).view(F32), [1.5])
    kinds = [e.kind for e in ctx.events if isinstance(e, ScalarOp)]
    assert kinds == ["ub_write", "ub_write", "ub_read", "ub_read", "ub_read"]
    assert "UNDEFINED_READ" not in ctx.diag.codes()


def test_get_value_of_never_written_ub_is_undefined_read(ctx):
    t = LocalTensor(2048, float, 8)
    t.SetValue(0, 1.0)
    t.GetValue(0)
    assert "UNDEFINED_READ" not in ctx.diag.codes()
    t.GetValue(1)                                                # <- undefined scalar read
    d = [d for d in ctx.diag if d.code == "UNDEFINED_READ"]
    assert len(d) == 1 and not d[0].fatal and d[0].address == 2052 and d[0].size == 4
    assert d[0].line == line_of(__file__, "# <- undefined scalar read")


def test_local_tensor_scalar_access_out_of_ub(ctx):
    t = LocalTensor(262144 - 8, float, 4)
    t.SetValue(1, 0.0)
    assert abort_code(t.SetValue, 2, 0.0) == "UB_OUT_OF_BOUNDS"


# -- GlobalTensor -----------------------------------------------------------------------------------
def test_global_tensor_get_value_is_a_scalar_gm_read(ctx):
    data = np.arange(16, dtype=F32) * 2
    g = GlobalTensor(float)
    g.SetGlobalBuffer(gm_alloc("x", data) + 8)                   # a GM_ADDR plus a byte offset
    assert g.GetSize() == 14 and g[4].GetSize() == 10
    assert g.GetValue(3) == 10.0 and g[4].GetValue(1) == 14.0
    reads = [e for e in ctx.events if isinstance(e, ScalarOp)]
    assert [(e.kind, e.nbytes, e.gm, e.gm_offset) for e in reads] == [("gm_read", 4, "x", 20), ("gm_read", 4, "x", 28)]


def test_global_tensor_out_of_bounds(ctx):
    g = GlobalTensor(float)
    g.SetGlobalBuffer(gm_alloc("x", np.zeros(4, F32)))
    g.GetValue(3)
    assert abort_code(g.GetValue, 4) == "GM_OUT_OF_BOUNDS"
    assert abort_code(g.SetValue, -1, 0.0) == "GM_OUT_OF_BOUNDS"


# -- GM write conflicts across cores ---------------------------------------------------------------
def _writer_kernel(overlap: bool):
    def kernel(out):
        pipe = TPipe()
        buf = TBuf()
        pipe.InitBuffer(buf, 64)
        t = buf.Get(float)
        for i in range(16):
            t.SetValue(i, float(GetBlockIdx()))
        g = GlobalTensor(float)
        g.SetGlobalBuffer(out)
        DataCopy(g if overlap else g[16 * GetBlockIdx()], t, 16)
        g.SetValue(32 + (0 if overlap else GetBlockIdx()), 1.0)
    return kernel


@pytest.mark.parametrize("overlap", [True, False])
def test_gm_write_conflict_between_cores(overlap):
    out = gm_alloc("out", np.zeros(64, F32))
    r = launch(_writer_kernel(overlap), 2, [out])
    conflicts = [d for d in r.diagnostics if d.code == "GM_WRITE_CONFLICT"]
    assert not r.aborted
    if overlap:
        assert len(conflicts) == 2 and {d.core for d in conflicts} == {1} and not conflicts[0].fatal
        assert conflicts[0].address == 0 and conflicts[0].size == 64 and conflicts[0].extra["gm"] == "out"
    else:
        assert conflicts == []
        np.testing.assert_array_equal(out.buf.as_array(F32)[:34], [0.0] * 16 + [1.0] * 16 + [1.0, 1.0])


def test_same_core_rewriting_gm_is_not_a_conflict():
    out = gm_alloc("out", np.zeros(16, F32))

    def kernel(o):
        g = GlobalTensor(float)
        g.SetGlobalBuffer(o)
        g.SetValue(0, 1.0)
        g.SetValue(0, 2.0)

    r = launch(kernel, 1, [out])
    assert "GM_WRITE_CONFLICT" not in r.diagnostics.codes() and out.buf.as_array(F32)[0] == 2.0


def test_enque_of_a_dequeued_tensor_is_a_state_error():
    from toolkit.ascendc.pipe import TPipe, TPosition, TQue
    from toolkit.engine.runtime import CoreContext, running
    from toolkit.record.diagnostics import KernelAbort

    with running(CoreContext()):
        q = TQue(TPosition.VECIN, 1)
        TPipe().InitBuffer(q, 1, 256)
        t = q.AllocTensor(float)
        q.EnQue(t)
        t = q.DeQue(float)
        with pytest.raises(KernelAbort) as err:
            q.EnQue(t)
        assert err.value.diag.code == "QUEUE_BAD_STATE"
