// The high-level reductions (高阶API/归约操作), Arange (索引计算) and PhiloxRandom (随机函数): the hand-written
// part around the generated wrappers (gen/hl_reduce.h, gen/hl_reduce_pattern.h, gen/hl_index_random.h; the
// ReduceSum / ReduceMax / ReduceMin pattern forms are in gen/membase_reduce.h). Each call runs
// toolkit/ascendc/highlevel/{reduce,reduce_pattern,index_random}.py.
#pragma once
#include <cstdint>
#include "asc/hl_shape.h"

namespace AscendC {
// the reduce axes as a type (template <class T, class pattern, ...>): ID is the ReducePattern value sent
namespace Pattern {
namespace Reduce {
struct AR { static constexpr int ID = 0; };
struct RA { static constexpr int ID = 1; };
}  // namespace Reduce
}  // namespace Pattern
using PhiloxKey = uint32_t[2];
using PhiloxCounter = uint32_t[4];
}  // namespace AscendC

namespace __asc {
// PhiloxCounter: four words as two 64-bit halves (words 0 | 1 << 32, words 2 | 3 << 32)
inline Call& put(Call& c, const uint32_t (&v)[4])
{
    return c.tag(T_U64ARR, (i64)((uint64_t)v[0] | ((uint64_t)v[1] << 32)))
        .w((i64)((uint64_t)v[2] | ((uint64_t)v[3] << 32)));
}
}  // namespace __asc

#include "asc/gen/hl_reduce.h"
#include "asc/gen/hl_reduce_pattern.h"
#include "asc/gen/hl_index_random.h"
