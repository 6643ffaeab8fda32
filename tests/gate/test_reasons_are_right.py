"""The reason an approver reads is the rule that decided the level, and that rule is about what the command
does: `tar czf` makes an archive (it does not extract one), `git init` makes a repository (it rewrites no
history). Commands of an ordinary coding session, each with the rule that must decide it and words its
reason must say."""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

CASES = [
    # command, the deciding rule, words its reason says
    ("tar czf out.tgz dir", "fs.archive-create", "writes an archive"),
    ("tar -czf backup.tar.gz ./data", "fs.archive-create", "writes an archive"),
    ("tar cf out.tar dir", "fs.archive-create", "writes an archive"),
    ("tar --create -f a.tar d", "fs.archive-create", "writes an archive"),
    ("zip -r a.zip d", "fs.archive-create", "writes an archive"),
    ("7z a a.7z d", "fs.archive-create", "writes an archive"),
    ("tar xzf a.tgz", "fs.archive-extract", "extracts an archive"),
    ("tar -C out -xzf a.tgz", "fs.archive-extract", "extracts an archive"),
    ("unzip a.zip", "fs.archive-extract", "extracts an archive"),
    ("gunzip f.gz", "fs.archive-extract", "extracts an archive"),
    ("gzip -d f.gz", "fs.archive-extract", "extracts an archive"),
    ("gzip big.log", "fs.compress", "compresses files"),
    ("xz f.txt", "fs.compress", "compresses files"),
    ("git init", "git.init", "creates a git repository"),
    ("git add .", "git.stage", "stages changes"),
    ("git rm old.py", "git.move-remove", "moves or deletes tracked files"),
    ("git mv a.py b.py", "git.move-remove", "moves or deletes tracked files"),
    ("git tag v1.0", "git.tag", "tags"),
    ("git apply fix.patch", "git.apply", "applies a patch"),
    ("git gc", "git.prune", "unreachable objects"),
    ("git bisect start", "git.bisect", "bisects"),
    ("git commit -m 'x'", "git.history", "history"),
    ("git rebase main", "git.history", "history"),
    ("git checkout -b feature", "git.checkout", "creates one"),
    ("git branch -d old", "git.branch-delete", "deletes or renames a branch"),
    ("make", "exec.build", "runs a build"),
    ("cmake --build build", "exec.build", "runs a build"),
    ("pytest -q tests/", "exec.tests", "runs the project's tests"),
    ("tox -e py311", "exec.tests", "runs the project's tests"),
    ("python -m venv .venv", "exec.module", "runs an installed module"),
    ("python3 -m pytest", "exec.module", "runs an installed module"),
    ("python script.py", "exec.script", "runs a script file"),
    ("npm install", "exec.package-install", "installs packages"),
    ("npm run build", "exec.package-run", "through a package manager"),
    ("npm publish", "exec.package-publish", "publishes a package"),
    ("twine upload dist/*", "exec.package-publish", "publishes a package"),
    ("git stash pop", "git.stash", "applies"),
    ("zip -d a.zip f", "fs.archive-create", "writes an archive"),
    ("sed -i 's/a/b/' f.txt", "fs.sed-inplace", "edits files in place"),
    ("cp -r a b", "fs.copy", "copies, moves or links"),
    ("mv old.txt new.txt", "fs.copy", "copies, moves or links"),
    ("ln -s a b", "fs.copy", "copies, moves or links"),
    ("rm file.txt", "fs.rm", "deletes files"),
    ("mkdir -p a/b", "fs.create", "creates files or directories"),
    ("touch f", "fs.create", "creates files or directories"),
    ("echo hello > hello.txt", "fs.redirect-write", "writes output into a file"),
]
BROAD = {"fs.archive-extract": "extracts an archive", "git.history": "rewrites or extends history",
         "exec.package-run": "through a package manager"}
"""Reasons once given to commands they did not describe: only their own rule may say them."""


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


@pytest.mark.parametrize(("command", "rule", "words"), CASES, ids=[case[0] for case in CASES])
def test_the_reason_is_the_rule_that_decided_and_it_is_right(classifier: Classifier, command: str, rule: str,
                                                            words: str) -> None:
    verdict = classifier.classify(ToolCall("shell.run", {"command": command}))
    assert verdict.level is Level.DANGEROUS, verdict
    assert verdict.rules[0] == rule, f"{command!r} decided by {verdict.rules}: {verdict.reason}"
    assert words in verdict.reason, f"{command!r}: {verdict.reason}"
    for owner, wrong in BROAD.items():
        assert owner == rule or wrong not in verdict.reason, f"{command!r}: {verdict.reason}"
