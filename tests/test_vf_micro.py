"""vf_micro kernels: host check against numpy and the instruction mix the vendor rows describe."""
from collections import Counter

import numpy as np
import pytest

from operators.vf_micro import vfs
from operators.vf_micro.rows import ROWS, run
from toolkit.record.events import VfCall

#: per VL chunk, as the vendor's micro-kernel table describes each kernel
MIX = {
    "add": {"RV_VLD": 2, "RV_VADD": 1, "RV_VST": 1},
    "div": {"RV_VLD": 2, "RV_VDIV": 1, "RV_VST": 1},
    "gelu_poly": {"RV_VLD": 1, "RV_VMULS": 3, "RV_VMINS": 1, "RV_VMAXS": 1, "RV_VMUL": 11, "RV_VADDS": 11,
                  "RV_VDIV": 1, "RV_VST": 1},
    "silu": {"RV_VLD": 1, "RV_VMULS": 2, "RV_VEXP": 1, "RV_VADDS": 2, "RV_VDIV": 1, "RV_VMUL": 1, "RV_VST": 1},
    "vadds_longchain": {"RV_VLD": 1, "RV_VADDS": 512, "RV_VST": 1},
    "vexp_longchain": {"RV_VLD": 1, "RV_VEXP": 512, "RV_VST": 1},
}
BY_NAME = {r.name: r for r in ROWS}


@pytest.fixture(scope="module")
def runs():
    return {r.name: run(r) for r in ROWS}


def test_ten_rows():
    assert len(ROWS) == 10 and len(BY_NAME) == 10


@pytest.mark.parametrize("name", list(BY_NAME))
def test_host_check_and_instruction_mix(runs, name):
    r = runs[name]
    assert r.passed, (r.max_error, r.rule)
    vfcalls = [e for e in r.events if isinstance(e, VfCall)]
    assert len(vfcalls) == 1
    kind = next(k for k in MIX if name.startswith(k))
    chunks = int(name.split("_i")[1].split("_")[0])
    unroll = int(name.split("_u")[1]) if "_u" in name else 1
    assert (BY_NAME[name].iters, BY_NAME[name].unroll) == (chunks, unroll)
    ops = Counter(i[0] for i in vfcalls[0].instrs)
    assert ops["RV_VLOOP"] == 1 and ops["ITER"] == chunks // unroll
    assert ops["RV_PSET"] == 1          # one all-lanes mask, created before the loop
    got = {op: n for op, n in ops.items() if op not in ("RV_VLOOP", "ITER", "RV_PSET")}
    assert got == {op: n * chunks for op, n in MIX[kind].items()}


def test_gelu_reference_is_gelu():
    """The polynomial's reference (erf on the clamped argument) against tanh-free known values: gelu(0) = 0,
    gelu(x) - gelu(-x) = x, and beyond the clamp gelu(x) = x * (1 + erf(3.92)) / 2."""
    x = np.array([0.0, 0.5, 1.0, 2.0, 6.0])
    g = vfs.gelu_reference(x)
    assert g[0] == 0.0
    assert np.allclose(g - vfs.gelu_reference(-x), x, atol=1e-15)
    assert abs(g[2] - 0.8413447460685429) < 1e-12        # 1 * Phi(1)
    assert abs(g[4] - 6.0 * 0.5 * (1.0 + 0.99999997039)) < 1e-9  # erf(3.92) = 0.999999970388...


def test_a_wrong_result_fails_the_check():
    row = BY_NAME["add_i16"]
    inputs = row.inputs()
    good = (inputs["x0"] + inputs["x1"]).astype(np.float32)
    assert row.check(good, inputs)[0]
    bad = good.copy()
    bad[7] += 1e-3
    passed, worst, _ = row.check(bad, inputs)
    assert not passed and abs(worst - 1e-3) < 1e-6
