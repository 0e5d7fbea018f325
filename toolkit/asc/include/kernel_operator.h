// migrate-check's kernel_operator.h: the Ascend C kernel API, run by the migrate-check emulator.
#pragma once
#include <cstdint>
#include <cstddef>
#include <cmath>
#include <type_traits>
#include "asc/types.h"
#include "asc/enums.h"
#include "asc/tensor.h"
#include "asc/pipe.h"
#include "asc/dma.h"
#include "asc/membase.h"
#include "asc/regtypes.h"
#include "asc/reg.h"
#include "asc/vf.h"
#include "asc/capi.h"
#include "asc/sysapi.h"
#include "asc/debug.h"
