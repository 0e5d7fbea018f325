"""The C API's synchronisation (C-API/sync), system variables (C-API/sys_var), DMA atomic modes
(C-API/simd_atomic) and scalar operations (C-API/scalar_compute): each runs the AscendC API function of
its meaning (toolkit/ascendc/capi_sync.py), ``via`` it when the arguments are the same, or is ``native`` C++
calling the AscendC function (the bit counts, the compile-time values)."""
from __future__ import annotations

from toolkit.ascendc import capi_sync as C

from .spec import SREF, Arg, Family, api, earg, form, gm, scalar, tded

FAMILY = Family("capi.sync", "", "capi_sync.h", C, doc_root="C-API")

_PIPE = earg("pipe", "pipe_t")
_NOCUBE = "a cube-unit register: no cube core is emulated (accepted, no effect)"
_HAND_VF = "capi.h: constexpr (AscendC::GetVecLen, the machine file's VL)"
_HAND_ATOMIC = "capi.h: GetStoreAtomicConfig's two numbers into the union's bit fields"


def _pair(short: str, page: str, *flag_types: str, name: str = "flag_id"):
    return api(FAMILY, short, getattr(C, short), *(form(_PIPE, scalar(name, t)) for t in flag_types),
               doc=f"sync/{page}.md")


def _native(short: str, body: str, page: str, ret: str = "int64_t", note: str = "", *args) -> object:
    return api(FAMILY, short, None, form(*args, ret=ret, native=body), doc=f"sys_var/{page}.md", note=note)


def _cube(short: str) -> object:
    return api(FAMILY, short, None, form(scalar("config", "uint64_t"), native=""), doc=f"sys_var/{short}.md",
               note=_NOCUBE)


_SYNC = [
    api(FAMILY, "asc_sync", C.asc_sync, form(), doc="sync/asc_sync.md"),
    api(FAMILY, "asc_sync_vec", C.asc_sync_vec, form(), doc="sync/asc_sync_vec.md"),
    api(FAMILY, "asc_sync_mte2", C.asc_sync_mte2, form(scalar("id", "int")), doc="sync/asc_sync_mte2.md"),
    api(FAMILY, "asc_sync_mte3", C.asc_sync_mte3, form(scalar("id", "int")), doc="sync/asc_sync_mte3.md"),
    api(FAMILY, "asc_sync_pipe", C.asc_sync_pipe, form(_PIPE), doc="sync/asc_sync_pipe.md"),
    api(FAMILY, "asc_sync_notify", C.asc_sync_notify,
        form(_PIPE, earg("tpipe", "pipe_t"), scalar("id", "event_t")), doc="sync/asc_sync_notify.md"),
    api(FAMILY, "asc_sync_wait", C.asc_sync_wait,
        form(_PIPE, earg("tpipe", "pipe_t"), scalar("id", "event_t")), doc="sync/asc_sync_wait.md"),
    api(FAMILY, "asc_sync_data_barrier", C.asc_sync_data_barrier, form(scalar("arg", "mem_dsb_t", "int")),
        doc="sync/asc_sync_data_barrier.md"),
    api(FAMILY, "asc_lock", C.asc_lock, form(_PIPE, scalar("mutex_id", "uint8_t")),
        form(_PIPE, scalar("mutex_id", "uint8_t"), scalar("mode", "const ascMutexExecuteMode", "int")),
        doc="sync/asc_lock.md"),
    api(FAMILY, "asc_unlock", C.asc_unlock, form(_PIPE, scalar("mutex_id", "uint8_t")),
        form(_PIPE, scalar("mutex_id", "uint8_t"), scalar("mode", "const ascMutexExecuteMode", "int")),
        doc="sync/asc_unlock.md"),
    _pair("asc_sync_block_arrive", "asc_sync_block_arrive", "int64_t"),
    _pair("asc_sync_block_wait", "asc_sync_block_wait", "uint8_t", "int64_t"),
    _pair("asc_sync_inter_arrive", "asc_sync_inter_arrive", "int64_t"),
    _pair("asc_sync_inter_wait", "asc_sync_inter_wait", "uint8_t", "int64_t"),
    _pair("asc_sync_subblock_arrive", "asc_sync_subblock_arrive", "int64_t"),
    _pair("asc_sync_subblock_wait", "asc_sync_subblock_wait", "uint8_t", "int64_t"),
    _pair("asc_sync_intra_arrive", "asc_sync_intra_arrive", "uint8_t", "uint64_t", name="sync_id"),
    _pair("asc_sync_intra_wait", "asc_sync_intra_wait", "uint8_t", "uint64_t", name="sync_id"),
]

_SYS = [
    api(FAMILY, "asc_get_squeeze_status", C.asc_get_squeeze_status, form(ret="int64_t"),
        doc="sys_var/asc_get_squeeze_status.md"),
    api(FAMILY, "asc_get_ar_spr", C.asc_get_ar_spr, form(ret="int64_t"), doc="sys_var/asc_get_ar_spr_deprecated.md"),
    api(FAMILY, "asc_get_ctrl", C.asc_get_ctrl, form(ret="int64_t"), doc="sys_var/asc_get_ctrl.md"),
    api(FAMILY, "asc_set_ctrl", C.asc_set_ctrl, form(scalar("config", "uint64_t")), doc="sys_var/asc_set_ctrl.md"),
    api(FAMILY, "asc_get_system_cycle", None, form(ret="int64_t", via="AscendC::GetSystemCycle"),
        doc="sys_var/asc_get_system_cycle.md"),
    api(FAMILY, "asc_get_core_id", None, form(ret="int64_t", via="AscendC::GetBlockIdx"),
        doc="sys_var/asc_get_core_id.md", note="block i runs on core i (one vector core per block)"),
    _native("asc_get_sub_block_id", "return AscendC::GetSubBlockIdx();", "asc_get_sub_block_id"),
    _native("asc_get_sub_block_num", "return AscendC::GetSubBlockNum();", "asc_get_sub_block_num"),
    _native("asc_get_program_counter", "return AscendC::GetProgramCounter();", "asc_get_program_counter"),
    _native("asc_get_arch_ver", "AscendC::GetArchVersion(core_version);", "asc_get_arch_ver", "void", "",
            Arg(SREF, "core_version", "uint32_t&")),
    _native("asc_get_phy_buf_addr", "return (uint64_t)(uintptr_t)(__asc::ub_base + offset);", "asc_get_phy_buf_addr",
            "uint64_t", "the emulated core's UB: its __ubuf__ pointer at that byte offset",
            scalar("offset", "uint64_t")),
    _native("asc_get_phy_stack_base", "return 0;", "asc_get_phy_stack_base", note="assumed 0: no stack is emulated"),
    _native("asc_get_smmu_tag_version", "return 0;", "asc_get_smmu_tag_version", note="assumed 0: no SMMU"),
    _native("asc_get_sys_virtual_base", "return 0;", "asc_get_sys_virtual_base",
            note="assumed 0: GM addresses are the host's"),
    _native("asc_get_status", "return 0;", "asc_get_status",
            note="assumed 0: the emulator does not keep the overflow / NaN status bits"),
    api(FAMILY, "asc_get_vf_len", None, form(ret="int64_t", hand=_HAND_VF), doc="sys_var/asc_get_vf_len.md"),
    *(_cube(n) for n in ("asc_set_gm2l1_nz_para", "asc_set_l0c2gm_channel_para", "asc_set_l0c2gm_quant_post",
                         "asc_set_l0c2gm_relu_alpha", "asc_set_l12l0_padding_val", "asc_set_l3d_rpt_b")),
]

_ATOMIC_PAGE = {"add": "asc_set_atomic_add", "max": "asc_set_atomic_max", "min": "asc_set_atomic_min"}
_ATOMIC = [
    *(api(FAMILY, name, fn, form(), doc=f"simd_atomic/{_ATOMIC_PAGE[name.split('_')[3]]}.md")
      for name, fn in C.ATOMIC_MODES.items()),
    api(FAMILY, "asc_set_atomic_none", C.asc_set_atomic_none, form(), doc="simd_atomic/asc_set_atomic_none.md"),
    api(FAMILY, "asc_set_store_atomic_config_v2", C.asc_set_store_atomic_config_v2,
        form(scalar("type", "uint16_t"), scalar("op", "uint16_t")),
        doc="simd_atomic/asc_set_store_atomic_config_v2_deprecated.md"),
    api(FAMILY, "asc_get_store_atomic_config", None,
        form(scalar("config", "asc_store_atomic_config&"), hand=_HAND_ATOMIC),
        doc="simd_atomic/asc_get_store_atomic_config.md"),
]

_ATOMIC_TYPES = {"add": "int32_t uint32_t float", "sub": "int32_t uint32_t float", "max": "int32_t uint32_t float",
                 "min": "int32_t uint32_t float", "exch": "float int32_t uint32_t", "cas": "float int32_t uint32_t",
                 "and": "int32_t uint32_t int64_t", "or": "int32_t uint32_t int64_t", "xor": "int32_t uint32_t int64_t",
                 "inc": "uint32_t uint64_t", "dec": "uint32_t uint64_t"}


def _scalar_atomic(name: str) -> object:
    op = name[len("asc_atomic_"):]
    values = (scalar("compare", "T"), scalar("val", "T")) if op == "cas" else (scalar("val", "T"),)
    return api(FAMILY, name, C.SCALAR_ATOMICS[name], form(tded("T"), gm("address"), *values, ret="T"),
               doc=f"scalar_compute/{name}.md", dtypes=tuple(_ATOMIC_TYPES[op].split()))


_U64 = scalar("value", "uint64_t")
_BITS = (scalar("bits", "uint64_t"), scalar("idx", "int64_t"))


def _bits(short: str, body: str, *args, ret: str = "int64_t") -> object:
    return api(FAMILY, short, None, form(*args, ret=ret, native=body), doc=f"scalar_compute/{short}.md")


_SCALAR = [
    *(_scalar_atomic(n) for n in C.SCALAR_ATOMICS),
    api(FAMILY, "asc_store_dev", None, form(tded("T"), gm("addr"), scalar("value", "T"),
                                            via="AscendC::WriteGmByPassDCache"),
        doc="scalar_compute/asc_store_dev.md",
        dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t")),
    _bits("asc_clz", "return AscendC::CountLeadingZero(value_in);", scalar("value_in", "uint64_t")),
    _bits("asc_ffs", "return AscendC::GetSFFValue<1>(value);", _U64),
    _bits("asc_ffz", "return AscendC::GetSFFValue<0>(value);", _U64),
    _bits("asc_popc", "return AscendC::GetBitCount<1>(value);", _U64),
    _bits("asc_zero_bits_cnt", "return AscendC::GetBitCount<0>(value);", _U64),
    _bits("asc_sflbits", "return AscendC::CountBitsCntSameAsSignBit(value);", scalar("value", "int64_t")),
    _bits("asc_set_nthbit", "return bits | (1ull << (idx & 63));", *_BITS, ret="uint64_t"),
    _bits("asc_clear_nthbit", "return bits & ~(1ull << (idx & 63));", *_BITS, ret="uint64_t"),
    # asc_float2int32_{rd,rn,rna,ru}: their scalar form is declared with the register forms (capi_reg_cvt)
]

APIS = [*_SYNC, *_SYS, *_ATOMIC, *_SCALAR]
