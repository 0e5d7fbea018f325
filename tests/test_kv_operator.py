"""KvRmsNormRopeCache under the host side: tiling, golden gate, bit-level claims, cache scatter, UB plan,
largest ubFactor, envelope rules and what forced out-of-envelope runs report."""
from __future__ import annotations

import math

import numpy as np
import pytest

from operators.kv_rms_norm_rope_cache import gen_data, host, membase, regbase
from operators.kv_rms_norm_rope_cache.gen_data import bf16_bits_to_fp32 as dec
from operators.kv_rms_norm_rope_cache.gen_data import fp32_to_bf16_bits as enc
from operators.kv_rms_norm_rope_cache.tiling import BuildTiling
from toolkit.record.events import Dma

SHAPES = {"sample": host.KvParams(), "tail": host.KvParams(batch=3, seq=100, ub_factor=5, cores=7)}
BACKENDS = ("membase", "regbase")
KERNELS = {"membase": membase.KernelKvRmsNormRopeCache, "regbase": regbase.KernelKvRmsNormRopeCache}
BUDGET = 253952
RECIP, EPS = np.float32(1) / np.float32(512), np.float32(1e-5)


@pytest.fixture(scope="module")
def case():
    cache: dict = {}

    def get(shape: str) -> dict:
        if shape not in cache:
            p = SHAPES[shape]
            cache[shape] = gen_data.generate(p.batch, p.seq, p.dv, p.dk, p.epsilon, p.seed)
        return cache[shape]
    return get


@pytest.fixture(scope="module")
def run(machine, case):
    """Each distinct (shape, backend) runs once per module."""
    cache: dict = {}

    def get(shape: str, backend: str) -> host.BackendRun:
        if (shape, backend) not in cache:
            cache[shape, backend] = host.run_backend(backend, SHAPES[shape], case(shape), machine)
        return cache[shape, backend]
    return get


def tiles_by_hand(total: int, cores: int, ub: int) -> tuple[int, int, int, list[list[int]]]:
    """kv spec 2 by hand: blockFactor, blockNum, ubFactor and each block's tile sizes."""
    bf = -(-total // cores)
    bn = -(-total // bf)
    u = min(ub, bf)
    blocks = []
    for i in range(bn):
        rows = min(bf, total - i * bf)
        blocks.append([u] * (rows // u) + ([rows % u] if rows % u else []))
    return bf, bn, u, blocks


# -- tiling -----------------------------------------------------------------------------------------

def test_tiling_sample_by_hand(machine):
    assert machine.aiv_cores == 56
    t = host.make_tiling(SHAPES["sample"], machine)
    # 1024 rows / 56 cores: 56*18 = 1008 < 1024 -> 19; 19*53 = 1007 < 1024 -> 54 blocks; min(8, 19) = 8
    assert (t.totalRows, t.blockFactor, t.blockNum, t.ubFactor) == (1024, 19, 54, 8)
    assert t.reciprocal == 1 / 512 and t.epsilon == float(np.float32(1e-5))
    assert (t.seqLength, t.cacheLength, t.dv, t.dk, t.numHead) == (128, 128, 512, 128, 1)
    assert t == BuildTiling(8, 1, 128, 512, 128, 56)
    bf, bn, u, blocks = tiles_by_hand(1024, 56, 8)
    assert (bf, bn, u) == (19, 54, 8)
    assert blocks[0] == [8, 8, 3] and blocks[-1] == [8, 8, 1]        # 1024 - 53*19 = 17 rows


def test_tiling_tail_by_hand(machine):
    t = host.make_tiling(SHAPES["tail"], machine)
    # 300 rows / 7 cores: ceil = 43; 43*6 = 258 < 300 -> 7 blocks; last block 42 rows; ubFactor 5
    assert (t.totalRows, t.blockFactor, t.blockNum, t.ubFactor) == (300, 43, 7, 5)
    _, _, _, blocks = tiles_by_hand(300, 7, 5)
    assert blocks[0] == [5] * 8 + [3] and blocks[6] == [5] * 8 + [2]
    assert BuildTiling(1, 1, 3, 512, 128, 56, ub_factor=8).ubFactor == 1    # capped by blockFactor 1


@pytest.mark.parametrize("shape", SHAPES)
def test_each_core_walks_the_hand_computed_tiles(run, shape):
    r = run(shape, "regbase")
    t = r.tiling
    _, bn, _, blocks = tiles_by_hand(t.totalRows, SHAPES[shape].cores or 56, SHAPES[shape].ub_factor)
    assert len(r.launch.cores) == bn
    for core, expected in zip(r.launch.cores, blocks):
        x_copies = [e.bursts for e in core.events if isinstance(e, Dma) and e.gm == "kv" and e.burst_len == 2 * t.dv]
        assert x_copies == expected, core.core


# -- golden gate ------------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", SHAPES)
def test_backend_matches_golden(run, shape, backend):
    r = run(shape, backend)
    assert r.passed and list(r.launch.diagnostics) == []
    for name, c in r.checks.items():
        assert c.errors == 0 and c.max_diff <= host.TOLERANCE and c.precision == 100.0, name
        assert c.lines[-1].startswith(f"{name} precision 100.000000%, errors 0, max diff ")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", SHAPES)
def test_rope_outputs_equal_golden_bits(run, case, shape, backend):
    """RoPE is the same fp32 arithmetic in both ports and the golden (real*cos - imag*sin equals
    real*cos + (-imag)*sin exactly): k_out and k_cache are bit-identical, not just within tolerance."""
    r = run(shape, backend)
    for name in ("k_out", "k_cache"):
        assert np.array_equal(r.outputs[name], case(shape)[f"output/{name}_golden"].ravel()), name


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    def key(bits):
        v = bits.astype(np.int32)
        return np.where(v & 0x8000, 0x8000 - v, v)
    return np.abs(key(a) - key(b))


@pytest.mark.parametrize("shape", SHAPES)
def test_regbase_v_out_within_one_bf16_ulp(run, case, shape):
    """Reciprocal-multiply and another summation order may move the last bf16 bit, never more."""
    got = run(shape, "regbase").outputs["v_out"]
    assert _ulps(got, case(shape)["output/v_out_golden"].ravel()).max() <= 1


# -- independent recomputation of both compute orders -----------------------------------------------

def _tree(a: np.ndarray) -> np.ndarray:
    while a.shape[-1] > 1:
        a = a[..., 0::2] + a[..., 1::2]
    return a[..., 0]


def membase_rms(x: np.ndarray) -> np.ndarray:
    """kv spec 5: 8 chunks of 64 folded pairwise 8->4->2->1, then an adjacent-pair tree of 64 lanes."""
    sq = x * x
    c = [sq[..., k * 64:(k + 1) * 64] for k in range(8)]
    s = _tree(((c[0] + c[1]) + (c[2] + c[3])) + ((c[4] + c[5]) + (c[6] + c[7])))
    return np.sqrt(s * RECIP + EPS)


def membase_v(x: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    return enc((x / membase_rms(x)[..., None]) * gamma)


def regbase_v(x: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """kv spec 6: lane-wise running sum over the chunks, ReduceSum tree, 1/rms, x*inv*gamma."""
    sq = x * x
    acc = np.zeros(x.shape[:-1] + (64,), np.float32)
    for k in range(x.shape[-1] // 64):
        acc = acc + sq[..., k * 64:(k + 1) * 64]
    inv = np.float32(1) / np.sqrt(_tree(acc) * RECIP + EPS)
    return enc((x * inv[..., None]) * gamma)


def membase_k(rope: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    h = rope.shape[-1] // 2
    real, imag = rope[..., 0::2], rope[..., 1::2]
    y0 = np.concatenate([real * cos[..., :h], imag * cos[..., h:]], -1)
    y1 = np.concatenate([-imag * sin[..., :h], real * sin[..., h:]], -1)
    return enc(y0 + y1)


def test_membase_sample_rows_recomputed_bit_for_bit(run, case):
    c = case("sample")
    rows = [0, 7, 8, 18, 19, 1006, 1007, 1023]           # tile and block edges
    kv = dec(c["input/kv"]).reshape(1024, 640)[rows]
    out = run("sample", "membase").outputs
    assert np.array_equal(out["v_out"].reshape(1024, 512)[rows], membase_v(kv[:, :512], dec(c["input/gamma"])))
    cos, sin = (dec(c[f"input/{n}"]).reshape(1024, 128)[rows] for n in ("cos", "sin"))
    assert np.array_equal(out["k_out"].reshape(1024, 128)[rows], membase_k(kv[:, 512:], cos, sin))


def designed_rows(count: int = 8):
    """Rows whose bf16 v_out depends on the summation order. Chunk 0 holds a value B, chunks 1-6 values
    whose squares sit near half an ulp of B*B (so rounding depends on the order), chunk 7 probes of
    ~2**-80 whose squares underflow to 0: the probes leave every sum alone, and for each row we pick a
    (probe, gamma) pair whose output rounds differently under the MemBase, golden and RegBase orders."""
    rng = np.random.default_rng(2026)
    grid = dec(np.arange(0x3000, 0x3A00, dtype=np.uint16))
    small = grid[(grid * grid > 0.2 * 2.0 ** -24) & (grid * grid < 3 * 2.0 ** -24)]
    big = dec(enc(rng.uniform(0.5, 2.0, 2000).astype(np.float32)))
    x = np.zeros((2000, 512), np.float32)
    x[:, :64] = big[:, None]
    x[:, 64:448] = dec(enc(rng.choice(small, (2000, 384)) * big[:, None]))
    r_mem = membase_rms(x)
    r_gold = np.sqrt(np.mean(x * x, axis=-1) + EPS)
    r_inv = np.float32(1) / np.sqrt(_tree(sum(np.split(x * x, 8, -1))) * RECIP + EPS)
    probes = dec(np.arange(0x1780, 0x1800, dtype=np.uint16))
    gammas = dec(np.arange(0x3ECC, 0x3F9A, dtype=np.uint16))       # bf16 in [0.4, 1.2]
    gamma = dec(enc(rng.uniform(0.4, 1.2, 512).astype(np.float32)))
    chosen = []
    for r in np.flatnonzero(r_mem != r_gold):
        m = enc(probes[:, None] / r_mem[r] * gammas)
        hit = np.argwhere((m != enc(probes[:, None] / r_gold[r] * gammas))
                          & (m != enc(probes[:, None] * r_inv[r] * gammas)))
        if hit.size:
            col = 448 + len(chosen)
            x[r, col], gamma[col] = probes[hit[0, 0]], gammas[hit[0, 1]]
            chosen.append(r)
            if len(chosen) == count:
                return x[chosen], gamma
    raise AssertionError("no order-sensitive rows found")


def test_summation_orders_recomputed_bit_for_bit_on_order_sensitive_rows(machine):
    x, gamma = designed_rows()
    c = gen_data.generate(1, 8, 512, 128)
    kv = dec(c["input/kv"]).copy()
    kv[0, 0, :, :512] = x
    c["input/kv"], c["input/gamma"] = enc(kv), enc(gamma)
    golden = enc(gen_data.rms_norm(kv[..., :512], gamma, 1e-5))
    c["output/v_out_golden"] = golden
    c["output/v_cache_golden"] = golden.copy()                    # index = arange(8)
    p = host.KvParams(batch=1, seq=8, cores=1)                    # one tile of 8 rows
    mem = host.run_backend("membase", p, c, machine)
    reg = host.run_backend("regbase", p, c, machine)
    want_mem, want_reg = membase_v(x, gamma), regbase_v(x, gamma)
    assert np.array_equal(mem.outputs["v_out"].reshape(8, 512), want_mem)
    assert np.array_equal(reg.outputs["v_out"].reshape(8, 512), want_reg)
    # the recomputations discriminate: each row has an element where the three orders disagree
    for a, b in ((want_mem, golden.reshape(8, 512)), (want_mem, want_reg)):
        assert (a != b).any(axis=1).all()
    assert mem.passed and reg.passed                              # 1-ulp differences stay inside 6e-2


# -- cache scatter ----------------------------------------------------------------------------------

def scatter_reference(out: np.ndarray, index: np.ndarray, cache_len: int) -> np.ndarray:
    b_, n_, s_, d = out.shape
    cache = np.zeros((b_, n_, cache_len, d), np.uint16)
    for b in range(b_):
        for s in range(s_):
            if index[b, s] >= 0:
                cache[b, :, index[b, s]] = out[b, :, s]
    return cache


def scatter_case(index: np.ndarray) -> dict:
    c = gen_data.generate(2, 16, 512, 128)
    c["input/index"] = index
    for k in ("k", "v"):
        c[f"output/{k}_cache_golden"] = scatter_reference(c[f"output/{k}_out_golden"], index, 16)
    return c


# 32 tokens over 5 cores (blockFactor 7, tiles 3+3+1): block 2 straddles the batch boundary
SCATTER = host.KvParams(batch=2, seq=16, cores=5, ub_factor=3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cache_scatter_with_negative_index(machine, backend):
    rng = np.random.default_rng(5)
    index = np.stack([rng.permutation(16), rng.permutation(16)]).astype(np.int64)
    index[0, [1, 4, 9]] = [-1, -7, -100]
    index[1, [0, 15]] = -1
    c = scatter_case(index)
    r = host.run_backend(backend, SCATTER, c, machine)
    assert r.passed and list(r.launch.diagnostics) == []
    for k, d in (("k", 128), ("v", 512)):
        cache = r.outputs[f"{k}_cache"].reshape(2, 16, d)
        out = r.outputs[f"{k}_out"].reshape(2, 16, d)
        assert _ulps(out, c[f"output/{k}_out_golden"].reshape(2, 16, d)).max() <= 1   # always written
        for b in range(2):
            hit = index[b][index[b] >= 0]
            for s in range(16):
                if index[b, s] >= 0:
                    assert np.array_equal(cache[b, index[b, s]], out[b, s])
            untouched = np.setdiff1d(np.arange(16), hit)
            assert len(untouched) == (3 if b == 0 else 2) and not cache[b, untouched].any()


def test_duplicate_cache_rows_across_cores_fail_the_gate(machine):
    """Two cores writing one cache row is a race on hardware: the golden (last writer) may match, but
    the GM_WRITE_CONFLICT error alone fails the run."""
    index = np.tile(np.arange(16), 2).reshape(2, 16).astype(np.int64)
    index[1, 3] = 12                                              # tokens (1,3) and (1,12) -> row 12
    r = host.run_backend("regbase", SCATTER, scatter_case(index), machine)
    assert all(c.passed for c in r.checks.values())
    assert {d.code for d in r.launch.diagnostics} == {"GM_WRITE_CONFLICT"} and not r.passed


# -- UB plan ----------------------------------------------------------------------------------------

PLAN = {
    "membase": [("gammaQueue", "VECIN", 1, 3072), ("inQueue", "VECIN", 2, 10240), ("cosSinQueue", "VECIN", 2, 4096),
                ("outQueue", "VECOUT", 2, 8192), ("wsBuffer", "VECCALC", 1, 81920)],
    "regbase": [("gammaQueue", "VECIN", 1, 1024), ("inQueue", "VECIN", 2, 10240), ("cosSinQueue", "VECIN", 2, 4096),
                ("outQueue", "VECOUT", 2, 8192)],
}


def align(n: int, nbytes: int) -> int:
    return math.ceil(n * nbytes / 32) * 32


def plan_by_formula(backend: str, u: int, dv: int = 512, dk: int = 128) -> list[tuple]:
    gamma = align(dv, 4) + align(dv, 2) if backend == "membase" else align(dv, 2)
    rows = [("gammaQueue", "VECIN", 1, gamma), ("inQueue", "VECIN", 2, u * align(dv + dk, 2)),
            ("cosSinQueue", "VECIN", 2, u * align(2 * dk, 2)), ("outQueue", "VECOUT", 2, u * align(dv, 2))]
    if backend == "membase":
        rows.append(("wsBuffer", "VECCALC", 1, u * (3 * dv + 8 * dk) * 4))
    return rows


@pytest.mark.parametrize("backend,total", [("membase", 130048), ("regbase", 46080)])
def test_ub_plan_rows_at_the_sample(run, backend, total):
    ub = run("sample", backend).ub
    assert ub.buffers == [{"name": n, "position": pos, "num": k, "bytes_each": b, "bytes": k * b}
                          for n, pos, k, b in PLAN[backend]]
    assert PLAN[backend] == plan_by_formula(backend, 8)
    assert (ub.total_bytes, ub.budget_bytes, ub.fits) == (total, BUDGET, True)
    assert ub.percent == pytest.approx(100 * total / BUDGET)
    first = [e for e in run("sample", backend).launch.cores[0].plan]
    assert all(c.plan == first for c in run("sample", backend).launch.cores)     # same Init on every core


@pytest.mark.parametrize("backend", BACKENDS)
def test_ub_plan_rows_at_the_tail(run, backend):
    rows = [(b["name"], b["position"], b["num"], b["bytes_each"]) for b in run("tail", backend).ub.buffers]
    assert rows == plan_by_formula(backend, 5)


@pytest.mark.parametrize("backend,per_row,gamma,largest", [("membase", 15872, 3072, 15), ("regbase", 5632, 1024, 44)])
def test_largest_ub_factor_and_its_formula(run, machine, backend, per_row, gamma, largest):
    plan = plan_by_formula(backend, 1)
    assert plan[0][3] == gamma and sum(k * b for _, _, k, b in plan[1:]) == per_row
    assert (BUDGET - gamma) // per_row == largest
    assert gamma + per_row * largest <= BUDGET < gamma + per_row * (largest + 1)
    assert run("sample", backend).ub.max_ub_factor == largest
    p = SHAPES["sample"]
    assert host.max_ub_factor(KERNELS[backend], p, machine) == largest
    assert host.plan_fits(KERNELS[backend], p, machine, largest)[0]
    assert not host.plan_fits(KERNELS[backend], p, machine, largest + 1)[0]


# -- envelope ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("backend,kw,expected", [
    ("membase", {}, []), ("regbase", {}, []),
    ("membase", {"dv": 576}, ["dv = 576"]), ("membase", {"dk": 64}, ["dk = 64"]),
    ("membase", {"dv": 256, "dk": 64}, ["dv = 256", "dk = 64"]),
    ("regbase", {"dv": 576}, []), ("regbase", {"dv": 64, "dk": 32}, []), ("regbase", {"dk": 126}, ["dk = 126"]),
    ("regbase", {"dk": 130}, ["dk = 130"]), ("regbase", {"dv": 520}, ["dv = 520"]),
    ("regbase", {"dv": 520, "dk": 160}, ["dk = 160", "dv = 520"]),
    ("membase", {"num_head": 2}, ["num_head = 2"]), ("regbase", {"num_head": 3}, ["num_head = 3"]),
])
def test_envelope_violations(backend, kw, expected):
    found = host.envelope_violations(backend, host.KvParams(**kw))
    assert len(found) == len(expected)
    for line, what in zip(found, expected):
        assert line.startswith(what + ":")
    if "dv = 520" in expected:
        assert "ZEROING" in found[-1]


def forced(machine, backend: str, **kw) -> host.BackendRun:
    p = host.KvParams(**{"batch": 1, "seq": 16, **kw})
    return host.run_backend(backend, p, host.load_case(p, None), machine)


def codes(r: host.BackendRun) -> dict[str, str]:
    return {d.code: d.severity for d in r.launch.diagnostics}


def errors(r: host.BackendRun) -> dict[str, int]:
    return {n: c.errors for n, c in r.checks.items()}


def test_forced_regbase_dv576_is_inside_the_envelope_and_passes(machine):
    r = forced(machine, "regbase", dv=576, cores=2)              # tiles of 8 rows
    assert r.passed and codes(r) == {}


def test_forced_regbase_dv520_zeroing_drops_lanes_and_rows_misalign(machine):
    """dv = 520 leaves an 8-lane last chunk: the ZEROING Add wipes 56 lanes of the running sum (warning),
    rms comes out too small and every v value is off; with several rows per tile the row stride of
    1040 B also breaks the 32 B alignment of LoadAlign/StoreAlign (fatal UB_MISALIGNED)."""
    r = forced(machine, "regbase", dv=520, cores=2)
    assert codes(r) == {"ZEROING_ACCUMULATOR": "warning", "DATACOPY_TRUNCATED": "warning",
                        "UB_MISALIGNED": "error"} and not r.passed
    zeroing = next(d for d in r.launch.diagnostics if d.code == "ZEROING_ACCUMULATOR")
    assert "8-lane mask: 56 lane(s)" in zeroing.message and zeroing.file.endswith("regbase.py")


def test_forced_regbase_dv520_one_row_tiles(machine):
    """One row per tile keeps addresses aligned; the ZEROING warning stays, and gamma's DataCopy of
    1040 B moves whole 32 B granules only, so the last 8 gamma values are never loaded (UNDEFINED_READ
    on the v copies: a warning, copying never-written bytes out is legal; the golden gate fails on the
    values). RoPE is untouched."""
    r = forced(machine, "regbase", dv=520)
    assert codes(r) == {"ZEROING_ACCUMULATOR": "warning", "DATACOPY_TRUNCATED": "warning",
                        "UNDEFINED_READ": "warning"} and not r.passed
    e = errors(r)
    assert e["k_out"] == e["k_cache"] == 0 and e["v_out"] > 0.9 * 16 * 520


def test_forced_membase_dv576_is_silently_wrong_and_only_the_golden_gate_catches_it(machine):
    """The folds and the Div repeat still cover 512 values: no diagnostic at all, v is wrong."""
    r = forced(machine, "membase", dv=576, cores=2)
    e = errors(r)
    assert codes(r) == {} and e["v_out"] > 0 and e["k_out"] == 0 and not r.passed


def test_forced_membase_dk64_breaks_only_with_several_rows_per_tile(machine):
    """The RoPE repeat strides assume 128-wide rows: with one row per tile dk = 64 happens to work;
    with 8 rows the second half of every row is never written."""
    assert forced(machine, "membase", dk=64).passed
    r = forced(machine, "membase", dk=64, cores=2)
    assert codes(r) == {"UNDEFINED_READ": "warning"} and errors(r)["k_out"] > 0 and errors(r)["v_out"] == 0
    assert not r.passed                                   # the golden gate fails on the undefined k values


def test_regbase_dk126_is_refused_and_forced_misaligns(machine):
    """RopeVF loads cos/sin halves at +dk/2 and rows at row*dk with aligned loads, so it also needs
    dk % 32 == 0 (an envelope rule); forced anyway, the run says so (UB_MISALIGNED)."""
    assert "dk % 32" in host.envelope_violations("regbase", host.KvParams(dk=126))[0]
    r = forced(machine, "regbase", dk=126, cores=2)
    assert codes(r) == {"UB_MISALIGNED": "error"} and not r.passed


def test_forced_num_head_2_reads_index_out_of_bounds(machine):
    r = forced(machine, "regbase", num_head=2, seq=4)
    assert codes(r) == {"GM_OUT_OF_BOUNDS": "error"} and not r.passed
    assert all(d.extra.get("gm") == "index" for d in r.launch.diagnostics)
