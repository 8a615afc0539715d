"""Fingerprints of code: what must not change a score (names, comments, layout, the order of
functions) does not, a shared run long enough is always seen, and boilerplate goes."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.similar import fingerprints as fp

C = fp.lexer_for("c")
PROGRAM = """
/* sums the rows */
#include <stdio.h>
static int total(const int *row, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += row[i];
    return s;
}
static int biggest(const int *row, int n) {
    int best = row[0];
    for (int i = 1; i < n; i++) if (row[i] > best) best = row[i];
    return best;
}
int main(void) {
    int n, row[100];
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) scanf("%d", &row[i]);
    printf("%d %d\\n", total(row, n), biggest(row, n));
    return 0;
}
"""
RENAMED = (
    PROGRAM.replace("total", "sumOf")
    .replace("biggest", "maxOf")
    .replace("row", "xs")
    .replace("best", "m")
    .replace("sums the rows", "my homework, written alone")
)
REORDERED = """#include <stdio.h>
// the largest first this time
static int biggest(const int *row, int n)
{
    int best = row[0];
    for (int i = 1; i < n; i++)
        if (row[i] > best)
            best = row[i];
    return best;
}

static int total(const int *row, int n) { int s = 0; for (int i = 0; i < n; i++) s += row[i]; return s; }

int main(void) {
    int n, row[100];
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) scanf("%d", &row[i]);
    printf("%d %d\\n", total(row, n), biggest(row, n));
    return 0;
}
"""
OTHER = """
#include <stdio.h>
int main(void) {
    long a, b;
    while (scanf("%ld %ld", &a, &b) == 2) {
        while (b) { long t = a % b; a = b; b = t; }
        printf("%ld\\n", a);
    }
}
"""


def print_of(source: str) -> fp.Fingerprint:
    return fp.fingerprint(fp.tokens(source, C))


def test_names_comments_and_layout_do_not_count() -> None:
    assert fp.tokens(PROGRAM, C).values == fp.tokens(RENAMED, C).values
    assert fp.score(print_of(PROGRAM), print_of(RENAMED)) == 1.0


def test_reordered_functions_keep_their_fingerprints() -> None:
    assert fp.score(print_of(PROGRAM), print_of(REORDERED)) > 0.85
    assert fp.score(print_of(PROGRAM), print_of(OTHER)) < 0.2


def test_an_empty_program_scores_zero() -> None:
    assert fp.score(print_of(""), print_of(PROGRAM)) == 0.0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefgh"), min_size=fp.K + fp.WINDOW - 1, max_size=60),
    st.lists(st.sampled_from("ijklmnop"), max_size=30),
    st.lists(st.sampled_from("qrstuvwx"), max_size=30),
)
def test_a_shared_run_of_k_plus_window_minus_one_tokens_is_always_seen(
    shared: list[str], before: list[str], after: list[str]
) -> None:
    a = fp.Tokens(tuple(before + shared), tuple((i, i + 1) for i in range(len(before + shared))))
    b = fp.Tokens(tuple(shared + after), tuple((i, i + 1) for i in range(len(shared + after))))
    assert fp.fingerprint(a).hashes & fp.fingerprint(b).hashes


def test_the_shared_parts_are_marked_in_the_source() -> None:
    main = PROGRAM[PROGRAM.index("int main") :]
    mine, theirs = fp.tokens(PROGRAM, C), fp.tokens(OTHER + main, C)
    spans = fp.shared_spans(fp.fingerprint(mine), mine, fp.fingerprint(theirs))
    marked = "".join(PROGRAM[start:end] for start, end in spans)
    assert spans == sorted(spans) and all(a[1] < b[0] for a, b in itertools.pairwise(spans))
    assert "printf" in marked and "best = row[i]" not in marked


def test_boilerplate_is_taken_out() -> None:
    handed_out = PROGRAM[: PROGRAM.index("int main")]
    a, b = PROGRAM, handed_out + OTHER
    common = print_of(handed_out).hashes
    inflated = fp.score(print_of(a), print_of(b))
    cleaned = fp.score(fp.without(print_of(a), common), fp.without(print_of(b), common))
    assert inflated > 0.3 and cleaned < 0.15 and cleaned < inflated / 3
