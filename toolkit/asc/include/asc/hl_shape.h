// migrate-check: AscendC::TensorShape, the shape argument of the high-level APIs' host-side queries and
// tiling functions (one class for every family; the bridge sends its dimensions where a query runs in Python,
// see toolkit/ascendc/api/hl_activation.py). GetShapeSize of no dimensions is 0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace AscendC {
class TensorShape {
public:
    TensorShape() = default;
    TensorShape(const std::vector<int64_t>& dims) : dims_(dims) {}
    TensorShape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    const std::vector<int64_t>& GetDims() const { return dims_; }
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    void SetDimNum(size_t n) { dims_.resize(n, 0); }
    void SetDim(size_t idx, int64_t value) { if (idx >= dims_.size()) dims_.resize(idx + 1, 0); dims_[idx] = value; }
    int64_t GetShapeSize() const {
        int64_t n = dims_.empty() ? 0 : 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
private:
    std::vector<int64_t> dims_;
};
}  // namespace AscendC
