"""Every simd_vf_story variant passes its host check, with the launch structure of the vendor sample."""
from __future__ import annotations

import functools
import importlib

import pytest

from operators.simd_vf_story.hostlib import run_module
from operators.simd_vf_story.registry import FAMILIES, VARIANTS
from toolkit.record.events import BufferInit, Dma, VfCall

#: VF launches per run from the spec (asc_vf_call sites x trips; VF_REPEAT = 5 for elemwise/reduce)
EXPECTED_VF_LAUNCHES = {
    "tail_axis_1_naive_getvalue": 17, "tail_axis_2_distbrc": 1,
    "head_axis_1_naive": 17, "head_axis_2_vfloop_nm": 1, "head_axis_3_vfloop_mn": 1,
    "mid_axis_1_naive": 24, "mid_axis_2_vfloop_nb": 8, "mid_axis_3_vfloop_bn": 8,
    "mid_axis_4_vfloop_mbn": 1, "mid_axis_5_vfloop_mnb": 1,
}


@functools.lru_cache(maxsize=None)
def run(key: str):
    v = VARIANTS[key]
    return run_module(v.module, v.name)


def test_registry_has_the_26_vendor_variants():
    assert len(VARIANTS) == 26
    assert FAMILIES == ("broadcast", "elemwise", "reduce")
    counts = {f: sum(v.family == f for v in VARIANTS.values()) for f in FAMILIES}
    assert counts == {"broadcast": 10, "elemwise": 3, "reduce": 13}


@pytest.mark.parametrize("key", list(VARIANTS))
def test_module_layout(key):
    v = VARIANTS[key]
    mod = importlib.import_module(v.module)
    assert callable(mod.KERNEL) and mod.KERNEL.__name__ == v.name
    assert hasattr(mod.HOST, "case") and hasattr(mod.HOST, "check")


@pytest.mark.parametrize("key", list(VARIANTS))
def test_host_check_passes(key):
    r = run(key)
    assert r.passed, (r.check, [d.one_line() for d in r.diagnostics])
    assert len(r.diagnostics) == 0
    assert not r.launch.aborted


@pytest.mark.parametrize("key", list(VARIANTS))
def test_launch_structure(key):
    v, r = VARIANTS[key], run(key)
    vfs = [e for e in r.events if isinstance(e, VfCall)]
    expected = EXPECTED_VF_LAUNCHES.get(v.name, 5)
    assert len(vfs) == expected
    assert all(vf.launch == "asc_vf_call" for vf in vfs)
    assert len({vf.name for vf in vfs}) == 1
    # one tile, TQue depth 1 (no double buffer), within the default UB budget
    plan = [e for e in r.events if isinstance(e, BufferInit)]
    assert plan and all(p.kind == "TQue" and p.depth == 1 and p.num == 1 for p in plan)
    assert sum(p.bytes_each for p in plan) <= r.launch.machine.ub_budget_bytes
    # CopyIn before the first VF, CopyOut after the last one
    kinds = [("in" if e.direction == "GM2UB" else "out") if isinstance(e, Dma) else "vf"
             for e in r.events if isinstance(e, (Dma, VfCall))]
    assert kinds[0] == "in" and kinds[-1] == "out"
    assert "in" not in kinds[kinds.index("vf"):] and "out" not in kinds[:len(kinds) - kinds[::-1].index("vf")]


@pytest.mark.parametrize("key", [k for k in VARIANTS if k.endswith("_pragma")])
def test_pragma_variants_carry_the_unroll_hint(key):
    vfs = [e for e in run(key).events if isinstance(e, VfCall)]
    assert all(vf.meta.get("unroll_hints") and set(vf.meta["unroll_hints"]) == {4} for vf in vfs)
    base = run(key.replace("_pragma", "_baseline"))
    base_vf = next(e for e in base.events if isinstance(e, VfCall))
    assert [i[0] for i in vfs[0].instrs] == [i[0] for i in base_vf.instrs]


def test_broadcast_rows_are_copied_row_by_row_into_32b_slots():
    r = run("broadcast/mid_axis_3_vfloop_bn")
    dma_in = [e for e in r.events if isinstance(e, Dma) and e.direction == "GM2UB"]
    assert len(dma_in) == 8 * 3 + 8
    assert all(e.nbytes == 653 * 4 and e.ub_addr % 32 == 0 for e in dma_in)


def test_reduce_rows_land_in_256_float_slots():
    r = run("reduce/reduce_sum_ar_binary")
    dma_in = [e for e in r.events if isinstance(e, Dma) and e.direction == "GM2UB"]
    assert len(dma_in) == 78
    assert [e.ub_addr - dma_in[0].ub_addr for e in dma_in[:3]] == [0, 1024, 2048]
