/* The judge's harness of a C function: one call's arguments (JSON) in, the student's function
   called with C's types (a list as a pointer and its length), and what came of it written after
   a mark as the last line of stdout (harness_python.py's protocol). main.c, made from the
   signature, includes this file and then the student's (solution.h). The expected value is
   never here: the judge compares outside the sandbox. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct jh_value {
    char kind; /* n(ull) b(ool) d(igits) s(tring) a(rray) o(bject) */
    bool flag;
    char *text;
    struct jh_value *items;
    int count;
} jh_value;

static const char *jh_at;

static void jh_space(void) { while (*jh_at && isspace((unsigned char)*jh_at)) jh_at++; }

static char *jh_string(void) {
    size_t size = strlen(jh_at) + 1, n = 0;
    char *out = malloc(size);
    jh_at++;
    while (*jh_at && *jh_at != '"') {
        char c = *jh_at++;
        if (c != '\\') { out[n++] = c; continue; }
        char e = *jh_at++;
        if (e == 'n') out[n++] = '\n'; else if (e == 't') out[n++] = '\t'; else if (e == 'r') out[n++] = '\r';
        else if (e == 'b') out[n++] = '\b'; else if (e == 'f') out[n++] = '\f';
        else if (e == 'u') {
            char hex[5] = {0};
            memcpy(hex, jh_at, 4);
            unsigned code = (unsigned)strtoul(hex, NULL, 16);
            jh_at += 4;
            if (code < 0x80) out[n++] = (char)code;
            else if (code < 0x800) { out[n++] = (char)(0xC0 | (code >> 6)); out[n++] = (char)(0x80 | (code & 63)); }
            else {
                out[n++] = (char)(0xE0 | (code >> 12)); out[n++] = (char)(0x80 | ((code >> 6) & 63));
                out[n++] = (char)(0x80 | (code & 63));
            }
        } else out[n++] = e;
    }
    jh_at++;
    out[n] = 0;
    return out;
}

static jh_value jh_parse(void) {
    jh_value v = {'n', false, NULL, NULL, 0};
    jh_space();
    char c = *jh_at;
    if (c == 'n') jh_at += 4;
    else if (c == 't') { v.kind = 'b'; v.flag = true; jh_at += 4; }
    else if (c == 'f') { v.kind = 'b'; jh_at += 5; }
    else if (c == '"') { v.kind = 's'; v.text = jh_string(); }
    else if (c == '[' || c == '{') {
        v.kind = c == '[' ? 'a' : 'o';
        char end = c == '[' ? ']' : '}';
        int room = 8;
        v.items = malloc(sizeof(jh_value) * room);
        jh_at++;
        jh_space();
        if (*jh_at == end) { jh_at++; return v; }
        for (;;) {
            if (v.count + 2 > room) { room *= 2; v.items = realloc(v.items, sizeof(jh_value) * room); }
            if (v.kind == 'o') { jh_space(); v.items[v.count].kind = 's'; v.items[v.count++].text = jh_string(); jh_space(); jh_at++; }
            v.items[v.count++] = jh_parse();
            jh_space();
            if (*jh_at++ == end) break;
        }
    } else {
        const char *start = jh_at;
        while (*jh_at && strchr("+-.eE0123456789", *jh_at)) jh_at++;
        v.kind = 'd';
        v.text = strndup(start, (size_t)(jh_at - start));
    }
    return v;
}

static jh_value jh_arguments(void) {
    size_t size = 1 << 16, n = 0;
    char *text = malloc(size);
    ssize_t got;
    while ((got = read(0, text + n, size - n - 1)) > 0) {
        n += (size_t)got;
        if (n + 1 >= size) { size *= 2; text = realloc(text, size); }
    }
    text[n] = 0;
    jh_at = text;
    return jh_parse();
}

static int jh_int(const jh_value *v) { return (int)strtoll(v->text, NULL, 10); }
static long long jh_long(const jh_value *v) { return strtoll(v->text, NULL, 10); }
static double jh_double(const jh_value *v) { return strtod(v->text, NULL); }
static bool jh_bool(const jh_value *v) { return v->flag; }
static const char *jh_str(const jh_value *v) { return v->text; }

#define JH_LIST(name, type, one)                                  \
    static type *name(const jh_value *v) {                        \
        type *out = malloc(sizeof(type) * (size_t)(v->count + 1)); \
        for (int i = 0; i < v->count; i++) out[i] = one(&v->items[i]); \
        return out;                                               \
    }
JH_LIST(jh_int_list, int, jh_int)
JH_LIST(jh_long_list, long long, jh_long)
JH_LIST(jh_double_list, double, jh_double)
JH_LIST(jh_bool_list, bool, jh_bool)
JH_LIST(jh_str_list, const char *, jh_str)

static char *jh_out;
static size_t jh_out_n, jh_out_room;

static void jh_put(const char *text) {
    size_t n = strlen(text);
    if (jh_out_n + n + 1 > jh_out_room) {
        jh_out_room = (jh_out_n + n + 1) * 2;
        jh_out = realloc(jh_out, jh_out_room);
    }
    memcpy(jh_out + jh_out_n, text, n + 1);
    jh_out_n += n;
}

static void jh_dump_long(long long x) { char b[32]; snprintf(b, sizeof b, "%lld", x); jh_put(b); }
static void jh_dump_int(int x) { jh_dump_long(x); }
static void jh_dump_bool(bool x) { jh_put(x ? "true" : "false"); }
static bool jh_unserializable;
static void jh_dump_double(double x) {
    char b[40];
    if (!isfinite(x)) { jh_unserializable = true; return; }
    snprintf(b, sizeof b, "%.17g", x);
    jh_put(b);
    if (!strpbrk(b, ".eE")) jh_put(".0");
}
static void jh_dump_str(const char *s) {
    if (!s) { jh_put("null"); return; }
    jh_put("\"");
    for (; *s; s++) {
        char b[8] = {*s, 0};
        if (*s == '"') jh_put("\\\""); else if (*s == '\\') jh_put("\\\\");
        else if ((unsigned char)*s < 32) { snprintf(b, sizeof b, "\\u%04x", (unsigned char)*s); jh_put(b); }
        else jh_put(b);
    }
    jh_put("\"");
}

#define JH_DUMP_LIST(name, type, one)                      \
    static void name(const type *xs, int n) {             \
        if (!xs && n) { jh_put("null"); return; }          \
        jh_put("[");                                       \
        for (int i = 0; i < n; i++) { if (i) jh_put(","); one(xs[i]); } \
        jh_put("]");                                       \
    }
JH_DUMP_LIST(jh_dump_int_list, int, jh_dump_int)
JH_DUMP_LIST(jh_dump_long_list, long long, jh_dump_long)
JH_DUMP_LIST(jh_dump_double_list, double, jh_dump_double)
JH_DUMP_LIST(jh_dump_bool_list, bool, jh_dump_bool)
JH_DUMP_LIST(jh_dump_str_list, char *const, jh_dump_str)

static void jh_report(void) {
    fflush(stdout);
    const char *mark = "\n\x1ejudge-result\x1e ";
    const char *body = jh_unserializable ? "{\"unserializable\":\"float (not finite)\"}" : jh_out;
    size_t n = strlen(mark) + strlen(body) + 2;
    char *line = malloc(n);
    snprintf(line, n, "%s%s\n", mark, body);
    ssize_t written = write(1, line, strlen(line));
    (void)written;
    _exit(0);
}
