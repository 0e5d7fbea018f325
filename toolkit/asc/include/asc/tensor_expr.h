// The whole-tensor operator forms of the basic API: ``dst = src0 + src1`` (Add, Sub, Mul, Div, And, Or) and
// ``dst = src0 < src1`` (Compare, every CMPMODE). The operator builds a small expression value; assigning
// it to a LocalTensor runs the named API over the whole tensor: the arithmetic forms over dst's element
// count, the comparisons over src0's (dst then holds one bit per element). Declared as forms of those
// ApiDefs (toolkit/ascendc/api/membase*.py), so coverage and the emulated semantics are the ordinary ones.
#pragma once

namespace AscendC {
namespace __texpr {
enum class Op { ADD, SUB, MUL, DIV, AND, OR };

template <class T, Op O>
struct Binary {
    using IsTensorExpr = void;
    LocalTensor<T> a, b;
    void Assign(const LocalTensor<T>& dst) const {
        const int32_t n = (int32_t)dst.GetSize();
        if constexpr (O == Op::ADD) Add(dst, a, b, n);
        else if constexpr (O == Op::SUB) Sub(dst, a, b, n);
        else if constexpr (O == Op::MUL) Mul(dst, a, b, n);
        else if constexpr (O == Op::DIV) Div(dst, a, b, n);
        else if constexpr (O == Op::AND) And(dst, a, b, n);
        else Or(dst, a, b, n);
    }
};

template <class T>
struct Cmp {
    using IsTensorExpr = void;
    LocalTensor<T> a, b;
    CMPMODE mode;
    template <class U>
    void Assign(const LocalTensor<U>& dst) const { Compare(dst, a, b, mode, (uint32_t)a.GetSize()); }
};
}  // namespace __texpr

template <class T> __texpr::Binary<T, __texpr::Op::ADD> operator+(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <class T> __texpr::Binary<T, __texpr::Op::SUB> operator-(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <class T> __texpr::Binary<T, __texpr::Op::MUL> operator*(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <class T> __texpr::Binary<T, __texpr::Op::DIV> operator/(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <class T> __texpr::Binary<T, __texpr::Op::AND> operator&(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <class T> __texpr::Binary<T, __texpr::Op::OR> operator|(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <class T> __texpr::Cmp<T> operator<(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b, CMPMODE::LT}; }
template <class T> __texpr::Cmp<T> operator>(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b, CMPMODE::GT}; }
template <class T> __texpr::Cmp<T> operator<=(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b, CMPMODE::LE}; }
template <class T> __texpr::Cmp<T> operator>=(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b, CMPMODE::GE}; }
template <class T> __texpr::Cmp<T> operator==(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b, CMPMODE::EQ}; }
template <class T> __texpr::Cmp<T> operator!=(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b, CMPMODE::NE}; }
}  // namespace AscendC
