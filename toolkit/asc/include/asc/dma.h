// Parameter structs, DataCopy / DataCopyPad (GM <-> UB, UB <-> UB), synchronisation (asc/sync.h), atomics,
// the system values and registers, scalar computation and cache control: generated from toolkit/ascendc/api
// (names.py, datamove.py, sync.py, atomic.py, system.py).
#pragma once
#include "asc/pipe.h"
#include "asc/gen/structs.h"
#include "asc/gen/datamove.h"
#include "asc/sync.h"
#include "asc/gen/system.h"
#include "asc/gen/atomic.h"
#include "asc/gen/scalar.h"
#include "asc/gen/spr.h"
#include "asc/gen/cache.h"
