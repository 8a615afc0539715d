"""The families of languages a function or class can be written in, one record each: all the
function kind knows of a family is here (pure but for reading a harness file). A language
belongs to a family by its `family` in languages.yaml, so a new language of a known family is
a row there; a new family is a record here and a harness file beside this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.kinds.functions import checks, programs, starters, types
from judge.kinds.functions.programs import Named
from judge.run import languages

DECOY_TITLE = "A decoy of the judge's: every call returns a constant"


@dataclass(frozen=True)
class Family:
    name: str  # as languages.yaml's `family` names it
    harness: str  # the harness's file, beside this module
    typed: Named  # its type map: a signature's type as the language writes it
    build: programs.Build  # the program around the student's module: its main, its files
    write: starters.Writer  # the shape of a starter (and of the judge's decoy)
    raises: str  # a starter's every body: the call raises until it is written
    plain: starters.Plainest  # how the decoy returns each type's plainest value
    check: checks.Check  # what is said of a module before it is compiled
    # Each call a fork of a zygote that has the interpreter and the harness loaded (the
    # sandbox's session, where it can), never the student's module: Python's start per call
    forks: bool = False

    def program(self, api: types.Api, module: bytes) -> programs.Files:
        """(entry, files): the harness beside the student's module."""
        return self.build(api, module, programs.harness(self.harness))

    def starter(self, api: types.Api, title: str) -> tuple[str, str]:
        """(file name, text) a student starts from; starters.Unoffered when it cannot hold it."""
        return self.write(api, title, lambda _returns, _owner: self.raises, self.typed)

    def decoy(self, api: types.Api) -> tuple[str, str]:
        """(file name, text) of a decoy whose every call returns the type's plainest value."""
        return self.write(api, DECOY_TITLE, self.plain.bodies(self.typed), self.typed)


Plain = starters.Plainest


def _by_name(*every: Family) -> dict[str, Family]:
    return {family.name: family for family in every}


# In the order the kind offers them (python3, pypy3, cpp, cpp20, java, ...).
FAMILIES = _by_name(
    # Laid out as a table: one record per family, each field named.
    Family(name="python", harness="harness_python.py", typed=programs.PYTHON_TYPES, build=programs.python_files,
           write=starters.python, raises="raise NotImplementedError", check=checks.python,
           plain=Plain(null="None", false="False", empty_list="[]", empty_dict="{{}}", returned="return {value}",
                       made="pass", nothing="return None"), forks=True),
    Family(name="cpp", harness="harness_cpp.hpp", typed=programs.CPP_TYPES, build=programs.cpp_files,
           write=starters.cpp, raises='throw std::logic_error("not written yet");', check=checks.nothing,
           plain=Plain(every="{}")),
    Family(name="java", harness="harness_java.java", typed=programs.java_type, build=programs.java_files,
           write=starters.java, raises='throw new UnsupportedOperationException("not written yet");',
           check=checks.public_class, plain=Plain(long="0L", empty_list="new {array}", empty_dict="new HashMap<>()")),
    Family(name="c", harness="harness_c.h", typed=programs.c_type, build=programs.c_files,
           write=starters.c, raises="abort(); /* not written yet */", check=checks.c,
           plain=Plain(fill=starters.c_constant)),
    Family(name="javascript", harness="harness_javascript.js", typed=programs.JAVASCRIPT_TYPES,
           build=programs.javascript_files, write=starters.javascript, raises='throw new Error("not written yet");',
           check=checks.javascript, plain=Plain(empty_list="[]", empty_dict="{{}}"), forks=True),
    Family(name="go", harness="harness_go.go", typed=programs.GO_TYPES, build=programs.go_files,
           write=starters.go, raises='panic("not written yet")', check=checks.nothing,
           plain=Plain(returned="var plain {type}; return plain", made="return &{owner}{{}}")),
    Family(name="rust", harness="harness_rust.rs", typed=programs.RUST_TYPES, build=programs.rust_files,
           write=starters.rust, raises="todo!()", check=checks.nothing,
           plain=Plain(every="Default::default()", returned="return {value}", made="{owner} {{}}")),
    Family(name="csharp", harness="harness_csharp.cs", typed=programs.CSHARP_TYPES, build=programs.csharp_files,
           write=starters.csharp, raises='throw new NotImplementedException("not written yet");',
           check=checks.public_class, plain=Plain(empty_list="new {array}", empty_dict="new {type}()")),
    Family(name="kotlin", harness="harness_kotlin.kt", typed=programs.KOTLIN_TYPES, build=programs.kotlin_files,
           write=starters.kotlin, raises='TODO("not written yet")', check=checks.kotlin,
           plain=Plain(long="0L", empty_list="emptyList()", empty_dict="emptyMap()", returned="return {value}")),
)  # fmt: skip


def of(language: languages.Language) -> Family | None:
    """The language's family, where the function kind has a record of it."""
    return FAMILIES.get(language.family or "")


def offered(table: languages.LanguageTable) -> tuple[str, ...]:
    """The ids of the languages the kind takes: by family, in FAMILIES' order, then the table's."""
    every = table.languages.values()
    return tuple(language.id for name in FAMILIES for language in every if language.family == name)


def kin(table: languages.LanguageTable, language_id: str) -> tuple[str, ...]:
    """The language and then the others of its family, in the table's order (itself alone
    where it has no family, or the table does not know it)."""
    found = table.languages.get(language_id)
    family = found.family if found is not None else None
    others = (other.id for other in table.languages.values() if family and other.family == family)
    return tuple(dict.fromkeys((language_id, *others)))
