"""The problem writer's room: what an author runs on a problem, never a student's judging.
`judge new` (scaffold), `judge gen` (making: every case from the parts, written or compared),
`judge validate` (validation), `judge solve` (solving, kept light), `judge verify` (verify and
its JUnit report, with the solutions' expected verdicts from expectations). A problem's parts
(reference, generators, validators, built in or programs) live here too: only authoring runs them."""
