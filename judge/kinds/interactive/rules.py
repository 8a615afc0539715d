"""The verdict of one case of an interactive problem (pure): the submission's run and how the
interactor's ended, by the ICPC rules as problemtools applies them."""

from __future__ import annotations

import signal as signals

from judge.run.checkers import CheckResult
from judge.run.sandbox import RunResult
from judge.run.verdicts import CaseVerdict, PartnerEnd, Verdict, judge_run, signal_name, wrote_to_a_closed_pipe

INTERACTOR_ACCEPTED, INTERACTOR_WRONG = 42, 43
LEFT_EARLY = "the program ended while the interactor was still writing to it"


def judge_interaction(
    run: RunResult, interactor: PartnerEnd, memory_limit_kib: int, memory_marks: tuple[bytes, ...] = ()
) -> CaseVerdict:
    """The verdict of one case of an interactive problem, by the ICPC rules (problemtools'):

    1. the interactor failed (no exit 42 or 43, a limit, a signal): IE, not the student's
       fault; except that an interactor killed by SIGPIPE (or failing on a broken pipe, as a
       Python one does) wrote to a program that had already closed its input (left the
       dialogue): the submission's own failure (rule 3), else WA. Whether that last write
       still fitted in the pipe before the program went is a race that the machine's load
       decides, so a clean exit cannot be IE one time and a verdict the next;
    2. the interactor said WA (43) and ended first: WA, whatever the submission did after (a
       submission killed by SIGPIPE, or failing on a broken pipe, wrote after it had ended);
    3. the submission's own end decides next: TLE, MLE, RE, as for any run;
    4. otherwise the interactor's word: 42 AC, 43 WA."""
    first = interactor.ended <= run.ended if run.ended else True
    # A submission that died writing to a pipe nobody reads wrote after the interactor had
    # gone: the interactor came first, whatever two processes' clocks of their ends say.
    broke = wrote_to_a_closed_pipe(run.signal, run.stderr)
    first = first or (broke and run.exit_code != 0 and interactor.exit_code == INTERACTOR_WRONG)
    failed = interactor.limit_hit is not None or interactor.exit_code not in (INTERACTOR_ACCEPTED, INTERACTOR_WRONG)
    broken_pipe = (interactor.broken_pipe or interactor.signal == signals.SIGPIPE) and interactor.limit_hit is None
    if failed and not broken_pipe:
        if interactor.exit_code is None and interactor.signal is None and interactor.limit_hit is None:
            how = interactor.message or "it could not be run"
        else:
            how = f"exit code {interactor.exit_code}" if interactor.signal is None else signal_name(interactor.signal)
            how += f", {interactor.limit_hit} limit" if interactor.limit_hit else ""
        return CaseVerdict(Verdict.IE, f"the interactor ended with {how}; expected exit 42 or 43")
    if interactor.exit_code == INTERACTOR_WRONG and first:
        return CaseVerdict(Verdict.WA, interactor.message or "wrong answer (interactor)")
    accepted = interactor.exit_code == INTERACTOR_ACCEPTED
    said = LEFT_EARLY if broken_pipe else interactor.message or "wrong answer (interactor)"
    check = CheckResult(accepted, "" if accepted else said)
    return judge_run(run, memory_limit_kib, check, memory_marks)
