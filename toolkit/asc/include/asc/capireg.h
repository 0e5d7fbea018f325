// The C API of the register family (C-API/reg): the vector_* register types as the Reg register types, the
// PAT_* and MEM_TYPE constants, and the asc_* functions (generated from toolkit/ascendc/api/capi_reg*.py),
// each running the Reg API semantic of the same operation (toolkit/ascendc/capi_reg).
#pragma once
#include <cstdint>
#include <type_traits>
#include "asc/reg.h"

#include "asc/bytetypes.h"    // the 8- and 4-bit float and int4 element types (byte containers)

namespace __capi {
template <class T> using V = ::AscendC::Reg::RegTensor<T>;
// the element types with arithmetic (the numeric forms take these only, as the pages list them: a numeric
// asc_* call on a byte-container register has no overload, as with the vendor's headers)
template <class T> inline constexpr bool numeric_v = !std::is_base_of_v<ByteType, T>;
}  // namespace __capi

using vector_int8_t = AscendC::Reg::RegTensor<int8_t>;
using vector_uint8_t = AscendC::Reg::RegTensor<uint8_t>;
using vector_int16_t = AscendC::Reg::RegTensor<int16_t>;
using vector_uint16_t = AscendC::Reg::RegTensor<uint16_t>;
using vector_int32_t = AscendC::Reg::RegTensor<int32_t>;
using vector_uint32_t = AscendC::Reg::RegTensor<uint32_t>;
using vector_int64_t = AscendC::Reg::RegTensor<int64_t>;
using vector_uint64_t = AscendC::Reg::RegTensor<uint64_t>;
using vector_half = AscendC::Reg::RegTensor<half>;
using vector_bfloat16_t = AscendC::Reg::RegTensor<bfloat16_t>;
using vector_float = AscendC::Reg::RegTensor<float>;
using vector_fp8_e4m3fn_t = AscendC::Reg::RegTensor<fp8_e4m3fn_t>;
using vector_fp8_e5m2_t = AscendC::Reg::RegTensor<fp8_e5m2_t>;
using vector_fp8_e8m0_t = AscendC::Reg::RegTensor<fp8_e8m0_t>;
using vector_hifloat8_t = AscendC::Reg::RegTensor<hifloat8_t>;
using vector_fp4x2_e2m1_t = AscendC::Reg::RegTensor<fp4x2_e2m1_t>;
using vector_fp4x2_e1m2_t = AscendC::Reg::RegTensor<fp4x2_e1m2_t>;
using vector_int4x2_t = AscendC::Reg::RegTensor<int4x2_t>;
using vector_bool = AscendC::Reg::MaskReg;
using vector_load_unalign = AscendC::Reg::UnalignRegForLoad;
using vector_store_unalign = AscendC::Reg::UnalignRegForStore;
using addr_reg = AscendC::Reg::AddrReg;
using iter_reg = addr_reg;

// asc_create_mask_b*'s patterns (the values of AscendC::Reg::MaskPattern)
enum { PAT_ALL = 0, PAT_VL1 = 1, PAT_VL2 = 2, PAT_VL3 = 3, PAT_VL4 = 4, PAT_VL8 = 5, PAT_VL16 = 6, PAT_VL32 = 7,
       PAT_VL64 = 8, PAT_VL128 = 9, PAT_M3 = 10, PAT_M4 = 11, PAT_H = 12, PAT_Q = 13, PAT_ALLF = 15 };
// asc_mem_bar's source / destination pipe pairs, in the page's order (toolkit/ascendc/capi_reg/move.py)
enum MEM_TYPE : int { VV_ALL, VST_VLD, VLD_VST, VST_VST, VS_ALL, VST_LD, VLD_ST, VST_ST, SV_ALL, ST_VLD, LD_VST,
                      ST_VST, SS_ALL, ST_LD, LD_ST, ST_ST };

#include "asc/gen/capi_reg.h"
#include "asc/gen/capi_reg_move.h"
#include "asc/gen/capi_reg_cvt.h"
