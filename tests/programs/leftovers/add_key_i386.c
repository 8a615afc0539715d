/* add_key through the i386 system call ABI (int 0x80, call 286) from a 64-bit program: the
 * filter must refuse it there too (EPERM, -1), not let it through nor kill the program. */
#include <stdio.h>

static char type[] = "user", description[] = "judge-i386", payload[] = "v";

int main(void) {
    long result;
    __asm__ volatile("int $0x80"
                     : "=a"(result)
                     : "a"(286L), "b"((long)type), "c"((long)description), "d"((long)payload), "S"(1L), "D"(-4L)
                     : "memory");
    printf("%ld\n", result);
    return 0;
}
