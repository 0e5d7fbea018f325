// Auxiliary data structures (declared in toolkit/ascendc/api/tensor.py): Shape / Stride / Coord tuples,
// Layout and Crd2Idx (coordinates, nested shapes and the column-major delinearisation of the Crd2Idx page),
// TensorTrait, TensorDesc and the complex types. Compile-time C++: no emulator state.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include "asc/tensor.h"

namespace AscendC {
namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
template <size_t v>
using Int = std::integral_constant<size_t, v>;
}  // namespace Std

template <class... Ts> using Shape = Std::tuple<Ts...>;
template <class... Ts> using Stride = Std::tuple<Ts...>;
template <class... Ts> using Coord = Std::tuple<Ts...>;
template <class... Ts> __aicore__ constexpr inline Shape<Ts...> MakeShape(const Ts&... t) { return {t...}; }
template <class... Ts> __aicore__ constexpr inline Stride<Ts...> MakeStride(const Ts&... t) { return {t...}; }
template <class... Ts> __aicore__ constexpr inline Coord<Ts...> MakeCoord(const Ts&... t) { return {t...}; }

namespace __detail {
template <class T> struct is_tuple : std::false_type {};
template <class... Ts> struct is_tuple<std::tuple<Ts...>> : std::true_type {};
// the number of elements a (nested) shape spans
template <class S>
constexpr size_t shape_size(const S& s) {
    if constexpr (is_tuple<S>::value)
        return std::apply([](const auto&... d) { return (size_t(1) * ... * shape_size(d)); }, s);
    else
        return (size_t)s;
}
template <class C, class S, class D>
constexpr size_t crd2idx(const C& c, const S& s, const D& d);
// a linear coordinate over a tuple shape: delinearised, the first dimension fastest; the last dimension
// takes the whole quotient (the Crd2Idx page's example: 11 over (2, 4) is (1, 5))
template <size_t I, class S, class D>
constexpr size_t delinearize(size_t c, const S& s, const D& d) {
    if constexpr (I + 1 == std::tuple_size_v<S>) {
        return crd2idx(c, std::get<I>(s), std::get<I>(d));
    } else {
        size_t n = shape_size(std::get<I>(s));
        return crd2idx(c % n, std::get<I>(s), std::get<I>(d)) + delinearize<I + 1>(c / n, s, d);
    }
}
template <class C, class S, class D, size_t... I>
constexpr size_t crd2idx_each(const C& c, const S& s, const D& d, std::index_sequence<I...>) {
    return (size_t(0) + ... + crd2idx(std::get<I>(c), std::get<I>(s), std::get<I>(d)));
}
template <class C, class S, class D>
constexpr size_t crd2idx(const C& c, const S& s, const D& d) {
    if constexpr (is_tuple<C>::value)
        return crd2idx_each(c, s, d, std::make_index_sequence<std::tuple_size_v<C>>{});
    else if constexpr (is_tuple<S>::value) {
        if constexpr (std::tuple_size_v<S> > 0) return delinearize<0>((size_t)c, s, d);
        else return (size_t)0;
    }
    else
        return (size_t)c * (size_t)d;
}
}  // namespace __detail

template <class ShapeType, class StrideType>
struct Layout : private Std::tuple<ShapeType, StrideType> {
    __aicore__ constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
        : Std::tuple<ShapeType, StrideType>(shape, stride) {}
    using Base = Std::tuple<ShapeType, StrideType>;
    __aicore__ constexpr Layout& layout() { return *this; }
    __aicore__ constexpr const Layout& layout() const { return *this; }
    __aicore__ constexpr ShapeType& GetShape() { return std::get<0>(static_cast<Base&>(*this)); }
    __aicore__ constexpr const ShapeType& GetShape() const { return std::get<0>(static_cast<const Base&>(*this)); }
    __aicore__ constexpr StrideType& GetStride() { return std::get<1>(static_cast<Base&>(*this)); }
    __aicore__ constexpr const StrideType& GetStride() const { return std::get<1>(static_cast<const Base&>(*this)); }
    template <class CoordType>
    __aicore__ constexpr auto operator()(const CoordType& coord) const {
        return __detail::crd2idx(coord, GetShape(), GetStride());
    }
};
template <class ShapeType, class StrideType>
__aicore__ constexpr inline auto MakeLayout(const ShapeType& shape, const StrideType& stride) {
    return Layout<ShapeType, StrideType>(shape, stride);
}
template <class T> struct is_layout : std::false_type {};
template <class S, class D> struct is_layout<Layout<S, D>> : std::true_type {};

// Crd2Idx: Index = sum of coordinate * stride over the (nested) dimensions
template <class CoordType, class ShapeType, class StrideType>
__aicore__ constexpr inline auto Crd2Idx(const CoordType& coord, const Layout<ShapeType, StrideType>& layout) {
    return __detail::crd2idx(coord, layout.GetShape(), layout.GetStride());
}
template <class CoordType, class ShapeType, class StrideType>
__aicore__ constexpr inline auto Crd2Idx(const CoordType& coord, const ShapeType& shape, const StrideType& stride) {
    return __detail::crd2idx(coord, shape, stride);
}
// The catalog files Coord / MakeCoord / Crd2Idx under "Coordinate": the same functions by that name too
namespace Coordinate {
template <class... Ts> using Coord = ::AscendC::Coord<Ts...>;
template <class... Ts> __aicore__ constexpr inline auto MakeCoord(const Ts&... t) { return ::AscendC::MakeCoord(t...); }
template <class C, class S, class D>
__aicore__ constexpr inline auto Crd2Idx(const C& coord, const S& shape, const D& stride) {
    return ::AscendC::Crd2Idx(coord, shape, stride);
}
}  // namespace Coordinate

// TensorTrait<T, pos, LayoutType>: a tensor's element type, position and layout
template <class T, TPosition pos = TPosition::GM, class LayoutType = Layout<Shape<>, Stride<>>>
struct TensorTrait {
    using LiteType = T;
    using LiteLayoutType = LayoutType;
    static constexpr const TPosition tPos = pos;
    __aicore__ inline TensorTrait(const LayoutType& t = {}) : layout_(t) {}
    __aicore__ inline LayoutType& GetLayout() { return layout_; }
    __aicore__ inline const LayoutType& GetLayout() const { return layout_; }
    __aicore__ inline void SetLayout(const LayoutType& t) { layout_ = t; }

private:
    LayoutType layout_;
};
template <class T, TPosition pos, class LayoutType>
__aicore__ constexpr inline auto MakeTensorTrait(const LayoutType& t) { return TensorTrait<T, pos, LayoutType>(t); }
template <class T> struct is_tensorTrait : std::false_type {};
template <class T, TPosition pos, class L> struct is_tensorTrait<TensorTrait<T, pos, L>> : std::true_type {};

// TensorDesc<T>: a tensor of a ListTensorDesc (its shape words and data pointer, filled by the caller)
template <class T>
class TensorDesc {
public:
    TensorDesc() = default;
    ~TensorDesc() = default;
    void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return shape_ ? shape_[0] & 0xFFFFFFFFu : 0; }
    uint64_t GetIndex() { return shape_ ? shape_[0] >> 32 : 0; }
    uint64_t GetShape(uint32_t offset) { return shape_ ? shape_[offset + 1] : 0; }
    T* GetDataPtr() { return data_; }
    GlobalTensor<T> GetDataObj() {
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)data_);
        return g;
    }
    uint64_t* shape_ = nullptr;
    T* data_ = nullptr;
};

// Complex<T> (half or float): complex32 / complex64
template <class T>
struct Complex {
    T real{};
    T imag{};
    Complex() = default;
    Complex(T r, T i = T(0)) : real(r), imag(i) {}
};
}  // namespace AscendC

using complex32 = AscendC::Complex<half>;
using complex64 = AscendC::Complex<float>;
