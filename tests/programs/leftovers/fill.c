/* Writes 1 MiB files into its box as fast as it can (each within the output limit), until
 * the disk says no; prints how many MiB it got. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    static char block[1 << 20];
    char name[32];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 100000; i++) {
        snprintf(name, sizeof name, "f%d", i);
        FILE *file = fopen(name, "w");
        size_t written = file ? fwrite(block, 1, sizeof block, file) : 0;
        if (!file || fclose(file) != 0 || written < sizeof block) {
            printf("%d\n", i);
            return 0;
        }
    }
    puts("100000");
    return 0;
}
