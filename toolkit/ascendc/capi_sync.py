"""The C API's synchronisation (``asc_sync*``, ``asc_lock``), system values (``asc_get_*``), DMA atomic
modes (``asc_set_atomic_*``) and scalar GM atomics (``asc_atomic_*``), each a composition of the AscendC
API function that has its meaning (SetFlag / WaitFlag, PipeBarrier, DataSyncBarrier, Mutex Lock / Unlock,
the cross-core flags, GetSpr / Get- / SetCtrlSpr, SetAtomicAdd ..., the scalar atomics). The C API names
that need no emulator (bit counts, constants) are C++ only (``native`` in toolkit/ascendc/api/capi_sync.py).

Assumptions where the pages are silent: ``asc_sync`` and ``asc_sync_vec`` wait for every pipe
(PipeBarrier<PIPE_ALL>); ``asc_sync_mte2(id)`` / ``asc_sync_mte3(id)`` make the scalar unit wait for the
pipe (SetFlag + WaitFlag of MTE2_S / MTE3_S with that id); the arrive / wait pairs are the counters of
CrossCoreSetFlag / CrossCoreWaitFlag: ``inter`` over every core of the launch (mode 0), ``block``,
``subblock`` and ``intra`` within the block (one vector core per block here and no cube core: the
core's own arrives feed its waits), each its own set of flags.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.engine.runtime import current

from . import atomic, crosscore, sync, system
from .atomic import AtomicDtype, AtomicOp
from .dtypes import BF16, scalar_value
from .regbase.types import SpecialPurposeReg
from .sync import HardEvent, MemDsbT, PipeType
from .tensor import GmPtr


def _event(pipe: PipeType, tpipe: PipeType, api: str) -> HardEvent:
    edge = (sync.pipe_name(pipe, api), sync.pipe_name(tpipe, api))
    for ev in HardEvent:
        if ev.value == edge:
            return ev
    raise TypeError(f"{api}({pipe.name}, {tpipe.name}): no such event between two pipes of the vector core")


def asc_sync_notify(pipe: PipeType, tpipe: PipeType, event_id: Any) -> None:
    """``pipe`` signals ``tpipe`` (SetFlag of that edge)."""
    sync.SetFlag[_event(pipe, tpipe, "asc_sync_notify")](event_id)


def asc_sync_wait(pipe: PipeType, tpipe: PipeType, event_id: Any) -> None:
    """``tpipe`` waits for the signal of ``pipe`` (WaitFlag of that edge)."""
    sync.WaitFlag[_event(pipe, tpipe, "asc_sync_wait")](event_id)


def asc_sync() -> None:
    sync.PipeBarrier[PipeType.PIPE_ALL]()


def asc_sync_vec() -> None:
    sync.PipeBarrier[PipeType.PIPE_ALL]()


def asc_sync_mte2(event_id: Any) -> None:
    sync.SetFlag[HardEvent.MTE2_S](event_id)
    sync.WaitFlag[HardEvent.MTE2_S](event_id)


def asc_sync_mte3(event_id: Any) -> None:
    sync.SetFlag[HardEvent.MTE3_S](event_id)
    sync.WaitFlag[HardEvent.MTE3_S](event_id)


def asc_sync_pipe(pipe: PipeType) -> None:
    """Later instructions of ``pipe`` wait for its earlier ones (PipeBarrier); PIPE_S is refused."""
    if pipe is PipeType.PIPE_S:
        current().report("BAD_PARAMETER", "asc_sync_pipe(PIPE_S): the scalar pipe is in order by itself")
    sync.PipeBarrier[pipe]()


def asc_sync_data_barrier(arg: Any) -> None:
    """``mem_dsb_t`` DSB_ALL / DSB_DDR / DSB_UB / DSB_SEQ: DataSyncBarrier<MemDsbT::ALL / DDR / UB / SEQ>."""
    sync.DataSyncBarrier[MemDsbT(int(scalar_value(arg)))]()


def asc_lock(pipe: PipeType, mutex_id: Any, mode: Any = 0) -> None:
    """Mutex::Lock<pipe>(id); ASC_LOCK_NON_BLOCK (mode 1) is recorded as the blocking form (the emulator
    runs a core's calls in order: nothing overtakes)."""
    sync.Lock[pipe](mutex_id)


def asc_unlock(pipe: PipeType, mutex_id: Any, mode: Any = 0) -> None:
    sync.Unlock[pipe](mutex_id)


def _short(pipe: PipeType, api: str) -> str:
    return sync.pipe_name(pipe, api)


def _arrive(kind: Any, api: str):
    def run(pipe: PipeType, flag_id: Any) -> None:
        crosscore.cross_set(current(), kind, _short(pipe, api), flag_id)
    run.__name__ = run.__qualname__ = api
    run.__doc__ = f"The arrive of the {kind} flags (CrossCoreSetFlag's counter)."
    return run


def _await(kind: Any, api: str):
    def run(pipe: PipeType, flag_id: Any) -> None:
        crosscore.cross_wait(current(), kind, _short(pipe, api), flag_id, f"{api}({int(scalar_value(flag_id))})")
    run.__name__ = run.__qualname__ = api
    run.__doc__ = f"The wait of the {kind} flags (CrossCoreWaitFlag's counter)."
    return run


asc_sync_inter_arrive = _arrive(0, "asc_sync_inter_arrive")
asc_sync_inter_wait = _await(0, "asc_sync_inter_wait")
asc_sync_block_arrive = _arrive("block", "asc_sync_block_arrive")
asc_sync_block_wait = _await("block", "asc_sync_block_wait")
asc_sync_subblock_arrive = _arrive(1, "asc_sync_subblock_arrive")
asc_sync_subblock_wait = _await(1, "asc_sync_subblock_wait")
asc_sync_intra_arrive = _arrive("intra", "asc_sync_intra_arrive")
asc_sync_intra_wait = _await("intra", "asc_sync_intra_wait")


# -- system values ---------------------------------------------------------------------------------------
def asc_get_squeeze_status() -> int:
    """The AR special register (the byte count of Squeeze + StoreUnAlign): GetSpr<SpecialPurposeReg::AR>."""
    return system.GetSpr[SpecialPurposeReg.AR]()


asc_get_ar_spr = asc_get_squeeze_status


def asc_get_ctrl() -> int:
    """The whole CTRL register: GetCtrlSpr<0, 63>."""
    return system.GetCtrlSpr[0, 63]()


def asc_set_ctrl(config: Any) -> None:
    """The whole CTRL register: SetCtrlSpr<0, 63>(config)."""
    system.SetCtrlSpr[0, 63](int(scalar_value(config)) & ((1 << 64) - 1))


# -- DMA atomic modes ------------------------------------------------------------------------------------
_ATOMIC_TYPES = {"bfloat": BF16, "float": np.float32, "float16": np.float16, "int": np.int32, "int16": np.int16,
                 "int8": np.int8}


def _atomic_mode(fn, op: str, suffix: str):
    dt = np.dtype(_ATOMIC_TYPES[suffix])

    def run() -> None:
        fn(dt)
    run.__name__ = run.__qualname__ = f"asc_set_atomic_{op}_{suffix}"
    run.__doc__ = f"Later UB -> GM copies {op} into GM in {dt.name} ({fn.__name__}<{dt.name}>)."
    return run


#: asc_set_atomic_{add,max,min}_{bfloat,float,float16,int,int16,int8}
ATOMIC_MODES = {f.__name__: f for op, fn in (("add", atomic.SetAtomicAdd), ("max", atomic.SetAtomicMax),
                                             ("min", atomic.SetAtomicMin))
                for f in (_atomic_mode(fn, op, s) for s in _ATOMIC_TYPES)}
globals().update(ATOMIC_MODES)


def asc_set_atomic_none() -> None:
    atomic.DisableDmaAtomic()


def asc_set_store_atomic_config_v2(atomic_type: Any, atomic_op: Any) -> None:
    """SetStoreAtomicConfig with the type and operation as numbers (AtomicDtype / AtomicOp values)."""
    atomic.SetStoreAtomicConfig(AtomicDtype(int(scalar_value(atomic_type))), AtomicOp(int(scalar_value(atomic_op))))


# -- scalar GM atomics -----------------------------------------------------------------------------------
_I32_U32_F32 = ("int32", "uint32", "float32")
_BITWISE = ("int32", "uint32", "int64")
_COUNTERS = ("uint32", "uint64")


def _scalar_atomic(op: str, types: tuple[str, ...], values: int = 1):
    api = f"asc_atomic_{op}"

    def run(address: GmPtr, *args: Any) -> Any:
        if len(args) != values:
            raise TypeError(f"{api} takes the address and {values} value(s)")
        return atomic.scalar_atomic(api, types, op, address, *args)
    run.__name__ = run.__qualname__ = api
    run.__doc__ = f"The scalar GM atomic {op} (toolkit.ascendc.atomic.SCALAR_OPS); returns the old value."
    return run


#: asc_atomic_{add,sub,max,min,exch,cas,and,or,xor,inc,dec}
SCALAR_ATOMICS = {f.__name__: f for f in (
    _scalar_atomic("add", _I32_U32_F32), _scalar_atomic("sub", _I32_U32_F32), _scalar_atomic("max", _I32_U32_F32),
    _scalar_atomic("min", _I32_U32_F32), _scalar_atomic("exch", _I32_U32_F32), _scalar_atomic("cas", _I32_U32_F32, 2),
    _scalar_atomic("and", _BITWISE), _scalar_atomic("or", _BITWISE), _scalar_atomic("xor", _BITWISE),
    _scalar_atomic("inc", _COUNTERS), _scalar_atomic("dec", _COUNTERS))}
globals().update(SCALAR_ATOMICS)


def asc_store_dev(addr: GmPtr, value: Any) -> None:
    """A GM scalar write past the data cache (WriteGmByPassDCache)."""
    system.WriteGmByPassDCache(addr, value)
