// The MemBase (LocalTensor) vector API: each form forwards its arguments to toolkit/ascendc/membase (one
// implementation of each semantic, shared with the Python kernels). Generated from toolkit/ascendc/api/membase.py.
#pragma once
#include "asc/dma.h"
#include "asc/gen/membase.h"
