"""One .asc program (compiled once) over the C++ forms of the system, resource, sync, atomic, scalar and
debug APIs, run on 4 cores in lock-step and serially: the bytes it writes are checked against numpy
references computed from the pages (scalar helpers: the pages' examples; NumericLimits: the pages' bit
tables; the atomic sum over the cores), its device text against the DumpTensor / printf formats, and the
two runs against each other."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler, output_bytes, write
from toolkit.engine.launch import launch_mode

CORES, N = 4, 64

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 64;
constexpr uint32_t INFO = 40;

// the Crd2Idx page's two examples: (1, 2, 3) over shape (3, 4, 5) strides (20, 5, 1) is 33; the linear
// coordinate (11, 12) over the nested shape ((2, 4), (3, 5)) strides ((3, 6), (1, 24)) is 129
static_assert(Crd2Idx(MakeCoord(1, 2, 3), MakeShape(3, 4, 5), MakeStride(20, 5, 1)) == 33);
static_assert(Crd2Idx(MakeCoord(11, 12), MakeLayout(MakeShape(MakeShape(2, 4), MakeShape(3, 5)),
                                                     MakeStride(MakeStride(3, 6), MakeStride(1, 24)))) == 129);
static_assert(MakeLayout(MakeShape(4, 2), MakeStride(4, 1))(MakeCoord(3, 1)) == 13);
static_assert(is_tensorTrait<TensorTrait<float, TPosition::VECIN>>::value && !is_layout<int>::value);
static_assert(sizeof(complex32) == 4 && sizeof(complex64) == 8);

__global__ __aicore__ void sys_kernel(GM_ADDR x, GM_ADDR acc, GM_ADDR y, GM_ADDR info, GM_ADDR limits,
                                      GM_ADDR syncGm)
{
    int64_t c = GetBlockIdx();
    GlobalTensor<float> xg, accg, yg, limg;
    GlobalTensor<int64_t> infog;
    GlobalTensor<int32_t> syncg;
    xg.SetGlobalBuffer((__gm__ float*)x + c * N, N);
    accg.SetGlobalBuffer((__gm__ float*)acc, N);
    yg.SetGlobalBuffer((__gm__ float*)y + c * N, N);
    infog.SetGlobalBuffer((__gm__ int64_t*)info + c * INFO, INFO);
    limg.SetGlobalBuffer((__gm__ float*)limits, 16);
    syncg.SetGlobalBuffer((__gm__ int32_t*)syncGm, 64);

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
    TBufPool<TPosition::VECCALC> pool;
    TBuf<TPosition::VECCALC> calc;
    pipe.InitBuffer(bind, 2, N * sizeof(float));
    pipe.InitBufPool(pool, 4 * N * sizeof(float));
    pool.InitBuffer(calc, 2 * N * sizeof(float));

    LocalTensor<float> in = bind.AllocTensor<float>();
    DataCopy(in, xg, N);
    bind.EnQue(in);
    in = bind.DeQue<float>();
    // operator(): a reference (read and written by the scalar unit), static_cast<float> of it and GetValue
    for (uint32_t i = 0; i < 8; ++i) in(i) = in(i) * 2.0f + 1.0f;
    float first = static_cast<float>(in(0));
    float second = static_cast<float>(in.GetValue(1));
    const LocalTensor<float>& cin = in;                      // through a const tensor, and a half element
    float viaConst = static_cast<float>(cin(0)) + static_cast<float>(cin.GetValue(0));
    float viaHalf = static_cast<float>(in.ReinterpretCast<half>()(0));
    (void)viaConst;
    (void)viaHalf;
    event_t eventId = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(eventId);
    WaitFlag<HardEvent::S_MTE3>(eventId);

    LocalTensor<float> work = calc.Get<float>();
    DataCopy(work, in, N);                                   // UB to UB
    TQueSync<PIPE_V, PIPE_MTE3> vToMte3;
    vToMte3.SetFlag(1);
    vToMte3.WaitFlag(1);
    SetAtomicAdd<float>();
    DataCopy(accg, work, N);                                 // every core adds its row
    DisableDmaAtomic();
    CrossCoreSetFlag<0, PIPE_MTE3>(3);
    CrossCoreWaitFlag(3);
    MutexID mid = AllocMutexID();
    Mutex::Lock<PIPE_MTE2>(mid);
    DataCopy(work[N], accg, N);                              // the sum over the cores
    Mutex::Unlock<PIPE_MTE2>(mid);
    Mutex::Lock<PIPE_MTE3>(mid);
    DataCopy(yg, work[N], N);
    Mutex::Unlock<PIPE_MTE3>(mid);
    ReleaseMutexID(mid);
    bind.FreeTensor(in);

    uint32_t arch = 0;
    GetArchVersion(arch);
    uint16_t atype = 0, aop = 0;
    SetStoreAtomicConfig<AtomicDtype::ATOMIC_BF16, AtomicOp::ATOMIC_SUM>();
    GetStoreAtomicConfig(atype, aop);
    SetAtomicNone();
    int64_t cyc0 = GetSystemCycle();
    int64_t vals[] = {c, GetBlockNum(), GetSubBlockIdx(), GetSubBlockNum(), GetTaskRatio(), GetUBSizeInBytes(),
                      GetRuntimeUBSize(), GetDataBlockSizeInBytes(), (int64_t)arch, GetVecLen(),
                      CountLeadingZero(0x0100000000000020ULL), CountLeadingZero(0),
                      CountBitsCntSameAsSignBit(0x0100000000000020LL), CountBitsCntSameAsSignBit(-1),
                      CountBitsCntSameAsSignBit(1), GetBitCount<1>(0xFFFF), GetBitCount<0>(0xFFFF),
                      GetSFFValue<1>(0x1000000000000100ULL), GetSFFValue<0>(0xFFFFFFFFFFFFFFFFULL),
                      GetSFFValue<0>(0x00FFULL), (int64_t)atype, (int64_t)aop, GetCtrlSpr<6, 8>(),
                      (int64_t)(GetSystemCycle() > cyc0), GetICachePreloadStatus(),
                      (int64_t)NumericLimits<int16_t>::Max(), (int64_t)NumericLimits<int8_t>::Min(),
                      (int64_t)NumericLimits<uint32_t>::Max(), (int64_t)(first * 4), (int64_t)(second * 4),
                      CeilDivision(10, 4), (int64_t)GetShapeSize(ShapeInfo(2, (const uint32_t[]){3, 5}))};
    for (uint32_t k = 0; k < sizeof(vals) / sizeof(vals[0]); ++k) infog.SetValue(k, vals[k]);

    SetCtrlSpr<9, 10>(2);
    int64_t ctrl = GetCtrlSpr<9, 10>();
    ResetCtrlSpr<9, 10>();
    infog.SetValue(32, ctrl * 10 + GetCtrlSpr<9, 10>());
    ClearSpr<SpecialPurposeReg::AR>();
    infog.SetValue(33, GetSpr<SpecialPurposeReg::AR>());
    half h = Cast<float, half, RoundMode::CAST_ODD>(3.14159f);
    infog.SetValue(34, (int64_t)h.bits);
    infog.SetValue(35, (int64_t)Cast(3.14159f).bits);
    infog.SetValue(36, (int64_t)Cast<float, int32_t, RoundMode::CAST_ROUND>(2.5f));
    infog.SetValue(37, (int64_t)Cast<float, int32_t, RoundMode::CAST_RINT>(2.5f));
    infog.SetValue(38, (int64_t)(Cast(Cast(1.5f)) * 2));
    DataCacheCleanAndInvalid<int64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(infog);
    ICachePreLoad(64);
    Nop<10>();

    SyncAll();
    LocalTensor<int32_t> syncUb = calc.Get<int32_t>();
    SyncAll(syncg, syncUb);
    if (c == 0) {
        LocalTensor<float> lim = work[2 * N];
        NumericLimits<float>::QuietNaN(lim, 8);
        NumericLimits<float>::DeNormMin(lim[8], 8);
        DataCopy(limg, lim, 16);
        printf("core %d first %.2f second %.2f\n", (int)c, first, second);
        DumpTensor(work[N], 7, 4);
        uint32_t dims[] = {2, 2};
        DumpTensor(work[N], 8, 4, ShapeInfo(2, dims));
    }
}

int main()
{
    aclInit(nullptr);
    const uint32_t cores = 4;
    std::vector<float> x(cores * N);
    for (uint32_t i = 0; i < x.size(); ++i) x[i] = (float)(i % 13) * 0.5f;
    uint8_t* d[6];
    size_t bytes[6] = {x.size() * 4, N * 4, x.size() * 4, cores * INFO * 8, 64, 256};
    for (int k = 0; k < 6; ++k) {
        aclrtMalloc((void**)&d[k], bytes[k], ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(d[k], bytes[k], 0, bytes[k]);
    }
    aclrtMemcpy(d[0], bytes[0], x.data(), bytes[0], ACL_MEMCPY_HOST_TO_DEVICE);
    sys_kernel<<<cores, nullptr, nullptr>>>(d[0], d[1], d[2], d[3], d[4], d[5]);
    printf("done\n");
    return 0;
}
"""


def _x() -> np.ndarray:
    return (np.arange(CORES * N) % 13).astype(np.float32) * np.float32(0.5)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    src = write(tmp_path_factory.mktemp("sys"), "sys.asc", PROGRAM)
    out = {"lockstep": build_and_run(src)}
    with launch_mode("serial"):
        out["serial"] = build_and_run(src)
    return out


@needs_compiler
@pytest.mark.parametrize("mode", ["lockstep", "serial"])
def test_program_runs_clean(runs, mode):
    run = runs[mode]
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stderr)
    (lr,) = run.launches
    assert lr["diagnostics"] == [] and lr["execution"]["mode"] == mode


@needs_compiler
def test_atomic_sum_and_scalar_element_access(runs):
    got = output_bytes(runs["lockstep"])
    x = _x().reshape(CORES, N)
    x[:, :8] = x[:, :8] * 2 + 1                      # the operator() writes
    want = x.astype(np.float64).sum(axis=0).astype(np.float32)
    y = np.frombuffer(got["y"], np.float32).reshape(CORES, N)
    np.testing.assert_array_equal(y, np.broadcast_to(want, (CORES, N)))


@needs_compiler
def test_system_and_scalar_values_follow_the_pages(runs):
    info = np.frombuffer(output_bytes(runs["lockstep"])["info"], np.int64).reshape(CORES, -1)
    for c in range(CORES):
        x0, x1 = _x()[c * N] * 2 + 1, _x()[c * N + 1] * 2 + 1
        want = [c, CORES, 0, 1, 1, 253952, 253952, 32, 0x3510, 256, 7, 64, 6, -1, 62, 16, 48, 8, -1, 8, 6, 0, 0,
                1, 0, 32767, -128, 4294967295, int(x0 * 4), int(x1 * 4), 3, 15, 20, 0]
        assert list(info[c, :len(want)]) == want
    half_odd = np.float16(3.142578125).view(np.uint16)      # the page: CAST_ODD of 3.14159 gives 3.142578
    assert list(info[0, 34:39]) == [int(half_odd), 0x4049, 3, 2, 3]


@needs_compiler
def test_numeric_limits_vector_forms_keep_the_bits(runs):
    lim = np.frombuffer(output_bytes(runs["lockstep"])["limits"], np.uint32)
    assert list(lim[:8]) == [0x7FC00000] * 8 and list(lim[8:16]) == [1] * 8


@needs_compiler
def test_device_text_is_printed_per_core_at_launch_end(runs):
    out = runs["lockstep"].stdout.splitlines()
    sums = _x().reshape(CORES, N).copy()
    sums[:, :8] = sums[:, :8] * 2 + 1
    s = sums.astype(np.float64).sum(axis=0).astype(np.float32)[:4]
    first = _x()[0] * 2 + 1
    assert out[0] == f"core 0 first {first:.2f} second {_x()[1] * 2 + 1:.2f}"
    assert out[1].startswith("DumpTensor: desc=7, addr=0x") and out[1].endswith("data_type=float32, position=UB, "
                                                                                "dump_size=4")
    assert out[2] == "[" + ", ".join(f"{v:f}" for v in s) + "]"
    assert out[4:6] == [f"[[{s[0]:f},{s[1]:f}],", f"[{s[2]:f},{s[3]:f}]]"]
    assert out[-1] == "done"


@needs_compiler
def test_lockstep_and_serial_runs_agree(runs):
    a, b = (output_bytes(runs[m]) for m in ("lockstep", "serial"))
    assert a == b and runs["lockstep"].stdout == runs["serial"].stdout
