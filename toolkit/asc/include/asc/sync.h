// Synchronisation: SetFlag / WaitFlag / PipeBarrier, TQueSync, Mutex, SyncAll and the cross-core flags.
// The calls are generated from toolkit/ascendc/api/sync.py; the types and the two classes are here.
#pragma once
#include "asc/pipe.h"

namespace AscendC {
using MutexID = uint8_t;
// SyncAll<isAIVOnly, config>(): the pipes that signal and wait (the emulator drains the core either way)
struct SyncAllConfig {
    pipe_t triggerPipe;
    pipe_t waitPipe;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

// TQueSync<src, dst>: SetFlag / WaitFlag of one pipe edge (an emulator object knows the edge)
template <pipe_t src, pipe_t dst>
class TQueSync : public __asc_Handle {
public:
    explicit TQueSync(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TQueSync", loc, (long long)src, (long long)dst);
    }
#include "asc/gen/TQueSync.inc"
};
}  // namespace AscendC

#include "asc/gen/sync.h"

namespace AscendC {
// Mutex::Lock / Unlock (static members, as in the vendor headers): the emulated forms are AscendC::Lock /
// AscendC::Unlock (declared in toolkit/ascendc/api/sync.py).
class Mutex {
public:
    template <pipe_t pipe>
    static void Lock(MutexID id, ASC_SLP) { ::AscendC::Lock<pipe>(id, loc); }
    template <pipe_t pipe>
    static void Unlock(MutexID id, ASC_SLP) { ::AscendC::Unlock<pipe>(id, loc); }
};
}  // namespace AscendC

#include "asc/gen/crosscore.h"
