// migrate-check .asc runtime: linked into every program the runner builds. The program is loaded into a
// Python child process (toolkit/asc/child.py) that holds the GIL while main() runs; each API call here
// becomes one call of toolkit.asc.bridge.dispatch. Only functions of CPython's stable ABI are used,
// declared below, so no Python headers are needed to build a program.
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <cxxabi.h>
#include <unistd.h>

#include "kernel_operator.h"
#include "acl/acl.h"
#include "platform/platform_ascendc.h"

extern "C" {
typedef struct _object PyObject;
typedef long Py_ssize_t_;
PyObject* PyImport_ImportModule(const char* name);
PyObject* PyObject_GetAttrString(PyObject* o, const char* name);
PyObject* PyObject_Call(PyObject* callable, PyObject* args, PyObject* kwargs);
PyObject* PyTuple_New(Py_ssize_t_ n);
int PyTuple_SetItem(PyObject* t, Py_ssize_t_ i, PyObject* o);
PyObject* PyTuple_GetItem(PyObject* t, Py_ssize_t_ i);
PyObject* PyLong_FromLongLong(long long v);
PyObject* PyFloat_FromDouble(double v);
PyObject* PyUnicode_FromString(const char* s);
PyObject* PyUnicode_DecodeFSDefault(const char* s);
PyObject* PyLong_FromUnsignedLongLong(unsigned long long v);
long long PyLong_AsLongLong(PyObject* o);
double PyFloat_AsDouble(PyObject* o);
PyObject* PyErr_Occurred(void);
void PyErr_Clear(void);
void PyErr_Print(void);
void Py_IncRef(PyObject* o);
void Py_DecRef(PyObject* o);
}

namespace __asc {
void write_status(const char* what);           // the one status line of a crash, a stop or an internal error
unsigned char* ub_base = nullptr;
long long scalar_reads = 0;

namespace {
PyObject* g_bridge = nullptr;
PyObject* g_dispatch = nullptr;
PyObject* g_abort = nullptr;
std::unordered_map<const void*, long long> g_files;
const void* g_last_file_ptr = nullptr;
long long g_last_file_id = -1;
// The program's site the runtime is at: its last API call, or the VF / loop / launch it entered. The
// crash and timeout reports name it, and a call the runtime makes on the program's behalf (a destructor,
// a VF gate, a loop guard) is reported there, never at a line of ours.
const char* g_cur_file = "?";
unsigned g_cur_line = 0;
const char* g_cur_kind = "api";
const char* g_cur_kernel = nullptr;
long long g_cur_core = -1;

#ifndef __ASC_PKG_DIR
#define __ASC_PKG_DIR "/nonexistent"
#endif
bool internal_file(const char* f) {           // our runtime and headers (toolkit/asc/...)
    static const size_t n = std::strlen(__ASC_PKG_DIR);
    return std::strncmp(f, __ASC_PKG_DIR, n) == 0 && f[n] == '/';
}
void at_site(const char* file, unsigned line, const char* kind) {
    g_cur_file = file;
    g_cur_line = line;
    g_cur_kind = kind;
}
[[noreturn]] void fatal(const char* what) {
    if (PyErr_Occurred()) PyErr_Print();       // into the child's Python stderr: the tool's channel
    std::string line = std::string("internal error: ") + what;
    write_status(line.c_str());
    std::fflush(nullptr);
    std::_Exit(70);
}

PyObject* bridge() {
    if (!g_bridge) {
        g_bridge = PyImport_ImportModule("toolkit.asc.bridge");
        if (!g_bridge) fatal("cannot import toolkit.asc.bridge");
        g_dispatch = PyObject_GetAttrString(g_bridge, "dispatch");
        g_abort = PyObject_GetAttrString(g_bridge, "ABORT");
        if (!g_dispatch || !g_abort) fatal("toolkit.asc.bridge lacks dispatch/ABORT");
    }
    return g_bridge;
}

long long file_id(const char* file) {
    if (file == g_last_file_ptr) return g_last_file_id;
    auto it = g_files.find(file);
    long long id;
    if (it != g_files.end()) {
        id = it->second;
    } else {
        PyObject* fn = PyObject_GetAttrString(bridge(), "register_file");
        PyObject* args = PyTuple_New(1);
        PyTuple_SetItem(args, 0, PyUnicode_DecodeFSDefault(file));   // any bytes: a path, a name
        PyObject* r = PyObject_Call(fn, args, nullptr);
        Py_DecRef(args);
        Py_DecRef(fn);
        if (!r) fatal("register_file failed");
        id = PyLong_AsLongLong(r);
        Py_DecRef(r);
        g_files.emplace(file, id);
    }
    g_last_file_ptr = file;
    g_last_file_id = id;
    return id;
}
}  // namespace

Obj* api(const char* name) {
    PyObject* fn = PyObject_GetAttrString(bridge(), "resolve");
    PyObject* args = PyTuple_New(1);
    PyTuple_SetItem(args, 0, PyUnicode_FromString(name));
    PyObject* r = PyObject_Call(fn, args, nullptr);
    Py_DecRef(args);
    Py_DecRef(fn);
    if (!r) fatal("resolve failed");
    return (Obj*)r;      // kept for the life of the process
}

Ret Call::go() {
    bridge();
    const char* file = loc_.file_name();
    unsigned line = loc_.line();
    if (internal_file(file)) {
        file = g_cur_file;
        line = g_cur_line;
    } else {
        at_site(file, line, "api");
    }
    PyObject* t = PyTuple_New(3 + n_);
    Py_IncRef((PyObject*)fn_);
    PyTuple_SetItem(t, 0, (PyObject*)fn_);
    PyTuple_SetItem(t, 1, PyLong_FromLongLong(file_id(file)));
    PyTuple_SetItem(t, 2, PyLong_FromLongLong(line));
    for (int k = 0; k < n_; ++k)
        PyTuple_SetItem(t, 3 + k, words_[k].is_float ? PyFloat_FromDouble(words_[k].d)
                                                     : PyLong_FromLongLong(words_[k].i));
    PyObject* r = PyObject_Call(g_dispatch, t, nullptr);
    Py_DecRef(t);
    if (!r) fatal("internal error in the emulator bridge");
    if (r == g_abort) {
        Py_DecRef(r);
        throw Abort{};
    }
    return Ret((Obj*)r);
}

Ret::~Ret() { if (o) Py_DecRef((PyObject*)o); }

i64 Ret::i(int k) const {
    PyObject* v = k < 0 ? (PyObject*)o : PyTuple_GetItem((PyObject*)o, k);
    long long x = v ? PyLong_AsLongLong(v) : 0;
    if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    return x;
}

double Ret::f(int k) const {
    PyObject* v = k < 0 ? (PyObject*)o : PyTuple_GetItem((PyObject*)o, k);
    double x = v ? PyFloat_AsDouble(v) : 0.0;
    if (PyErr_Occurred()) { PyErr_Clear(); return 0.0; }
    return x;
}

namespace {
Ret rt(const char* name, std::initializer_list<i64> ints, const SL& loc = SL::current()) {
    static std::unordered_map<std::string, Obj*> cache;
    auto it = cache.find(name);
    Obj* fn = it != cache.end() ? it->second : (cache[name] = api(name));
    Call c(fn, loc);
    for (i64 v : ints) c.i(v);
    return c.go();
}
}  // namespace

i64 object_new(const char* kind, const SL& loc, i64 a, i64 b) {
    return rt("rt.new", {file_id(kind), a, b}, loc).i();
}
void object_free(i64 h) {
    try { rt("rt.free", {h}); } catch (const Abort&) {}
}
i64 object_copy(i64 h) { return rt("rt.copy", {h}).i(); }

// -- VFs and loops --------------------------------------------------------------------------------
unsigned long long ub_lo = 0, ub_hi = 0;

void VfGate::open(const char* name, int nparams, int no_fusion, const char* file, int line, bool keyable,
                  const std::string& key) {
    SL loc = SL::current();
    at_site(file, (unsigned)line, "vf");
    h_ = rt("rt.vf_begin", {file_id(name), nparams, no_fusion, file_id(file), line, keyable ? 1 : 0,
                            (i64)(uintptr_t)key.data(), (i64)key.size()}, loc).i();
}
VfGate::~VfGate() {
    if (!h_) return;
    bool unwinding = std::uncaught_exceptions() > exceptions_;
    try { rt("rt.vf_end", {h_, unwinding ? 1 : 0}); } catch (const Abort&) {
        if (!unwinding) std::fprintf(stderr, "migrate-check runtime: VF ended with an abort\n");
    }
}
VfLoop::VfLoop(int hardware, int unroll, const char* reason, const char* file, int line) {
    at_site(file, (unsigned)line, "loop");
    h_ = rt("rt.loop_begin", {hardware, unroll, file_id(reason), file_id(file), line}).i();
}
VfLoop::~VfLoop() {
    if (h_) try { rt("rt.loop_end", {h_}); } catch (const Abort&) {}
}
void VfLoop::iterate() { rt("rt.loop_iter", {h_}); }
void vf_call_site(const char* file, int line, int nargs, int scalar_args) {
    rt("rt.vf_call_site", {file_id(file), line, nargs, scalar_args});
}

// -- launches -------------------------------------------------------------------------------------
namespace {
const char* g_launch_file = "?";
unsigned g_launch_line = 0;
}  // namespace
i64 launch_begin(const char* name, const char* file, int line, unsigned block_dim) {
    g_cur_kernel = name;
    g_launch_file = file;
    g_launch_line = (unsigned)line;
    at_site(file, (unsigned)line, "launch");
    return rt("rt.launch_begin", {file_id(name), file_id(file), line, (i64)block_dim}).i();
}
void launch_run(i64 launch, void* body) {
    at_site(g_launch_file, g_launch_line, "launch");
    rt("rt.launch_run", {launch, (i64)(uintptr_t)body});
}
void launch_arg_ptr(i64 launch, int index, i64 addr, int dtype) {
    rt("rt.launch_arg", {launch, index, addr, dtype});
}
void launch_end(i64 launch) {
    at_site(g_launch_file, g_launch_line, "launch");
    rt("rt.launch_end", {launch});
    at_site(g_launch_file, g_launch_line, "after-launch");
    g_cur_kernel = nullptr;
    g_cur_core = -1;
}

uint16_t f32_to_f16(float f) {
    uint32_t x = f2bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t mag = x & 0x7FFFFFFFu;
    if (mag > 0x7F800000u) return (uint16_t)(sign | 0x7E00u);                  // NaN
    if (mag >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);                 // overflow (RNE) -> inf
    if (mag < 0x38800000u) {                                                   // subnormal or zero
        if (mag < 0x33000000u) return (uint16_t)sign;
        uint32_t m = (mag & 0x7FFFFFu) | 0x800000u;
        int shift = 126 - (int)(mag >> 23);
        uint32_t half_ulp = 1u << (shift - 1), rem = m & ((1u << shift) - 1);
        uint32_t r = m >> shift;
        if (rem > half_ulp || (rem == half_ulp && (r & 1u))) ++r;
        return (uint16_t)(sign | r);
    }
    uint32_t r = mag - 0x38000000u;                                            // rebias 127 -> 15
    uint32_t rem = r & 0x1FFFu;
    r >>= 13;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return (uint16_t)(sign | r);
}
float f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F) return bits2f(sign | 0x7F800000u | (m << 13));
    if (e == 0) {
        if (!m) return bits2f(sign);
        float v = std::ldexp((float)m, -24);
        return sign ? -v : v;
    }
    return bits2f(sign | ((e + 112) << 23) | (m << 13));
}
}  // namespace __asc

// -- ACL runtime ----------------------------------------------------------------------------------
namespace {
__asc::Ret acl(const char* name, std::initializer_list<long long> ints) {
    static std::unordered_map<std::string, __asc::Obj*> cache;
    auto it = cache.find(name);
    __asc::Obj* fn = it != cache.end() ? it->second : (cache[name] = __asc::api(name));
    __asc::SL loc = __asc::SL::current();
    __asc::Call c(fn, loc);
    for (long long v : ints) c.i(v);
    return c.go();
}
int g_stream_token = 0;
}  // namespace

aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtGetDevice(int32_t* id) { if (id) *id = 0; return ACL_SUCCESS; }
aclError aclrtGetDeviceCount(uint32_t* n) { if (n) *n = 1; return ACL_SUCCESS; }
aclError aclrtCreateContext(aclrtContext* c, int32_t) { if (c) *c = &g_stream_token; return ACL_SUCCESS; }
aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
aclError aclrtCreateStream(aclrtStream* s) { if (s) *s = &g_stream_token; return ACL_SUCCESS; }
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
// Device memory is host memory the emulator manages (toolkit.asc.program.device_alloc): a request it
// cannot meet is ACL_ERROR_BAD_ALLOC, as on the device, with *p set to nullptr.
aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    static PyObject* alloc = nullptr;
    if (!alloc) {
        PyObject* mod = PyImport_ImportModule("toolkit.asc.program");
        alloc = mod ? PyObject_GetAttrString(mod, "device_alloc") : nullptr;
        if (!alloc) __asc::fatal("toolkit.asc.program lacks device_alloc");
    }
    PyObject* args = PyTuple_New(1);
    PyTuple_SetItem(args, 0, PyLong_FromUnsignedLongLong((unsigned long long)size));
    PyObject* r = PyObject_Call(alloc, args, nullptr);
    Py_DecRef(args);
    if (!r) __asc::fatal("device_alloc failed");
    long long addr = PyLong_AsLongLong(r);
    Py_DecRef(r);
    if (PyErr_Occurred()) { PyErr_Clear(); addr = 0; }
    *p = (void*)(uintptr_t)addr;
    return addr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
aclError aclrtFree(void* p) { return (aclError)acl("rt.gm_free", {(long long)(uintptr_t)p}).i(); }
aclError aclrtMallocHost(void** p, size_t size) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    *p = std::malloc(size ? size : 1);
    return *p ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
aclError aclrtFreeHost(void* p) { std::free(p); return ACL_SUCCESS; }
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    return (aclError)acl("rt.memcpy", {(long long)(uintptr_t)dst, (long long)destMax, (long long)(uintptr_t)src,
                                       (long long)count, (long long)kind}).i();
}
aclError aclrtMemset(void* p, size_t maxCount, int32_t value, size_t count) {
    return (aclError)acl("rt.memset", {(long long)(uintptr_t)p, (long long)maxCount, value, (long long)count}).i();
}
const char* aclGetRecentErrMsg() { return ""; }
float aclFloat16ToFloat(aclFloat16 v) { return __asc::f16_to_f32(v); }
aclFloat16 aclFloatToFloat16(float v) { return __asc::f32_to_f16(v); }

namespace platform_ascendc {
uint32_t PlatformAscendC::GetCoreNumAiv() const { return (uint32_t)acl("rt.platform", {0}).i(); }
uint32_t PlatformAscendC::GetCoreNumAic() const { return (uint32_t)acl("rt.platform", {1}).i(); }
void PlatformAscendC::GetCoreMemSize(const CoreMemType t, uint64_t& size) const {
    size = (uint64_t)acl("rt.platform", {2, (long long)t}).i();
}
PlatformAscendC* PlatformAscendCManager::GetInstance() {
    static PlatformAscendC inst;
    return &inst;
}
}  // namespace platform_ascendc

// -- crash reports --------------------------------------------------------------------------------
namespace {
int status_fd() {
    static int fd = [] { const char* s = std::getenv("ASC_STATUS_FD"); return s ? std::atoi(s) : 2; }();
    return fd;
}
}  // namespace
// One line: what, file, line, kernel, core, the kind of site (api/vf/loop/launch); async-signal-safe.
void __asc::write_status(const char* what) {
    char buf[4096];
    int n = std::snprintf(buf, sizeof buf, "%s\t%s\t%u\t%s\t%lld\t%s\n", what, __asc::g_cur_file, __asc::g_cur_line,
                          __asc::g_cur_kernel ? __asc::g_cur_kernel : "", __asc::g_cur_core, __asc::g_cur_kind);
    if (n > 0) (void)!::write(status_fd(), buf, (size_t)(n < (int)sizeof buf ? n : (int)sizeof buf - 1));
}
namespace {
using __asc::write_status;
void on_signal(int sig) {
    write_status(sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE"
                 : sig == SIGILL ? "SIGILL" : "SIGABRT");
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
void on_terminate() {
    std::string what = "uncaught exception";
    if (auto eptr = std::current_exception()) {
        try { std::rethrow_exception(eptr); }
        catch (const std::exception& e) { what = std::string("uncaught exception: ") + e.what(); }
        catch (...) {
            const std::type_info* t = abi::__cxa_current_exception_type();
            what = std::string("uncaught exception of type ") + (t ? t->name() : "?");
        }
    }
    for (char& ch : what) if (ch == '\t' || ch == '\n') ch = ' ';
    write_status(what.c_str());
    std::signal(SIGABRT, SIG_DFL);
    std::abort();
}
void on_usr1(int) { write_status("stopped"); }
struct Install {
    Install() {
        std::signal(SIGUSR1, on_usr1);
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, on_signal);
        std::set_terminate(on_terminate);
    }
} g_install;
}  // namespace

extern "C" void __asc_flush_stdio() { std::fflush(nullptr); }

// The launch driver (toolkit/asc/program.py LaunchState.run) runs each core through these.
extern "C" int __asc_run_core(void* body, unsigned core) { return (*(std::function<int(unsigned)>*)body)(core); }
extern "C" void __asc_set_core(long long core, unsigned char* ub) {   // the core about to run (-1: none)
    __asc::g_cur_core = core;
    __asc::ub_base = ub;
}
extern "C" void __asc_set_ub_span(unsigned long long lo, unsigned long long hi) { __asc::ub_lo = lo; __asc::ub_hi = hi; }
