// The C API names (asc_*): each is the composition of the C++ API calls it stands for, run by the same
// emulator functions (toolkit/asc/capi.py).
#pragma once
#include "asc/dma.h"

inline void asc_init(ASC_SLP) { ASC_API("CAPI.asc_init"); ::__asc::Call(__asc_fn, loc).go(); }
inline int64_t asc_get_block_idx(ASC_SLP) { return AscendC::GetBlockIdx(loc); }
inline int64_t asc_get_block_num(ASC_SLP) { return AscendC::GetBlockNum(loc); }
// copies move `size` bytes; element-wise calls count elements
template <class T>
void asc_copy_gm2ub_sync(__ubuf__ T* dst, __gm__ T* src, uint32_t size, ASC_SLP) {
    ASC_API("CAPI.asc_copy_gm2ub_sync");
    ::__asc::Call c(__asc_fn, loc);
    ::__asc::put_gmptr(::__asc::put_ubptr(c, dst), src).u(size);
    c.go();
}
template <class T>
void asc_copy_ub2gm_sync(__gm__ T* dst, __ubuf__ T* src, uint32_t size, ASC_SLP) {
    ASC_API("CAPI.asc_copy_ub2gm_sync");
    ::__asc::Call c(__asc_fn, loc);
    ::__asc::put_ubptr(::__asc::put_gmptr(c, dst), src).u(size);
    c.go();
}
#define ASC_CAPI_BINARY(NAME)                                                                          \
    template <class T>                                                                                 \
    void NAME(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count, ASC_SLP) {          \
        ASC_API("CAPI." #NAME);                                                                        \
        ::__asc::Call c(__asc_fn, loc);                                                                \
        ::__asc::put_ubptr(::__asc::put_ubptr(::__asc::put_ubptr(c, dst), src0), src1).u(count);       \
        c.go();                                                                                        \
    }
ASC_CAPI_BINARY(asc_add_sync) ASC_CAPI_BINARY(asc_sub_sync) ASC_CAPI_BINARY(asc_mul_sync)
ASC_CAPI_BINARY(asc_div_sync)
#undef ASC_CAPI_BINARY
