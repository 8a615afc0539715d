"""The JUnit kit: made once per machine in the cache, its archive mapped by the runs' JVMs in
the sandbox, and a clear error where JUnit is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from judge.kinds.unit import kit
from judge.run import lifecycle, sandbox
from judge.run.programs import ProgramError
from tests import needs

needs_java = needs.mark("isolation", "junit")


def test_the_runner_maps_the_archive_only_where_there_is_one(tmp_path: Path) -> None:
    without = kit.Kit(tmp_path, False).argv(256)
    assert without[:2] == ["java", "-Xmx256m"] and without[-1] == kit.RUNNER_CLASS
    assert not any("SharedArchiveFile" in a or "ArchiveClassesAtExit" in a for a in without)
    assert f"-XX:SharedArchiveFile={tmp_path / kit.ARCHIVE}" in kit.Kit(tmp_path, True).argv(256)
    dumping = kit.Kit(tmp_path, True).argv(256, dump="out.jsa")
    assert "-XX:ArchiveClassesAtExit=out.jsa" in dumping and not any("SharedArchiveFile" in a for a in dumping)
    # The JVM's warnings (an archive it cannot map) would be lines on the results channel.
    assert "-Xlog:all=warning:stderr" in without


def test_no_junit_is_one_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(kit, "JUNIT_JAR", str(tmp_path / "absent.jar"))
    with pytest.raises(ProgramError, match="apt-get install junit5"):
        kit.kit()


@needs_java
def test_the_kit_is_made_once_and_its_archive_maps_in_the_sandbox() -> None:
    made = kit.kit()
    assert (made.folder / kit.JAR).is_file() and made.archive
    stamp = (made.folder / kit.JAR).stat().st_mtime_ns
    # Another judge process (the same cache) finds it and makes nothing.
    probe = "from judge.kinds.unit import kit; print(kit.kit().folder)"
    again = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert again.stdout.strip() == str(made.folder)
    assert (made.folder / kit.JAR).stat().st_mtime_ns == stamp
    box = lifecycle.make_temp_dir("kit-test")
    try:
        sandbox.prepare_box(box)
        for name, text in kit.SAMPLE.items():
            (box / name).parent.mkdir(exist_ok=True)
            (box / name).write_text(text)
        sandbox.prepare_box(box / "public")
        argv = made.argv(256)
        argv.insert(1, "-Xshare:on")  # the JVM refuses to start where it cannot map the archive
        limits = replace(kit.MAKE_LIMITS, read_only=(str(made.folder),))
        run = sandbox.run([*argv, "Sample", *kit.SAMPLE_IDS], box=box, limits=limits)
    finally:
        lifecycle.remove_dir(box)
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.decode().splitlines()]
    reported = {line["id"]: line["phases"] for line in lines if "id" in line}
    assert reported[kit.SAMPLE_IDS[0]] == [] and reported[kit.SAMPLE_IDS[1]][0]["kind"] == "assert"
    assert lines[-1] == {"end": True}


def test_the_guarded_classes_jvm_has_one_identity_hash(tmp_path: Path) -> None:
    """A tests problem's classes' JVM: an identity hash inside a string the classes make (an
    array's, an object's default toString) is the same on the reference and a bug, whatever
    ran before it; the tests' JVM and a plain problem's are left as they were."""
    assert set(kit.GUARDED_FLAGS) <= set(kit.Kit(tmp_path, False).argv(256, flags=kit.GUARDED_FLAGS))
    assert not set(kit.GUARDED_FLAGS) & set(kit.Kit(tmp_path, False).argv(256))
    # Our own program (no student's), run with the flags: what the classes' JVM would say.
    probe = tmp_path / "Probe.java"
    probe.write_text(
        "public class Probe {\n    public static void main(String[] args) {\n"
        "        for (int i = 0; i < 1000; i++) {\n            new Object().hashCode();\n        }\n"
        '        System.out.println(new int[0] + " " + new Object());\n    }\n}\n'
    )
    if shutil.which("java") is None:
        pytest.skip("no java")
    done = subprocess.run(["java", *kit.GUARDED_FLAGS, str(probe)], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[I@1 java.lang.Object@1", done.stderr
