"""Interpreter one-liners are safe only when their payload is proven read-only (issue 12).

A Python payload is parsed and every node must be allowed: imports of pure standard modules,
calls to harmless builtins and to those modules' functions, `open` of a literal path that is not
a secret, for reading. Version flags, a few `python -m` modules and AppleScript notifications are
proven too. Everything else keeps today's rating: `exec.inline-code` (dangerous) at least, and the
payload rules (deletes, writes, shells, reverse shells) still raise theirs. A file the agent
writes at the top of the workspace under a standard module's name would be imported by those
one-liners instead of the module, so writing one needs a person. These strings are data: they
are only ever classified, never run.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from engine.gate.codeproof import modules
from engine.gate.codeproof.python import prove_source
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

PROVEN_PYTHON = [
    "python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), indent=2))'",
    "python3 -c \"import hashlib; print(hashlib.sha256(b'x').hexdigest())\"",
    "python -c 'import sys; print(sys.version)'",
    "cat data.json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"name\"], d.get(\"version\"))'",
    "python3 -c 'import sys; print(sys.version_info[:2])'",
    "python3 -c \"print(sum(range(100)))\"",
    "python3 -c 'import uuid; print(uuid.uuid4())'",
    "python3 -c 'import base64,sys; print(base64.b64decode(sys.argv[1]).decode())' aGVsbG8=",
    "python3 -c 'import datetime; print(datetime.datetime.now().isoformat())'",
    "python3 -c 'import time; print(int(time.time()))'",
    "python3 -c \"import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))\" 'a b&c'",
    "python3 -c 'import re,sys; print(re.findall(r\"\\d+\", sys.stdin.read()))' < notes.txt",
    "python3 -c 'import math; print(math.sqrt(2) * math.pi)'",
    "python3 -c 'import random; print(random.randint(1, 6))'",
    "python3 -c 'import csv,sys; rows=list(csv.reader(sys.stdin)); print(len(rows))' < data.csv",
    "python3 -c 'import tomllib; print(tomllib.load(open(\"pyproject.toml\",\"rb\"))[\"project\"][\"version\"])'",
    "python3 -c \"with open('README.md') as f: print(len(f.read().splitlines()))\"",
    "python3 -c 'import statistics; print(statistics.mean([1, 2, 3, 4]))'",
    "python3 -c 'import json; [print(k) for k in json.load(open(\"package.json\"))[\"dependencies\"]]'",
    "python3 -c 'import ipaddress; print(ipaddress.ip_network(\"10.0.0.0/24\").num_addresses)'",
    "python3 -c 'import json\nfor line in open(\"log.jsonl\"):\n    rec = json.loads(line)\n"
    "    if rec.get(\"level\") == \"error\":\n        print(rec[\"msg\"])'",
    "python3 -c \"import sys; sys.stdout.write(sys.stdin.read().upper())\"",
    "python3 -c 'from collections import Counter; import sys; print(Counter(sys.stdin.read().split()).most_common(5))'",
    "python3 -c 'import zlib; print(zlib.crc32(b\"hello\"))'",
    "python3 - <<'EOF'\nimport json\nprint(json.dumps({\"a\": 1}))\nEOF",
    "python3 <<< 'print(2 ** 64)'",
    "python3 -c 'print(f\"{2**10:,}\")'",
    "python3 -c 'import shlex; print(shlex.split(\"a \\\"b c\\\"\"))'",
    "python3 -c 'import platform; print(platform.system(), platform.machine(), platform.python_version())'",
    "python3 -c 'import textwrap; print(textwrap.dedent(\"  x\"))'",
    "python3 -c 'import struct; print(struct.calcsize(\"P\") * 8)'",
    "python3 -c 'import html; print(html.escape(\"<a>\"))'",
    "python3 -c 'import difflib; print(\"\\n\".join(difflib.unified_diff([\"a\"], [\"b\"])))'",
    "python3 -c \"import hmac, hashlib; print(hmac.new(b'k', b'm', hashlib.sha256).hexdigest())\"",
    "python3 -I -c 'import json; print(json.dumps([1, 2]))'",
    "python3 -W ignore -X utf8 -c 'import json; print(json.dumps([1, 2]))'",
    "python3 -B -u -c 'import decimal; print(decimal.Decimal(\"0.1\") + decimal.Decimal(\"0.2\"))'",
    "python3 -c 'try:\n    import tomllib\nexcept ImportError:\n    print(\"no\")\nelse:\n    print(\"yes\")'",
    "python3 -c 'import json,sys; data = json.load(sys.stdin); print(sorted(data, key=lambda x: x[\"n\"])[:3])'",
    "python3 -c 'import sys; print(len(sys.argv))' a b c",
    "python3 -c 'import calendar; print(calendar.month(2024, 2))'",
    "python3 -c 'import itertools; print(list(itertools.permutations(\"abc\", 2)))'",
    "python3 -c 'import functools, operator; print(functools.reduce(operator.mul, range(1, 6)))'",
    "python3 -c 'import sys; print(sys.executable)'",
    "python3 -c \"print(open('/etc/os-release').read())\"",
    "python3 -c 'import gzip,sys; print(gzip.decompress(sys.stdin.buffer.read()).decode())' < logs.gz",
    "python3 -c 'from datetime import datetime, timezone; print(datetime.now(timezone.utc).strftime(\"%Y-%m-%d\"))'",
    "python3 -c 'import json, sys\ndef walk(x, depth=0):\n    if isinstance(x, dict):\n        for k, v in x.items():\n"
    "            print(\"  \" * depth + str(k))\n            walk(v, depth + 1)\nwalk(json.load(sys.stdin))' < tree.json",
    "python3 -c 'import sys; print(\"{} items\".format(len(sys.stdin.readlines())))'",
    "python3 -c 'import string; print(string.ascii_lowercase)'",
    "python3 -c 'import unicodedata; print(unicodedata.name(\"é\"))'",
    "python3 -c \"print('\\u00e9'.encode('utf-8'))\"",
    "python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)'",
    "python3.11 -c 'import sys; print(sys.maxsize > 2**32)'",
    "LC_ALL=C timeout 5 nice python3 -c 'print(1)'",
    "PYTHONIOENCODING=utf-8 python3 -c 'print(\"ok\")'",
    "python3 -c 'import enum; print(list(enum.Enum(\"Fruit\", \"APPLE PEAR\")))'",
    "python3 -c 'import binascii; print(binascii.hexlify(b\"ab\"))'",
    "python3 -c 'import heapq, bisect; print(heapq.nsmallest(2, [5, 1, 3]), bisect.bisect([1, 3], 2))'",
    "python3 -c 'import fractions, cmath; print(fractions.Fraction(1, 3), cmath.sqrt(-1))'",
]

PROVEN_INVOCATIONS = [
    "node -v", "node --version", "python3 --version", "python3 -V", "python -VV", "ruby -v", "ruby --version",
    "perl -v", "perl -V", "env -i perl -V", "php -v", "lua -v", "deno --version", "bun --version", "python3.12 --version",
    "python -m json.tool file.json", "python3 -m json.tool < data.json", "cat x.json | python3 -m json.tool",
    "python3 -m json.tool --sort-keys --indent 4 data.json", "python3 -m calendar 2024", "python3 -m site",
    "python3 -m site --user-site", "python3 -m sysconfig", "python3 -m base64 -d data.b64",
    "python3 -m zipfile -l dist.zip", "python3 -m tarfile -l release.tar.gz", "python3 -m tokenize app.py",
]

PROVEN_APPLESCRIPT = [
    "osascript -e 'display notification \"Done\" with title \"CI\"'",
    "osascript -e 'display notification \"Build finished\" with title \"CI\" subtitle \"main\" sound name \"Glass\"'",
    "osascript -e 'display dialog \"Deploy finished\" buttons {\"OK\"} default button \"OK\" giving up after 10'",
    "osascript -e 'display dialog \"Tests failed\" with title \"CI\" with icon caution'",
    "osascript -e 'display alert \"Disk almost full\" message \"Free some space\" as warning'",
    "osascript -e 'get volume settings'",
    "osascript -e 'display notification \"a\"' -e 'display notification \"b\"'",
    "osascript -e 'display notification \"Say \\\"hi\\\"\" with title \"CI\"'",
]

# Still at least dangerous: each misses the proof for one reason (and may fire more rules).
NOT_PROVEN = [
    "python3 -c \"open('x','w')\"",
    "python3 -c \"open('x', mode='a').write('y')\"",
    "python3 -c \"__import__('os')\"",
    "python3 -c \"getattr(__builtins__, 'ev' + 'al')('1')\"",
    "python3 -c \"().__class__.__bases__[0].__subclasses__()\"",
    "python3 -c \"import os; os.listdir('.')\"",
    "python3 -c \"import os.path; print(os.path.exists('x'))\"",
    "python3 -c \"import subprocess; subprocess.run(['ls'])\"",
    "python3 -c \"exec('print(1)')\"",
    "python3 -c \"eval('1+1')\"",
    "python3 -c \"import sys; sys.modules['os'].system('id')\"",
    "python3 -c \"import sys; sys.path.insert(0, 'lib'); import json\"",
    "python3 -c \"print(open('/home/user/.ssh/id_rsa').read())\"",
    "python3 -c \"print(open('.env').read())\"",
    "python3 -c \"print(open('/proc/self/environ').read())\"",
    "python3 -c \"print(open('/dev/sda', 'rb').read(512))\"",
    "python3 -c \"print(open('../../secret.txt').read())\"",
    "python3 -c \"import sys; print(open(sys.argv[1]).read())\" notes.txt",
    "python3 -c \"import platform; print(platform.os.getcwd())\"",
    "python3 -c \"import shlex; shlex.os.system('id')\"",
    "python3 -c \"import json as j; x = j; print(x)\"",
    "python3 -c \"import json; json = __builtins__\"",
    "python3 -c \"import operator; print(operator.attrgetter('__class__')(1))\"",
    "python3 -c \"print('{0.__class__}'.format(1))\"",
    "python3 -c \"import sys; print('{0.modules}'.format(sys))\"",
    "python3 -c \"g = (x for x in [1]); print(g.gi_frame.f_globals)\"",
    "python3 -c \"import sys; print(type(sys.stdout))\"",
    "python3 -c \"import pickle; pickle.loads(b'x')\"",
    "python3 -c \"import ctypes\"",
    "python3 -c \"import socket; print(socket.gethostname())\"",
    "python3 -c \"import urllib.request; urllib.request.urlopen('http://x.example')\"",
    "python3 -c \"import urllib.parse; print(urllib.request)\"",
    "python3 -c \"from os import system; system('id')\"",
    "python3 -c \"from json import *\"",
    "python3 -c \"class A: pass\"",
    "python3 -c \"import typing; typing.get_type_hints(print)\"",
    "python3 -c \"import uuid; print(uuid.uuid1())\"",
    "python3 -c \"import platform; print(platform.platform())\"",
    "python3 -c \"import gzip; gzip.open('out.gz', 'wb').write(b'x')\"",
    "python3 -c \"help('modules')\"",
    "python3 -c \"breakpoint()\"",
    "python3 -c \"import sys; sys.stdin.close(); f = sys.stderr; f.write('x')\"",
    "python3 -c \"print('$X')\"",
    "X=$(cat f); python3 -c \"print('$X')\"",
    "python3 -c \"compile('1', 'x', 'eval')\"",
    "python3 -c \"print(globals())\"",
    "python3 -c \"import sys; print(sys.exc_info())\"",
    "python3 -c \"print(vars())\"",
    "python3 -X pycache_prefix=out -c 'import json'",
    "python3 -E -W ignore::evil.Warning -c 'print(1)'",
    "python3 -W always -c 'print(1)'",
    "python3 -X dev -c 'print(1)'",
    "python3 -X frozen_modules=off -c 'print(1)'",
    "python3 -i -c 'print(1)'",
    "PYTHONPATH=lib python3 -c 'import json'",
    "PYTHONWARNINGS=ignore::evil.Warning python3 -c 'print(1)'",
    "cd sub && python3 -c 'import json; print(1)'",
    "(cd sub && python3 -c 'import json; print(1)')",
    "env -C sub python3 -c 'import json; print(1)'",
    "env --chdir=sub python3 -m json.tool x.json",
    "python3 -c 'import base64, sys; sys.argv[1:] = [\"id_rsa.txt\"]; base64.main()'",
    "python3 -c \"getattr(print, 'x')\"",
    "python3 -c \"print('{0.real}'.format(1))\"",
    "python3 -c \"import operator; print(operator.attrgetter('real')(1))\"",
    "python3 -c 'print(1' ",
    "python3 -c 'async def f(): pass'",
    "python3 -c 'import json\nmatch 1:\n    case _: pass'",
    "python2 -c 'print 1'",
    "python -m http.server",
    "python -m pip list",
    "python3 -m pip install requests",
    "python3 -m venv .venv",
    "python3 -m pytest",
    "python3 -m unittest discover",
    "python3 -m py_compile app.py",
    "python3 -m json.tool in.json out.json",
    "python3 -m json.tool --bogus in.json",
    "python3 -m zipfile -e dist.zip out/",
    "python3 -m tarfile -x release.tar.gz",
    "python3 -m platform",
    "python3 -m mymodule",
    "python3 -m json.tool ~/.aws/credentials",
    "node -e 'console.log(1)'",
    "node -v x.js",
    "ruby -v script.rb",
    "perl -v -e 'print 1'",
    "ruby -e \"puts 'ok'\"",
    "perl -e 'print 1'",
    "php -r 'echo 1;'",
    "node -p 'process.version'",
    "osascript -e 'do shell script \"ls\"'",
    "osascript -e 'display notification (do shell script \"id\")'",
    "osascript -e 'tell application \"Finder\" to delete every item of trash'",
    "osascript -e 'display notification \"a\" & (do shell script \"id\")'",
    "osascript -l JavaScript -e 'Application(\"Finder\")'",
    "osascript script.scpt",
    "osascript -e 'display notification \"a\"' extra",
    "osascript -e 'display dialog \"x\" default answer \"\"'",
]

# Payload rules still win over a proof: these stay catastrophic.
CATASTROPHIC = [
    "python3 -c \"import shutil; shutil.rmtree('/')\"",
    "python -c 'import os; os.system(\"rm -rf /\")'",
    "python3 -c \"open('/dev/sda','wb').write(b'0'*512)\"",
    "python3 -c \"print('ok'); import os; os.remove('/etc/passwd')\"",
    "python3 -c 'import os\nwhile True: os.fork()'",
]


def rate(classifier, command: str):
    return classifier.classify(ToolCall("shell.run", {"command": command}))


@pytest.mark.parametrize("command", PROVEN_PYTHON + PROVEN_INVOCATIONS + PROVEN_APPLESCRIPT)
def test_proven_payloads_are_safe(classifier, command: str) -> None:
    verdict = rate(classifier, command)
    assert verdict.level == Level.SAFE, (command, verdict.rules, verdict.reason)


@pytest.mark.parametrize("command", NOT_PROVEN)
def test_unproven_payloads_stay_at_least_dangerous(classifier, command: str) -> None:
    verdict = rate(classifier, command)
    assert verdict.level >= Level.DANGEROUS, (command, verdict.rules)


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_payload_rules_still_win(classifier, command: str) -> None:
    assert rate(classifier, command).level == Level.CATASTROPHIC, command


def test_unproven_payload_keeps_todays_rule_and_reason(classifier) -> None:
    verdict = rate(classifier, "python3 -c \"import os; os.listdir('.')\"")
    assert verdict.rules == ("exec.inline-code",)
    assert rate(classifier, "python -m http.server").rules == ("exec.module",)


def test_the_reason_a_payload_is_not_proven_is_one_line() -> None:
    assert "os" in (prove_source("import os; os.listdir('.')") or "")
    assert "open" in (prove_source("open('x', 'w')") or "")
    assert prove_source("print(1)") is None


def test_the_proof_stays_bounded_on_hostile_payloads() -> None:
    hostile = ["(" * 5000 + ")" * 5000, "x=" + "[" * 200 + "]" * 200, "print(1)\n" * 2000, "a" * 100_000,
               "\x00print(1)", "if 1:\n" + "".join(" " * i + "if 1:\n" for i in range(1, 150)) + " " * 150 + "pass"]
    for code in hostile:
        start = time.perf_counter()
        assert prove_source(code) is not None
        assert time.perf_counter() - start < 0.05


WRITES_THAT_SHADOW = ["echo 'x' > json.py", "cp tool.py re.py", "touch ./types.py", "mkdir -p hashlib && touch hashlib/__init__.py",
                      "cat > sub/../base64.py"]


@pytest.mark.parametrize("command", WRITES_THAT_SHADOW)
def test_writing_a_module_that_shadows_a_proven_import_needs_a_person(classifier, command: str) -> None:
    verdict = rate(classifier, command)
    assert verdict.level == Level.DANGEROUS and "fs.write-tool-config" in verdict.rules, (command, verdict.rules)


def test_files_tools_writing_a_shadowing_module_need_a_person(classifier) -> None:
    shadow = classifier.classify(ToolCall("fs.write", {"path": "json.py", "content": "x"}))
    assert shadow.level == Level.DANGEROUS and "fs.tool-config" in shadow.rules
    nested = classifier.classify(ToolCall("fs.write", {"path": "pkg/json.py", "content": "x"}))
    assert nested.level == Level.SAFE
    other = classifier.classify(ToolCall("fs.write", {"path": "report.py", "content": "x"}))
    assert other.level == Level.SAFE


def _imported(tmp_path: Path, *args: str) -> set[str]:
    """The top-level modules the interpreter imports, or tries to, running `args` (site off, so
    that fewer are preloaded), from `-X importtime`'s report."""
    run = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", *args], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
    return {line.split("|")[2].strip().split(".")[0] for line in run.stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2} - {"imported package"}


def test_shadowed_names_cover_every_module_a_proven_payload_can_load(tmp_path: Path) -> None:
    """Python imports from the current directory first: every module importing an allowed module, or
    running one `-m` proves, loads (or tries to: `copy` tries `org.python.core`) must be among the
    names whose writing is guarded. Measured on this interpreter; the runs only read their inputs."""
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as archive:
        archive.writestr("x.txt", "x")
    with tarfile.open(tmp_path / "a.tar", "w") as archive:
        archive.add(tmp_path / "a.zip", arcname="a.zip")
    (tmp_path / "in.json").write_text("{}\n")
    (tmp_path / "t.py").write_text("x = 1\n")
    probe = ("".join(f"import {name}\n" for name in sorted(modules.LOADED_BY_PROVEN))
             + "import datetime, hashlib, random\ndatetime.datetime.strptime('2024', '%Y')\nrandom.seed('x')\n"
             + "for name in ('md5', 'sha1', 'sha256', 'sha512', 'blake2b', 'sha3_256'): hashlib.new(name)\n")
    runs = [("-c", probe), ("-m", "json.tool", "in.json"), ("-m", "json.tool", "--help"), ("-m", "calendar", "2024", "1"),
            ("-m", "site", "--user-site"), ("-m", "sysconfig"), ("-m", "base64", "-d", "in.json"),
            ("-m", "tokenize", "t.py"), ("-m", "zipfile", "-l", "a.zip"), ("-m", "tarfile", "-l", "a.tar"),
            ("-W", "error", "-X", "warn_default_encoding", "-c", "f = open('in.json')\ndel f\nprint(1 / 0)"),
            ("-c", "import re\nprint(re.findall('\\d', 'a1'))")]
    preloaded = _imported(tmp_path, "-c", "pass")
    assert "encodings" in preloaded
    loaded = set().union(*(_imported(tmp_path, *run) for run in runs)) - preloaded - set(sys.builtin_module_names)
    assert {"json", "argparse", "zipfile"} <= loaded
    missing = sorted(name for name in loaded if not modules.shadowed_name(name))
    assert not missing, missing
