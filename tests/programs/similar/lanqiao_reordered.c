// Lanqiao nine grid. Idea: plain BFS over the 9! arrangements.
#include <stdio.h>
#include <string.h>

static int code(const char *s);

static signed char dist[362880];   // -1 = not visited yet
static char queue[362880][9];
static const int fact[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};

int main(void)
{
    char a[16], b[16];
    if (scanf("%15s %15s", a, b) != 2)
        return 0;
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0, depth = 0;
    memcpy(queue[tail++], a, 9);
    dist[code(a)] = 0;
    while (head < tail)
    {
        char *s = queue[head++];
        depth = dist[code(s)];
        if (memcmp(s, b, 9) == 0)
            break;
        int x = strchr(s, '.') ? (int)(strchr(s, '.') - s) : 0;
        int moves[4] = {x - 3, x + 3, x % 3 ? x - 1 : -1, x % 3 < 2 ? x + 1 : -1};
        for (int k = 0; k < 4; k++)
        {
            int n = moves[k];
            if (n < 0 || n > 8)
                continue;
            char t[9];
            memcpy(t, s, 9);
            t[x] = t[n];
            t[n] = '.';
            int c = code(t);
            if (dist[c] < 0)
            {
                dist[c] = (signed char)(depth + 1);
                memcpy(queue[tail++], t, 9);
            }
        }
    }
    printf("%d\n", depth);
    return 0;
}

/* rank of a board among all 9! orderings (Cantor expansion) */
static int code(const char *s)
{
    int c = 0;
    for (int i = 0; i < 9; i++)
    {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++)
            smaller += s[j] < s[i];
        c += smaller * fact[i];
    }
    return c;
}
