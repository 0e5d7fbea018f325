// The vendor's C API header (C-API/README: `#include "c_api/asc_simd.h"`): the asc_* functions, types and
// constants of migrate-check's headers. The C API calls run the same emulator functions as the C++ API
// (asc/capi.h and the headers of the C-API/reg family it includes), so the C++ API is visible here too.
#pragma once
#include "kernel_operator.h"
#include "asc/capi.h"
#include "asc/capireg.h"
