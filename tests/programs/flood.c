/* Output limit: prints forever. */
#include <stdio.h>
int main(void) { for (;;) fputs("0 0 0 0 0 0 0 0\n", stdout); }
