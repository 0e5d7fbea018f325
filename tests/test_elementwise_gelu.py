"""operators/elementwise/gelu_tanh.py (the bench's real-shape elementwise kernel) at small shapes: the
emulated kernel equals its numpy op chain bit for bit, the chain is GeLU (float64 definition), and the
lock-step run equals the serial reference."""
from __future__ import annotations

import numpy as np
import pytest

from operators.elementwise import gelu_tanh as G
from toolkit.engine.launch import gm_alloc, launch


def run(x: np.ndarray, cores: int, mode: str = "lockstep"):
    rows, cols = x.shape
    tiling = G.make_tiling(rows, cols, cores)
    gy = gm_alloc("y", x.nbytes)
    res = launch(G.gelu_tanh, G.block_num(tiling), [gm_alloc("x", x, share=True), gy, tiling], mode=mode)
    return gy.buf.as_array(np.float32).reshape(rows, cols).copy(), res


@pytest.mark.parametrize("rows,cols,cores", [(8, 512, 4), (7, 200, 3)])   # 200: a partial last VL chunk
def test_kernel_equals_its_numpy_chain_bit_for_bit(rows, cols, cores):
    x = G.gen_x(rows, cols, seed=rows)
    y, res = run(x, cores)
    assert not res.aborted and not res.diagnostics.errors() and len(res.cores) == G.block_num(
        G.make_tiling(rows, cols, cores))
    assert np.array_equal(y.view(np.uint32), G.golden(x).view(np.uint32))


def test_chain_is_gelu_and_saturates():
    x = np.concatenate([G.gen_x(4, 1024).ravel(), np.float32([-30, -9, 0, 9, 30])])
    g = G.golden(x).astype(np.float64)
    assert np.max(np.abs(g - G.reference(x))) < 2e-6
    assert g[-5:].tolist() == [0.0, 0.0, 0.0, 9.0, 30.0]       # both tanh ends exact in fp32


def test_lockstep_equals_serial():
    x = G.gen_x(6, 256, seed=3)
    (a, ra), (b, rb) = run(x, 3), run(x, 3, mode="serial")
    assert np.array_equal(a.view(np.uint32), b.view(np.uint32))
    assert [len(c.events) for c in ra.cores] == [len(c.events) for c in rb.cores]
