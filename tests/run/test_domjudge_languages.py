"""The languages DOMjudge's examples use (Bash and sh, awk, R, Ada; .p, .plg and ES modules of
the languages the judge had), end to end through `judge run`: a hello program in each, and where
a language makes something easy (a shell's background process, awk's /inet and R's system(),
writing a file anywhere) a hostile one, which the sandbox holds as it holds any language: no
process outlives the case, no connection leaves the box, nothing is written outside it. A
language whose toolchain is missing skips, naming its package (tests/needs.py)."""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path

import pytest

from judge.run import languages
from tests import needs
from tests.test_cli import judge

HELLO = {
    "bash": ("hello.sh", 'read -r name\necho "Hello $name!"\n'),
    "awk": ("hello.awk", '{ print "Hello " $1 "!" }\n'),
    "r": ("hello.R", 'name <- readLines(file("stdin"), n = 1)\ncat("Hello ", name, "!\\n", sep = "")\n'),
    "ada": (
        "hello.adb",
        "with Ada.Text_IO; use Ada.Text_IO;\nprocedure Hello is\nbegin\n"
        '   Put_Line ("Hello " & Get_Line & "!");\nend Hello;\n',
    ),
    # DOMjudge's own suffixes of languages the judge had
    "pascal": (
        "hello.p",
        "program hello;\nvar name: string;\nbegin\n  readln(name);\n  writeln('Hello ', name, '!');\nend.\n",
    ),
    "prolog": ("hello.plg", "main :- read_term(user_input, N, []), format('Hello ~w!~n', [N]).\n"),
}


def _run(program: Path, tmp_path: Path, text: str, answer: str) -> tuple[str, str]:
    (tmp_path / "case.in").write_text(text)
    (tmp_path / "case.ans").write_text(answer)
    ran = judge("run", str(program), "--input", str(tmp_path / "case.in"), "--answer", str(tmp_path / "case.ans"))
    return (ran.stdout.split() or [""])[0], ran.stdout + ran.stderr


@pytest.mark.parametrize("language_id", sorted(HELLO))
def test_hello_in_each_language_by_its_suffix(tmp_path: Path, language_id: str) -> None:
    needs.require(language_id)
    name, text = HELLO[language_id]
    program = tmp_path / name
    program.write_text(text)
    assert languages.load().detect(program).id == language_id
    given = "world.\n" if language_id == "prolog" else "world\n"  # Prolog reads a term
    verdict, said = _run(program, tmp_path, given, "Hello world!\n")
    assert verdict == "AC", said


def test_an_upper_case_r_is_r() -> None:
    assert languages.load().detect(Path("analysis.R")).id == "r"


READ_TWO = 'import { readFileSync } from "fs";\nconst [a, b] = readFileSync(0, "utf8").split(/\\s+/).map(Number);\n'
ADD = "export const add = (a, b) => a + b;\n"


@pytest.mark.parametrize(
    "files",
    [
        pytest.param({"main.mjs": READ_TWO + "console.log(a + b);\n"}, id="one-mjs"),
        pytest.param(
            {
                "main.mjs": 'import { add } from "./module.mjs";\n' + READ_TWO + "console.log(add(a, b));\n",
                "module.mjs": ADD,
            },
            id="mjs-importing-mjs",
        ),
        pytest.param(
            {
                "main.js": 'import { add } from "./module.js";\n' + READ_TWO + "console.log(add(a, b));\n",
                "module.js": ADD,
                "package.json": '{"type": "module"}\n',
            },
            id="type-module",
        ),
    ],
)
def test_javascript_modules(tmp_path: Path, files: dict[str, str]) -> None:
    needs.require("javascript")
    folder = tmp_path / "program"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    program = folder / "main.mjs" if len(files) == 1 else folder
    verdict, said = _run(program, tmp_path, "3 4\n", "7\n")
    assert verdict == "AC", said


def test_a_javascript_file_that_does_not_parse_is_a_ce_even_where_nothing_imports_it(tmp_path: Path) -> None:
    needs.require("javascript")
    folder = tmp_path / "program"
    folder.mkdir()
    (folder / "main.mjs").write_text(READ_TWO + "console.log(a + b);\n")
    (folder / "unused.mjs").write_text("import function hello() {}\n")
    verdict, said = _run(folder, tmp_path, "3 4\n", "7\n")
    assert verdict == "CE" and "unused.mjs" in said, said


# A hostile program per language, given on its input the port of a listener of the test's, a
# path outside its box and a token that names the processes it leaves behind.
HOSTILE = {
    "bash": (
        "hostile.sh",
        "read -r port path token\n"
        # Background processes, detached as far as a shell can, meant to outlive the case.
        '( exec -a "$token" sleep 300 ) &\n'
        'setsid nohup bash -c "exec -a $token-2 sleep 300" > /dev/null 2>&1 &\n'
        "disown -a\n"
        'echo owned > "$path"\n'
        'exec 3<> "/dev/tcp/127.0.0.1/$port" && echo connected >&3\n'
        "echo done\n",
    ),
    "awk": (
        "hostile.awk",
        "{ port = $1; path = $2; token = $3 }\nEND {\n"
        '  system("sh -c \\"sleep 300; : " token "\\" > /dev/null 2>&1 &")\n'
        '  system("echo owned > " path)\n'
        # A failed connection ends the program (fatal): the last thing it tries.
        '  server = "/inet/tcp/0/127.0.0.1/" port\n'
        '  print "connected" |& server\n'
        '  print "done"\n}\n',
    ),
    "r": (
        "hostile.R",
        'words <- scan(file("stdin"), what = "", quiet = TRUE)\n'
        # wait = FALSE: R starts the command in the background itself
        "system(sprintf(\"sh -c 'sleep 300; : %s' > /dev/null 2>&1\", words[3]), wait = FALSE)\n"
        'try(writeLines("owned", words[2]))\n'
        'try({ s <- socketConnection("127.0.0.1", as.integer(words[1]), blocking = TRUE, timeout = 2); '
        'writeLines("connected", s) })\n'
        'cat("done\\n")\n',
    ),
}


def _left_behind(token: str) -> list[int]:
    """The processes whose command line names the token."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("language_id", sorted(HOSTILE))
def test_the_sandbox_holds_what_a_language_makes_easy(tmp_path: Path, language_id: str) -> None:
    needs.require("isolation", language_id)
    name, text = HOSTILE[language_id]
    program = tmp_path / name
    program.write_text(text)
    outside = tmp_path / "outside" / "owned.txt"
    outside.parent.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(outside.parent, 0o777)  # open to all: only the sandbox keeps the program out
    token = f"judge-hostile-{secrets.token_hex(6)}"
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        listener.setblocking(False)
        port = listener.getsockname()[1]
        verdict, said = _run(program, tmp_path, f"{port} {outside} {token}\n", "done\n")
        try:
            connection, _ = listener.accept()
            connection.close()
            reached = True
        except BlockingIOError:
            reached = False
    left = _left_behind(token)
    for pid in left:  # not to leave them on the machine where the sandbox failed
        os.kill(pid, 9)
    assert verdict in ("AC", "WA", "RE"), said
    assert not left, f"processes outlived the case: {left}"
    assert not reached, "the program connected to the host"
    assert not outside.exists(), "the program wrote outside its box"
