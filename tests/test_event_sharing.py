"""Events are stored compactly: a record without per-call data (flag, barrier, UB scalar access) is one
shared object however often it is emitted; DMA records share their UB address and byte-count ints."""
from __future__ import annotations

import numpy as np
import pytest

from operators.kv_rms_norm_rope_cache import host
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.launch import launch
from toolkit.machine import load_machine
from toolkit.record.events import Dma, PipeBarrier, ScalarOp, Sync


@pytest.fixture(scope="module")
def events():
    p = host.KvParams(batch=2, seq=32, ub_factor=4, cores=4)
    run = host.run_backend("membase", p, host.load_case(p, None), load_machine())
    return [e for c in run.launch.cores for e in c.events]


def _fields(e) -> tuple:
    return tuple(getattr(e, f) for f in e.__slots__)


@pytest.mark.parametrize("kind", [Sync, PipeBarrier])
def test_equal_flag_and_barrier_records_are_one_object(events, kind):
    recs = [e for e in events if type(e) is kind]
    assert len({id(e) for e in recs}) == len({_fields(e) for e in recs})


def test_dma_records_share_their_ub_address_and_byte_count_ints(events):
    dmas = [e for e in events if type(e) is Dma]
    for field in ("ub_addr", "nbytes", "burst_len"):
        values = [getattr(e, field) for e in dmas]
        assert len({id(v) for v in values}) == len(set(values)), field


def _scalar_kernel():
    t = LocalTensor(1024, np.float32, 8)
    for k in range(6):
        t.SetValue(k % 2, 1.5)
        t.GetValue(k % 2)


def test_ub_scalar_reads_and_writes_at_one_line_are_one_record_each():
    res = launch(_scalar_kernel, 3, [])
    ub = [e for c in res.cores for e in c.events if type(e) is ScalarOp]
    assert len(ub) == 36 and len({id(e) for e in ub}) == 2
