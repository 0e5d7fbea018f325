"""Lock-step execution (cores together, VFs run once over a core axis) equals the core-by-core reference
(`serial`) on every operator: the same output bytes, per-core event streams (instruction records
included), diagnostics (with the cores they hit, in the same order) and cycles."""
from __future__ import annotations

import json

import numpy as np
import pytest

from operators.kv_rms_norm_rope_cache import host as kv_host
from operators.simd_vf_story import registry as story_registry
from operators.simd_vf_story.hostlib import run_module
from tests.asc_support import event_key
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dma import (
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
)
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch, launch_mode
from toolkit.engine.runtime import GetBlockIdx
from toolkit.machine import load_machine
from toolkit.timing.model import TimingModel
from toolkit.views.launch_summary import launch_summary


def _same_launch(a, b) -> None:
    assert len(a.cores) == len(b.cores)
    for ca, cb in zip(a.cores, b.cores):
        assert [event_key(e) for e in ca.events] == [event_key(e) for e in cb.events], f"core {ca.core}"
        assert (ca.aborted is None) == (cb.aborted is None)
    ja, jb = ([d.to_json() for d in r.diagnostics] for r in (a, b))
    assert ja == jb
    sa, sb = (launch_summary(r, TimingModel(r.machine)) for r in (a, b))
    assert json.dumps(sa, sort_keys=True) == json.dumps(sb, sort_keys=True)


@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_kv_with_a_tail_core_equals_serial(backend):
    p = kv_host.KvParams(batch=1, seq=100, cores=8)          # 8 cores x 13 rows, the last one 9: it diverges
    case = kv_host.load_case(p, None)
    machine = load_machine()
    with launch_mode("serial"):
        a = kv_host.run_backend(backend, p, case, machine)
    with launch_mode("lockstep"):
        b = kv_host.run_backend(backend, p, case, machine)
    assert a.passed and b.passed
    for name in a.outputs:
        assert (a.outputs[name] == b.outputs[name]).all(), name
    _same_launch(a.launch, b.launch)


@pytest.mark.parametrize("key", list(story_registry.VARIANTS)[::4])
def test_story_kernels_equal_serial(key):
    variant = story_registry.VARIANTS[key]
    with launch_mode("serial"):
        a = run_module(variant.module, variant.name)
    with launch_mode("lockstep"):
        b = run_module(variant.module, variant.name)
    assert all((a.outputs[k] == b.outputs[k]).all() for k in a.outputs)
    _same_launch(a.launch, b.launch)


@Reg.__simd_vf__
def Scale(dst, src, rows, factor):
    r = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(rows):
        Reg.LoadAlign(r, src + i * 64)
        Reg.Muls(r, r, factor, full)
        Reg.StoreAlign(dst + i * 64, r, full)


def diverging_kernel(x, y):
    """Cores take different paths: odd cores scale twice; core 3 reads never-written UB (a warning-class
    error on one core), core 5 runs off the end of UB (fatal, it alone aborts), core 6 writes past the end
    of y (fatal, in a DMA the other cores share); a DataCopy and a padded DataCopyPad on every core."""
    core = GetBlockIdx()
    pipe = TPipe()
    buf = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 4096)
    xg, yg = GlobalTensor(float), GlobalTensor(float)
    xg.SetGlobalBuffer(gm_cast(float, x) + core * 128, 128)
    yg.SetGlobalBuffer(gm_cast(float, y) + (core * 128 if core != 6 else 960), 128)   # 960 + 128 > 8 * 128
    t = buf.Get(float)
    DataCopyPad(t, xg, DataCopyExtParams(1, 128 * 4, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    DataCopy(t[640], xg, 64)
    DataCopyPad(t[768], xg[core], DataCopyExtParams(2, 40, 8, 0, 0), DataCopyPadExtParams(True, 1, 1, 7.0))
    src = t if core != 3 else t[64]                      # core 3 reads a row nobody wrote
    Scale(t[256].GetPhyAddr(), src.GetPhyAddr(), 2, 2.0)
    if core % 2:
        Scale(t[256].GetPhyAddr(), t[256].GetPhyAddr(), 2, 0.5 + core)
    if core == 5:
        Scale(t[1024 * 64 - 32].GetPhyAddr(), t.GetPhyAddr(), 2, 1.0)
    DataCopyPad(yg, t[256], DataCopyExtParams(1, 128 * 4, 0, 0, 0))


def test_divergence_diagnostics_and_aborts_equal_serial():
    x = np.arange(8 * 128, dtype=np.float32)
    runs = {}
    for mode in ("serial", "lockstep"):
        gx, gy = gm_alloc("x", x.view(np.uint8)), gm_alloc("y", 8 * 128 * 4)
        runs[mode] = (launch(diverging_kernel, 8, [gx, gy], mode=mode), gy.buf.data.copy())
    (a, ya), (b, yb) = runs["serial"], runs["lockstep"]
    assert (ya == yb).all()
    _same_launch(a, b)
    codes = {d.code: d.cores for d in b.diagnostics}
    assert codes["UB_OUT_OF_BOUNDS"] == [5] and codes["GM_OUT_OF_BOUNDS"] == [6]
    assert [c.core for c in b.cores if c.aborted] == [5, 6]
    assert codes["UNDEFINED_READ"] == [3]


@pytest.mark.parametrize("variant", ["0_membase", "3_multi_row", "7_merged_vf_direct"])
def test_softmax_variants_equal_serial(variant):
    from operators.softmax import host as sm
    x, golden = sm.gen_data()
    with launch_mode("serial"):
        a = sm.run_variant(variant, x, golden)
    with launch_mode("lockstep"):
        b = sm.run_variant(variant, x, golden)
    assert (a.output == b.output).all()
    _same_launch(a.launch, b.launch)
