/* The page cache as a channel from a secret case to a later run (docs/sandbox.md, "The page
 * cache"). Its input says which side it plays:
 *   w PATH HEX   a secret case: it reads one page of PATH for each bit of HEX that is set
 *                (page i for bit i, readahead off), which brings those pages into the cache;
 *   t PATH HEX   the same from one thread per CPU, each kept to its CPU, the program ending
 *                on the first: the last pages a CPU read in wait in its batch on their way to
 *                the lists the kernel reclaims from (the judge must drain those too);
 *   r PATH BITS  a later run (a sample case of another submission, whose output its student
 *                sees): it times a one-byte read of each of the first BITS pages and prints 1
 *                for each page that answered at once (cached) and 0 for one that had to be
 *                read, as hex digits, then how many of each and their median times;
 *   d PATH HEX   a secret case that writes into the dentry cache instead: it looks up NAMES
 *                names that do not exist (PATH-i-0, PATH-i-1, ...) for each bit i that is set;
 *   l PATH BITS  the later run: it times the look-ups of each bit's names and prints 1 for the
 *                bits faster than halfway between the quartiles of all (the kernel remembered
 *                those names were missing), then the quartiles;
 *   anything else: nothing.
 * A cached page answers in about 1 us; one read from a disk in 48 us or more. A name the
 * kernel remembers is missing is told in about a microsecond less than one it must look for. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_BITS 4096
#define THRESHOLD_NS 15000
#define NAMES 64

static long now_ns(void) {
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    return at.tv_sec * 1000000000L + at.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int bit_of(const char *secret, size_t i) {
    char digit = secret[i / 4];
    int value = digit <= '9' ? digit - '0' : (digit | 0x20) - 'a' + 10;
    return value >> (3 - i % 4) & 1;
}

struct writer {
    int fd, cpu, cpus;
    long page;
    const char *secret;
};

/* The set bits i with i % cpus == cpu (all of them for one CPU), each as page i. */
static void *write_share(void *arg) {
    struct writer *w = arg;
    char byte;
    for (size_t i = (size_t)w->cpu; i < 4 * strlen(w->secret) && i < MAX_BITS; i += (size_t)w->cpus) {
        if (bit_of(w->secret, i) && pread(w->fd, &byte, 1, (off_t)i * w->page) != 1) return w;
    }
    return NULL;
}

static void keep_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set); /* refused where the case may not use that CPU: fine */
}

static void *write_on_cpu(void *arg) {
    keep_to(((struct writer *)arg)->cpu);
    return write_share(arg);
}

static int write_bits(int fd, long page, const char *secret, int threaded) {
    int cpus = threaded ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
    struct writer shares[64];
    pthread_t threads[64];
    int failed = 0;
    if (cpus < 1 || cpus > 64) cpus = 1;
    for (int cpu = 0; cpu < cpus; cpu++) shares[cpu] = (struct writer){fd, cpu, cpus, page, secret};
    if (!threaded) {
        failed = write_share(&shares[0]) != NULL;
    } else {
        for (int cpu = 0; cpu < cpus; cpu++)
            if (pthread_create(&threads[cpu], NULL, write_on_cpu, &shares[cpu])) return 5;
        for (int cpu = 0; cpu < cpus; cpu++) {
            void *result;
            pthread_join(threads[cpu], &result);
            failed |= result != NULL;
        }
        keep_to(0);
    }
    if (failed) return 4;
    printf("written\n");
    return 0;
}

static int read_bits(int fd, long page, int bits) {
    static long times[MAX_BITS], fast[MAX_BITS], slow[MAX_BITS];
    int nfast = 0, nslow = 0;
    char byte;
    if (bits <= 0 || bits > MAX_BITS || bits % 4) return 2;
    for (int i = 0; i < bits; i++) {
        long start = now_ns();
        if (pread(fd, &byte, 1, (off_t)i * page) != 1) return 4;
        times[i] = now_ns() - start;
    }
    for (int i = 0; i < bits; i += 4) {
        int digit = 0;
        for (int j = i; j < i + 4; j++) digit = digit << 1 | (times[j] < THRESHOLD_NS);
        putchar("0123456789abcdef"[digit]);
    }
    for (int i = 0; i < bits; i++) {
        if (times[i] < THRESHOLD_NS) fast[nfast++] = times[i];
        else slow[nslow++] = times[i];
    }
    qsort(fast, nfast, sizeof(long), by_value);
    qsort(slow, nslow, sizeof(long), by_value);
    printf("\ncached %d median %ld ns; uncached %d median %ld ns\n", nfast, nfast ? fast[nfast / 2] : 0L, nslow,
           nslow ? slow[nslow / 2] : 0L);
    return 0;
}

static long look_up(const char *prefix, size_t bit) {
    char name[4200];
    struct stat status;
    long start = now_ns();
    for (int j = 0; j < NAMES; j++) {
        snprintf(name, sizeof name, "%s-%zu-%d", prefix, bit, j);
        stat(name, &status);
    }
    return now_ns() - start;
}

static int names(const char *prefix, const char *what, int writes) {
    static long times[MAX_BITS], sorted[MAX_BITS];
    if (writes) {
        for (size_t i = 0; i < 4 * strlen(what) && i < MAX_BITS; i++)
            if (bit_of(what, i)) look_up(prefix, i);
        printf("written\n");
        return 0;
    }
    int bits = atoi(what);
    if (bits <= 0 || bits > MAX_BITS || bits % 4) return 2;
    for (int i = 0; i < bits; i++) sorted[i] = times[i] = look_up(prefix, (size_t)i);
    qsort(sorted, bits, sizeof(long), by_value);
    long low = sorted[bits / 4], high = sorted[3 * bits / 4], middle = (low + high) / 2;
    for (int i = 0; i < bits; i += 4) {
        int digit = 0;
        for (int j = i; j < i + 4; j++) digit = digit << 1 | (times[j] < middle);
        putchar("0123456789abcdef"[digit]);
    }
    printf("\nquartiles %ld %ld ns per %d look-ups\n", low, high, NAMES);
    return 0;
}

int main(void) {
    char side[8], path[4096], what[1100];
    if (scanf("%7s %4095s %1099s", side, path, what) != 3) {
        printf("nothing\n");
        return 0;
    }
    if (side[0] == 'd' || side[0] == 'l') return names(path, what, side[0] == 'd');
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return 3;
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM); /* one page per read: no readahead */
    long page = sysconf(_SC_PAGESIZE);
    if (side[0] == 'w' || side[0] == 't') return write_bits(fd, page, what, side[0] == 't');
    if (side[0] == 'r') return read_bits(fd, page, atoi(what));
    return 2;
}
