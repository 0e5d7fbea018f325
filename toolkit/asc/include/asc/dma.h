// Parameter structs, DataCopy / DataCopyPad (GM <-> UB), SetFlag / WaitFlag / PipeBarrier and the system
// values: all generated from toolkit/ascendc/api (names.py, datamove.py).
#pragma once
#include "asc/pipe.h"
#include "asc/gen/structs.h"
#include "asc/gen/datamove.h"
#include "asc/gen/sync.h"
#include "asc/gen/system.h"
