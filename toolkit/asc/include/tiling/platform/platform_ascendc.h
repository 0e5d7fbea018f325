#pragma once
#include "../../platform/platform_ascendc.h"
