"""vf_micro kernels: host check against numpy and the instruction mix the vendor rows describe."""
from collections import Counter

import pytest

from operators.simd_vf_story.hostlib import run_module
from operators.vf_micro.registry import VARIANTS
from toolkit.record.events import VfCall

#: per VL chunk, as calibration_vf_micro.csv describes each kernel
MIX = {
    "add": {"RV_VLD": 2, "RV_VADD": 1, "RV_VST": 1},
    "div": {"RV_VLD": 2, "RV_VDIV": 1, "RV_VST": 1},
    "gelu_poly": {"RV_VLD": 1, "RV_VMULS": 3, "RV_VMINS": 1, "RV_VMAXS": 1, "RV_VMUL": 11, "RV_VADDS": 11,
                  "RV_VDIV": 1, "RV_VST": 1},
    "silu": {"RV_VLD": 1, "RV_VMULS": 2, "RV_VEXP": 1, "RV_VADDS": 2, "RV_VDIV": 1, "RV_VMUL": 1, "RV_VST": 1},
    "vadds_longchain": {"RV_VLD": 1, "RV_VADDS": 512, "RV_VST": 1},
    "vexp_longchain": {"RV_VLD": 1, "RV_VEXP": 512, "RV_VST": 1},
}


@pytest.fixture(scope="module")
def runs():
    return {k: run_module(v.module, v.name) for k, v in VARIANTS.items()}


def test_ten_rows():
    assert len(VARIANTS) == 10


@pytest.mark.parametrize("key", list(VARIANTS))
def test_host_check_and_instruction_mix(runs, key):
    r = runs[key]
    assert r.passed, r.check
    vfs = [e for e in r.events if isinstance(e, VfCall)]
    assert len(vfs) == 1
    name = key.split("/")[1]
    kind = next(k for k in MIX if name.startswith(k))
    chunks = int(name.split("_i")[1].split("_")[0])
    unroll = int(name.split("_u")[1]) if "_u" in name else 1
    ops = Counter(i[0] for i in vfs[0].instrs)
    assert ops["RV_VLOOP"] == 1 and ops["ITER"] == chunks // unroll
    assert ops["RV_PSET"] == 1          # one all-lanes mask, created before the loop
    got = {op: n for op, n in ops.items() if op not in ("RV_VLOOP", "ITER", "RV_PSET")}
    assert got == {op: n * chunks for op, n in MIX[kind].items()}
