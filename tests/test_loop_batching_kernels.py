"""Batched hardware loops on the shipped kernels (GeLU, KV, softmax, simd_vf_story, vf_micro): equal to
the iteration-by-iteration reference, with the loops the statistics say batched (tests/test_loop_batching.py
has the kernels written to break batching and the comparison)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.loop_batching_support import VL, _expect, _fresh_refusals, _twice  # noqa: F401 (the fixture)
from toolkit.engine.launch import gm_alloc, launch

# -- 9. the shipped kernels ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["lockstep", "serial"])
def test_gelu_tanh_batches(mode):
    from operators.elementwise import gelu_tanh as G
    x = G.gen_x(40, 1000, seed=1)
    tiling = G.make_tiling(40, 1000, 8)

    def once():
        gy = gm_alloc("y", x.nbytes)
        return launch(G.gelu_tanh, G.block_num(tiling), [gm_alloc("x", x, share=True), gy, tiling],
                      mode=mode), [gy.buf.data.copy()]
    a, y, stats = _twice(once)
    _expect(stats, True)
    assert np.array_equal(y.view(np.float32).reshape(x.shape), G.golden(x))


@pytest.mark.parametrize("backend,batched,why", [("membase", False, ()), ("regbase", True, ())])
def test_kv_backends(backend, batched, why):
    from operators.kv_rms_norm_rope_cache import host as kv_host
    from toolkit.machine import load_machine
    p = kv_host.KvParams(batch=1, seq=100, cores=8)          # 8 cores x 13 rows, the last one 9
    case, machine = kv_host.load_case(p, None), load_machine()

    def once():
        r = kv_host.run_backend(backend, p, case, machine)
        assert r.passed
        return r.launch, [r.outputs[k] for k in sorted(r.outputs)]
    _expect(_twice(once)[2], batched, *why)


@pytest.mark.parametrize("variant,batched,why", [
    ("0_membase", False, ()), ("3_multi_row", True, ()),
    ("7_merged_vf_direct", True, ("UB stored earlier in the VF instance",))])
def test_softmax_variants(variant, batched, why):
    from operators.softmax import host as sm
    x, golden = sm.gen_data()

    def once():
        r = sm.run_variant(variant, x, golden)
        return r.launch, [r.output]
    _expect(_twice(once)[2], batched, *why)


def _story_keys():
    from operators.simd_vf_story import registry
    return list(registry.VARIANTS)


#: story kernels none of whose loops batch (for the reasons their statistics count)
STORY_SERIAL = {"broadcast/head_axis_1_naive", "elemwise/elemwise_axpy_unroll", "reduce/reduce_sum_ar_binary",
                "broadcast/tail_axis_2_distbrc", "broadcast/head_axis_2_vfloop_nm", "broadcast/head_axis_3_vfloop_mn",
                "broadcast/mid_axis_4_vfloop_mbn", "broadcast/mid_axis_5_vfloop_mnb"}


@pytest.mark.parametrize("key", _story_keys())
def test_story_kernels(key):
    from operators.simd_vf_story import registry
    from operators.simd_vf_story.hostlib import run_module
    v = registry.VARIANTS[key]

    def once():
        r = run_module(v.module, v.name)
        assert r.passed
        return r.launch, [r.outputs[k] for k in sorted(r.outputs)]
    stats = _twice(once)[2]
    assert stats and bool(stats.get("batched")) == (key not in STORY_SERIAL), stats


@pytest.mark.parametrize("name,batched", [("add_i16", True), ("div_i96", True), ("silu_i64_u1", True),
                                          ("vexp_longchain_i16", True), ("gelu_poly_i16_u1", False),
                                          ("gelu_poly_i96_u4", False)])
def test_vf_micro(name, batched):
    from operators.vf_micro.rows import ROWS, MicroTiling
    row = next(r for r in ROWS if r.name == name)
    inputs = row.inputs()
    n = row.iters * VL

    def once():
        gin = [gm_alloc(k, np.ascontiguousarray(v, dtype=np.float32)) for k, v in inputs.items()]
        gz = gm_alloc("z", n * 4)
        r = launch(row.kernel, 1, [*gin, gz, MicroTiling(row.iters, row.unroll)], name=row.name)
        return r, [gz.buf.data.copy()]
    a, z, stats = _twice(once)
    _expect(stats, batched, *(() if batched else ("a call of statement",)))   # a lambda local of the body
    assert row.check(z.view(np.float32), inputs)[0]
