"""One host + kernel program in the C API style (``#include "c_api/asc_simd.h"``, UB by
asc_get_phy_buf_addr, explicit synchronisation) that uses most C-API families (data movement in every
layout, the loop and padding registers, the NDDMA, sort / transpose / 5HD, the DMA and scalar atomics,
the bit operations, system values, the cross-core counters), run by ``migrate-check run`` as a user runs
it: its own check (against values the host computes from the pages' formulas) must print PASS, with no
error diagnostic; and its Python port (the same calls on the Python route) writes the same bytes and
records the same events on both cores."""
from __future__ import annotations

import json

import numpy as np
import pytest

from tests.asc_support import (
    build_and_run,
    event_key,
    needs_compiler,
    output_bytes,
    write,
)
from toolkit.asc.rewrite import rewrite
from toolkit.ascendc import capi as C
from toolkit.ascendc import capi_sync as S
from toolkit.ascendc import capi_vec as V
from toolkit.ascendc.sync import PipeType as P
from toolkit.ascendc.system import GetBlockIdx
from toolkit.ascendc.tensor import GmPtr, UbPtr
from toolkit.cli import main
from toolkit.engine.launch import gm_alloc, launch, launch_mode

PROGRAM = r"""
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t N = 64;          // floats per block
constexpr int BLOCKS = 2;
constexpr int NRES = 24;            // scalar results per block

__aicore__ inline __ubuf__ uint8_t* ub_at(uint64_t offset) { return (__ubuf__ uint8_t*)asc_get_phy_buf_addr(offset); }

extern "C" __global__ __aicore__ void capi_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR rows, GM_ADDR pads,
                                                  GM_ADDR loops, GM_ADDR sorted, GM_ADDR trans, GM_ADDR sum,
                                                  GM_ADDR res, GM_ADDR idx, GM_ADDR nds)
{
    asc_init();
    int64_t blk = asc_get_block_idx();
    __ubuf__ float* a = (__ubuf__ float*)ub_at(0);
    __ubuf__ float* b = (__ubuf__ float*)ub_at(1024);
    __ubuf__ float* c = (__ubuf__ float*)ub_at(2048);
    // element-wise: out = x + y
    asc_copy_gm2ub(a, (__gm__ float*)x + blk * N, N * sizeof(float));
    asc_copy_gm2ub_align_sync(b, (__gm__ float*)y + blk * N, N * sizeof(float));
    asc_sync_mte2(0);
    asc_add_sync(c, a, b, N);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm((__gm__ float*)out + blk * N, c, N * sizeof(float));
    // strided rows: 4 rows of 40 B, 48 B apart in GM, 64 B apart in UB, written back packed
    __ubuf__ uint8_t* r = ub_at(4096);
    asc_sync_mte3(1);
    asc_copy_gm2ub(r, (__gm__ uint8_t*)x + blk * 256, 4, 40, 48, 64);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
    asc_copy_ub2gm((__gm__ uint8_t*)rows + blk * 160, r, 4, 40, 40, 64);
    // padded blocks: 2 x 20 int16 with 2 left and 2 right elements of -1, then the whole 2 x 32 B back
    __ubuf__ int16_t* p = (__ubuf__ int16_t*)ub_at(8192);
    asc_set_copy_pad_val((int16_t)-1);
    asc_copy_gm2ub_align(p, (__gm__ int16_t*)y + blk * 64, 2, 40, 2, 2, true,
                         asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM, 40, 64);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID2);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID2);
    asc_copy_ub2gm_align((__gm__ int16_t*)pads + blk * 64, p, 128);
    // the loop mode (the SetLoopModePara page's example, through the C API's registers)
    __ubuf__ int8_t* l = (__ubuf__ int8_t*)ub_at(12288);
    asc_set_gm2ub_loop_size(2, 2);
    asc_set_gm2ub_loop1_stride(96, 128);
    asc_set_gm2ub_loop2_stride(192, 288);
    asc_copy_gm2ub_align(l, (__gm__ int8_t*)x, 2, 48, 0, 0, false, asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM,
                         48, 48);
    asc_set_gm2ub_loop_size(1, 1);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID3);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID3);
    if (blk == 0) asc_copy_ub2gm_align_sync((__gm__ int8_t*)loops, l, 512);
    // NDDMA: 3 rows of 4 floats into rows of 6, one constant 9 each side and one padded row below; then UB -> UB
    __ubuf__ float* nd = (__ubuf__ float*)ub_at(28672);
    __ubuf__ float* nd2 = (__ubuf__ float*)ub_at(28672 + 256);
    asc_set_ndim_loop0_stride(1, 1);
    asc_set_ndim_loop1_stride(6, 4);
    asc_set_ndim_loop2_stride(0, 0);
    asc_set_ndim_loop3_stride(0, 0);
    asc_set_ndim_loop4_stride(0, 0);
    asc_ndim_pad_count_config pc;
    pc.loop1_rp_count = 1;
    asc_set_ndim_pad_count(pc);
    asc_set_ndim_pad_value(9.0f);
    asc_ndim_copy_gm2ub(nd, (__gm__ float*)y + blk * N, 4, 3, 1, 1, 1, 1, 1, true,
                        asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID4);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID4);
    asc_copy_ub2ub_sync(nd2, nd, 96);
    asc_copy_ub2gm_sync((__gm__ float*)nds + blk * 24, nd2, 96);
    // sort 32 (score, index) pairs, then merge the four sorted quarters of 2 x 32 with asc_mrgsort4
    __ubuf__ float* s = (__ubuf__ float*)ub_at(16384);
    __ubuf__ uint32_t* ix = (__ubuf__ uint32_t*)ub_at(16384 + 512);
    __ubuf__ float* sd = (__ubuf__ float*)ub_at(16384 + 1024);
    __ubuf__ float* md = (__ubuf__ float*)ub_at(16384 + 2048);
    asc_copy_gm2ub_sync(s, (__gm__ float*)x + blk * N, N * sizeof(float));
    asc_copy_gm2ub_sync(ix, (__gm__ uint32_t*)idx, N * sizeof(uint32_t));
    asc_bitsort_sync(sd, s, ix, 2);
    __ubuf__ float* q[ASC_C_API_MRGSORT_ELEMENT_LEN] = {sd, sd + 16, sd + 64, sd + 80};
    asc_mrgsort4_sync(md, q, 1, 8, 8, 8, 8, false, 15);
    asc_copy_ub2gm_sync((__gm__ float*)sorted + blk * 64, md, 256);
    // a 16 x 16 transpose and the same transpose through TransDataTo5HD's address registers
    __ubuf__ int16_t* t0 = (__ubuf__ int16_t*)ub_at(24576);
    __ubuf__ int16_t* t1 = (__ubuf__ int16_t*)ub_at(24576 + 512);
    __ubuf__ int16_t* t2 = (__ubuf__ int16_t*)ub_at(24576 + 1024);
    asc_copy_gm2ub_sync(t0, (__gm__ int16_t*)x, 512);
    asc_transpose_sync(t1, t0);
    __ubuf__ int16_t* src_list[16];
    __ubuf__ int16_t* dst_list[16];
    for (int k = 0; k < 16; ++k) { src_list[k] = t0 + 16 * k; dst_list[k] = t2 + 16 * k; }
    asc_set_va_reg(VA0, dst_list);
    asc_set_va_reg(VA1, dst_list + 8);
    asc_set_va_reg(VA2, src_list);
    asc_set_va_reg(VA3, src_list + 8);
    asc_transto5hd_b16_sync(VA0, VA2, 1, 0, 0);
    asc_copy_ub2gm_sync((__gm__ int16_t*)trans + blk * 512, t1, 512);
    asc_copy_ub2gm_sync((__gm__ int16_t*)trans + blk * 512 + 256, t2, 512);
    // DMA atomic add of every block into one row; scalar GM atomics on a counter
    asc_set_atomic_add_float();
    asc_copy_ub2gm_sync((__gm__ float*)sum, c, 64);
    asc_set_atomic_none();
    __gm__ int32_t* rs = (__gm__ int32_t*)res + blk * NRES;
    int32_t old = asc_atomic_add((__gm__ int32_t*)sum + 16, 1);
    (void)old;
    asc_atomic_max((__gm__ int32_t*)sum + 17, (int32_t)(blk + 5));
    // the bit operations, the scalar float -> int32 casts and the system values
    asc_store_dev(rs + 0, (int32_t)asc_popc(0xF0F0ull));
    asc_store_dev(rs + 1, (int32_t)asc_clz(1ull));
    asc_store_dev(rs + 2, (int32_t)asc_ffs(8ull));
    asc_store_dev(rs + 3, (int32_t)asc_ffz(7ull));
    asc_store_dev(rs + 4, (int32_t)asc_zero_bits_cnt(~0ull >> 4));
    asc_store_dev(rs + 5, (int32_t)asc_sflbits((int64_t)0x0f00000000000000ll));
    asc_store_dev(rs + 6, (int32_t)asc_set_nthbit(0, 5));
    asc_store_dev(rs + 7, (int32_t)asc_clear_nthbit(0xFF, 0));
    asc_store_dev(rs + 8, asc_float2int32_rd(-1.5f));
    asc_store_dev(rs + 9, asc_float2int32_rn(2.5f));
    asc_store_dev(rs + 10, asc_float2int32_rna(2.5f));
    asc_store_dev(rs + 11, asc_float2int32_ru(1.25f));
    asc_store_dev(rs + 12, (int32_t)asc_get_vf_len());
    uint32_t ver = 0;
    asc_get_arch_ver(ver);
    asc_store_dev(rs + 13, (int32_t)ver);
    asc_store_dev(rs + 14, (int32_t)asc_get_sub_block_num());
    asc_store_dev(rs + 15, (int32_t)asc_get_block_num());
    uint64_t ctrl = asc_get_ctrl();
    asc_set_ctrl(ctrl | (1ull << 48));
    asc_store_dev(rs + 16, (int32_t)((asc_get_ctrl() >> 48) & 1));
    asc_set_ctrl(ctrl);
    asc_set_store_atomic_config_v2(1, 0);
    asc_store_atomic_config cfg;
    asc_get_store_atomic_config(cfg);
    asc_set_atomic_none();
    asc_store_dev(rs + 17, (int32_t)cfg.atomic_type);
    asc_store_dev(rs + 18, (int32_t)(asc_get_system_cycle() > 0));
    asc_store_dev(rs + 19, (int32_t)asc_get_core_id());
    asc_load3d_v2_config l3;
    asc_fill_value_config fv;
    fv.repeat = 3;
    fv.blk_num = 2;
    asc_l13d_fmatrix_config fm;
    fm.l1_height = 5;
    fm.l1_width = 7;
    asc_store_dev(rs + 20, (int32_t)l3.rpt_time);
    asc_store_dev(rs + 21, (int32_t)fv.config);
    asc_store_dev(rs + 22, (int32_t)(fm.config & 0xFFFFFFFFu));
    // the cross-core counters, a mutex, a memory barrier
    asc_sync_inter_arrive(PIPE_MTE3, (int64_t)3);
    asc_sync_inter_wait(PIPE_S, (int64_t)3);
    asc_sync_subblock_arrive(PIPE_S, (int64_t)1);
    asc_sync_subblock_wait(PIPE_S, (int64_t)1);
    asc_lock(PIPE_MTE3, 2);
    asc_unlock(PIPE_MTE3, 2);
    asc_sync_data_barrier(mem_dsb_t::DSB_DDR);
    asc_sync_pipe(PIPE_ALL);
    asc_sync();
}

int main()
{
    const int NX = BLOCKS * N;
    float x[NX], y[NX], out[NX] = {}, sorted[BLOCKS * 64] = {}, sum[32] = {};
    uint8_t rows[BLOCKS * 160] = {}, loops[512] = {};
    int16_t pads[BLOCKS * 64] = {}, trans[BLOCKS * 512] = {};
    int32_t res[BLOCKS * NRES] = {};
    uint32_t idx[N];
    for (uint32_t i = 0; i < N; ++i) idx[i] = i;
    float nds[BLOCKS * 24] = {};
    for (int i = 0; i < NX; ++i) { x[i] = (float)((i * 37) % 101) - 50.0f; y[i] = (float)(i % 7) * 0.5f; }
    std::memset(sum, 0, sizeof sum);
    struct Buf { void* host; size_t size; uint8_t* dev; } bufs[] = {
        {x, sizeof x}, {y, sizeof y}, {out, sizeof out}, {rows, sizeof rows}, {pads, sizeof pads},
        {loops, sizeof loops}, {sorted, sizeof sorted}, {trans, sizeof trans}, {sum, sizeof sum}, {res, sizeof res},
        {idx, sizeof idx}, {nds, sizeof nds}};
    for (auto& b : bufs) {
        aclrtMalloc((void**)&b.dev, b.size, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(b.dev, b.size, b.host, b.size, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    capi_kernel<<<BLOCKS, nullptr, nullptr>>>(bufs[0].dev, bufs[1].dev, bufs[2].dev, bufs[3].dev, bufs[4].dev,
                                              bufs[5].dev, bufs[6].dev, bufs[7].dev, bufs[8].dev, bufs[9].dev,
                                              bufs[10].dev, bufs[11].dev);
    for (auto& b : bufs) aclrtMemcpy(b.host, b.size, b.dev, b.size, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    auto check = [&](bool ok, const char* what, int i) { if (!ok && bad++ < 8) printf("mismatch %s %d\n", what, i); };
    for (int i = 0; i < NX; ++i) check(out[i] == x[i] + y[i], "add", i);
    const uint8_t* xb = (const uint8_t*)x;
    for (int k = 0; k < BLOCKS; ++k)
        for (int r = 0; r < 4; ++r)
            for (int j = 0; j < 40; ++j) check(rows[k * 160 + r * 40 + j] == xb[k * 256 + r * 48 + j], "rows", j);
    const int16_t* yh = (const int16_t*)y;
    for (int k = 0; k < BLOCKS; ++k)
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 24; ++j) {
                int16_t want = (j < 2 || j >= 22) ? -1 : yh[k * 64 + r * 20 + j - 2];
                check(pads[k * 64 + r * 32 + j] == want, "pads", j);
            }
    const int8_t* xi = (const int8_t*)x;
    for (int i2 = 0; i2 < 2; ++i2)
        for (int i1 = 0; i1 < 2; ++i1)
            for (int j = 0; j < 96; ++j)
                check((int8_t)loops[i2 * 288 + i1 * 128 + j] == xi[i2 * 192 + i1 * 96 + j], "loops", j);
    auto desc = [](float u, float v) { return u > v; };
    for (int k = 0; k < BLOCKS; ++k) {          // queues: ranks 0-7 and 8-15 of each sorted group of 32
        float g0[32], g1[32], q[32];
        std::copy(x + k * N, x + k * N + 32, g0);
        std::copy(x + k * N + 32, x + k * N + 64, g1);
        std::sort(g0, g0 + 32, desc);
        std::sort(g1, g1 + 32, desc);
        std::copy(g0, g0 + 16, q);
        std::copy(g1, g1 + 16, q + 16);
        std::sort(q, q + 32, desc);
        for (int i = 0; i < 32; ++i) check(sorted[k * 64 + 2 * i] == q[i], "mrgsort", i);
    }
    const int16_t* xs = (const int16_t*)x;
    for (int k = 0; k < BLOCKS; ++k)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
                check(trans[k * 512 + i * 16 + j] == xs[j * 16 + i], "transpose", i);
                check(trans[k * 512 + 256 + i * 16 + j] == xs[j * 16 + i], "transto5hd", i);
            }
    for (int i = 0; i < 16; ++i) check(sum[i] == out[i] + out[N + i], "atomic add", i);
    for (int k = 0; k < BLOCKS; ++k)
        for (int r = 0; r < 4; ++r)
            for (int j = 0; j < 6; ++j) {
                float want = (r == 3 || j == 0 || j == 5) ? 9.0f : y[k * N + r * 4 + j - 1];
                check(nds[k * 24 + r * 6 + j] == want, "ndim", j);
            }
    int32_t counter, top;
    std::memcpy(&counter, &sum[16], 4);
    std::memcpy(&top, &sum[17], 4);
    check(counter == BLOCKS && top == BLOCKS + 4, "scalar atomics", counter);
    const int32_t want[23] = {8, 63, 3, 3, 4, 3, 32, 0xFE, -2, 2, 3, 2, 256, 0x3510, 1, BLOCKS, 1, 1, 1, 0, 1,
                              3 | 2 << 16, 5 | 7 << 16};
    for (int k = 0; k < BLOCKS; ++k)
        for (int i = 0; i < 23; ++i) check(res[k * NRES + i] == (i == 19 ? k : want[i]), "scalar", i);
    printf(bad ? "FAIL (%d mismatches)\n" : "PASS\n", bad);
    return bad ? 1 : 0;
}
"""


N, NRES = 64, 24
F32, I16, I8, U8, I32, U32 = (np.dtype(t) for t in (np.float32, np.int16, np.int8, np.uint8, np.int32, np.uint32))


def _ub(offset: int, dt) -> UbPtr:
    return UbPtr(offset, np.dtype(dt))


def _g(p: GmPtr, dt, elems: int = 0) -> GmPtr:
    return GmPtr(p.buf, p.offset + elems * np.dtype(dt).itemsize, dt)


def _copies(blk, x, y, out, rows, pads, loops, nds) -> None:
    """The data-movement half of capi_kernel."""
    a, b, c = _ub(0, F32), _ub(1024, F32), _ub(2048, F32)
    C.asc_copy_gm2ub(a, _g(x, F32, blk * N), N * 4)
    C.asc_copy_gm2ub_align_sync(b, _g(y, F32, blk * N), N * 4)
    S.asc_sync_mte2(0)
    C.asc_add_sync(c, a, b, N)
    S.asc_sync_notify(P.PIPE_V, P.PIPE_MTE3, 0)
    S.asc_sync_wait(P.PIPE_V, P.PIPE_MTE3, 0)
    C.asc_copy_ub2gm(_g(out, F32, blk * N), c, N * 4)
    r = _ub(4096, U8)
    S.asc_sync_mte3(1)
    C.asc_copy_gm2ub(r, _g(x, U8, blk * 256), 4, 40, 48, 64)
    S.asc_sync_notify(P.PIPE_MTE2, P.PIPE_MTE3, 1)
    S.asc_sync_wait(P.PIPE_MTE2, P.PIPE_MTE3, 1)
    C.asc_copy_ub2gm(_g(rows, U8, blk * 160), r, 4, 40, 40, 64)
    p = _ub(8192, I16)
    C.asc_set_copy_pad_val(-1)
    C.asc_copy_gm2ub_align(p, _g(y, I16, blk * 64), 2, 40, 2, 2, True, 0, 40, 64)
    S.asc_sync_notify(P.PIPE_MTE2, P.PIPE_MTE3, 2)
    S.asc_sync_wait(P.PIPE_MTE2, P.PIPE_MTE3, 2)
    C.asc_copy_ub2gm_align(_g(pads, I16, blk * 64), p, 128)
    lo = _ub(12288, I8)
    C.asc_set_gm2ub_loop_size(2, 2)
    C.asc_set_gm2ub_loop1_stride(96, 128)
    C.asc_set_gm2ub_loop2_stride(192, 288)
    C.asc_copy_gm2ub_align(lo, _g(x, I8), 2, 48, 0, 0, False, 0, 48, 48)
    C.asc_set_gm2ub_loop_size(1, 1)
    S.asc_sync_notify(P.PIPE_MTE2, P.PIPE_MTE3, 3)
    S.asc_sync_wait(P.PIPE_MTE2, P.PIPE_MTE3, 3)
    if blk == 0:
        C.asc_copy_ub2gm_align_sync(_g(loops, I8), lo, 512)
    nd, nd2 = _ub(28672, F32), _ub(28672 + 256, F32)
    for d, strides in enumerate(((1, 1), (6, 4), (0, 0), (0, 0), (0, 0))):
        getattr(C, f"asc_set_ndim_loop{d}_stride")(*strides)
    C.asc_set_ndim_pad_count(1 << 8)
    C.asc_set_ndim_pad_value(9.0)
    C.asc_ndim_copy_gm2ub(nd, _g(y, F32, blk * N), 4, 3, 1, 1, 1, 1, 1, True, 0)
    S.asc_sync_notify(P.PIPE_MTE2, P.PIPE_MTE3, 4)
    S.asc_sync_wait(P.PIPE_MTE2, P.PIPE_MTE3, 4)
    C.asc_copy_ub2ub_sync(nd2, nd, 96)
    C.asc_copy_ub2gm_sync(_g(nds, F32, blk * 24), nd2, 96)


def _vector(blk, x, sorted_, trans, idx) -> None:
    """Sort, merge, transpose and 5HD of capi_kernel."""
    s, ix, sd, md = _ub(16384, F32), _ub(16384 + 512, U32), _ub(16384 + 1024, F32), _ub(16384 + 2048, F32)
    C.asc_copy_gm2ub_sync(s, _g(x, F32, blk * N), N * 4)
    C.asc_copy_gm2ub_sync(ix, _g(idx, U32), N * 4)
    V.asc_bitsort_sync(sd, s, ix, 2)
    V.asc_mrgsort4_sync(md, sd, sd + 16, sd + 64, sd + 80, 1, 8, 8, 8, 8, False, 15)
    C.asc_copy_ub2gm_sync(_g(sorted_, F32, blk * 64), md, 256)
    t0, t1, t2 = _ub(24576, I16), _ub(24576 + 512, I16), _ub(24576 + 1024, I16)
    C.asc_copy_gm2ub_sync(t0, _g(x, I16), 512)
    V.asc_transpose_sync(t1, t0)
    src, dst = [t0 + 16 * k for k in range(16)], [t2 + 16 * k for k in range(16)]
    for reg, lst in ((0, dst[:8]), (1, dst[8:]), (2, src[:8]), (3, src[8:])):
        V.asc_set_va_reg(reg, *lst)
    V.asc_transto5hd_b16_sync(0, 2, 1, 0, 0)
    C.asc_copy_ub2gm_sync(_g(trans, I16, blk * 512), t1, 512)
    C.asc_copy_ub2gm_sync(_g(trans, I16, blk * 512 + 256), t2, 512)


#: the scalar results of capi_kernel (bit operations, casts, system values) but the core id
SCALARS = [8, 63, 3, 3, 4, 3, 32, 0xFE, -2, 2, 3, 2, 256, 0x3510, 1, 2, 1, 1, 1, None, 1, 3 | 2 << 16, 5 | 7 << 16]


def capi_kernel(x, y, out, rows, pads, loops, sorted_, trans, sum_, res, idx, nds):
    """The Python port of the program's kernel (the C-only values, bit counts and casts, as numbers)."""
    C.asc_init()
    blk = GetBlockIdx()
    _copies(blk, x, y, out, rows, pads, loops, nds)
    _vector(blk, x, sorted_, trans, idx)
    S.asc_set_atomic_add_float()
    C.asc_copy_ub2gm_sync(_g(sum_, F32), _ub(2048, F32), 64)
    S.asc_set_atomic_none()
    S.asc_atomic_add(_g(sum_, I32, 16), 1)
    S.asc_atomic_max(_g(sum_, I32, 17), blk + 5)
    rs = _g(res, I32, blk * NRES)
    for k, v in enumerate(SCALARS[:16]):
        S.asc_store_dev(rs + k, v)
    ctrl = S.asc_get_ctrl()
    S.asc_set_ctrl(ctrl | 1 << 48)
    S.asc_store_dev(rs + 16, S.asc_get_ctrl() >> 48 & 1)
    S.asc_set_ctrl(ctrl)
    S.asc_set_store_atomic_config_v2(1, 0)
    S.asc_set_atomic_none()
    for k in (17, 18):
        S.asc_store_dev(rs + k, SCALARS[k])
    S.asc_store_dev(rs + 19, blk)
    for k in (20, 21, 22):
        S.asc_store_dev(rs + k, SCALARS[k])
    S.asc_sync_inter_arrive(P.PIPE_MTE3, 3)
    S.asc_sync_inter_wait(P.PIPE_S, 3)
    S.asc_sync_subblock_arrive(P.PIPE_S, 1)
    S.asc_sync_subblock_wait(P.PIPE_S, 1)
    S.asc_lock(P.PIPE_MTE3, 2)
    S.asc_unlock(P.PIPE_MTE3, 2)
    S.asc_sync_data_barrier(1)
    S.asc_sync_pipe(P.PIPE_ALL)
    S.asc_sync()


def _inputs() -> list:
    i = np.arange(2 * N)
    x = (((i * 37) % 101).astype(np.float32) - 50).astype(F32)
    y = ((i % 7).astype(np.float32) * 0.5).astype(F32)
    sizes = {"out": 512, "rows": 320, "pads": 256, "loops": 512, "sorted": 512, "trans": 2048, "sum": 128, "res": 192}
    return [gm_alloc("x", x.view(U8)), gm_alloc("y", y.view(U8)), *(gm_alloc(k, n) for k, n in sizes.items()),
            gm_alloc("idx", np.arange(N, dtype=U32).view(U8)), gm_alloc("nds", 192)]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("capi_cache")


@needs_compiler
def test_the_python_port_writes_the_same_bytes_and_records_the_same_events(tmp_path, cache):
    src = write(tmp_path, "capi_all.asc", PROGRAM)
    asc = build_and_run(src, keep_events=True, cache=cache)
    assert asc.failure is None and asc.exit_status == 0, (asc.failure, asc.stderr)
    gm = _inputs()
    py = launch(capi_kernel, 2, gm)
    got = output_bytes(asc)
    names = ("out", "rows", "pads", "loops", "sorted", "trans", "sum", "res", None, "nds")
    for name, ptr in zip(names, gm[2:]):
        if name is None:
            continue
        buf = ptr.buf
        assert got[name] == buf.data[buf.writer >= 0].tobytes(), name
    assert len(py.cores[0].events) > 60 and py.cores[1].events
    for core in range(2):
        assert [event_key(e) for e in asc.launches[0]["events"][core]] == \
            [event_key(e) for e in py.cores[core].events], core
    assert [d["code"] for d in asc.launches[0]["diagnostics"]] == py.diagnostics.codes()


def test_the_port_runs_alike_in_lock_step_and_serially():
    outs = []
    for mode in ("lockstep", "serial"):
        gm = _inputs()
        with launch_mode(mode):
            run = launch(capi_kernel, 2, gm)
        outs.append(([p.buf.data.tobytes() for p in gm], [[event_key(e) for e in c.events] for c in run.cores]))
    assert outs[0] == outs[1]


@needs_compiler
def test_c_api_program_runs_to_its_own_pass(tmp_path, capsys, monkeypatch, cache):
    monkeypatch.setenv("MIGRATE_CHECK_CACHE", str(cache))
    src = write(tmp_path, "capi_all.asc", PROGRAM)
    code = main(["run", str(src), "--json", "-"])
    out = capsys.readouterr()
    doc = json.loads(out.out)
    assert "PASS\n" in doc["stdout"], (doc["stdout"], out.err)
    assert code == 0 and doc["exit_status"] == 0
    launch = doc["launches"][0]
    assert launch["block_dim"] == 2
    assert not [d for d in launch["diagnostics"] if d.get("severity") == "error"], launch["diagnostics"]
    counters = launch["counters"]
    assert counters["RV_VSORT32"] > 0 and counters["RV_VMRGSORT"] > 0 and counters["RV_VTRANS"] > 0


#: the C API's UB arrays, as the per-API pages' examples declare their operands (asc_sync_mte2's example)
ARRAYS = r"""#include <cstdio>
#include "acl/acl.h"
#include "c_api/asc_simd.h"

struct UbBuff {
    float a[64];
    float b[64];
};

extern "C" __global__ __aicore__ void add_kernel(GM_ADDR src0_gm, GM_ADDR src1_gm, GM_ADDR dst_gm)
{
    constexpr uint32_t total_length = 128;
    __ubuf__ float src0[total_length];
    __ubuf__ float src1[total_length];
    __ubuf__ float dst[total_length];
    int64_t off = asc_get_block_idx() * total_length;
    asc_copy_gm2ub(src0, (__gm__ float*)src0_gm + off, total_length * sizeof(float));
    asc_copy_gm2ub(src1, (__gm__ float*)src1_gm + off, total_length * sizeof(float));
    asc_sync_mte2(0);
    asc_add_sync(dst, src1, src0, total_length);
    asc_sync();
    __ubuf__ UbBuff buff{};
    asc_copy_ub2ub(buff.a, dst, 64 * sizeof(float));
    asc_sync_vec();
    asc_copy_ub2gm((__gm__ float*)dst_gm + off, dst, total_length * sizeof(float));
    asc_copy_ub2gm((__gm__ float*)dst_gm + 512 + asc_get_block_idx() * 64, buff.a, 64 * sizeof(float));
}

int main()
{
    float x[256], y[256], z[256 + 512] = {};
    for (int i = 0; i < 256; ++i) { x[i] = (float)i; y[i] = 0.5f * (float)i; }
    uint8_t *dx, *dy, *dz;
    aclrtMalloc((void**)&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dy, sizeof y, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dz, sizeof z, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, sizeof y, y, sizeof y, ACL_MEMCPY_HOST_TO_DEVICE);
    add_kernel<<<2, nullptr, nullptr>>>(dx, dy, dz);
    aclrtMemcpy(z, sizeof z, dz, sizeof z, ACL_MEMCPY_DEVICE_TO_HOST);
    bool ok = true;
    for (int i = 0; i < 256; ++i) ok = ok && z[i] == 1.5f * (float)i;
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 64; ++i) ok = ok && z[512 + k * 64 + i] == 1.5f * (float)(k * 128 + i);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
"""


def test_ub_arrays_become_pointers_into_ub_on_their_own_lines():
    src = ("void k() {\n    __ubuf__ half dst[N];\n    __ubuf__ half* p = (__ubuf__ half*)dst;\n"
           "    __ubuf__ float* lst[16] = {};\n    __ubuf__ Buf b{};\n}\nvoid f(__ubuf__ half a[8]);\n")
    out = rewrite(src, "k.asc")
    lines = out.text.split("\n")[1:]
    assert out.ub_arrays == [2, 5] and len(lines) == len(src.split("\n"))
    assert lines[1].startswith("    half* const dst = ::__asc::ub_array<half>(") and lines[1].endswith(", (N));")
    assert lines[2:4] == src.split("\n")[2:4] and lines[6] == "void f(__ubuf__ half a[8]);"
    assert lines[4].startswith("    Buf& b = *::new (::__asc::ub_array<Buf>(") and lines[4].endswith(" Buf{};")


@needs_compiler
def test_a_per_api_example_with_ub_arrays_runs_to_its_pass(tmp_path, capsys, monkeypatch, cache):
    monkeypatch.setenv("MIGRATE_CHECK_CACHE", str(cache))
    src = write(tmp_path, "arrays.asc", ARRAYS)
    code = main(["run", str(src), "--json", "-"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and "PASS\n" in doc["stdout"], doc["stdout"]
    launch = doc["launches"][0]
    assert launch["diagnostics"] == [] and launch["ub"]["total_bytes"] == 3 * 512 + 256
