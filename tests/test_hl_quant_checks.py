"""The quantization family's checks (高阶API/量化操作): host queries against what the kernels take, the temporary
buffer rules, bad parameters and overlaps the pages forbid, zero counts, and an fp8 output that compiles and
runs (the 8- and 4-bit float types are element types). The numeric tests are tests/test_hl_quant.py."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from tests.test_hl_quant import F16, F32, I8, _cfg, _codes, msgs, ref_ascend_quant_half, round_int8, run
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import quant as QN
from toolkit.ascendc.highlevel import quant_common as QC
from toolkit.ascendc.highlevel.shape import TensorShape


def test_host_queries_match_what_the_kernels_take():
    mx, mn = uint32_t(0), uint32_t(0)
    QN.GetQuantizeMaxMinTmpSize(TensorShape([4, 64]), 2, mx, mn)
    assert mx.value == mn.value == 3 * 256 + 128
    QN.GetAscendQuantMaxMinTmpSize(TensorShape([1024]), 2, mx, mn)
    assert (mx.value, mn.value) == (3 * 2048 + 256, 2048)       # max: a bfloat16 source's half copies, fp8 scratch
    QN.GetAscendQuantMaxMinTmpSize(TensorShape([1024]), 4, mx, mn)
    assert mx.value == 3 * 2048 + 256
    QN.GetAscendDequantMaxMinTmpSize(TensorShape([4, 64]), 4, mx, mn)
    assert mx.value == mn.value == 512
    QN.GetDequantizeMaxMinTmpSize(TensorShape([4, 64]), 4, mx, mn)
    assert mx.value == 512
    shape, sshape = TensorShape([8, 64]), TensorShape([1, 64])
    QN.GetAscendAntiQuantMaxMinTmpSize(shape, sshape, False, None, None, mx, mn)
    assert mx.value == mn.value == QN.GetAscendAntiQuantMaxTmpSize(shape, sshape, False, None, None) == \
        QN.GetAscendAntiQuantMinTmpSize(shape, sshape, False, None, None) == 896
    QN.GetAntiQuantizeMaxMinTmpSize(shape, sshape, False, None, None, mx, mn)
    assert mx.value == 896
    live, extra = uint32_t(0), uint32_t(0)
    # maxLiveNodeCount x count x typeSize + extraBuf covers what the kernel takes (count: elements / row length)
    for fn, args, size, count, need in ((QN.GetAscendQuantTmpBufferFactorSize, (), 4, 1024, 3 * 2048 + 256),
                                        (QN.GetAscendQuantTmpBufferFactorSize, (), 2, 1024, 2048),
                                        (QN.GetQuantizeTmpBufferFactorSize, (), 2, 64, 896),
                                        (QN.GetAscendDequantTmpBufferFactorSize, (shape,), 4, 64, 512),
                                        (QN.GetDequantizeTmpBufferFactorSize, (shape,), 4, 64, 512),
                                        (QN.GetAscendAntiQuantTmpBufferFactorSize, (shape, sshape, False, None, None),
                                         1, 64, 896),
                                        (QN.GetAntiQuantizeTmpBufferFactorSize, (shape, sshape, None, None), 1, 64, 896)):
        fn(*args, live, extra)
        assert live.value * count * size + extra.value >= need, fn


def test_quantize_takes_exactly_its_queried_buffer():
    m, n = 4, 64
    x = np.linspace(-50, 50, m * n).astype(F16)
    mx, mn = uint32_t(0), uint32_t(0)
    QN.GetQuantizeMaxMinTmpSize(TensorShape([m, n]), 2, mx, mn)
    cfg = _cfg(QC.TENSOR, False)

    def body(a, o, t):
        QN.Quantize(o, a, _slice(t, mn.value), 1.0, 0.0, QC.QuantizeParams(m, n), config=cfg)
    y, res = run(body, [x], I8, m * n, tmp_bytes=mn.value)
    assert not msgs(res)
    np.testing.assert_array_equal(y, round_int8(x.astype(F32)))
    y, res = run(lambda a, o, t: QN.Quantize(o, a, _slice(t, mn.value - 32), 1.0, 0.0, QC.QuantizeParams(m, n),
                                             config=cfg), [x], I8, m * n)
    assert "BAD_PARAMETER" in _codes(res)


def _slice(t, nbytes: int):
    from toolkit.ascendc.tensor import LocalTensor
    return LocalTensor(t.addr, t.dtype, nbytes, t.position)


def test_framework_buffer_is_a_ub_plan_row():
    x = np.linspace(-5, 5, 256).astype(F32)
    y, res = run(lambda a, o, t: QN.AscendQuant(o, a, 2.0, 0.5), [x], I8, 256)
    assert not msgs(res)
    rows = [e for e in res.cores[0].events if getattr(e, "name", "") == "AscendQuant.tmp"]
    assert rows and rows[0].bytes_each >= 512
    np.testing.assert_array_equal(y, ref_ascend_quant_half(x, 2.0, 0.5))


@pytest.mark.parametrize("case", ["dst_type", "group", "unaligned", "tensor_scale_per_tensor", "cal_multiple",
                                  "policy", "offset_type"])
def test_bad_parameters_are_diagnostics(case):
    x = np.linspace(-5, 5, 256).astype(F16)
    s = np.ones(64, F16)
    if case == "dst_type":
        body, out = (lambda a, sc, o, t: QN.Quantize(o, a, sc, sc, QC.QuantizeParams(4, 64),
                                                     config=_cfg(QC.CHANNEL))), np.uint8
    elif case == "group":
        body, out = (lambda a, sc, o, t: QN.Quantize(o, a, sc, sc, QC.QuantizeParams(4, 64, 48),
                                                     config=_cfg(QC.GROUP, kdim=1))), I8
    elif case == "unaligned":
        body, out = (lambda a, sc, o, t: QN.Quantize(o, a, sc, sc, QC.QuantizeParams(5, 48),
                                                     config=_cfg(QC.CHANNEL))), I8
    elif case == "tensor_scale_per_tensor":
        body, out = (lambda a, sc, o, t: QN.Quantize(o, a, sc, sc, QC.QuantizeParams(4, 64),
                                                     config=_cfg(QC.TENSOR))), I8
    elif case == "cal_multiple":
        body, out = (lambda a, sc, o, t: QN.AscendQuant(o, a, t, sc, sc, 64, 64, 100)), I8
    elif case == "policy":
        body, out = (lambda a, sc, o, t: QN.AscendQuant(o, a, t, sc, sc, QC.AscendQuantParam(4, 64, 256),
                                                        config=_cfg(0), policy=QC.CHANNEL)), I8
    else:
        body, out = (lambda a, sc, o, t: QN.AscendQuant(o, a, t, sc.ReinterpretCast(np.int16), 0.0)), I8
    _, res = run(body, [x, s], out, 256)
    assert "BAD_PARAMETER" in _codes(res)


def test_zero_counts_do_nothing():
    x = np.linspace(-5, 5, 64).astype(F16)
    y, res = run(lambda a, o, t: (QN.AscendQuant(o, a, t, 1.0, 0.0, 0),
                                  QN.Quantize(o, a, 1.0, 0.0, QC.QuantizeParams(0, 64), config=_cfg(QC.TENSOR))),
                 [x], I8, 64)
    assert not msgs(res) and (y == 0).all()


FP8_PROGRAM = """#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fp8_custom(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<half> src = buf.Get<half>();
    Duplicate(src, (half)1.0f, 1024);
    LocalTensor<fp8_e4m3fn_t> dst = buf.Get<uint8_t>()[2048].ReinterpretCast<fp8_e4m3fn_t>();
    AscendQuant<fp8_e4m3fn_t, half>(dst, src, 1.0f, 0.0f, 1024);
}
int main()
{
    uint8_t* d = nullptr;
    aclrtMalloc((void**)&d, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    fp8_custom<<<1, nullptr, nullptr>>>(d);
    return 0;
}
"""


@needs_compiler
def test_an_fp8_output_compiles_and_runs(tmp_path):
    src = tmp_path / "fp8.asc"
    src.write_text(FP8_PROGRAM)
    run_ = build_and_run(src, cache=tmp_path / "cache")
    assert run_.launches_passed, repr(run_.launches)      # the fp8 types are element types now (lowfloat)


def test_overlaps_the_pages_forbid_and_the_in_place_ascend_quant():
    x = np.linspace(-100, 100, 256).astype(F16)
    # AscendQuant: src and dst may be one buffer
    y, res = run(lambda a, o, t: (QN.AscendQuant(a.ReinterpretCast(np.int8), a, t, 0.5, 0.25, 256),
                                  QN.AscendQuant(o, a, 1.0, 0.0, 0) or _copy_i8(o, a)), [x], I8, 256)
    assert not msgs(res)
    np.testing.assert_array_equal(y, ref_ascend_quant_half(x, 0.5, 0.25))
    # Quantize: dst over src is refused; a sharedTmpBuffer over an operand too
    _, res = run(lambda a, o, t: QN.Quantize(a.ReinterpretCast(np.int8), a, t, 1.0, 0.0, QC.QuantizeParams(4, 64),
                                             config=_cfg(QC.TENSOR)), [x], I8, 256)
    assert "BAD_PARAMETER" in _codes(res)
    _, res = run(lambda a, o, t: QN.AscendQuant(o, a, a.ReinterpretCast(np.uint8), 1.0, 0.0), [x], I8, 256)
    assert "BAD_PARAMETER" in _codes(res)


def _copy_i8(o, a):
    from toolkit.ascendc import membase as MB
    MB.Muls(o.ReinterpretCast(np.int16), a.ReinterpretCast(np.int16), 1, 128)
