"""Toolchains outside the system's folders (issue 56, item 3): found on the judge's PATH, shown
read-only in the sandbox at their real paths, or refused with why; Language.missing(), probe
(what judge doctor shows) and a sandboxed run agree. The toolchain here is a real one made
outside /usr for each test: a copy of the system's Lua under /var/tmp/.../tool/bin (the sandbox
gives each case a /tmp of its own, so none is shown from there), or rustup's."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.run import build, languages, sandbox, toolfolders
from judge.run.toolfolders import folder_for
from tests.run.conftest import needs_bwrap

LUA = shutil.which("lua5.4", path=sandbox.SANDBOX_PATH)
needs_lua = pytest.mark.skipif(LUA is None, reason="no lua5.4 to copy (apt-get install lua5.4)")
COMMAND = "judge-test-lua"  # on no system's PATH: only the copy has it
LIMITS = sandbox.RunLimits(cpu_s=2.0, wall_s=5.0, memory_mib=128, output_bytes=1 << 16)


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder outside /usr and /tmp for a toolchain, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="judge-toolchain-", dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def _outside_lua(root: Path) -> Path:
    """A Lua toolchain outside /usr: root/tool/bin/judge-test-lua, a copy of the system's."""
    assert LUA is not None
    binary = root / "tool" / "bin" / COMMAND
    binary.parent.mkdir(parents=True)
    shutil.copy2(os.path.realpath(LUA), binary)
    return binary


def _language() -> languages.Language:
    return languages.Language.model_validate(
        {
            "id": "outside-lua",
            "name": "Lua (outside /usr)",
            "extensions": ("lua",),
            "source": "main.lua",
            "run": (COMMAND, "{source}"),
            "version": (COMMAND, "-v"),
            "package": "lua5.4",
        }
    )


def _layers() -> sandbox.Layers:
    """The machine's layers with the view `detect` gives a table naming COMMAND."""
    view = toolfolders.shown([COMMAND])
    return dataclasses.replace(sandbox.detect(), toolchains=view.folders, path=view.path)


def _run(tmp_path: Path, code: str, layers: sandbox.Layers, stdin: str = "") -> sandbox.RunResult:
    (tmp_path / "stdin.txt").write_text(stdin)
    with build.box() as where:
        (where / "main.lua").write_text(code)
        with sandbox.cases(where, layers=layers) as runner:
            return runner.run(_language().run_argv(128), limits=LIMITS, stdin=tmp_path / "stdin.txt")


# The folder bound for a command's real file: the narrowest that works, never the home.
@pytest.mark.parametrize(
    ("real", "folder"),
    [
        (
            "/home/t/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc",
            "/home/t/.rustup/toolchains/stable-x86_64-unknown-linux-gnu",
        ),
        ("/home/t/.sdkman/candidates/java/17.0.9-tem/bin/java", "/home/t/.sdkman/candidates/java/17.0.9-tem"),
        ("/home/t/.nvm/versions/node/v20.11.0/bin/node", "/home/t/.nvm/versions/node/v20.11.0"),
        ("/home/t/sdk/go1.22.0/bin/go", "/home/t/sdk/go1.22.0"),
        ("/opt/go/bin/go", "/opt/go"),
        ("/home/t/bin/go", "/home/t/bin"),  # not the home above it
        ("/home/t/.local/bin/node", "/home/t/.local/bin"),  # not ~/.local
        ("/opt/bin/tool", "/opt/bin"),
        ("/usr/local/go/bin/go", ""),  # the sandbox shows /usr already
        ("/var/tmp/x/tool/bin/lua", "/var/tmp/x/tool"),
    ],
)
def test_the_folder_bound_is_the_toolchain_s_own(real: str, folder: str) -> None:
    assert folder_for(real, "/home/t") == (folder, "")


@pytest.mark.parametrize(
    ("real", "why"),
    [
        ("/home/t/go", "will not show whole"),
        ("/proc/1/exe", "under /proc"),
        ("/box/go", "under /box"),
        ("/tmp/tool/bin/lua", "under /tmp"),
    ],
)
def test_a_folder_the_sandbox_cannot_show_says_why(real: str, why: str) -> None:
    folder, said = folder_for(real, "/home/t")
    assert folder == "" and why in said


def test_the_sandbox_looks_for_every_language_s_commands_but_a_built_program() -> None:
    """detect() shows what toolfolders finds for these: a language's compiler and runtime."""
    commands = languages.load().commands()
    assert {"rustc", "go", "javac", "java", "node", "sh"} <= set(commands)
    assert not [command for command in commands if command.startswith(".")]


@needs_lua
def test_a_toolchain_on_the_judge_s_path_is_found_at_its_real_folder(
    outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = _outside_lua(outside)
    links = outside / "links"
    links.mkdir()
    (links / COMMAND).symlink_to(binary)  # as SDKMAN's `current` or a ~/.local/bin link
    monkeypatch.setenv("PATH", f"{links}:{os.environ['PATH']}")
    found = toolfolders.locate(COMMAND)
    assert found == toolfolders.ToolFolder(COMMAND, str(binary), str(outside / "tool"), str(binary.parent))
    view = toolfolders.shown([COMMAND, "sh"])  # sh is the system's: nothing to show for it
    assert view.folders == (str(outside / "tool"),)
    assert view.path == f"{sandbox.SANDBOX_PATH}:{binary.parent}"


@needs_lua
def test_missing_and_probe_agree_on_an_outside_toolchain(
    outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    language = _language()
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert "`judge-test-lua` not found (apt-get install lua5.4)" in language.missing()
    assert languages.probe(language).path is None
    binary = _outside_lua(outside)
    monkeypatch.setenv("PATH", str(binary.parent))
    assert language.missing() == ""
    probe = languages.probe(language)
    assert probe.path == str(binary) and probe.version.startswith("Lua 5.4") and probe.error == ""
    assert probe.outside == str(outside / "tool")


@needs_lua
def test_a_link_under_another_name_or_a_shim_is_missing_with_why(
    outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = _outside_lua(outside)
    renamed = outside / "renamed"
    renamed.mkdir()
    (renamed / COMMAND).symlink_to(binary.with_name("lua-real"))
    binary.rename(binary.with_name("lua-real"))
    monkeypatch.setenv("PATH", str(renamed))
    why = _language().missing()
    assert "another name" in why and str(renamed / COMMAND) in why
    assert languages.probe(_language()).error == why.removeprefix("no Lua (outside /usr) toolchain here: ")
    shims = outside / "pyenv" / "shims"
    shims.mkdir(parents=True)
    (shims / COMMAND).write_text('#!/bin/sh\nexec pyenv exec judge-test-lua "$@"\n')
    (shims / COMMAND).chmod(0o755)
    monkeypatch.setenv("PATH", str(shims))
    assert "shim" in _language().missing()
    assert toolfolders.shown([COMMAND]) == toolfolders.ToolView()  # nothing bound for either


@needs_lua
@pytest.mark.skipif(os.geteuid() != 0, reason="as root, programs run as nobody; rootless as the judge's user")
def test_a_toolchain_nobody_may_read_is_missing_with_the_fix(outside: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    binary = _outside_lua(outside)
    binary.parent.chmod(0o700)
    monkeypatch.setenv("PATH", str(binary.parent))
    why = _language().missing()
    assert "not readable by the sandbox's user" in why and f"chmod -R o+rX {outside / 'tool'}" in why


@needs_bwrap
@needs_lua
def test_a_submission_runs_on_the_outside_toolchain_and_cannot_write_it(
    outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case_path: str
) -> None:
    binary = _outside_lua(outside)
    before = binary.read_bytes()
    tool = outside / "tool"
    # Open to every user: only the read-only mount keeps the submission from writing there.
    for folder in (tool, binary.parent):
        folder.chmod(0o777)
    binary.chmod(0o777)
    monkeypatch.setenv("PATH", f"{binary.parent}:{os.environ['PATH']}")
    assert _language().missing() == ""
    hostile = f"""
local a, b = io.read("n", "n")
print(a + b)
for _, path in ipairs({{"{binary}", "{binary.parent}/planted", "{tool}/planted"}}) do
  local f = io.open(path, "w")
  if f then f:write("x") f:close() print("WROTE " .. path) end
end
print(os.remove("{binary}") and "REMOVED" or "kept")
"""
    run = _run(tmp_path, hostile, _layers(), stdin="2 3\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.decode().split() == ["5", "kept"]
    assert binary.read_bytes() == before and sorted(p.name for p in tool.rglob("*")) == ["bin", COMMAND]
    # Without the view the same run finds no such command: the bind is what shows it.
    unseen = _run(tmp_path, "print(1)", sandbox.detect())
    assert unseen.exit_code != 0 and unseen.stdout == b""


RUSTUP = shutil.which("rustup")


@needs_bwrap
@pytest.mark.skipif(RUSTUP is None, reason="no rustup on PATH")
def test_rustup_s_proxy_is_resolved_to_its_toolchain_which_compiles_in_the_sandbox(tmp_path: Path) -> None:
    """~/.cargo/bin/rustc is rustup under another name: the sandbox shows the toolchain it
    runs (its sysroot), not ~/.cargo or ~/.rustup whole, nor the home (here /root, 0700)."""
    assert RUSTUP is not None
    found = toolfolders.locate("cargo")  # on no system's PATH here; rustc is, in /usr/bin
    sysroot = subprocess.run(
        [os.path.join(os.path.dirname(RUSTUP), "rustc"), "--print", "sysroot"], capture_output=True, text=True
    ).stdout.strip()
    assert found.folder == os.path.realpath(sysroot) and found.where == os.path.join(found.folder, "bin", "cargo")
    layers = dataclasses.replace(sandbox.detect(), toolchains=(found.folder,))
    env = {"PATH": f"{found.bin}:{sandbox.SANDBOX_PATH}"}  # its rustc before the system's
    compile_limits = dataclasses.replace(LIMITS, cpu_s=30.0, wall_s=60.0, memory_mib=1024, output_bytes=1 << 26)
    with build.box() as where:
        (where / "main.rs").write_text('fn main() { println!("{}", 6 * 7); }\n')
        made = sandbox.run(["rustc", "-o", "main", "main.rs"], box=where, limits=compile_limits, env=env, layers=layers)
        assert made.exit_code == 0, made.stderr
        rustc = sandbox.run(["rustc", "--print", "sysroot"], box=where, limits=LIMITS, env=env, layers=layers)
        ran = sandbox.run(["./main"], box=where, limits=LIMITS, layers=layers)
    assert rustc.stdout.decode().strip() == found.folder
    assert ran.stdout == b"42\n"
