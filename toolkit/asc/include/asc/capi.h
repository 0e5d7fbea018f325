// The C API names (asc_*): each is the composition of the C++ API calls it stands for, run by the same
// emulator functions (toolkit/ascendc/capi.py, capi_sync.py, capi_vec.py). The calls are generated from
// toolkit/ascendc/api/capi*.py; this file holds the C API's own types (its unions, enums, constants) and the
// few hand-written calls (constexpr, union fields).
#pragma once
#include "asc/sysapi.h"
#ifndef __cbuf__
#define __cbuf__
#endif
#include <new>

namespace __asc {
// The C API's UB arrays (`__ubuf__ half dst[N];`, rewritten by toolkit/asc/rewrite.py): each declaration
// gets its 32 B aligned place the first time it runs, from UB address 0 up, kept for the program's run
// (every core and launch uses the same addresses, as a compiler's static UB layout would).
inline unsigned long long ub_array_top = 0;
template <class T>
inline T* ub_array(unsigned long long& site, unsigned long long count) {
    if (site == ~0ull) {
        site = (ub_array_top + 31) / 32 * 32;
        ub_array_top = site + count * sizeof(T);
    }
    return (T*)(ub_base + site);
}
}  // namespace __asc

// -- C-API/enum -------------------------------------------------------------------------------------------
enum class asc_load_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0, NORMAL_LAST_VICTIM = 1, NORMAL_PERSISTENT = 2, NOTALLOC_KEEP = 4, NOTALLOC_CLEAN = 5,
    NOTALLOC_DROP = 6
};
enum class asc_store_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0, NORMAL_LAST_VICTIM = 1, NORMAL_PERSISTENT = 2, NOTALLOC_CLEAN = 4
};
// asc_lock / asc_unlock
enum ascMutexExecuteMode { ASC_LOCK_BLOCK = 0, ASC_LOCK_NON_BLOCK = 1 };
// asc_sync_data_barrier: the values of AscendC::MemDsbT
enum mem_dsb_t : int { DSB_ALL = 0, DSB_DDR = 1, DSB_UB = 2, DSB_SEQ = 3 };
// the address registers of asc_set_va_reg / asc_transto5hd (8 UB addresses each)
enum ub_addr8_t : int { VA0 = 0, VA1 = 1, VA2 = 2, VA3 = 3, VA4 = 4, VA5 = 5, VA6 = 6, VA7 = 7 };
// asc_mrgsort4: the four source lists
constexpr int ASC_C_API_MRGSORT_ELEMENT_LEN = 4;

// -- C-API/struct (a 64-bit register value and its fields) -----------------------------------------------
constexpr uint64_t ASC_FILL_VALUE_DEFAULT_VALUE = 0x0000000000000000;
union asc_fill_value_config {
    uint64_t config = ASC_FILL_VALUE_DEFAULT_VALUE;
    struct {
        uint64_t repeat : 15;
        uint64_t reserved1 : 1;
        uint64_t blk_num : 15;
        uint64_t reserved2 : 1;
        uint64_t dst_gap : 15;
        uint64_t reserved3 : 17;
    };
};
constexpr uint64_t ASC_DEFAULT_L13D_FMATRIX_CONFIG_VALUE = 0;
union asc_l13d_fmatrix_config {
    uint64_t config = ASC_DEFAULT_L13D_FMATRIX_CONFIG_VALUE;
    struct {
        uint16_t l1_height;
        uint16_t l1_width;
        uint8_t padding_left_size;
        uint8_t padding_right_size;
        uint8_t padding_top_size;
        uint8_t padding_bottom_size;
    };
};
constexpr uint64_t ASC_DEFAULT_LOAD3D_V2_CONFIG_VALUE = 0x0000000000010000;
union asc_load3d_v2_config {
    uint64_t config = ASC_DEFAULT_LOAD3D_V2_CONFIG_VALUE;
    struct {
        uint64_t rpt_stride : 16;
        uint64_t rpt_time : 8;
        uint64_t rpt_mode : 1;
        uint64_t reserved2 : 39;
    };
};
constexpr uint64_t ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE = 0;
union asc_ndim_pad_count_config {
    uint64_t config = ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE;
    struct {
        uint8_t loop1_lp_count;
        uint8_t loop1_rp_count;
        uint8_t loop2_lp_count;
        uint8_t loop2_rp_count;
        uint8_t loop3_lp_count;
        uint8_t loop3_rp_count;
        uint8_t loop4_lp_count;
        uint8_t loop4_rp_count;
    };
    constexpr operator uint64_t() const { return config; }      // what asc_set_ndim_pad_count sends
};
constexpr uint64_t ASC_STORE_ATOMIC_DEFAULT_VALUE = 0x0000000000000000;
union asc_store_atomic_config {
    uint64_t config = ASC_STORE_ATOMIC_DEFAULT_VALUE;
    struct {
        uint64_t atomic_type : 3;
        uint64_t atomic_op : 2;
        uint64_t reserved1 : 59;
    };
};

#include "asc/gen/capi.h"
#include "asc/gen/capi_sync.h"
#include "asc/gen/capi_vec.h"

// -- hand-written calls -----------------------------------------------------------------------------------
// asc_get_vf_len: the vector length in bytes (AscendC::GetVecLen), a compile-time value
__aicore__ constexpr inline int64_t asc_get_vf_len() { return AscendC::GetVecLen(); }
// asc_get_store_atomic_config: GetStoreAtomicConfig's type and operation numbers into the union's fields
inline void asc_get_store_atomic_config(asc_store_atomic_config& config,
                                        const ::__asc::SL& loc = ::__asc::SL::current()) {
    uint16_t type = 0, op = 0;
    AscendC::GetStoreAtomicConfig(type, op, loc);
    config.config = 0;
    config.atomic_type = type;
    config.atomic_op = op;
}
// asc_mrgsort4 / asc_set_va_reg: the pointer array's elements go to the flattened form
template <class T>
inline void asc_mrgsort4(__ubuf__ T* dst, __ubuf__ T* src[ASC_C_API_MRGSORT_ELEMENT_LEN], uint8_t repeat,
                         uint16_t element_length_0, uint16_t element_length_1, uint16_t element_length_2,
                         uint16_t element_length_3, bool if_exhausted_suspension, uint8_t valid_bit,
                         const ::__asc::SL& loc = ::__asc::SL::current()) {
    asc_mrgsort4(dst, src[0], src[1], src[2], src[3], repeat, element_length_0, element_length_1, element_length_2,
                 element_length_3, if_exhausted_suspension, valid_bit, loc);
}
template <class T>
inline void asc_mrgsort4_sync(__ubuf__ T* dst, __ubuf__ T* src[ASC_C_API_MRGSORT_ELEMENT_LEN], uint8_t repeat,
                              uint16_t element_length_0, uint16_t element_length_1, uint16_t element_length_2,
                              uint16_t element_length_3, bool if_exhausted_suspension, uint8_t valid_bit,
                              const ::__asc::SL& loc = ::__asc::SL::current()) {
    asc_mrgsort4_sync(dst, src[0], src[1], src[2], src[3], repeat, element_length_0, element_length_1,
                      element_length_2, element_length_3, if_exhausted_suspension, valid_bit, loc);
}
template <class T>
inline void asc_set_va_reg(ub_addr8_t addr, __ubuf__ T** src_array, const ::__asc::SL& loc = ::__asc::SL::current()) {
    asc_set_va_reg(addr, src_array[0], src_array[1], src_array[2], src_array[3], src_array[4], src_array[5],
                   src_array[6], src_array[7], loc);
}
