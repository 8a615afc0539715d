/* One program, every verdict: the first word of the input says what to do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    char mode[16], arg[4096];
    if (scanf("%15s", mode) != 1) return 2;
    if (!strcmp(mode, "add")) { long long a, b; scanf("%lld %lld", &a, &b); printf("%lld\n", a + b); }
    else if (!strcmp(mode, "loop")) { volatile unsigned long x = 0; for (;;) x++; }
    else if (!strcmp(mode, "alloc")) { long n; scanf("%ld", &n); char *p = malloc(n << 20); if (!p) return 3; memset(p, 1, n << 20); printf("%d\n", p[n]); }
    else if (!strcmp(mode, "crash")) { abort(); }
    else if (!strcmp(mode, "peek")) { scanf("%4095s", arg); FILE *f = fopen(arg, "r"); if (!f) return 4; int c; while ((c = fgetc(f)) != EOF) putchar(c); }
    return 0;
}
