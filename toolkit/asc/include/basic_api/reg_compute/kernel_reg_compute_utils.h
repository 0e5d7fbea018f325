// Reg types and enums (the vendor header of the same path only makes them visible).
#pragma once
#include "kernel_operator.h"
