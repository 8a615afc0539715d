/* Wrong answer: prints 0 for every case. */
#include <stdio.h>
int main(void) { int v; while (scanf("%d", &v) == 1) { for (int i = 1; i < 9; i++) scanf("%d", &v); puts("0"); } return 0; }
