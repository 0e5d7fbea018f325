"""Constructs the reference pages' examples (调用示例) use that our headers lacked, found by
scripts/api_examples.py: the whole-tensor operator forms (``dst = src0 + src1``, ``dst = src0 < src1``) and the
srcGap/dstGap spelling of DataCopyParams' strides, a literal of another type as Swish's scalar. Syntax-only compiles in the tests' own words, plus one .asc
program that runs the forms and checks them against its own golden."""
from __future__ import annotations

import subprocess
from pathlib import Path

from tests.asc_support import build_and_run, needs_compiler
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE

HERE = Path(__file__).parent

FORMS = r"""
#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
void whole_tensor(LocalTensor<T> out, LocalTensor<T> x, LocalTensor<T> y, LocalTensor<uint8_t> bits)
{
    out = x + y;
    out = x - y;
    out = x * y;
    out = x / y;
    bits = x < y;
    bits = x > y;
    bits = x <= y;
    bits = x >= y;
    bits = x == y;
    bits = x != y;
}
void bitwise(LocalTensor<uint16_t> out, LocalTensor<uint16_t> x, LocalTensor<uint16_t> y)
{
    out = x & y;
    out = x | y;
}
void gaps(LocalTensor<half> ub, GlobalTensor<half> gm)
{
    DataCopyParams p;
    p.blockCount = 4;
    p.blockLen = 2;
    p.srcGap = 3;
    p.dstGap = 1;
    DataCopyParams q(4, 2, 3, 1);
    DataCopy(ub, gm, p);
    DataCopy(gm, ub, q);
    static_assert(sizeof(DataCopyParams) == 4 * sizeof(uint16_t));
}
void literal_scalar(LocalTensor<half> h, LocalTensor<float> f)
{
    Swish(h, h, 64, -1.25);          // a double literal for the half tensors' beta
    Swish(f, f, 64, 2);              // an int literal for float
}
template void whole_tensor<float>(LocalTensor<float>, LocalTensor<float>, LocalTensor<float>, LocalTensor<uint8_t>);
template void whole_tensor<half>(LocalTensor<half>, LocalTensor<half>, LocalTensor<half>, LocalTensor<uint8_t>);
"""


def _syntax(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    src = tmp_path / "forms.cpp"
    src.write_text(text, encoding="utf-8")
    cmd = [*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)


@needs_compiler
def test_operator_forms_and_gap_names_compile(tmp_path):
    done = _syntax(tmp_path, FORMS)
    assert done.returncode == 0, done.stderr[-4000:]


@needs_compiler
def test_gap_and_stride_name_the_same_member(tmp_path):
    text = FORMS + r"""
int main() { AscendC::DataCopyParams p; p.srcGap = 7; p.dstStride = 5; return p.srcStride == 7 && p.dstGap == 5 ? 0 : 1; }
"""
    done = _syntax(tmp_path, text)
    assert done.returncode == 0, done.stderr[-4000:]


@needs_compiler
def test_operator_forms_run(tmp_path):
    run_ = build_and_run(HERE / "examples" / "tensor_operators.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout
