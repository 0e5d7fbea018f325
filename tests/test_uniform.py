"""Uniform execution (toolkit.engine.uniform: a Python kernel's scalar code once for a group of cores) equals
the core-by-core reference (`serial`): output bytes, per-core event streams, diagnostics and cycles, on the
shipped kernels and on kernels written to break it (tail cores, data-dependent branches after GM writes,
per-core UB addresses, diagnostics, aborts, DMA atomics)."""
from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from operators.elementwise import gelu_tanh as G
from operators.kv_rms_norm_rope_cache import host as kv_host
from operators.simd_vf_story import registry as story_registry
from operators.simd_vf_story.hostlib import run_module
from tests.test_lockstep import Scale, _same_launch, diverging_kernel
from toolkit import cli
from toolkit.ascendc.atomic import SetAtomicAdd, SetAtomicNone
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch, launch_mode
from toolkit.engine.percore import Divergence, PerCore, agree, specialize
from toolkit.engine.runtime import GetBlockIdx
from toolkit.machine import load_machine


def _both(kernel, cores: int, make_args):
    """(serial launch, uniform launch, their GM bytes): ``make_args()`` gives fresh GM arguments."""
    out = {}
    for mode in ("serial", "uniform"):
        args = make_args()
        run = launch(kernel, cores, args, mode=mode)
        out[mode] = (run, [a.buf.data.copy() for a in args if hasattr(a, "buf")])
    (a, ga), (b, gb) = out["serial"], out["uniform"]
    assert all((x == y).all() for x, y in zip(ga, gb))
    _same_launch(a, b)
    return a, b, gb


# -- PerCore: Python's own arithmetic per member ---------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-2**70, 2**70), min_size=2, max_size=5), st.integers(-2**40, 2**40).filter(bool))
def test_percore_arithmetic_is_each_members_python(values, other):
    p = PerCore(values)
    for op in ("__add__", "__sub__", "__mul__", "__floordiv__", "__mod__", "__rsub__", "__rfloordiv__",
               "__and__", "__xor__", "__lt__", "__ge__"):
        try:
            want = [getattr(v, op)(other) for v in values]
        except ZeroDivisionError:
            with pytest.raises(ZeroDivisionError):
                getattr(p, op)(other)
            continue
        got = getattr(p, op)(other)            # one value again when the members agree
        assert (got.values() if isinstance(got, PerCore) else [got] * len(values)) == want, op


def test_percore_needs_agreement_where_one_value_is_used():
    assert list(range(PerCore([3, 3, 3]))) == [0, 1, 2]
    assert bool(PerCore([1, 2]) > 0)
    with pytest.raises(Divergence) as err:
        bool(PerCore([5, 0, 7, 0]) > 1)
    assert err.value.parts == [[0, 2], [1, 3]]
    with pytest.raises(Divergence):             # -0.0 and 0.0 are not one value
        float(PerCore([0.0, -0.0]))
    with pytest.raises(Divergence):
        np.asarray(PerCore([1, 2]))
    assert agree([7, 7, 7]) and agree(["a", "a"]) and not agree([1, True]) and not agree([1, 1.0])
    assert not agree([0.0, -0.0]) and agree([float("nan")] * 2) and not agree([2, 2, 3])
    g = GlobalTensor(np.float32)
    g.buf, g.offset, g.count = None, PerCore([0, 64]), PerCore([16, 0])
    assert [specialize(g, k).offset for k in (0, 1)] == [0, 64] and specialize(g, 1).count == 0
    assert specialize((1, [PerCore([4, 5])]), 1) == (1, [5])


# -- the shipped kernels ----------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_kv_with_a_tail_core_equals_serial(backend):
    p = kv_host.KvParams(batch=1, seq=100, cores=8)          # the last core has 9 rows, not 13
    case = kv_host.load_case(p, None)
    machine = load_machine()
    runs = {}
    for mode in ("serial", "uniform"):
        with launch_mode(mode):
            runs[mode] = kv_host.run_backend(backend, p, case, machine)
    a, b = runs["serial"], runs["uniform"]
    assert a.passed and b.passed
    for name in a.outputs:
        assert (a.outputs[name] == b.outputs[name]).all(), name
    _same_launch(a.launch, b.launch)
    u = b.launch.meta["uniform"]
    assert u["groups"] == 2 and "fallback" not in u      # split once (the tail), then two groups


def test_elementwise_with_a_tail_core_equals_serial():
    x = G.gen_x(37, 128)
    tiling = G.make_tiling(37, 128, 8)
    a, b, _ = _both(G.gelu_tanh, G.block_num(tiling), lambda: [gm_alloc("x", x, share=True),
                                                            gm_alloc("y", x.nbytes), tiling])
    assert b.meta["uniform"]["groups"] == 2


@pytest.mark.parametrize("key", list(story_registry.VARIANTS)[1::4])
def test_story_kernels_equal_serial(key):
    variant = story_registry.VARIANTS[key]
    runs = {}
    for mode in ("serial", "uniform"):
        with launch_mode(mode):
            runs[mode] = run_module(variant.module, variant.name)
    a, b = runs["serial"], runs["uniform"]
    assert all((a.outputs[k] == b.outputs[k]).all() for k in a.outputs)
    _same_launch(a.launch, b.launch)


@pytest.mark.parametrize("variant", ["0_membase", "3_multi_row", "7_merged_vf_direct"])
def test_softmax_variants_equal_serial(variant):
    from operators.softmax import host as sm
    x, golden = sm.gen_data()
    runs = {}
    for mode in ("serial", "uniform"):
        with launch_mode(mode):
            runs[mode] = sm.run_variant(variant, x, golden)
    assert (runs["serial"].output == runs["uniform"].output).all()
    _same_launch(runs["serial"].launch, runs["uniform"].launch)


# -- kernels written to break it ---------------------------------------------------------------------
def test_diagnostics_and_aborts_fall_back_to_lockstep():
    x = np.arange(8 * 128, dtype=np.float32)
    a, b, _ = _both(diverging_kernel, 8, lambda: [gm_alloc("x", x.view(np.uint8)), gm_alloc("y", 8 * 128 * 4)])
    assert "fallback" in b.meta["uniform"]
    assert [c.core for c in b.cores if c.aborted] == [5, 6]


def branch_after_writes(x, flags, y):
    """Every core writes its row of y, then reads its flag from GM: cores whose flag is set scale the row
    again and write it once more (a data-dependent branch after GM writes: the rollback must undo them)."""
    core = GetBlockIdx()
    pipe = TPipe()
    buf = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 1024)
    xg, fg, yg = GlobalTensor(np.float32), GlobalTensor(np.int32), GlobalTensor(np.float32)
    xg.SetGlobalBuffer(gm_cast(np.float32, x) + core * 64, 64)
    fg.SetGlobalBuffer(gm_cast(np.int32, flags))
    yg.SetGlobalBuffer(gm_cast(np.float32, y) + core * 64, 64)
    t = buf.Get(np.float32)
    DataCopy(t, xg, 64)
    Scale(t[64].GetPhyAddr(), t.GetPhyAddr(), 1, 2.0)
    DataCopy(yg, t[64], 64)
    if fg.GetValue(core) > 0:
        Scale(t[64].GetPhyAddr(), t[64].GetPhyAddr(), 1, 3.0)
        DataCopy(yg, t[64], 64)


def test_a_data_dependent_branch_after_gm_writes_rolls_back():
    x = np.arange(8 * 64, dtype=np.float32)
    flags = np.array([0, 1, 0, 0, 1, 1, 0, 0], dtype=np.int32)
    y0 = np.full(8 * 64, 5.0, dtype=np.float32)          # an output with contents (logged, not a fill)
    a, b, _ = _both(branch_after_writes, 8, lambda: [gm_alloc("x", x, share=True), gm_alloc("f", flags),
                                                  gm_alloc("y", y0)])
    assert b.meta["uniform"]["groups"] == 2 and b.meta["uniform"]["rounds"] == 2


def per_core_ub_and_atomics(x, y):
    """Each core works at its own UB offset (one group cannot take it: groups of one) and accumulates into
    one GM row with the DMA atomic add."""
    core = GetBlockIdx()
    pipe = TPipe()
    buf = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 4096)
    xg, yg = GlobalTensor(np.float32), GlobalTensor(np.float32)
    xg.SetGlobalBuffer(gm_cast(np.float32, x) + core * 64, 64)
    yg.SetGlobalBuffer(gm_cast(np.float32, y), 64)
    t = buf.Get(np.float32)[core * 64]
    DataCopy(t, xg, 64)
    SetAtomicAdd(np.float32)
    DataCopy(yg, t, 64)
    SetAtomicNone()


def test_per_core_ub_addresses_and_atomics_equal_serial():
    x = (np.arange(4 * 64, dtype=np.float32) * 0.37).astype(np.float32)
    a, b, gm = _both(per_core_ub_and_atomics, 4, lambda: [gm_alloc("x", x, share=True), gm_alloc("y", 64 * 4)])
    acc = np.zeros(64, dtype=np.float32)
    for row in x.reshape(4, 64):                         # core order, float32 adds
        acc = (acc + row).astype(np.float32)
    assert (gm[1].view(np.float32) == acc).all()
    assert b.meta["uniform"]["groups"] == 4               # a group of one per UB address


def test_percore_floats_keep_bits():
    assert PerCore([1.5, 1.5]).__float__() == 1.5
    assert math.isnan(float(PerCore([float("nan")])))


def test_the_json_says_how_groups_ran_and_lockstep_turns_them_off():
    def report(*flags: str) -> dict:
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            assert cli.main([*flags, "kv_rms_norm_rope_cache", "--batch", "1", "--seq", "100", "--cores", "8",
                             "--json", "-"]) == 0
        return json.loads(out.getvalue())

    grouped, lockstep = report(), report("--lockstep")
    for backend in ("membase", "regbase"):
        assert grouped["backends"][backend]["uniform"]["groups"] == 2          # the tail core apart
        assert "uniform" not in lockstep["backends"][backend]
        for key in ("outputs", "ub", "diagnostics"):
            assert grouped["backends"][backend][key] == lockstep["backends"][backend][key]
