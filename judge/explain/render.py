"""An explanation as the student reads it: lines for the terminal, a section of HTML.

The HTML animates the optimal solution with CSS keyframes on an inline SVG board: no
script, as the pages' Content-Security-Policy allows none. A TLE adds a small plot of the
CPU time by distance, the limit drawn across it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from markupsafe import Markup, escape

from judge.explain.search import Explanation
from judge.grade.reports import environment

CELL = 44  # px of one cell of the board
STEP_S = 0.9  # seconds per move in the animation
_MOVING = 0.6  # share of a step spent sliding; the rest holds the board still


def _board_text(cells: Sequence[str], blank: str | None) -> str:
    shown = [" " if cell == blank else cell for cell in cells]
    return " | ".join(" ".join(shown[row * 3 : row * 3 + 3]) for row in range(3))


def headline(found: Explanation) -> str:
    """One line: what was found, or what was tried."""
    if found.verdict == "CE":
        return "the program does not compile: nothing to run"
    if not found.found and found.for_students:
        return f"no failing input found in {found.budget_s:g} s of search, none of the inputs from the tests"
    if not found.found:
        return (
            f"no failing input found: {found.tried} inputs tried in {found.elapsed_s:.1f} s, "
            f"none of them from the tests"
        )
    if found.measure == "size":
        smallest = "; no smaller input made fails (each was tried)" if found.minimal else ""
        return f"{found.verdict} on an input of {found.size_bytes} bytes{smallest}"
    where = "an unreachable board" if found.unreachable and found.cases == 1 else f"distance {found.distance}"
    if found.cases > 1:
        where = f"a file of {found.cases} boards (distances up to {found.distance})"
    smallest = "; no smaller distance fails (each was tried whole)" if found.minimal else ""
    return f"{found.verdict} on {where}{smallest}"


def _at(found: Explanation, at: int | None) -> str:
    if at is None:
        return "unreachable"
    return f"{at} bytes" if found.measure == "size" else str(at)


def text_lines(found: Explanation) -> list[str]:
    """The explanation for a terminal, one line per item (no markup)."""
    lines = [headline(found)]
    if found.verdict == "CE":
        return [*lines, found.message]
    if not found.found:
        if found.measure == "size":
            sizes = [level.at or 0 for level in found.levels if level.tried]
            span = f" ({min(sizes)} to {max(sizes)} bytes)" if sizes else ""
            return [*lines, f"inputs made by the problem's generators with seeds of explain's own{span}"]
        tried = ", ".join(f"{_at(found, level.at)}: {level.tried}" for level in found.levels if level.tried)
        return [*lines, f"inputs run by distance: {tried}"] if tried else lines
    assert found.input is not None and found.expected is not None
    if not found.for_students:
        lines.append(
            f"searched {found.elapsed_s:.1f} s (this example found after {found.found_after_s or 0:.1f} s): "
            f"{found.tried} inputs in {found.runs} runs, none from the tests"
        )
    lines.append("input:")
    lines += [f"  {line}" for line in found.input.splitlines()[:40]]
    if found.input.count("\n") > 40:
        lines.append(f"  ... ({found.input.count(chr(10))} lines in all)")
    lines.append("expected (what the reference returned):" if found.returned else "expected output:")
    lines += [f"  {line}" for line in found.expected.splitlines()[:40]]
    if found.returned:
        pass  # what the call returned is in the verdict's message
    elif found.output is None:
        lines.append("your output: nothing")
    else:
        lines.append("your output:")
        lines += [f"  {line}" for line in found.output.splitlines()[:40]] or ["  (empty)"]
    lines.append(f"verdict: {found.verdict}" + (f" ({found.message})" if found.message else ""))
    if found.unreachable and found.cases == 1:
        lines.append("no sequence of moves reaches the goal: the two boards' parities differ, so the answer is -1")
    if found.moves:
        claimed = f"your program answered {found.claimed}; " if found.claimed is not None else ""
        lines.append(f"{claimed}the least number of moves is {len(found.moves)}:")
        lines.append(f"  start        {_board_text(found.start, found.blank)}")
        for number, move in enumerate(found.moves, start=1):
            lines.append(f"  {number:2d}. {move.move:<34} {_board_text(move.cells, found.blank)}")
    elif found.distance == 0 and found.cases == 1:
        lines.append("the start is already the goal: the least number of moves is 0")
    if found.growth and found.tle_from is not None:
        lines.append(
            f"over the time limit ({found.cpu_limit_s:g} s CPU) from {found.measure} {_at(found, found.tle_from)} on"
        )
        lines.append(f"CPU time by {found.measure} (the most of the runs at each):")
        top = max(found.cpu_limit_s, max(g.cpu_s for g in found.growth))
        for point in found.growth:
            bar = "#" * max(1, round(30 * point.cpu_s / top))
            lines.append(f"  {_at(found, point.at):>11} {point.cpu_s:6.2f} s {bar}{' over' if point.over else ''}")
    return lines


def _position(cell: int) -> tuple[int, int]:
    return (cell % 3) * CELL, (cell // 3) * CELL


def board_svg(found: Explanation) -> Markup:
    """The start board, animated through the optimal moves to the goal, and round again."""
    boards = [found.start, *(move.cells for move in found.moves)]
    steps = len(boards) - 1
    name = "m" + hashlib.sha256((found.input or "").encode()).hexdigest()[:8]
    total = (steps + 2) * STEP_S
    share = 100.0 / (steps + 2)
    rules: list[str] = []
    tiles: list[str] = []
    for label in sorted(set(found.start) - {found.blank}):
        where = [board.index(label) for board in boards]
        frames = [(0.0, where[0])]
        for step in range(1, steps + 1):
            if where[step] != where[step - 1]:
                begin = step * share
                frames += [(begin, where[step - 1]), (begin + _MOVING * share, where[step])]
        frames.append((100.0, where[-1]))
        tile = f"{name}-{len(tiles)}"
        keyframes = " ".join(
            "{:.2f}% {{transform: translate({}px, {}px)}}".format(pct, *_position(cell)) for pct, cell in frames
        )
        rules.append(f"@keyframes {tile} {{{keyframes}}}")
        rules.append(
            ".{0} {{transform: translate({1}px, {2}px); animation: {0} {3:.1f}s ease-in-out infinite}}".format(
                tile, *_position(where[0]), total
            )
        )
        tiles.append(
            f'<g class="tile {tile}"><rect x="2" y="2" width="{CELL - 4}" height="{CELL - 4}" rx="6"/>'
            f'<text x="{CELL // 2}" y="{CELL // 2 + 6}" text-anchor="middle">{escape(label)}</text></g>'
        )
    # Someone who asked for less motion sees the start board, still.
    rules.append(f"@media (prefers-reduced-motion: reduce) {{ .{name} .tile {{animation: none}} }}")
    size = 3 * CELL
    return Markup(
        f"<style>{''.join(rules)}</style>"
        f'<svg class="board {name}" role="img" viewBox="-2 -2 {size + 4} {size + 4}" width="{size + 4}" '
        f'height="{size + 4}" aria-label="the optimal moves, animated">'
        f'<rect x="-2" y="-2" width="{size + 4}" height="{size + 4}" class="frame"/>{"".join(tiles)}</svg>'
    )


def still_svg(cells: Sequence[str], blank: str | None) -> Markup:
    """A board that does not move (the goal)."""
    tiles = "".join(
        '<g transform="translate({}, {})"><rect x="2" y="2" width="{}" height="{}" rx="6"/>'
        '<text x="{}" y="{}" text-anchor="middle">{}</text></g>'.format(
            *_position(cell), CELL - 4, CELL - 4, CELL // 2, CELL // 2 + 6, escape(label)
        )
        for cell, label in enumerate(cells)
        if label != blank
    )
    size = 3 * CELL
    return Markup(
        f'<svg class="board" role="img" viewBox="-2 -2 {size + 4} {size + 4}" width="{size + 4}" '
        f'height="{size + 4}" aria-label="the goal"><rect x="-2" y="-2" width="{size + 4}" height="{size + 4}" '
        f'class="frame"/>{tiles}</svg>'
    )


def growth_svg(found: Explanation) -> Markup:
    """CPU time by distance, the limit dashed across."""
    points = [g for g in found.growth if g.at is not None]
    if not points:
        return Markup("")
    width, height, pad = 360, 160, 36
    top = max(found.cpu_limit_s * 1.15, max(g.cpu_s for g in points))
    last = max(g.at or 0 for g in points) or 1

    def x(distance: int) -> float:
        return pad + (width - 2 * pad) * distance / last

    def y(cpu: float) -> float:
        return height - pad + (2 * pad - height) * cpu / top

    line = " ".join(f"{x(g.at or 0):.1f},{y(g.cpu_s):.1f}" for g in points)
    dots = "".join(
        f'<circle cx="{x(g.at or 0):.1f}" cy="{y(g.cpu_s):.1f}" r="3" class="{"over" if g.over else "ok"}">'
        f"<title>{found.measure} {_at(found, g.at)}: {g.cpu_s:.2f} s</title></circle>"
        for g in points
    )
    limit = y(found.cpu_limit_s)
    return Markup(
        f'<svg class="growth" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="CPU time by distance">'
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" class="axis"/>'
        f'<line x1="{pad}" y1="{pad / 2}" x2="{pad}" y2="{height - pad}" class="axis"/>'
        f'<line x1="{pad}" y1="{limit:.1f}" x2="{width - pad}" y2="{limit:.1f}" class="limit"/>'
        f'<text x="{width - pad}" y="{limit - 4:.1f}" text-anchor="end">limit {found.cpu_limit_s:g} s</text>'
        f'<polyline points="{line}" class="cpu"/>{dots}'
        f'<text x="{width / 2}" y="{height - 6}" text-anchor="middle">{found.measure} (0 to {_at(found, last)})</text>'
        f'<text x="4" y="{pad / 2 - 4}">CPU s (up to {top:.2f})</text></svg>'
    )


def html_section(found: Explanation) -> Markup:
    """The explanation as a section of a page (the report, the web judge, explain --html)."""
    return Markup(
        environment()
        .get_template("explanation.html.j2")
        .render(
            e=found,
            headline=headline(found),
            board=board_svg(found) if found.moves else Markup(""),
            goal=still_svg(found.goal, found.blank) if found.moves else Markup(""),
            growth=growth_svg(found) if found.tle_from is not None else Markup(""),
        )
    )


def html_page(found: Explanation) -> str:
    """A page of its own, for `judge explain --html`."""
    return environment().get_template("explain.html.j2").render(e=found, section=html_section(found))
