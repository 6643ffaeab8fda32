"""Proofs that an interpreter's payload only reads (issue 12): a Python one-liner parsed node by
node (`python`), interpreter invocations that print a version or run a known read-only module
(`invocation`), AppleScript notifications (`applescript`), and the standard module names a
proven payload may import, which nothing the agent writes may shadow (`modules`).

A proof returns None when the payload is proven read-only and otherwise one line saying why not;
the analyser then rates the command as it always did (`exec.inline-code`, `exec.script`, …).
"""
