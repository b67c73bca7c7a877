"""Reliability, security and scale tests (issue 9).

- ``botproc``: ``python -m bot`` plus test-only crash points and a clock offset.
- ``harness``: a loopback Discord world, bot subprocesses, direct database reads.
- ``logscan``: a session-wide pytest plugin failing the run when a secret is logged.
"""
