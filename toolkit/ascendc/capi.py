"""The C API names (``asc_*``) as compositions of the C++ API they stand for: the same emulator functions
(DataCopyPad, MemBase count-form calls, SetFlag/WaitFlag) run them. Assumptions where the sheets are
silent: copies move ``size`` bytes as one DataCopyPad block and wait for it (``_sync``); element-wise
calls take an element count; ``asc_init`` has no emulated effect.
"""
from __future__ import annotations

from toolkit.ascendc import dma, membase, sync
from toolkit.ascendc.tensor import GlobalTensor, GmPtr, LocalTensor, UbPtr


def _local(p: UbPtr, nbytes: int) -> LocalTensor:
    return LocalTensor(p.addr, p.dtype, max(nbytes // p.dtype.itemsize, 0))


def _global(p: GmPtr) -> GlobalTensor:
    g = GlobalTensor(p.dtype)
    g.SetGlobalBuffer(p)                 # the rest of the allocation from the pointer on
    return g


def asc_init() -> None:
    return None


def asc_copy_gm2ub_sync(dst: UbPtr, src: GmPtr, size: int) -> None:
    dma.DataCopyPad(_local(dst, size), _global(src), dma.DataCopyExtParams(1, int(size), 0, 0, 0),
                    dma.DataCopyPadExtParams())
    sync.SetFlag[sync.HardEvent.MTE2_V](0)
    sync.WaitFlag[sync.HardEvent.MTE2_V](0)


def asc_copy_ub2gm_sync(dst: GmPtr, src: UbPtr, size: int) -> None:
    sync.SetFlag[sync.HardEvent.V_MTE3](0)
    sync.WaitFlag[sync.HardEvent.V_MTE3](0)
    dma.DataCopyPad(_global(dst), _local(src, size), dma.DataCopyExtParams(1, int(size), 0, 0, 0))
    sync.SetFlag[sync.HardEvent.MTE3_S](0)
    sync.WaitFlag[sync.HardEvent.MTE3_S](0)


def _binary(api, name: str):
    def run(dst: UbPtr, src0: UbPtr, src1: UbPtr, count: int) -> None:
        n = int(count) * dst.dtype.itemsize
        api(_local(dst, n), _local(src0, n), _local(src1, n), int(count))
    run.__name__ = run.__qualname__ = name
    return run


asc_add_sync = _binary(membase.Add, "asc_add_sync")
asc_sub_sync = _binary(membase.Sub, "asc_sub_sync")
asc_mul_sync = _binary(membase.Mul, "asc_mul_sync")
asc_div_sync = _binary(membase.Div, "asc_div_sync")
