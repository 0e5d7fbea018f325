"""Helpers of the HTML report, sweep and advisor tests: a small tiled .asc program whose ``TILE`` macro moves
its UB plan and cycles (and past the budget), the CLI run in process, and a parser of a page's sections
(for the checks that need no browser)."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from html.parser import HTMLParser
from pathlib import Path

from tests.asc_support import write
from toolkit.cli import main

TILED = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
#ifndef TILE
#define TILE 256
#endif
#ifndef N
#define N 4096
#endif

__simd_vf__ inline void ScaleVF(__ubuf__ float* z, __ubuf__ float* x, uint32_t n, uint16_t loops)
{
    AscendC::Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < loops; ++i) {
        AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
        AscendC::Reg::LoadAlign(v, x + i * 64);
        AscendC::Reg::Muls(v, v, 2.0f, m);
        AscendC::Reg::StoreAlign(z + i * 64, v, m);
    }
}

extern "C" __global__ __aicore__ void tiled_scale(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> qin;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> qout;
    pipe.InitBuffer(qin, 2, TILE * sizeof(float));
    pipe.InitBuffer(qout, 2, TILE * sizeof(float));
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    zg.SetGlobalBuffer((__gm__ float*)z, n);
    for (uint32_t off = 0; off < n; off += TILE) {
        auto t = qin.AllocTensor<float>();
        AscendC::DataCopy(t, xg[off], TILE);
        qin.EnQue(t);
        t = qin.DeQue<float>();
        auto o = qout.AllocTensor<float>();
        ScaleVF((__ubuf__ float*)o.GetPhyAddr(), (__ubuf__ float*)t.GetPhyAddr(), TILE, (uint16_t)((TILE + 63) / 64));
        qin.FreeTensor(t);
        qout.EnQue(o);
        o = qout.DeQue<float>();
        AscendC::DataCopy(zg[off], o, TILE);
        qout.FreeTensor(o);
    }
}

int main(int argc, char** argv)
{
    uint32_t n = N;
    std::vector<float> x(n), z(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = (float)i;
    uint8_t *dx, *dz;
    aclrtMalloc((void**)&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dz, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    tiled_scale<<<1, nullptr, nullptr>>>(dx, dz, n);
    aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) bad += z[i] != 2.0f * x[i];
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
"""


def tiled_programs(root: Path) -> tuple[Path, Path]:
    """Two copies of the tiled program (``a/tiled.asc``, ``b/tiled.asc``) under a sample root."""
    write(root, "CMakeLists.txt", "# sample root\n")
    return write(root, "a/tiled.asc", TILED), write(root, "b/tiled.asc", TILED)


def cli(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``migrate-check ARGS`` in process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def cli_json(*args: str) -> tuple[int, dict]:
    code, out, err = cli(*args, "--json", "-")
    assert out, err
    return code, json.loads(out)


class Sections(HTMLParser):
    """Section ids in page order, their text (SVG text included), and every src/href/action value."""

    def __init__(self, text: str):
        super().__init__()
        self.order: list[str] = []
        self.text: dict[str, list[str]] = {}
        self.links: list[str] = []
        self.meta: list[dict] = []
        self.svgs: dict[str, int] = {}
        self._cur: str | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self._cur = a.get("id")
            self.order.append(self._cur)
            self.text[self._cur] = []
        if tag == "svg" and self._cur:
            self.svgs[self._cur] = self.svgs.get(self._cur, 0) + 1
        if tag == "meta":
            self.meta.append(a)
        self.links += [v for k, v in attrs if k in ("src", "href", "action", "xlink:href") and v]

    def handle_endtag(self, tag):
        if tag == "section":
            self._cur = None

    def handle_data(self, data):
        if self._cur and data.strip():
            self.text[self._cur].append(data.strip())

    def of(self, sid: str) -> str:
        return "\n".join(self.text[sid])
