"""GM writer tracking per range (toolkit.engine.gm_writers) answers exactly as a per-byte shadow would, and the
write-conflict diagnostic through real DMA and SetValue calls names the same byte, core and count."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor
from toolkit.engine.gm_writers import GmWriters
from toolkit.engine.launch import gm_alloc, launch
from toolkit.engine.runtime import current

SIZE = 96
writes = st.lists(st.tuples(st.integers(0, SIZE), st.integers(0, 40), st.integers(-1, 3)), max_size=40)


class PerByte:
    """The reference: one int16 writer per byte, as the emulator kept it before."""

    def __init__(self, size: int):
        self.w = np.full(size, -1, dtype=np.int16)

    def others(self, lo: int, hi: int, core: int):
        seg = self.w[lo:hi]
        other = (seg >= 0) & (seg != core)
        if not other.any():
            return None
        first = int(np.argmax(other))
        return lo + first, int(seg[first]), int(other.sum())

    def record(self, lo: int, hi: int, core: int) -> None:
        self.w[lo:hi] = core


@given(writes)
def test_ranges_answer_as_the_per_byte_shadow(ops):
    ranges, ref = GmWriters(SIZE), PerByte(SIZE)
    for lo, n, core in ops:
        hi = min(lo + n, SIZE)
        if core >= 0:
            assert ranges.others(lo, hi, core) == ref.others(lo, hi, core)
        ranges.record(lo, hi, core)
        ref.record(lo, hi, core)
        assert np.array_equal(ranges.array(), ref.w)
    runs = ranges.ranges()
    assert all(a[1] <= b[0] for a, b in zip(runs, runs[1:]))                      # sorted, disjoint
    assert all(not (a[1] == b[0] and a[2] == b[2]) for a, b in zip(runs, runs[1:]))  # merged
    assert all(c >= 0 and s < e for s, e, c in runs)


@given(writes)
def test_claim_answers_as_others_then_records_only_a_write_that_met_no_other_core(ops):
    claimed, ref = GmWriters(SIZE), PerByte(SIZE)
    for lo, n, core in ops:
        core, hi = max(core, 0), min(lo + n, SIZE)
        hit = ref.others(lo, hi, core)
        assert claimed.claim(lo, hi, core) == hit
        if hit is None:
            ref.record(lo, hi, core)
        assert np.array_equal(claimed.array(), ref.w)



@given(writes, st.integers(1, 12))
def test_claim_rows_stops_at_the_first_row_that_meets_another_core(ops, n):
    rows, one = GmWriters(SIZE), GmWriters(SIZE)
    offsets, cores = [lo for lo, _, _ in ops], [max(c, 0) for _, _, c in ops]
    k = 0
    while k < len(offsets):
        j, hit = rows.claim_rows(offsets, n, cores, k)
        want = next(((i, h) for i in range(k, len(offsets))
                     if (h := one.claim(offsets[i], offsets[i] + n, cores[i])) is not None), (len(offsets), None))
        assert (j, hit) == want and rows.ranges() == one.ranges()
        if j < len(offsets):                      # the caller resolves the conflict: here, the row wins
            rows.record(offsets[j], offsets[j] + n, cores[j])
            one.record(offsets[j], offsets[j] + n, cores[j])
        k = j + 1


def test_one_run_per_writer_and_the_array_views():
    w = GmWriters(1 << 20)
    for row in range(1024):                         # 1024 rows of 1 KiB, 4 cores writing 256 rows each
        w.record(row * 1024, (row + 1) * 1024, row // 256)
    assert w.ranges() == [(k * 256 * 1024, (k + 1) * 256 * 1024, k) for k in range(4)]
    assert w[262143:262145].tolist() == [0, 1]
    assert bool((w >= 0).all()) and np.asarray(w).dtype == np.int16
    w[:] = -1                                       # a new launch forgets every writer
    assert w.ranges() == [] and not (w[10:] >= 0).any()


def _copy_out_kernel(rows_per_core: int, overlap: int):
    """Each core writes ``rows_per_core`` rows of 64 B (a SetValue of its first byte, then a DataCopyPad
    of the row), starting ``overlap`` rows into its left neighbour's."""

    def kernel(out):
        ctx = current()
        g = GlobalTensor(np.uint8)
        g.SetGlobalBuffer(out)
        start = ctx.core_id * (rows_per_core - overlap)
        for r in range(rows_per_core):
            ctx.ub.write(r * 64, np.full(64, r, dtype=np.uint8))
            g.SetValue((start + r) * 64, ctx.core_id)
            DataCopyPad(g[(start + r) * 64], LocalTensor(r * 64, np.uint8, 64), DataCopyExtParams(1, 64, 0, 0, 0))
    return kernel


def test_conflicts_through_dma_name_the_first_byte_its_writer_and_the_count():
    out = gm_alloc("out", 64 * 12)
    res = launch(_copy_out_kernel(5, 2), 3, [out])
    conflicts = [d for d in res.diagnostics if d.code == "GM_WRITE_CONFLICT"]
    # core 1 starts at row 3, written by core 0: its SetValue hits byte 192, its DataCopyPad the 63
    # bytes after it (byte 192 is its own by then); core 2 repeats both at row 6 (counted, not repeated)
    assert sorted((d.address, d.size, d.core, d.occurrences) for d in conflicts) == [(192, 1, 1, 4),
                                                                                    (193, 63, 1, 4)]
    assert all("already written by core 0" in d.message for d in conflicts)
    assert out.buf.writer.ranges() == [(0, 192, 0), (192, 384, 1), (384, 64 * 11, 2)]
    assert out.buf.data[190:194].tolist() == [2, 2, 0, 0]       # row 2 of core 0, row 0 of core 1


def _bump_first_row(inp, out):
    g, o = GlobalTensor(np.uint8), GlobalTensor(np.uint8)
    g.SetGlobalBuffer(inp)
    o.SetGlobalBuffer(out)
    o.SetValue(0, g.GetValue(0))
    if current().core_id == 1:
        g.SetValue(3, 99)


@pytest.mark.parametrize("cores", [1, 2])
def test_a_shared_input_is_copied_only_when_a_kernel_writes_it(cores):
    data = np.arange(16, dtype=np.uint8).reshape(4, 4)
    inp, out = gm_alloc("inp", data, share=True), gm_alloc("out", 4)
    launch(_bump_first_row, cores, [inp, out])
    assert out.buf.data[0] == 0 and data.tolist() == np.arange(16).reshape(4, 4).tolist()
    assert np.shares_memory(inp.buf.data, data) == (cores == 1)       # read only: never copied
    assert inp.buf.data[3] == (99 if cores == 2 else 3)
