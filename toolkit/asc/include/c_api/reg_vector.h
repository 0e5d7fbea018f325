// migrate-check's c_api/reg_vector.h: the C API register family (one header here: asc/capireg.h).
#pragma once
#include "kernel_operator.h"
#include "asc/capireg.h"
