/* The supervisor's start of a case's program without a copy of the supervisor (supervisor.py).
 *
 * os.fork() of the supervisor, a Python process of several MB, copies its page tables, and
 * each page either side then writes is copied on its first write; the child runs Python
 * bytecode up to its exec, then the exec tears its copy down. On a virtual machine whose page
 * tables are expensive to change, that is most of a case's cost beyond the program's own.
 *
 * spawn() prepares everything in the parent, then vfork()s: the child shares the
 * supervisor's memory (nothing is copied) and only makes system calls before it execs: it
 * joins the case's cgroups, takes an IPC namespace of its own, becomes a session leader with
 * default signal handling, takes its stdin, stdout and stderr, closes every other descriptor,
 * takes the case's rlimits, drops to the case's user and execs. The supervisor is single-threaded and blocks every signal across
 * the vfork, so no handler of its own runs in the child.
 *
 * Rootless (isolate), where the program would be the supervisor's own user, the first process
 * is cloned into a pid, mount and IPC namespace of the case's own instead: an init (case_init)
 * that starts the program the same way and returns its wait status once it has ended.
 *
 * The judge starts a sandbox of a case's own the same way (spawn.py, sandbox=1): bubblewrap
 * by vfork, born in the run's cgroup (or joining it first), its session, signals, stdio and
 * descriptors as above, and the case's rlimits, which every process bubblewrap makes inherits:
 * they are in force before the program's first instruction without an exec of prlimit(1). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_JOINS 8
#define MAX_LIMITS 16
#define MAX_CANDIDATES 64
#define MAX_KEEP 8

struct plan {
    int fds[3];
    int joins[MAX_JOINS];
    int n_joins;
    int resources[MAX_LIMITS];
    struct rlimit limits[MAX_LIMITS];
    int n_limits;
    long uid; /* -1: keep the supervisor's */
    const char *cwd;
    char *const *argv;
    char *const *envp;
    const char *candidates[MAX_CANDIDATES];
    int n_candidates;
    int keep[MAX_KEEP];   /* descriptors the program inherits beyond its stdio (start_sandbox) */
    int n_keep;
    int sandbox; /* start_sandbox: bubblewrap itself, its user, capabilities and IPC namespace kept */
    int isolate;          /* a pid and mount namespace of the case's own, under an init of ours */
    char tmp_options[64]; /* the case's /tmp and /dev/shm (isolate) */
    char box_options[64]; /* the tmpfs under the case's /box (isolate), "" for none */
};

/* What the child got to and why it stopped; written by the child, read by the parent once
 * the vfork returns (the memory is shared). */
static volatile int child_errno;
static volatile int child_stage;
/* isolate: the program's wait status, as the case's init saw it (-1 until then) */
static volatile int case_status;

static void __attribute__((noreturn)) fail(int stage) {
    child_stage = stage;
    child_errno = errno;
    _exit(127);
}

/* close_range(2), or one by one on a kernel (or headers) without it. */
static void close_range_of(unsigned int first, unsigned int last) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0U) == 0) return;
#endif
    long top = sysconf(_SC_OPEN_MAX);
    unsigned int end = (unsigned int)(top > 0 && top < (1L << 20) ? top : 65536);
    for (unsigned int fd = first; fd <= last && fd < end; fd++) close((int)fd);
}

/* Every signal to its default, by the raw system call: glibc's sigaction refuses its own two
 * (32 and 33), which an ignoring ancestor would otherwise pass on through the exec. An all-zero
 * kernel sigaction is SIG_DFL with no flags and no mask, whatever its layout. */
static void default_signals(void) {
    static const unsigned long dfl[8];
    int i;
    for (i = 1; i < NSIG; i++) {
        if (i != SIGKILL && i != SIGSTOP) syscall(SYS_rt_sigaction, i, dfl, NULL, (size_t)(NSIG / 8));
    }
}

/* Every descriptor from 3 up closed, but the kept ones (sorted, each at least 3), which lose
 * their close-on-exec flag: the child has a copy of the descriptor table, not the parent's. */
static void close_others(const struct plan *plan) {
    unsigned int from = 3;
    int i;
    for (i = 0; i < plan->n_keep; i++) {
        unsigned int fd = (unsigned int)plan->keep[i];
        if (fcntl((int)fd, F_SETFD, 0) != 0) fail(3);
        if (fd > from) close_range_of(from, fd - 1);
        from = fd + 1;
    }
    close_range_of(from, ~0U);
}

/* Between vfork and exec: system calls only (no malloc, no locks, no Python). */
static void __attribute__((noinline, noreturn)) child(const struct plan *plan) {
    int i;
    for (i = 0; i < plan->n_joins; i++) {
        /* "0" moves the writer into the group; its page faults count from here */
        if (write(plan->joins[i], "0", 1) != 1) fail(1);
    }
    /* SysV IPC and POSIX message queues of the case's own, gone with its last process (an
     * isolated case's init made them already): nothing it queues reaches the next case */
    if (!plan->isolate && !plan->sandbox && unshare(CLONE_NEWIPC) != 0) fail(10);
    if (setsid() < 0) fail(2);
    default_signals();
    for (i = 0; i < 3; i++) {
        if (dup2(plan->fds[i], i) < 0) fail(3);
    }
    close_others(plan);
    for (i = 0; i < plan->n_limits; i++) {
        if (setrlimit(plan->resources[i], &plan->limits[i]) != 0) fail(4);
    }
    if (plan->sandbox) {
        /* bubblewrap changes nothing of its own user: setpriv (as root) or its user namespace does */
    } else if (plan->uid >= 0) {
        /* raw system calls: glibc's wrappers would signal every thread of the (shared) process */
        if (syscall(SYS_setgroups, 0, NULL) != 0) fail(5);
        if (syscall(SYS_setresgid, plan->uid, plan->uid, plan->uid) != 0) fail(5);
        if (syscall(SYS_setresuid, plan->uid, plan->uid, plan->uid) != 0) fail(5);
    } else {
        /* The supervisor's own user (rootless): no capability may reach the program, neither
         * its own set, nor the ambient one bubblewrap gave, nor a file's at exec. */
        struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
        struct __user_cap_data_struct none[2];
        memset(none, 0, sizeof none);
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(5);
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) fail(5);
        if (syscall(SYS_capset, &header, none) != 0) fail(5);
    }
    if (chdir(plan->cwd) != 0) fail(6);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int saved = 0;
    for (i = 0; i < plan->n_candidates; i++) {
        execve(plan->candidates[i], plan->argv, plan->envp);
        /* as os.execvpe: a missing file tries the next directory; another error is kept */
        if (errno != ENOENT && errno != ENOTDIR && saved == 0) saved = errno;
    }
    if (saved != 0) errno = saved;
    fail(7);
}

/* A list of bytes as a NULL-ended array of char* (pointing into the bytes objects). */
static char **strings(PyObject *list, Py_ssize_t *count) {
    Py_ssize_t n = PyList_Size(list), i;
    if (n < 0) return NULL;
    char **out = PyMem_Calloc((size_t)n + 1, sizeof(char *));
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        if (!PyBytes_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "expected a list of bytes");
            PyMem_Free(out);
            return NULL;
        }
        out[i] = PyBytes_AS_STRING(item);
    }
    if (count != NULL) *count = n;
    return out;
}

/* isolate: the first process of the case's namespaces (its pid 1), still in the supervisor's
 * memory. It mounts the case's own /proc (only the case's processes in it), /tmp and /dev/shm,
 * starts the program by vfork, reaps whatever is orphaned to it, and once the program has
 * ended hands its wait status over and exits, which kills whatever of the case is left. As
 * pid 1 the program itself would ignore the signals it sends itself (abort's SIGABRT). */
static const char *COVERED[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"};
static const char *FRESH[] = {"/tmp", "/dev/shm"};

/* isolate: the box as an overlay, the build below (read-only to the overlay) and a capped tmpfs
 * of the case's own above, where whatever the case writes goes: counted in its cgroup, capped,
 * and gone with its mount namespace. The tmpfs is mounted on a stage in the fresh /tmp, then
 * detached from there (the overlay keeps it), so the program never sees it. Best effort: a
 * kernel that refuses an overlay in a user namespace (before 5.11) leaves the box on disk. */
static const char *STAGE = "/tmp/.judge-box";
static const char *OVERLAY[] = {
    "lowerdir=/box,upperdir=/tmp/.judge-box/upper,workdir=/tmp/.judge-box/work,userxattr",
    "lowerdir=/box,upperdir=/tmp/.judge-box/upper,workdir=/tmp/.judge-box/work"};

static void overlay_box(const struct plan *plan) {
    int i;
    if (plan->box_options[0] == 0 || mkdir(STAGE, 0700) != 0) return;
    if (mount("tmpfs", STAGE, "tmpfs", MS_NOSUID | MS_NODEV, plan->box_options) == 0) {
        if (mkdir("/tmp/.judge-box/upper", 0777) == 0 && chmod("/tmp/.judge-box/upper", 0777) == 0 &&
            mkdir("/tmp/.judge-box/work", 0700) == 0) {
            for (i = 0; i < 2; i++) {
                if (mount("overlay", "/box", "overlay", MS_NOSUID | MS_NODEV, OVERLAY[i]) == 0) break;
            }
        }
        umount2(STAGE, MNT_DETACH);
    }
    rmdir(STAGE);
}

static int case_init(void *arg) {
    const struct plan *plan = arg;
    int i, status;
    default_signals(); /* no handler of the supervisor's may run here */
    const unsigned long hidden = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (mount("proc", "/proc", "proc", hidden, NULL) != 0) fail(8);
    for (i = 0; i < (int)(sizeof COVERED / sizeof *COVERED); i++) { /* read-only, as bubblewrap has them */
        if (mount(COVERED[i], COVERED[i], NULL, MS_BIND | MS_REC, NULL) != 0) {
            if (errno == ENOENT) continue;
            fail(8);
        }
        if (mount(NULL, COVERED[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | hidden, NULL) != 0) fail(8);
    }
    for (i = 0; i < 2; i++) {
        if (mount("tmpfs", FRESH[i], "tmpfs", MS_NOSUID | MS_NODEV, plan->tmp_options) != 0) fail(8);
    }
    overlay_box(plan);
    pid_t program = vfork();
    if (program == 0) child(plan);
    if (program < 0) fail(9);
#ifdef SYS_close_range
    syscall(SYS_close_range, 0U, ~0U, 0U); /* nothing of the supervisor's stays open here */
#endif
    for (;;) {
        pid_t ended = wait4(-1, &status, __WALL, NULL);
        if (ended == program) {
            case_status = status;
            _exit(0);
        }
        if (ended < 0 && errno != EINTR) _exit(127);
    }
}

#define INIT_STACK (256 * 1024)

static const char *STAGES[] = {"",
                               "join its cgroup",
                               "start a session",
                               "take its stdio",
                               "set its limits",
                               "change user",
                               "enter its folder",
                               "exec",
                               "mount its /proc, /tmp and /dev/shm", /* the case's init (isolate) */
                               "start",
                               "make its IPC namespace"};

PyDoc_STRVAR(spawn_doc,
             "spawn(argv, envp, candidates, cwd, uid, fds, joins, rlimits, isolate=0, tmp_bytes=0, box_bytes=0,\n"
             "      keep=[], sandbox=0)\n"
             "-> (pid, errno, stage, status)\n\n"
             "Start argv (bytes) from the first executable of candidates that runs. errno is 0 when it\n"
             "was executed; else the child has exited with 127 and stage says where it failed.\n"
             "isolate: the program runs in a pid and mount namespace of its own under an init, and\n"
             "the call returns once it has ended, with its wait status (else status is -1); box_bytes > 0\n"
             "makes its /box an overlay with a tmpfs of that size above the build. keep: descriptors\n"
             "(ascending, 3 or above) left open for the program. sandbox: the program is bubblewrap itself\n"
             "(a sandbox per case, spawn.py): its user, capabilities and IPC namespace stay the caller's,\n"
             "uid is not used, and the rlimits it takes are inherited by every process of the sandbox.");

/* The descriptors kept open across the exec: ascending, each 3 or above (stdio is dup2'ed). */
static int read_keep(PyObject *list, struct plan *plan) {
    Py_ssize_t i, n = PyList_GET_SIZE(list);
    if (n > MAX_KEEP) {
        PyErr_SetString(PyExc_ValueError, "too many descriptors to keep");
        return -1;
    }
    for (i = 0; i < n; i++) {
        long fd = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (fd == -1 && PyErr_Occurred()) return -1;
        if (fd < 3 || fd > INT32_MAX || (i > 0 && fd <= plan->keep[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "descriptors to keep: ascending, each 3 or above");
            return -1;
        }
        plan->keep[i] = (int)fd;
    }
    plan->n_keep = (int)n;
    return 0;
}

static PyObject *spawn(PyObject *self, PyObject *args) {
    PyObject *argv_list, *env_list, *cand_list, *joins_list, *limits_list, *keep_list = NULL;
    const char *cwd;
    long uid;
    long long tmp_bytes = 0, box_bytes = 0;
    struct plan plan;
    memset(&plan, 0, sizeof plan);
    if (!PyArg_ParseTuple(args, "O!O!O!yl(iii)O!O!|pLLO!p", &PyList_Type, &argv_list, &PyList_Type, &env_list,
                          &PyList_Type, &cand_list, &cwd, &uid, &plan.fds[0], &plan.fds[1], &plan.fds[2], &PyList_Type,
                          &joins_list, &PyList_Type, &limits_list, &plan.isolate, &tmp_bytes, &box_bytes,
                          &PyList_Type, &keep_list, &plan.sandbox))
        return NULL;
    if (plan.sandbox && plan.isolate) {
        PyErr_SetString(PyExc_ValueError, "a sandbox's start is never isolated");
        return NULL;
    }
    if (keep_list != NULL && read_keep(keep_list, &plan) != 0) return NULL;
    snprintf(plan.tmp_options, sizeof plan.tmp_options, "size=%lld,mode=1777", tmp_bytes);
    if (box_bytes > 0) snprintf(plan.box_options, sizeof plan.box_options, "size=%lld,mode=0755", box_bytes);
    Py_ssize_t i, n;
    for (i = 0; i < 3; i++) {
        if (plan.fds[i] < 3) {
            PyErr_SetString(PyExc_ValueError, "stdio descriptors must be 3 or above");
            return NULL;
        }
    }
    n = PyList_GET_SIZE(joins_list);
    if (n > MAX_JOINS) {
        PyErr_SetString(PyExc_ValueError, "too many cgroup files");
        return NULL;
    }
    for (i = 0; i < n; i++) {
        plan.joins[i] = (int)PyLong_AsLong(PyList_GET_ITEM(joins_list, i));
        if (PyErr_Occurred()) return NULL;
    }
    plan.n_joins = (int)n;
    n = PyList_GET_SIZE(limits_list);
    if (n > MAX_LIMITS) {
        PyErr_SetString(PyExc_ValueError, "too many rlimits");
        return NULL;
    }
    for (i = 0; i < n; i++) {
        long long soft, hard;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(limits_list, i), "iLL", &plan.resources[i], &soft, &hard)) return NULL;
        plan.limits[i].rlim_cur = soft < 0 ? RLIM_INFINITY : (rlim_t)soft;
        plan.limits[i].rlim_max = hard < 0 ? RLIM_INFINITY : (rlim_t)hard;
    }
    plan.n_limits = (int)n;
    n = PyList_GET_SIZE(cand_list);
    if (n < 1 || n > MAX_CANDIDATES) {
        PyErr_SetString(PyExc_ValueError, "between 1 and 64 candidates");
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(cand_list, i);
        if (!PyBytes_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "expected a list of bytes");
            return NULL;
        }
        plan.candidates[i] = PyBytes_AS_STRING(item);
    }
    plan.n_candidates = (int)n;
    plan.uid = uid;
    plan.cwd = cwd;
    char **argv = strings(argv_list, &n);
    if (argv == NULL) return NULL;
    if (n < 1) {
        PyMem_Free(argv);
        PyErr_SetString(PyExc_ValueError, "an empty argv");
        return NULL;
    }
    char **envp = strings(env_list, NULL);
    if (envp == NULL) {
        PyMem_Free(argv);
        return NULL;
    }
    plan.argv = argv;
    plan.envp = envp;

    char *stack = NULL;
    if (plan.isolate && (stack = PyMem_Malloc(INIT_STACK)) == NULL) {
        PyMem_Free(argv);
        PyMem_Free(envp);
        return PyErr_NoMemory();
    }

    sigset_t all, old;
    sigfillset(&all);
    child_errno = 0;
    child_stage = 0;
    case_status = -1;
    int status = -1, err = 0;
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid;
    if (plan.isolate) {
        /* CLONE_VFORK: back here once the init has exited, that is once the case has ended */
        pid = clone(case_init, stack + INIT_STACK,
                    CLONE_VM | CLONE_VFORK | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | SIGCHLD, &plan);
        err = errno;
        if (pid > 0) {
            int init_status = 0;
            while (waitpid(pid, &init_status, __WALL) < 0 && errno == EINTR) {
            }
            /* an init that failed or was killed before it could say: its own end is the case's */
            status = case_status >= 0 ? case_status : init_status;
        }
    } else {
        pid = vfork();
        if (pid == 0) child(&plan);
        err = errno;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    PyMem_Free(argv);
    PyMem_Free(envp);
    PyMem_Free(stack);
    if (pid < 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return Py_BuildValue("(iisi)", (int)pid, child_errno, STAGES[child_stage], status);
}

static PyMethodDef methods[] = {{"spawn", spawn, METH_VARARGS, spawn_doc}, {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastspawn",
                                    "A case's program started by vfork (see the C source).", -1, methods};

PyMODINIT_FUNC PyInit__fastspawn(void) {
    PyObject *made = PyModule_Create(&module);
    /* spawn() takes keep and sandbox (the judge's start of a sandbox per case): spawn.py asks */
    if (made != NULL && PyModule_AddIntConstant(made, "SANDBOX_START", 1) != 0) Py_CLEAR(made);
    return made;
}
