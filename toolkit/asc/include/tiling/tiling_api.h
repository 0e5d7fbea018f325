// migrate-check's tiling/tiling_api.h: the host-side tiling and temporary-space queries of the high-level
// APIs (Get<Api>MaxMinTmpSize ...), declared with the kernel API.
#pragma once
#include "kernel_operator.h"
