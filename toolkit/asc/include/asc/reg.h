// The RegBase API (AscendC::Reg, alias MicroAPI): every call runs toolkit/ascendc/regbase's implementation.
// Generated from toolkit/ascendc/api/reg_*.py.
#pragma once
#include "asc/regtypes.h"
#include "asc/regmodes.h"

#define ASC_NOT_REG(S) std::enable_if_t<!::AscendC::Reg::is_reg<std::decay_t<S>>::value, int> = 0

#include "asc/gen/reg_mask.h"
#include "asc/gen/reg_datamove.h"
#include "asc/gen/reg_compute.h"
#include "asc/gen/reg_logic.h"
#include "asc/gen/reg_fused.h"
#include "asc/gen/reg_relayout.h"
