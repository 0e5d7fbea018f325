// The C API names (asc_*): each is the composition of the C++ API calls it stands for, run by the same
// emulator functions (toolkit/ascendc/capi.py). Generated from toolkit/ascendc/api/capi.py.
#pragma once
#include "asc/dma.h"
#include "asc/gen/capi.h"
