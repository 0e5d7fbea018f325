// The MemBase (LocalTensor) vector API: each form forwards its arguments to toolkit/membase (one
// implementation of each semantic, shared with the Python kernels).
#pragma once
#include "asc/dma.h"

namespace AscendC {

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
        : dstBlkStride(db), src0BlkStride(s0b), src1BlkStride(s1b), dstRepStride(dr), src0RepStride(s0r),
          src1RepStride(s1r) {}
};
struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr)
        : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1, dstRepStride = 8;
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t b, uint16_t r) : dstBlkStride(b), dstRepStride(r) {}
};
struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 1, src0RepeatStride = 8;
    uint8_t src1RepeatStride = 0;
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t b, uint16_t rep, uint16_t s0r, uint8_t s1r)
        : src0BlockStride(b), repeatTimes(rep), src0RepeatStride(s0r), src1RepeatStride(s1r) {}
};

}  // namespace AscendC

namespace __asc {
inline Call& put(Call& c, const AscendC::BinaryRepeatParams& p) {
    return c.tag(T_STRUCT | (S_BINARY_REPEAT << 8), 6).i(p.dstBlkStride).i(p.src0BlkStride).i(p.src1BlkStride)
        .i(p.dstRepStride).i(p.src0RepStride).i(p.src1RepStride);
}
inline Call& put(Call& c, const AscendC::UnaryRepeatParams& p) {
    return c.tag(T_STRUCT | (S_UNARY_REPEAT << 8), 4).i(p.dstBlkStride).i(p.srcBlkStride).i(p.dstRepStride)
        .i(p.srcRepStride);
}
inline Call& put(Call& c, const AscendC::BrcbRepeatParams& p) {
    return c.tag(T_STRUCT | (S_BRCB_REPEAT << 8), 2).i(p.dstBlkStride).i(p.dstRepStride);
}
inline Call& put(Call& c, const AscendC::GatherMaskParams& p) {
    return c.tag(T_STRUCT | (S_GATHER_MASK << 8), 4).i(p.src0BlockStride).i(p.repeatTimes)
        .i(p.src0RepeatStride).i(p.src1RepeatStride);
}
template <class T>
inline Call& put(Call& c, const AscendC::LocalTensor<T>& t) { return put_local(c, t); }
inline Call& put(Call& c, const uint64_t* mask) { return c.tag(T_U64ARR, (i64)mask[0]).w((i64)mask[1]); }
inline Call& put(Call& c, AscendC::RoundMode m) { return c.earg(enum_id<AscendC::RoundMode>::value, (int)m); }
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half> ||
                                            std::is_same_v<T, bfloat16_t>>>
inline Call& put(Call& c, const T& v) { return c.num(v); }

template <class... A>
inline Ret mb_call(Obj* fn, const SL& loc, const A&... a) {
    Call c(fn, loc);
    (put(c, a), ...);
    return c.go();
}
}  // namespace __asc

#define ASC_MB(NAME, ...) ASC_API("MB." NAME); ::__asc::mb_call(__asc_fn, loc, __VA_ARGS__)

// dst = op(src0, src1): count form and the two level-0 forms (bit mask, continuous mask)
#define ASC_MB_BINARY(NAME)                                                                                  \
    template <class T>                                                                                       \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, int32_t count,     \
              ASC_SLP) { ASC_MB(#NAME, d, a, b, count); }                                                     \
    template <class T, bool isSetMask = true>                                                                \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, const uint64_t mask[],\
              uint8_t rep, const BinaryRepeatParams& p, ASC_SLP) { ASC_MB(#NAME, d, a, b, mask, rep, p); }   \
    template <class T, bool isSetMask = true>                                                                \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, uint64_t mask,      \
              uint8_t rep, const BinaryRepeatParams& p, ASC_SLP) { ASC_MB(#NAME, d, a, b, mask, rep, p); }

// dst = op(src, scalar)
#define ASC_MB_SCALAR(NAME)                                                                                  \
    template <class T, class U>                                                                              \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const U& s, int32_t count, ASC_SLP) {         \
        ASC_MB(#NAME, d, a, (T)s, count); }                                                                  \
    template <class T, class U, bool isSetMask = true>                                                       \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const U& s, const uint64_t mask[], uint8_t rep,\
              const UnaryRepeatParams& p, ASC_SLP) { ASC_MB(#NAME, d, a, (T)s, mask, rep, p); }              \
    template <class T, class U, bool isSetMask = true>                                                       \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const U& s, uint64_t mask, uint8_t rep,      \
              const UnaryRepeatParams& p, ASC_SLP) { ASC_MB(#NAME, d, a, (T)s, mask, rep, p); }

// dst = op(src)
#define ASC_MB_UNARY(NAME)                                                                                   \
    template <class T>                                                                                       \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, int32_t count, ASC_SLP) {                    \
        ASC_MB(#NAME, d, a, count); }                                                                        \
    template <class T, bool isSetMask = true>                                                                \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, const uint64_t mask[], uint8_t rep,          \
              const UnaryRepeatParams& p, ASC_SLP) { ASC_MB(#NAME, d, a, mask, rep, p); }                    \
    template <class T, bool isSetMask = true>                                                                \
    void NAME(const LocalTensor<T>& d, const LocalTensor<T>& a, uint64_t mask, uint8_t rep,                  \
              const UnaryRepeatParams& p, ASC_SLP) { ASC_MB(#NAME, d, a, mask, rep, p); }

namespace AscendC {
ASC_MB_BINARY(Add) ASC_MB_BINARY(Sub) ASC_MB_BINARY(Mul) ASC_MB_BINARY(Div) ASC_MB_BINARY(Max) ASC_MB_BINARY(Min)
ASC_MB_SCALAR(Adds) ASC_MB_SCALAR(Muls) ASC_MB_SCALAR(Maxs) ASC_MB_SCALAR(Mins)
ASC_MB_UNARY(Exp) ASC_MB_UNARY(Sqrt) ASC_MB_UNARY(Abs) ASC_MB_UNARY(Ln) ASC_MB_UNARY(Relu)

template <class T, class U>
void Duplicate(const LocalTensor<T>& d, const U& s, int32_t count, ASC_SLP) { ASC_MB("Duplicate", d, (T)s, count); }
template <class T, class U, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& d, const U& s, const uint64_t mask[], uint8_t rep, uint16_t dstBlk,
               uint8_t dstRep, ASC_SLP) { ASC_MB("Duplicate", d, (T)s, mask, rep, dstBlk, dstRep); }
template <class T, class U, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& d, const U& s, uint64_t mask, uint8_t rep, uint16_t dstBlk, uint8_t dstRep,
               ASC_SLP) { ASC_MB("Duplicate", d, (T)s, mask, rep, dstBlk, dstRep); }

template <class D, class S>
void Cast(const LocalTensor<D>& d, const LocalTensor<S>& s, RoundMode m, uint32_t count, ASC_SLP) {
    ASC_MB("Cast", d, s, m, count); }
template <class D, class S, bool isSetMask = true>
void Cast(const LocalTensor<D>& d, const LocalTensor<S>& s, RoundMode m, const uint64_t mask[], uint8_t rep,
          const UnaryRepeatParams& p, ASC_SLP) { ASC_MB("Cast", d, s, m, mask, rep, p); }
template <class D, class S, bool isSetMask = true>
void Cast(const LocalTensor<D>& d, const LocalTensor<S>& s, RoundMode m, uint64_t mask, uint8_t rep,
          const UnaryRepeatParams& p, ASC_SLP) { ASC_MB("Cast", d, s, m, mask, rep, p); }

template <class D, class S, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<D>& d, const LocalTensor<S>& s, int32_t mask, int32_t rep, int32_t dstRep,
                    int32_t srcBlk, int32_t srcRep, ASC_SLP) { ASC_MB("WholeReduceSum", d, s, mask, rep, dstRep, srcBlk, srcRep); }
template <class D, class S, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<D>& d, const LocalTensor<S>& s, const uint64_t mask[], int32_t rep,
                    int32_t dstRep, int32_t srcBlk, int32_t srcRep, ASC_SLP) {
    ASC_MB("WholeReduceSum", d, s, mask, rep, dstRep, srcBlk, srcRep); }

template <class T>
void Brcb(const LocalTensor<T>& d, const LocalTensor<T>& s, uint8_t rep, const BrcbRepeatParams& p, ASC_SLP) {
    ASC_MB("Brcb", d, s, rep, p); }

template <class T>
void GatherMask(const LocalTensor<T>& d, const LocalTensor<T>& s, uint8_t pattern, bool reduceMode, uint32_t mask,
                const GatherMaskParams& p, uint64_t& rsvdCnt, ASC_SLP) {
    ASC_API("MB.GatherMask");
    __asc::Call c(__asc_fn, loc);
    __asc::put_local(c, d); __asc::put_local(c, s);
    c.i(pattern).b(reduceMode).u(mask);
    __asc::put(c, p).tag(__asc::T_REF | ((long long)__asc::dtype_v<uint64_t> << 8), (long long)rsvdCnt);
    rsvdCnt = (uint64_t)c.go().i(0);
}

// Reductions over a count with a work tensor (library VFs as on dav-3510)
template <class T>
void ReduceMax(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<T>& work, int32_t count,
               bool calIndex = false, ASC_SLP) { ASC_MB("ReduceMax", d, s, work, count, calIndex); }
template <class T>
void ReduceMin(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<T>& work, int32_t count,
               bool calIndex = false, ASC_SLP) { ASC_MB("ReduceMin", d, s, work, count, calIndex); }
template <class T>
void ReduceSum(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<T>& work, int32_t count,
               ASC_SLP) { ASC_MB("ReduceSum", d, s, work, count); }

}  // namespace AscendC
