// The RegBase API (AscendC::Reg, alias MicroAPI): every call runs toolkit/regbase's implementation.
#pragma once
#include "asc/regtypes.h"

#define ASC_REG(NAME) ASC_API("Reg." NAME); ::__asc::Call c(__asc_fn, loc)
#define ASC_NOT_REG(S) std::enable_if_t<!::AscendC::Reg::is_reg<std::decay_t<S>>::value, int> = 0

namespace AscendC::Reg {
using __asc::put;
using __asc::put_enum;

// -- masks ----------------------------------------------------------------------------------------
template <class T, MaskPattern mode = MaskPattern::ALL, class Trait = RegTraitNumOne>
MaskReg CreateMask(ASC_SLP) {
    ASC_REG("CreateMask");
    put_enum(c.ttype<T>(), mode);
    return MaskReg::adopt(c.go().i());
}
template <class T, class Trait = RegTraitNumOne>
MaskReg UpdateMask(uint32_t& count, ASC_SLP) {
    ASC_REG("UpdateMask");
    c.ttype<T>().tag(__asc::T_REF | ((long long)__asc::dtype_v<uint32_t> << 8), count);
    __asc::Ret r = c.go();
    count = (uint32_t)r.i(1);
    return MaskReg::adopt(r.i(0));
}
#define ASC_MASK_LOGIC(NAME)                                                                          \
    inline void NAME(MaskReg& d, MaskReg& a, MaskReg& b, MaskReg& m, ASC_SLP) {                        \
        ASC_REG(#NAME); put(put(put(put(c, d), a), b), m); c.go(); }
ASC_MASK_LOGIC(MaskAnd) ASC_MASK_LOGIC(MaskOr) ASC_MASK_LOGIC(MaskXor)
inline void MaskNot(MaskReg& d, MaskReg& a, MaskReg& m, ASC_SLP) { ASC_REG("MaskNot"); put(put(put(c, d), a), m); c.go(); }
#undef ASC_MASK_LOGIC

template <class T>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, ASC_SLP) {
    ASC_REG("CreateAddrReg");
    c.ttype<T>().i(i0).i(s0);
    return AddrReg::adopt(c.go().i());
}
template <class T>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1, ASC_SLP) {
    ASC_REG("CreateAddrReg");
    c.ttype<T>().i(i0).i(s0).i(i1).i(s1);
    return AddrReg::adopt(c.go().i());
}
template <class T>
AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1, uint16_t i2, uint32_t s2, ASC_SLP) {
    ASC_REG("CreateAddrReg");
    c.ttype<T>().i(i0).i(s0).i(i1).i(s1).i(i2).i(s2);
    return AddrReg::adopt(c.go().i());
}

// -- UB <-> register -------------------------------------------------------------------------------
template <class T = void, LoadDist dist = LoadDist::DIST_NORM, class R, class U>
void LoadAlign(R& dst, U* src, ASC_SLP) {
    ASC_REG("LoadAlign");
    __asc::put_ttype<T>(c); put_enum(c, dist); put(c, dst); __asc::put_ub(c, src); c.go();
}
template <class T = void, LoadDist dist = LoadDist::DIST_NORM, class R, class U>
void LoadAlign(R& dst, U* src, const AddrReg& off, ASC_SLP) {
    ASC_REG("LoadAlign");
    __asc::put_ttype<T>(c); put_enum(c, dist); put(c, dst); __asc::put_ub(c, src); put(c, off); c.go();
}
template <class T = void, LoadDist dist = LoadDist::DIST_NORM, class R, class U>
void LoadAlign(R& dst0, R& dst1, U* src, ASC_SLP) {
    ASC_REG("LoadAlign");
    __asc::put_ttype<T>(c); put_enum(c, dist); put(put(c, dst0), dst1); __asc::put_ub(c, src); c.go();
}
template <class T, PostLiteral post, LoadDist dist = LoadDist::DIST_NORM, class R, class U>
void LoadAlign(R& dst, U*& src, int32_t stride, ASC_SLP) {
    ASC_REG("LoadAlign");
    __asc::put_ttype<T>(c); put_enum(put_enum(c, post), dist); put(c, dst); __asc::put_ubref(c, src);
    c.i(stride);
    __asc::set_ubref(src, c.go(), 0);
}
template <class T, DataCopyMode mode, class R, class U>
void LoadAlign(R& dst, U* src, uint32_t blkStride, MaskReg& mask, ASC_SLP) {
    ASC_REG("LoadAlign");
    __asc::put_ttype<T>(c); put_enum(c, mode); put(c, dst); __asc::put_ub(c, src); c.u(blkStride); put(c, mask);
    c.go();
}
template <class T, DataCopyMode mode, PostLiteral post = PostLiteral::POST_MODE_NORMAL, class R, class U>
void LoadAlign(R& dst, U*& src, uint32_t blkStride, uint32_t repStride, MaskReg& mask, ASC_SLP) {
    ASC_REG("LoadAlign");
    __asc::put_ttype<T>(c); put_enum(put_enum(c, mode), post); put(c, dst); __asc::put_ubref(c, src);
    c.u(blkStride).u(repStride); put(c, mask);
    __asc::set_ubref(src, c.go(), 0);
}

template <class T = void, StoreDist dist = StoreDist::DIST_NORM, class U, class R>
void StoreAlign(U* dst, R& src, MaskReg& mask, ASC_SLP) {
    ASC_REG("StoreAlign");
    __asc::put_ttype<T>(c); put_enum(c, dist); __asc::put_ub(c, dst); put(put(c, src), mask); c.go();
}
template <class T = void, StoreDist dist = StoreDist::DIST_NORM, class U, class R>
void StoreAlign(U* dst, R& src, const AddrReg& off, MaskReg& mask, ASC_SLP) {
    ASC_REG("StoreAlign");
    __asc::put_ttype<T>(c); put_enum(c, dist); __asc::put_ub(c, dst); put(put(put(c, src), off), mask); c.go();
}
template <class T = void, StoreDist dist = StoreDist::DIST_NORM, class U, class R>
void StoreAlign(U* dst, R& src0, R& src1, MaskReg& mask, ASC_SLP) {
    ASC_REG("StoreAlign");
    __asc::put_ttype<T>(c); put_enum(c, dist); __asc::put_ub(c, dst); put(put(put(c, src0), src1), mask); c.go();
}
template <class T, PostLiteral post, StoreDist dist = StoreDist::DIST_NORM, class U, class R>
void StoreAlign(U*& dst, R& src, int32_t stride, MaskReg& mask, ASC_SLP) {
    ASC_REG("StoreAlign");
    __asc::put_ttype<T>(c); put_enum(put_enum(c, post), dist); __asc::put_ubref(c, dst); put(c, src);
    c.i(stride); put(c, mask);
    __asc::set_ubref(dst, c.go(), 0);
}
template <class T, DataCopyMode mode, class U, class R>
void StoreAlign(U* dst, R& src, uint32_t blkStride, MaskReg& mask, ASC_SLP) {
    ASC_REG("StoreAlign");
    __asc::put_ttype<T>(c); put_enum(c, mode); __asc::put_ub(c, dst); put(c, src); c.u(blkStride); put(c, mask);
    c.go();
}
template <class T, DataCopyMode mode, PostLiteral post = PostLiteral::POST_MODE_NORMAL, class U, class R>
void StoreAlign(U*& dst, R& src, uint32_t blkStride, uint32_t repStride, MaskReg& mask, ASC_SLP) {
    ASC_REG("StoreAlign");
    __asc::put_ttype<T>(c); put_enum(put_enum(c, mode), post); __asc::put_ubref(c, dst); put(c, src);
    c.u(blkStride).u(repStride); put(c, mask);
    __asc::set_ubref(dst, c.go(), 0);
}

// predicate registers to and from UB (MaskDist)
template <class T = void, MaskDist dist = MaskDist::DIST_NORM, class U>
void LoadAlign(MaskReg& dst, U* src, ASC_SLP) {
    ASC_REG("LoadAlign"); __asc::put_ttype<T>(c); put_enum(c, dist); put(c, dst); __asc::put_ub(c, src); c.go();
}
template <class T = void, MaskDist dist = MaskDist::DIST_NORM, class U>
void StoreAlign(U* dst, MaskReg& src, ASC_SLP) {
    ASC_REG("StoreAlign"); __asc::put_ttype<T>(c); put_enum(c, dist); __asc::put_ub(c, dst); put(c, src); c.go();
}

// the older names: DataCopy(reg, ubuf) loads, DataCopy(ubuf, reg, mask) stores
template <class T = void, LoadDist dist = LoadDist::DIST_NORM, class T2, class Tr, class U>
void DataCopy(RegTensor<T2, Tr>& dst, U* src, ASC_SLP) { LoadAlign<T, dist>(dst, src, loc); }
template <class T = void, StoreDist dist = StoreDist::DIST_NORM, class U, class T2, class Tr>
void DataCopy(U* dst, RegTensor<T2, Tr>& src, MaskReg& mask, ASC_SLP) { StoreAlign<T, dist>(dst, src, mask, loc); }
template <class T, PostLiteral post, LoadDist dist = LoadDist::DIST_NORM, class T2, class Tr, class U>
void DataCopy(RegTensor<T2, Tr>& dst, U*& src, int32_t stride, ASC_SLP) { LoadAlign<T, post, dist>(dst, src, stride, loc); }
template <class T, PostLiteral post, StoreDist dist = StoreDist::DIST_NORM, class U, class T2, class Tr>
void DataCopy(U*& dst, RegTensor<T2, Tr>& src, int32_t stride, MaskReg& mask, ASC_SLP) {
    StoreAlign<T, post, dist>(dst, src, stride, mask, loc);
}

// -- unaligned pairs --------------------------------------------------------------------------------
template <class T = void, class U>
void LoadUnAlignPre(UnalignRegForLoad& u, U* src, ASC_SLP) {
    ASC_REG("LoadUnAlignPre"); __asc::put_ttype<T>(c); put(c, u); __asc::put_ub(c, src); c.go();
}
template <class T = void, class U>
void LoadUnAlignPre(UnalignRegForLoad& u, U* src, const AddrReg& off, ASC_SLP) {
    ASC_REG("LoadUnAlignPre"); __asc::put_ttype<T>(c); put(c, u); __asc::put_ub(c, src); put(c, off); c.go();
}
template <class T = void, class U>
void LoadUnAlignPre(UnalignReg& u, U* src, ASC_SLP) { LoadUnAlignPre<T>(u.ld, src, loc); }
template <class T = void, class R, class U>
void LoadUnAlign(R& dst, UnalignRegForLoad& u, U*& src, uint32_t stride, ASC_SLP) {
    ASC_REG("LoadUnAlign");
    __asc::put_ttype<T>(c); put(put(c, dst), u); __asc::put_ubref(c, src); c.u(stride);
    __asc::set_ubref(src, c.go(), 0);
}
template <class T = void, class R, class U>
void LoadUnAlign(R& dst, UnalignRegForLoad& u, U* src, ASC_SLP) {
    ASC_REG("LoadUnAlign"); __asc::put_ttype<T>(c); put(put(c, dst), u); __asc::put_ub(c, src); c.go();
}
template <class T = void, class R, class U>
void LoadUnAlign(R& dst, UnalignRegForLoad& u, U* src, const AddrReg& off, uint32_t = 0, ASC_SLP) {
    ASC_REG("LoadUnAlign");
    __asc::put_ttype<T>(c); put(put(c, dst), u); __asc::put_ub(c, src); put(c, off); c.go();
}
template <class T = void, class R, class U>
void LoadUnAlign(R& dst, UnalignReg& u, U*& src, uint32_t stride, ASC_SLP) { LoadUnAlign<T>(dst, u.ld, src, stride, loc); }

template <class T = void, class U, class R>
void StoreUnAlign(U*& dst, R& src, UnalignRegForStore& u, uint32_t count, ASC_SLP) {
    ASC_REG("StoreUnAlign");
    __asc::put_ttype<T>(c); __asc::put_ubref(c, dst); put(put(c, src), u); c.u(count);
    __asc::set_ubref(dst, c.go(), 0);
}
template <class T = void, class U, class R>
void StoreUnAlign(U* dst, R& src, UnalignRegForStore& u, const AddrReg& off, ASC_SLP) {
    ASC_REG("StoreUnAlign");
    __asc::put_ttype<T>(c); __asc::put_ub(c, dst); put(put(put(c, src), u), off); c.go();
}
template <class T = void, class U, class R>
void StoreUnAlign(U*& dst, R& src, UnalignReg& u, uint32_t count, ASC_SLP) { StoreUnAlign<T>(dst, src, u.st, count, loc); }
template <class T = void, class U>
void StoreUnAlignPost(U*& dst, UnalignRegForStore& u, int32_t stride, ASC_SLP) {
    ASC_REG("StoreUnAlignPost");
    __asc::put_ttype<T>(c); __asc::put_ubref(c, dst); put(c, u); c.i(stride);
    __asc::set_ubref(dst, c.go(), 0);
}
template <class T = void, class U>
void StoreUnAlignPost(U* dst, UnalignRegForStore& u, const AddrReg& off, ASC_SLP) {
    ASC_REG("StoreUnAlignPost"); __asc::put_ttype<T>(c); __asc::put_ub(c, dst); put(put(c, u), off); c.go();
}
template <class T = void, class U>
void StoreUnAlignPost(U*& dst, UnalignReg& u, int32_t stride, ASC_SLP) { StoreUnAlignPost<T>(dst, u.st, stride, loc); }

}  // namespace AscendC::Reg

#include "asc/reg_compute.h"
