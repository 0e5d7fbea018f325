// RegBase compute: element-wise, Duplicate, Select, compares, Arange, Gather, reductions, Cast, LocalMemBar.
#pragma once
#include "asc/regtypes.h"

namespace AscendC::Reg {
using __asc::put;
using __asc::put_enum;

#define ASC_REG_BINARY(NAME)                                                                          \
    template <class T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R>                   \
    void NAME(R& d, R& a, R& b, MaskReg& m, ASC_SLP) {                                                \
        ASC_REG(#NAME); __asc::put_ttype<T>(c); put_enum(c, mode); put(put(put(put(c, d), a), b), m); c.go(); }
#define ASC_REG_SCALAR(NAME)                                                                          \
    template <class T = void, class U = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R, class S, \
              ASC_NOT_REG(S)>                                                                         \
    void NAME(R& d, R& a, S s, MaskReg& m, ASC_SLP) {                                                 \
        using E = elem_t<T, R>;                                                                       \
        ASC_REG(#NAME); __asc::put_ttype<T>(c); put_enum(c, mode); put(put(c, d), a); c.num((E)s); put(c, m); \
        c.go(); }
#define ASC_REG_UNARY(NAME)                                                                           \
    template <class T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R>                   \
    void NAME(R& d, R& a, MaskReg& m, ASC_SLP) {                                                      \
        ASC_REG(#NAME); __asc::put_ttype<T>(c); put_enum(c, mode); put(put(put(c, d), a), m); c.go(); }

ASC_REG_BINARY(Add) ASC_REG_BINARY(Sub) ASC_REG_BINARY(Mul) ASC_REG_BINARY(Div) ASC_REG_BINARY(Max)
ASC_REG_BINARY(Min) ASC_REG_BINARY(Mula)
ASC_REG_SCALAR(Adds) ASC_REG_SCALAR(Muls) ASC_REG_SCALAR(Maxs) ASC_REG_SCALAR(Mins)
ASC_REG_UNARY(Exp) ASC_REG_UNARY(Sqrt) ASC_REG_UNARY(Abs) ASC_REG_UNARY(Ln) ASC_REG_UNARY(Relu)
#undef ASC_REG_BINARY
#undef ASC_REG_SCALAR
#undef ASC_REG_UNARY

// Duplicate(dst, scalar); Duplicate<T, mode>(dst, scalar, mask); Duplicate<T, LOWEST, mode>(dst, srcReg, mask)
template <class T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R, class S, ASC_NOT_REG(S)>
void Duplicate(R& d, S s, ASC_SLP) {
    ASC_REG("Duplicate"); __asc::put_ttype<T>(c); put_enum(c, mode); put(c, d); c.num((elem_t<T, R>)s); c.go();
}
template <class T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R, class S, ASC_NOT_REG(S)>
void Duplicate(R& d, S s, MaskReg& m, ASC_SLP) {
    ASC_REG("Duplicate"); __asc::put_ttype<T>(c); put_enum(c, mode); put(c, d); c.num((elem_t<T, R>)s); put(c, m);
    c.go();
}
template <class T = void, HighLowPart part = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class R>
void Duplicate(R& d, R& src, MaskReg& m, ASC_SLP) {
    ASC_REG("Duplicate");
    __asc::put_ttype<T>(c); put_enum(put_enum(c, part), mode); put(put(put(c, d), src), m); c.go();
}

template <class T = void, class R>
void Select(R& d, R& a, R& b, MaskReg& m, ASC_SLP) {
    ASC_REG("Select"); __asc::put_ttype<T>(c); put(put(put(put(c, d), a), b), m); c.go();
}
template <class T = void, CMPMODE mode = CMPMODE::EQ, class R>
void Compare(MaskReg& d, R& a, R& b, MaskReg& m, ASC_SLP) {
    ASC_REG("Compare"); __asc::put_ttype<T>(c); put_enum(c, mode); put(put(put(put(c, d), a), b), m); c.go();
}
template <class T = void, CMPMODE mode = CMPMODE::EQ, class R, class S, ASC_NOT_REG(S)>
void CompareScalar(MaskReg& d, R& a, S s, MaskReg& m, ASC_SLP) {
    ASC_REG("CompareScalar");
    __asc::put_ttype<T>(c); put_enum(c, mode); put(put(c, d), a); c.num((elem_t<T, R>)s); put(c, m); c.go();
}
template <class T = void, CMPMODE mode = CMPMODE::EQ, class R, class S, ASC_NOT_REG(S)>
void Compares(MaskReg& d, R& a, S s, MaskReg& m, ASC_SLP) { CompareScalar<T, mode>(d, a, s, m, loc); }

template <class T = void, IndexOrder order = IndexOrder::INCREASE_ORDER, class R, class S, ASC_NOT_REG(S)>
void Arange(R& d, S start, ASC_SLP) {
    ASC_REG("Arange"); __asc::put_ttype<T>(c); put_enum(c, order); put(c, d); c.num((elem_t<T, R>)start); c.go();
}
// Gather(dst, srcReg, indexReg, mask): lanes picked from a register; Gather(dst, ubuf, indexReg, mask): from UB
template <class T = void, class R, class RI>
void Gather(R& d, R& src, RI& index, MaskReg& m, ASC_SLP) {
    ASC_REG("Gather"); __asc::put_ttype<T>(c); put(put(put(put(c, d), src), index), m); c.go();
}
template <class T = void, class R, class U, class RI>
void Gather(R& d, U* base, RI& index, MaskReg& m, ASC_SLP) {
    ASC_REG("Gather"); __asc::put_ttype<T>(c); put(c, d); __asc::put_ub(c, base); put(put(c, index), m); c.go();
}

template <ReduceType type, class T = void, class U = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R>
void Reduce(R& d, R& a, MaskReg& m, ASC_SLP) {
    ASC_REG("Reduce"); put_enum(c, type); __asc::put_ttype<T>(c); put_enum(c, mode); put(put(put(c, d), a), m); c.go();
}
#define ASC_REG_REDUCE(NAME)                                                                          \
    template <class T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, class R>                   \
    void NAME(R& d, R& a, MaskReg& m, ASC_SLP) {                                                      \
        ASC_REG(#NAME); __asc::put_ttype<T>(c); put_enum(c, mode); put(put(put(c, d), a), m); c.go(); }
ASC_REG_REDUCE(ReduceSum) ASC_REG_REDUCE(ReduceMax) ASC_REG_REDUCE(ReduceMin)
#undef ASC_REG_REDUCE

template <class D = void, class S = void, CastTrait trait = CastTrait{}, class RD, class RS>
void Cast(RD& d, RS& s, MaskReg& m, ASC_SLP) {
    ASC_REG("Cast");
    __asc::put_ttype<elem_t<D, RD>>(c); __asc::put_ttype<elem_t<S, RS>>(c); __asc::put_trait(c, trait);
    put(put(put(c, d), s), m);
    c.go();
}

template <MemType src = MemType::VEC_STORE, MemType dst = MemType::VEC_LOAD>
void LocalMemBar(ASC_SLP) {
    ASC_REG("LocalMemBar"); put_enum(put_enum(c, src), dst); c.go();
}

}  // namespace AscendC::Reg
