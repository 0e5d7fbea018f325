/* The entry point of a program the .asc route links (toolkit/asc/link.py).
 *
 * The program is a shared object that is also an executable: the child (toolkit/asc/child.py) loads it
 * with dlopen and calls its main() under the emulator; run directly (./demo ARGS), the kernel maps it with
 * the dynamic loader named in .interp below, the loader binds it and its libraries and jumps here, before
 * any of the program's own constructors run (the loader leaves those of the main executable to
 * __libc_start_main, which is never called). This entry replaces the process by the migrate-check runner
 * (toolkit.cli.exe_command) with the executable's own path, argv[0] and arguments: the runner runs the
 * program on the emulator and prints its report. Built with -DASC_INTERP, -DASC_PYTHON (the interpreter
 * of the toolkit that built it), -DASC_PKG_ROOT (where its `toolkit` package is) and -DASC_PY_FLAGS. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char __asc_interp[] __attribute__((section(".interp"), used)) = ASC_INTERP;

static const char boot[] =
    "import sys\n"
    "sys.path.insert(0, sys.argv[1]); del sys.argv[1]\n"
    "try:\n"
    "    from toolkit.cli.exe_command import main\n"
    "except ImportError as err:\n"
    "    print(f'migrate-check: error: NO_TOOL: the migrate-check that built this program is gone ({err})',\n"
    "          file=sys.stderr)\n"
    "    sys.exit(2)\n"
    "main(sys.argv[1:])\n";

static void say(const char* a, const char* b) {
    ssize_t ignored = write(2, a, strlen(a));
    ignored = write(2, b, strlen(b));
    ignored = write(2, "\n", 1);
    (void)ignored;
}

/* /proc/self/cmdline: the program's argv as it was started (NUL-separated). */
static char* cmdline(size_t* len) {
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    size_t cap = 4096, n = 0;
    char* buf = malloc(cap);
    if (fd < 0 || !buf) return NULL;
    for (;;) {
        if (n == cap && !(buf = realloc(buf, cap *= 2))) return NULL;
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += (size_t)got;
    }
    close(fd);
    *len = n;
    return buf;
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((force_align_arg_pointer))
#endif
__attribute__((noreturn, used)) void __asc_exe_start(void) {
    static char self[4096];
    ssize_t m = readlink("/proc/self/exe", self, sizeof self - 1);
    size_t len = 0;
    char* args = cmdline(&len);
    if (m <= 0 || !args) {
        say("migrate-check: error: INTERNAL_ERROR: this program cannot read its own path or arguments (/proc)", "");
        _exit(2);
    }
    self[m] = 0;
    size_t count = 0;
    for (size_t i = 0; i < len; i++) count += args[i] == 0;
    char** argv = calloc(count + 8, sizeof(char*));
    if (!argv) _exit(2);
    size_t k = 0;
    argv[k++] = (char*)ASC_PYTHON;
    for (const char* f = ASC_PY_FLAGS; *f; f += strlen(f) + 1) argv[k++] = (char*)f;
    argv[k++] = (char*)"-c";
    argv[k++] = (char*)boot;
    argv[k++] = (char*)ASC_PKG_ROOT;
    argv[k++] = self;
    for (size_t i = 0; i < len; i += strlen(args + i) + 1) argv[k++] = args + i;
    argv[k] = NULL;
    execv(ASC_PYTHON, argv);
    say("migrate-check: error: NO_TOOL: cannot start the migrate-check runner that built this program: "
        ASC_PYTHON ": ", strerror(errno));
    _exit(2);
}
