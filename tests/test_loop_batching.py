"""Batched hardware loops (toolkit/ascendc/regbase/loopbatch.py: a VLOOP body run once over all its
iterations) equal the iteration-by-iteration reference (``loop_batching(False)``) exactly, on kernels
written to break batching and on the shipped kernels: the same output bytes, per-core event streams,
aborts, diagnostics and cycles; and the launch statistics say which loops batched and why others did not."""
from __future__ import annotations

import numpy as np
import pytest

from tests.loop_batching_support import (  # noqa: F401 (the autouse fixture)
    CARRIED,
    UB_FLOATS,
    VL,
    _expect,
    _f,
    _fresh_refusals,
    _run,
    _stats,
    _twice,
    tile_kernel,
)
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.regbase import loopbatch
from toolkit.ascendc.regbase.loopbatch import loop_batching
from toolkit.engine.launch import gm_alloc, launch

# -- 1. an elementwise chain over many VL chunks, a tail chunk from UpdateMask -------------------
@Reg.__simd_vf__
def ChainVF(dst, src, n, loops, last):
    x, y, e = Reg.RegTensor[float](), Reg.RegTensor[float](), Reg.RegTensor[float]()
    one = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    Reg.Duplicate(one, 1.0)
    remaining = uint32_t(n)
    for i in Reg.VLOOP(loops):
        m = Reg.UpdateMask[float](remaining)
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Mul(y, x, x, m)
        Reg.Adds(y, y, 1.0, m)
        Reg.Exp(e, x, m)
        Reg.Div(y, e, y, m)
        Reg.Sub(y, y, one, m)
        Reg.Muls(y, y, 0.5, m)
        Reg.Maxs(y, y, -0.25, m)
        Reg.StoreAlign[float](dst + i * VL, y, m)
    Reg.StoreAlign[float](last, y, full)          # after the loop: the last iteration's register


def chain_body(core, xp, yp, n, rows):
    loops = (n + VL - 1) // VL
    for r in range(rows):                         # the same VF (and addresses) again: cached records
        ChainVF(yp, xp, n, loops, yp + loops * VL)


@pytest.mark.parametrize("cores,mode", [(1, "lockstep"), (3, "lockstep"), (8, "lockstep"), (3, "serial")])
def test_elementwise_chain_with_a_tail_batches(cores, mode):
    n = 1000                                      # 16 chunks, the last one 40 lanes
    a, x, y, stats = _run(chain_body, cores, n, n + 24 + VL, n, 2, mode=mode)
    _expect(stats, True)
    assert not a.diagnostics.errors() and not a.aborted
    want = np.maximum((np.exp(x) / (x * x + _f(1)) - _f(1)) * _f(0.5), _f(-0.25))
    assert np.array_equal(y[:, :n], want)
    tail = n % VL                                 # the register after the loop: the tail chunk's lanes
    assert np.array_equal(y[:, n + 24:n + 24 + tail], want[:, n - tail:])


# -- 2. an accumulator carried across iterations --------------------------------------------------
@Reg.__simd_vf__
def AccVF(dst, src, loops):
    acc, x = Reg.RegTensor[float](), Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    Reg.Duplicate(acc, 0.0)
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Add(acc, acc, x, full)
    Reg.StoreAlign[float](dst + VL, acc, full)
    Reg.ReduceSum(acc, acc, full)
    Reg.StoreAlign[float](dst, acc, full)


@pytest.mark.parametrize("cores", [1, 3, 8])
def test_accumulator_runs_as_a_chain_and_equals(cores):
    a, x, y, stats = _run(lambda c, xp, yp: AccVF(yp, xp, 12), cores, 12 * VL, 2 * VL)
    _expect(stats, True)
    lanes = x.reshape(cores, 12, VL).sum(axis=1, dtype=np.float32)
    assert np.allclose(y[:, VL:], lanes, rtol=1e-5)
    assert np.allclose(y[:, 0], lanes.sum(axis=1), rtol=1e-4, atol=1e-4)


@Reg.__simd_vf__
def AccTailVF(dst, src, loops, n, merging, twice):  # an accumulator under each chunk's UpdateMask
    acc, x = Reg.RegTensor[float](), Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    Reg.Duplicate(acc, 0.0)
    count = uint32_t(n)
    for i in Reg.VLOOP(loops):
        m = Reg.UpdateMask[float](count)
        Reg.LoadAlign[float](x, src + i * VL)
        if merging:
            Reg.Max[float, Reg.MaskMergeMode.MERGING](acc, acc, x, m)
        else:
            Reg.Max(acc, acc, x, m)
        if twice:
            Reg.Adds(acc, acc, 1.0, full)
    Reg.StoreAlign[float](dst, acc, full)


@pytest.mark.parametrize("merging,twice,why", [
    (True, False, ()),                                                  # a chain: batched
    (False, False, ("zeroed in ZEROING mode",)),                        # the serial run warns: refused
    (True, True, ("written twice",))])
def test_accumulator_under_a_tail_mask(merging, twice, why):
    a, x, y, stats = _run(lambda c, xp, yp: AccTailVF(yp, xp, 6, 6 * VL - 24, merging, twice), 3, 6 * VL, VL)
    _expect(stats, not why, *why)
    if merging and not twice:
        x3 = x.reshape(3, 6, VL)
        want = np.maximum(x3[:, :5].max(axis=1), np.where(np.arange(VL) < VL - 24, x3[:, 5], -np.inf))
        assert np.array_equal(y, np.maximum(want, 0).astype(np.float32))


# -- 3. masks that change per iteration ----------------------------------------------------------
@Reg.__simd_vf__
def IndexMaskVF(dst, src, loops, n):
    x = Reg.RegTensor[float]()
    for i in Reg.VLOOP(loops):
        m = Reg.UpdateMask[float](uint32_t(i * 5 + 1))         # 1, 6, 11, ... lanes
        m2 = Reg.UpdateMask[float](n - i * VL)                   # a plain Iv count: the tail in the last
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Muls(x, x, 3.0, m2)
        Reg.StoreAlign[float](dst + i * VL, x, m)


@Reg.__simd_vf__
def TwoMasksOneCountVF(dst, src, loops, n):
    x = Reg.RegTensor[float]()
    remaining = uint32_t(n)
    for i in Reg.VLOOP(loops):
        m0 = Reg.UpdateMask[float](remaining)                    # two chunks per iteration
        m1 = Reg.UpdateMask[float](remaining)
        Reg.LoadAlign[float](x, src + i * 2 * VL)
        Reg.StoreAlign[float](dst + i * 2 * VL, x, m0)
        Reg.LoadAlign[float](x, src + i * 2 * VL + VL)
        Reg.StoreAlign[float](dst + i * 2 * VL + VL, x, m1)


@pytest.mark.parametrize("cores", [1, 3])
def test_masks_from_the_index(cores):
    loops, n = 12, 12 * VL - 20
    a, x, y, stats = _run(lambda c, xp, yp: IndexMaskVF(yp, xp, loops, n), cores, loops * VL, loops * VL)
    _expect(stats, True)
    x3, y3 = x.reshape(cores, loops, VL), y.reshape(cores, loops, VL)
    for k in range(loops):
        on = min(k * 5 + 1, VL)
        scaled = x3[:, k] * _f(3)
        if k == loops - 1:
            scaled[:, VL - 20:] = 0                               # zeroing: lanes off in m2
        assert np.array_equal(y3[:, k, :on], scaled[:, :on])
        assert np.array_equal(y3[:, k, on:], x3[:, k, on:])       # y began as a copy of x


def test_count_decremented_twice_per_iteration_falls_back():
    n = 7 * VL + 9
    a, x, y, stats = _run(lambda c, xp, yp: TwoMasksOneCountVF(yp, xp, 4, n), 3, 8 * VL, 8 * VL)
    _expect(stats, False, "a count decremented more than once per iteration")
    assert np.array_equal(y, x)


@Reg.__simd_vf__
def PsetAfterPltVF(dst, src, loops, n):          # reduce_*_ra's shape: UpdateMask, then an unmasked op
    x, y = Reg.RegTensor[float](), Reg.RegTensor[float]()
    remaining = uint32_t(n)
    for i in Reg.VLOOP(loops):
        m = Reg.UpdateMask[float](remaining)
        Reg.Duplicate(y, 1.5)                                    # no mask: a PSET, made once (iteration 0)
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Add(x, x, y, m)
        Reg.StoreAlign[float](dst + i * VL, x, m)



def test_pset_made_in_the_body_after_a_plt():
    n = 6 * VL - 24
    a, x, y, stats = _run(lambda c, xp, yp: PsetAfterPltVF(yp, xp, 6, n), 3, 6 * VL, 6 * VL)
    assert np.array_equal(y[:, :n], x[:, :n] + _f(1.5))


# -- 4./5./8. one chunk per iteration: dst[to(i)] = op(src[at(i)]), offsets in floats --------------
@Reg.__simd_vf__
def MapVF(dst, src, loops, at, to, op):
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + at(i))
        op(x, i, full)
        Reg.StoreAlign[float](dst + to(i), x, full)


def _scale2(x, i, m):
    Reg.Muls(x, x, 2.0, m)
    Reg.Adds(x, x, 1.0, m)


def _branch(x, i, m):
    if i == 0:
        Reg.Muls(x, x, 10.0, m)


LOGGED: list = []


def _logged(x, i, m):                            # a side effect in a called function
    LOGGED.append(i)
    Reg.Muls(x, x, -3.0, m)


CHUNK, S2 = (lambda i: i * VL), (lambda v, k: v * _f(2) + _f(1))
IV_VALUE = "the loop index is used as one Python value"
#: name: (in place, at, to, op, numpy of (chunk, k), batched, serial reason)
MAPS = {
    "recurrence": (True, CHUNK, lambda i: (i + 1) * VL, _scale2, S2, False, "a store feeds a later iteration's load"),
    "in_place": (True, CHUNK, CHUNK, _scale2, S2, True, None),
    "shift_down": (True, lambda i: (i + 1) * VL, CHUNK, _scale2, S2, True, None),
    "permuted": (False, CHUNK, lambda i: ((i % 5) * 2 + i // 5) * VL, _scale2, S2, False, "not evenly spaced"),
    "reversed": (False, CHUNK, lambda i: (9 - i) * VL, _scale2, S2, False, "not evenly spaced"),
    "overlapping": (False, CHUNK, lambda i: (i // 2) * VL, _scale2, S2, False, "stores of two iterations overlap"),
    "branch": (False, CHUNK, CHUNK, _branch, lambda v, k: v * _f(10) if k == 0 else v, False, IV_VALUE),
    "adds_index": (False, CHUNK, CHUNK, lambda x, i, m: Reg.Adds(x, x, i * 1.0, m), lambda v, k: v + _f(k),
                   False, IV_VALUE),
    "dup_index": (False, CHUNK, CHUNK, lambda x, i, m: Reg.Duplicate(x, i * 0.25, m),
                  lambda v, k: np.full_like(v, k * 0.25), False, IV_VALUE),
    "neg": (False, CHUNK, CHUNK, lambda x, i, m: Reg.Neg(x, x, m), lambda v, k: -v, False, "has no batched form"),
}


def _map_ref(x, in_place, at, to, f, loops):
    y = x.copy()
    src = y if in_place else x
    for k in range(loops):
        y[:, to(k):to(k) + VL] = f(src[:, at(k):at(k) + VL].copy(), k)
    return y


@pytest.mark.parametrize("cores", [1, 3, 8])
@pytest.mark.parametrize("name", list(MAPS))
def test_map(name, cores):
    in_place, at, to, op, f, batched, why = MAPS[name]
    loops = 10

    def body(c, xp, yp):
        MapVF(yp, yp if in_place else xp, loops - in_place, at, to, op)
    a, x, y, stats = _run(body, cores, loops * VL, loops * VL)
    _expect(stats, batched, *(() if why is None else (why,)))
    assert np.array_equal(y, _map_ref(x, in_place, at, to, f, loops - in_place))


def test_side_effect_in_a_called_function():
    LOGGED.clear()
    a, x, y, stats = _run(lambda c, xp, yp: MapVF(yp, xp, 6, CHUNK, CHUNK, _logged), 1, 6 * VL, 6 * VL)
    assert np.array_equal(y, -3 * x)
    assert all(type(v) is int for v in LOGGED), LOGGED             # batched: [Iv[0..5]] once
    assert LOGGED == [0, 1, 2, 3, 4, 5] * 2


@Reg.__simd_vf__
def SideEffectVF(dst, src, loops, got):
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        got.append(i)
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.StoreAlign[float](dst + i * VL, x, full)


def test_side_effect_on_a_list_falls_back():
    lists = []

    def body(c, xp, yp):
        lists.append([])
        SideEffectVF(yp, xp, 6, lists[-1])
    a, x, y, stats = _run(body, 1, 6 * VL, 6 * VL)
    _expect(stats, False, "a call on got (list)")
    assert np.array_equal(y, x) and lists == [[0, 1, 2, 3, 4, 5]] * 2


@Reg.__simd_vf__
def BreakVF(dst, src, loops, stop):              # Python leaves the loop at iteration ``stop``
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Muls(x, x, 3.0, full)
        Reg.StoreAlign[float](dst + i * VL, x, full)
        if stop >= 0:
            break


def test_a_body_that_leaves_the_loop_runs_serially():
    a, x, y, stats = _run(lambda c, xp, yp: BreakVF(yp, xp, 6, 0), 3, 6 * VL, 6 * VL)
    _expect(stats, False, "a break out of the loop")
    assert np.array_equal(y[:, :VL], 3 * x[:, :VL])


def test_a_loop_left_early_in_its_batched_body_is_undone_and_rerun():
    """The static look refused, a body left early still gives the serial run's bytes and records."""
    from toolkit.ascendc.regbase import loopsource
    real = loopsource.loop_facts.__wrapped__

    def blind(code, line):                       # as if the source had no break
        f = real(code, line)
        return loopsource.LoopFacts(None, f.outlive, f.callees)
    loopbatch.loop_facts = blind
    try:
        a, x, y, stats = _run(lambda c, xp, yp: BreakVF(yp, xp, 6, 0), 3, 6 * VL, 6 * VL)
    finally:
        loopbatch.loop_facts = loopsource.loop_facts
    _expect(stats, False, "the body leaves the loop early")
    assert np.array_equal(y[:, :VL], 3 * x[:, :VL])


@Reg.__simd_vf__
def StoreThenLoadVF(dst, src, tmp, loops):       # a scratch chunk stored then loaded in one iteration
    x, y = Reg.RegTensor[float](), Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Adds(x, x, 1.0, full)
        Reg.StoreAlign[float](tmp + i * VL, x, full)
        Reg.LoadAlign[float](y, tmp + i * VL)
        Reg.StoreAlign[float](dst + i * VL, y, full)


@Reg.__simd_vf__
def TwoLoopsVF(dst, src, loops):                 # the second loop reads what the first stored
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Muls(x, x, 2.0, full)
        Reg.StoreAlign[float](dst + i * VL, x, full)
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, dst + i * VL)
        Reg.Adds(x, x, 1.0, full)
        Reg.StoreAlign[float](src + i * VL, x, full)


def test_store_then_load_in_one_iteration_falls_back():
    a, x, y, stats = _run(lambda c, xp, yp: StoreThenLoadVF(yp, xp, yp + 8 * VL, 8), 3, 16 * VL, 16 * VL)
    _expect(stats, False, "a load of bytes the body stored")
    assert np.array_equal(y[:, :8 * VL], x[:, :8 * VL] + _f(1))


def test_second_loop_after_stores_in_the_vf_runs_serially():
    a, x, y, stats = _run(lambda c, xp, yp: TwoLoopsVF(yp, xp, 6), 3, 6 * VL, 6 * VL)
    _expect(stats, True, "UB stored earlier in the VF instance")
    assert np.array_equal(y, x * _f(2))


# -- 5. i % 5, i // 5 and pointers; Python locals carried across iterations or read after the loop ---
@Reg.__simd_vf__
def ModDivVF(dst, src, loops):
    x, y = Reg.RegTensor[float](), Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + (i % 5) * VL)              # loads repeat: not evenly spaced
        Reg.LoadAlign[float](y, src + (5 + i // 5) * VL)
        Reg.Sub(x, x, y, full)
        p = dst + i * VL
        Reg.StoreAlign[float](p + 0, x, full)


@Reg.__simd_vf__
def CarriedPointerVF(dst, src, loops):
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    p, q = src, dst
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, p)
        Reg.Muls(x, x, 4.0, full)
        Reg.StoreAlign[float](q, x, full)
        p = p + VL
        q = q + VL


@Reg.__simd_vf__
def LocalAfterLoopVF(dst, src, loops):           # a body local read after the loop
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        last = dst + i * VL
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.StoreAlign[float](last, x, full)
    Reg.Muls(x, x, 2.0, full)
    Reg.StoreAlign[float](last + VL, x, full)


@Reg.__simd_vf__
def IndexAfterLoopVF(dst, src, loops):           # Python keeps the loop variable: i == loops - 1 after
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.StoreAlign[float](dst + i * VL, x, full)
    Reg.Muls(x, x, 2.0, full)
    Reg.StoreAlign[float](dst + (i + 1) * VL, x, full)


@pytest.mark.parametrize("cores", [1, 3, 8])
def test_mod_div_addresses_batch(cores):
    a, x, y, stats = _run(lambda c, xp, yp: ModDivVF(yp, xp, 20), cores, 10 * VL, 20 * VL)
    _expect(stats, True)
    x3 = x.reshape(cores, 10, VL)
    want = np.stack([x3[:, k % 5] - x3[:, 5 + k // 5] for k in range(20)], axis=1)
    assert np.array_equal(y.reshape(cores, 20, VL), want)


def test_carried_python_local_falls_back():
    a, x, y, stats = _run(lambda c, xp, yp: CarriedPointerVF(yp, xp, 8), 3, 8 * VL, 8 * VL)
    _expect(stats, False, "loop-carried Python local(s) p, q")
    assert np.array_equal(y, x * _f(4))


@pytest.mark.parametrize("vf", [LocalAfterLoopVF, IndexAfterLoopVF])
def test_local_read_after_the_loop(vf):
    """A local of the body (or the loop variable) read after the loop holds its last iteration's value."""
    a, x, y, stats = _run(lambda c, xp, yp: vf(yp, xp, 6), 3, 8 * VL, 8 * VL)
    _expect(stats, True)
    assert np.array_equal(y[:, :7 * VL], np.concatenate([x[:, :6 * VL], x[:, 5 * VL:6 * VL] * _f(2)], axis=1))


@Reg.__simd_vf__
def DeclaredInBodyVF(dst, src, start, stop):     # C++'s RegTensor<float> x; inside the loop
    for i in Reg.VLOOP(start, stop):
        x, y = Reg.RegTensor[float](), Reg.RegTensor[float]()
        m = Reg.UpdateMask[float](uint32_t(40))
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Exp(y, x, m)
        Reg.StoreAlign[float](dst + i * VL, y, m)
    Reg.StoreAlign[float](dst, x, m)             # the last iteration's registers after the loop


@pytest.mark.parametrize("stop,spill", [(9, False), (43, True)])
def test_registers_declared_in_the_body(stop, spill):
    a, x, y, stats = _run(lambda c, xp, yp: DeclaredInBodyVF(yp, xp, 3, stop), 3, 44 * VL, 44 * VL)
    _expect(stats, True)
    assert [d.code for d in a.diagnostics] == ["REGISTER_SPILL"] * spill
    y3, x3 = y.reshape(3, 44, VL), x.reshape(3, 44, VL)
    assert np.array_equal(y3[:, 4:stop, :40], np.exp(x3[:, 4:stop, :40]))
    assert np.array_equal(y3[:, 0, :40], x3[:, stop - 1, :40])


# -- 6. cores that diverge: other trip counts, scalars and addresses -------------------------------
@Reg.__simd_vf__
def ScaleVF(dst, src, loops, factor):
    x = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(loops):
        Reg.LoadAlign[float](x, src + i * VL)
        Reg.Muls(x, x, factor, full)
        Reg.StoreAlign[float](dst + i * VL, x, full)


def diverge_body(core, xp, yp, cores):
    rows = 6 if core < cores - 1 else 2            # the last core has fewer rows
    ScaleVF(yp, xp, rows, 1.0 + core)
    if core % 2:                                   # odd cores scale again, one chunk further on
        ScaleVF(yp + VL, yp + VL, rows - 1, 0.5)
    n = 6 * VL - 7 if core < cores - 1 else 6 * VL - 30          # same trips, other tails
    ChainVF(yp + 6 * VL, xp, n, 6, yp + 12 * VL)


@pytest.mark.parametrize("cores,why", [(3, ()), (8, ("lock-step cores that are not consecutive rows",))])
def test_diverging_cores_batch(cores, why):
    a, x, y, stats = _run(diverge_body, cores, 6 * VL, 13 * VL, cores)
    _expect(stats, True, *why)                     # 8 cores: odd cores 1, 3, 5 run the second VF together
    for c in range(cores):
        rows = 6 if c < cores - 1 else 2
        want = x[c].copy()
        want[:rows * VL] *= _f(1 + c)
        if c % 2:
            want[VL:rows * VL] *= _f(0.5)
        assert np.array_equal(y[c, :6 * VL], want), c


# -- 7. out of bounds or misaligned in some iterations only -----------------------------------------
def bad_body(core, xp, yp, cores, kind):
    if core != cores - 1:                          # (the good cores are consecutive rows: they batch)
        ScaleVF(yp, xp, 4, 2.0)
    elif kind == "oob":                            # iteration 3 stores past the end of UB
        ScaleVF(yp + (UB_FLOATS - yp.addr // 4 - 3 * VL), xp, 4, 2.0)
    else:                                          # iterations >= 1 load at 264-byte steps
        MapVF(yp, xp, 4, lambda i: i * 66, CHUNK, _scale2)


@pytest.mark.parametrize("cores", [1, 3, 8])
@pytest.mark.parametrize("kind,code", [("oob", "UB_OUT_OF_BOUNDS"), ("misaligned", "UB_MISALIGNED")])
def test_bad_access_in_one_iteration_reports_as_serial(cores, kind, code):
    a, x, y, stats = _run(bad_body, cores, 4 * VL, 4 * VL, cores, kind)
    diags = [d for d in a.diagnostics if d.severity == "error"]
    assert [d.code for d in diags] == [code] and diags[0].cores == [cores - 1], [d.to_json() for d in diags]
    assert diags[0].file.endswith("test_loop_batching.py")
    assert [c.core for c in a.cores if c.aborted] == [cores - 1]
    _expect(stats, cores > 1, "an iteration is out of bounds or misaligned")
    assert np.array_equal(y[:-1], x[:-1] * _f(2))


# -- 8. nested loops: the outer batched, the inner sequential over its rows --------------------------
@Reg.__simd_vf__
def NestedVF(dst, src, rows, cols, stride, loops):
    """RmsNormVF's shape: per row (outer loop), a sum of squares over its chunks (inner loop, the
    accumulator reset per row), reduced and broadcast, then a second inner loop scaling the row."""
    x, acc, brc = Reg.RegTensor[float](), Reg.RegTensor[float](), Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for r in Reg.VLOOP(rows):
        Reg.Duplicate(acc, 0.0, full)
        remaining = uint32_t(cols)
        for i in Reg.VLOOP(loops):
            m = Reg.UpdateMask[float](remaining)
            Reg.LoadAlign[float](x, src + r * stride + i * VL)
            Reg.Mul(x, x, x, m)                            # (zeroing: the tail lanes are 0)
            Reg.Add(acc, acc, x, full)
        Reg.ReduceSum(acc, acc, full)
        Reg.Duplicate[float, Reg.HighLowPart.LOWEST](brc, acc, full)
        remaining = uint32_t(cols)
        for i in Reg.VLOOP(loops):
            m = Reg.UpdateMask[float](remaining)
            Reg.LoadAlign[float](x, src + r * stride + i * VL)
            Reg.Mul(x, x, brc, m)
            Reg.StoreAlign[float](dst + r * stride + i * VL, x, m)


@pytest.mark.parametrize("cores", [1, 3, 8])
def test_nested_loops_outer_batched(cores):
    rows, cols, stride = 6, 200, 256
    a, x, y, stats = _run(lambda c, xp, yp: NestedVF(yp, xp, rows, cols, stride, 4), cores, rows * stride,
                          rows * stride)
    _expect(stats, True)
    x3, y3 = x.reshape(cores, rows, stride), y.reshape(cores, rows, stride)
    s = (x3[:, :, :cols] ** 2).sum(axis=2, keepdims=True)
    assert np.allclose(y3[:, :, :cols], x3[:, :, :cols] * s, rtol=1e-5)
    assert np.array_equal(y3[:, :, cols:], x3[:, :, cols:])


# -- the switch itself ---------------------------------------------------------------------------
@pytest.mark.parametrize("cores,mode", [(1, "lockstep"), (3, "serial"), (3, "lockstep")])
def test_loop_batching_off_reaches_every_core(cores, mode):
    x = np.zeros(cores * 4 * VL, np.float32)
    with loop_batching(False):
        r = launch(tile_kernel, cores, [gm_alloc("x", x), gm_alloc("y", x.nbytes), 4 * VL, 4 * VL,
                                        lambda c, xp, yp: ScaleVF(yp, xp, 4, 2.0)], mode=mode)
    assert not _stats(r), _stats(r)
