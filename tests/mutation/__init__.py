"""Mutation testing of the audit (issue 22, item 8: "Tests that would notice").

``python -m tests.mutation`` (``make mutate``) makes small changes — mutants —
to the audit's code, one at a time, and runs the audit's tests against each:
a mutant the tests fail on is *killed*; one they pass is a *survivor*, a change
no test would notice. The score is ``killed / (total - equivalent)``, where
the equivalent mutants (``EQUIVALENT`` in ``tests.mutation.equivalent``) are
changes judged, one by one, not to change what the code does.

The working tree is never written: each mutant is compiled in memory from the
module's source and installed by an import hook in a forked process that
then runs pytest (``tests.mutation.runner``)."""
