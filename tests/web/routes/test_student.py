"""The student's problem page of a function problem: the signature in the language the student
chooses, and its starter file as a download under its own name."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from judge.author import scaffold
from judge.web.routes.student import EDITOR
from judge.web.serving.app import Settings, create_app
from judge.web.state.store import Store


def _client(tmp_path: Path) -> TestClient:
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "maxf", "python3", kind="functions")
    scaffold.create(problems, "stack", "python3", kind="functions", shape="class")
    scaffold.create(problems, "sums", "python3")
    store = Store(tmp_path / "data")
    token = store.add_user("ada")
    client = TestClient(
        create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False),
        follow_redirects=False,
    )
    assert client.post("/login", data={"user": "ada", "token": token}).status_code == 303
    return client


def test_the_signature_is_shown_in_the_chosen_language_and_downloads(tmp_path: Path) -> None:
    client = _client(tmp_path)
    page = client.get("/problems/maxf").text
    assert 'id="starter-text"' in page and "def max_sum(xs: list[int]) -&gt; int:" in page  # Python first
    java = client.get("/problems/maxf", params={"lang": "java"}).text
    assert "public long max_sum(int[] xs)" in java and '<option value="java" selected>' in java
    got = client.get("/problems/maxf/starter/rust")
    assert got.status_code == 200 and got.headers["content-disposition"] == 'attachment; filename="max_sum.rs"'
    assert (
        got.text.startswith("// Largest Sum of a Part, as a Function") and "fn max_sum(xs: Vec<i32>) -> i64" in got.text
    )
    # A class in C: the page says why there is none, and there is nothing to download.
    c = client.get("/problems/stack", params={"lang": "c"}).text
    assert "a class is not offered in C" in c and 'id="starter-download"' not in c
    assert client.get("/problems/stack/starter/c").status_code == 404
    assert client.get("/problems/stack/starter/brainfuck").status_code == 404
    # A program problem has no starter section at all.
    assert 'id="starter' not in client.get("/problems/sums").text


def test_an_upload_is_read_at_the_door_by_the_rules_of_run_sources(tmp_path: Path) -> None:
    """The door refuses what `judge grade` would not judge, in run/sources.py's words naming the
    student's file, and queues nothing: whitespace only, a binary, an archive's build script on a
    problem that allows none (an archive was once only checked for its language here)."""
    import io
    import zipfile

    client = _client(tmp_path)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("main.py", "print(1)\n")
        archive.writestr("build", "true\n")
    cases = [
        ("main.py", b"  \n\n", "main.py: empty submission."),
        ("main.py", b"print(1)\0\n", "main.py: binary file, not source code."),
        ("code.zip", packed.getvalue(), "code.zip: has a `build` script, which this problem does not allow"),
    ]
    for name, content, words in cases:
        reply = client.post("/problems/sums/submit", data={"language": "auto"}, files={"file": (name, content)})
        assert reply.status_code == 400 and words in reply.text, (name, reply.text[-300:])
    assert Store(tmp_path / "data").of_student("ada") == []
    ok = client.post("/problems/sums/submit", data={"language": "auto"}, files={"file": ("main.py", b"print(1)\n")})
    assert ok.status_code == 303
    (stored,) = Store(tmp_path / "data").of_student("ada")
    assert (stored.language, stored.filename) == ("python3", "main.py")


def test_the_page_starts_in_the_students_last_language_else_the_courses_never_the_references(
    tmp_path: Path,
) -> None:
    """Issue 59: a Python paste on a problem with a Java reference was judged as Java (here a C++
    reference). The
    select starts in the course's default_language, then the student's last language; an empty
    editor holds the starter of that language."""
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "jsums", "cpp")
    scaffold.create(problems, "maxf", "python3", kind="functions")
    course = "title: C\nassignments:\n  - {id: w, problems: [jsums, maxf]}\n"
    (tmp_path / "course.yaml").write_text(course)
    store = Store(tmp_path / "data")
    token = store.add_user("ada")
    client = TestClient(
        create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False),
        follow_redirects=False,
    )
    assert client.post("/login", data={"user": "ada", "token": token}).status_code == 303
    # No course default, nothing submitted: the student chooses (never the reference's C++).
    page = client.get("/problems/jsums").text
    assert 'data-mode="c_cpp" selected>' not in page and "pasted code: C++" not in page
    refused = client.post("/problems/jsums/submit", data={"language": "auto", "source": "print(1)\n"})
    assert refused.status_code == 400 and "Choose the language of pasted source" in refused.text
    (tmp_path / "course.yaml").write_text(course + "default_language: java\n")
    client.app.state.site.watch.checked = -1e9  # looked at now, not in a second
    page = client.get("/problems/jsums").text
    assert '<option value="java" data-mode="java" selected>' in page
    if EDITOR.is_file():  # Ace is fetched by make; without it the page is a plain text area
        assert 'src="/static/ace/mode-java.js"' in page  # the mode is there before the first keystroke
    else:
        assert "/static/ace/" not in page
    # A function problem's editor starts with the starter of the language it is in.
    assert 'autocapitalize="off">// ' in client.get("/problems/maxf").text
    sent = client.post(
        "/problems/maxf/submit", data={"language": "python3", "source": "def max_sum(xs):\n  return 0\n"}
    )
    assert sent.status_code == 303
    page = client.get("/problems/jsums").text
    assert '<option value="python3" data-mode="python" selected>' in page  # the student's last, anywhere
    maxf = client.get("/problems/maxf").text
    assert '<option value="python3" data-mode="python" selected>' in maxf
    assert 'spellcheck="false" autocapitalize="off">def max_sum(xs: list[int]) -&gt; int:' in maxf
    assert 'id="starters"' in maxf and "public long max_sum(int[] xs)" in maxf


def test_a_pending_page_says_the_hidden_tests_run_once_the_samples_are_shown(tmp_path: Path) -> None:
    """Issue 59, item 6: at a level that hides the secret cases, the page says they are being
    judged, with a clock the browser keeps (waiting.js), not "case 2 of 2 judged"."""
    from judge.web.state import live
    from tests.test_cli import judge

    client = _client(tmp_path)
    assert judge("--problems", str(tmp_path / "problems"), "gen", "sums").returncode == 0
    store = Store(tmp_path / "data")
    sent = client.post("/problems/sums/submit", data={"language": "python3", "source": "print(4)\n"})
    assert sent.status_code == 303
    claim = store.claim(worker=1)
    assert claim is not None
    one = [live.JudgedCase("samples/01", "AC", True, 1.0)]
    store.progress(claim, "running", 1, 22, live.dumps(one))
    page = client.get(sent.headers["location"]).text
    assert "case 1 of 2 judged" in page and "hidden tests" not in page
    both = [*one, live.JudgedCase("samples/02", "AC", True, 1.0), live.JudgedCase("small/01", "WA", False, 1.0)]
    store.progress(claim, "running", 3, 22, live.dumps(both))
    page = client.get(sent.headers["location"]).text
    assert "judging the hidden tests; results when all are done" in page and 'id="waited"' in page
    assert "small/01" not in page and "of 2 judged" not in page and "/static/waiting.js" in page


def test_a_function_problems_samples_are_calls_shown_once(tmp_path: Path) -> None:
    """Issue 59, item 3: the statement's table and then raw JSON (`[[-2,1,-3,4,-1]]`) were both
    shown; now the spec's public cases once, as calls in the page's language."""
    from tests.test_cli import judge

    client = _client(tmp_path)
    assert judge("--problems", str(tmp_path / "problems"), "gen", "maxf").returncode == 0
    page = client.get("/problems/maxf").text
    assert page.count(">Samples</h2>") == 1 and "[[-2,1,-3,4,-1]]" not in page
    assert ">max_sum([-2, 1, -3, 4, -1])</code></td><td><code" in page and ">4</code>" in page
    assert ">raises ValueError</code>" in page
    # Each call in every language too, for the page's script to follow the select.
    assert 'data-spelled=\'{"": "max_sum([-2, 1, -3, 4, -1])", "ada": ' in page
    sent = client.post(
        "/problems/maxf/submit", data={"language": "python3", "source": "def max_sum(xs):\n  return 0\n"}
    )
    assert sent.status_code == 303
    assert ">max_sum([-2, 1, -3, 4, -1])</code>" in client.get("/problems/maxf").text


def test_the_problem_page_lists_ones_own_submissions_and_says_why_beside_the_form(tmp_path: Path) -> None:
    """Issue 59, item 7: a student's submissions of this problem on its page, the one that
    counts marked by the gradebook's rule; a refusal's message just above the buttons."""
    client = _client(tmp_path)
    assert 'id="mine"' not in client.get("/problems/sums").text
    sent = client.post("/problems/sums/submit", data={"language": "python3", "source": "print(4)\n"})
    assert sent.status_code == 303
    page = client.get("/problems/sums").text
    assert 'id="mine-table"' in page and 'data-id="1"' in page
    assert 'id="mine"' not in client.get("/problems/maxf").text  # this problem's only
    refused = client.post("/problems/maxf/submit", data={"language": "python3", "source": "   \n"})
    assert refused.status_code == 400
    form = refused.text[refused.text.index('id="submit-form"') :]
    assert form.index('id="message"') < form.index('id="submit-button"')


def test_a_unit_problems_starter_file_is_in_the_empty_editor(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    problems.mkdir()
    scaffold.create(problems, "stack", "python3", kind="unit")
    store = Store(tmp_path / "data")
    token = store.add_user("ada")
    client = TestClient(
        create_app(Settings(problems_dir=problems, data_dir=tmp_path / "data"), start_workers=False),
        follow_redirects=False,
    )
    assert client.post("/login", data={"user": "ada", "token": token}).status_code == 303
    page = client.get("/problems/stack", params={"lang": "python3"}).text
    # The scaffold's starter/stack.py (unit.starter): in the page's editor and its download.
    assert 'id="starters"' in page and "class Stack:" in page and "raise NotImplementedError" in page
    got = client.get("/problems/stack/starter/python3")
    assert got.status_code == 200 and got.headers["content-disposition"] == 'attachment; filename="stack.py"'
    assert got.text == (problems / "stack" / "starter" / "stack.py").read_text(encoding="utf-8")
    assert client.get("/problems/stack/starter/java").status_code == 404  # the tests are Python's


def test_a_source_that_is_not_utf8_is_refused_never_read_as_latin1(tmp_path: Path) -> None:
    """Starlette reads a form field that is not UTF-8 as Latin-1 without a word: print('\\xe9')
    would be judged as print('é') and kept on the page so. Refused in one line, nothing queued,
    multipart or urlencoded; the same source in UTF-8 is queued."""
    client = _client(tmp_path)
    boundary = "judgeboundary59"

    def multipart(source: bytes) -> tuple[bytes, dict[str, str]]:
        fields = {"language": b"python3", "source": source}
        body = b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n"
            for name, value in fields.items()
        )
        return body + f"--{boundary}--\r\n".encode(), {"content-type": f"multipart/form-data; boundary={boundary}"}

    body, headers = multipart(b"print('\xe9')\n")
    sent = client.post("/problems/sums/submit", content=body, headers=headers)
    assert sent.status_code == 400 and "The source is not UTF-8 text" in sent.text
    assert "print(&#39;\u00e9&#39;)" not in sent.text and "print('\u00e9')" not in sent.text  # never kept as Latin-1
    plain = b"language=python3&source=print%28%27%E9%27%29"
    sent = client.post(
        "/problems/sums/submit", content=plain, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert sent.status_code == 400 and "The source is not UTF-8 text" in sent.text
    assert Store(tmp_path / "data").of_student("ada") == []
    body, headers = multipart("print('\u00e9')\n".encode())
    assert client.post("/problems/sums/submit", content=body, headers=headers).status_code == 303
    assert len(Store(tmp_path / "data").of_student("ada")) == 1
