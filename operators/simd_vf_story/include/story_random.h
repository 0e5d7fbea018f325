// The elemwise and reduce samples' inputs: uniform(-1, 1) floats from std::mt19937 seeded with 0, in draw order
// (kept apart from story_common.h: <random> is the costliest header to compile and broadcast does not need it).
#pragma once
#include <random>
#include <vector>

inline std::vector<float> UniformInputs(size_t count)
{
    std::mt19937 gen(0);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (size_t i = 0; i < count; ++i) {
        v[i] = dist(gen);
    }
    return v;
}
