// migrate-check's ACL runtime: device memory is the emulator's GM; launches run on the emulator.
#pragma once
#include "acl/acl_rt.h"
