"""`warden classify`: rate commands or tool calls read from stdin, one verdict per line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.errors import WardenError
from engine.gate.classifier import Classifier
from engine.gate.policy import Policy
from engine.home import warden_home
from engine.tools.call import ToolCall

TOOLS = {"shell": ("shell.run", "command"), "code": ("code.run", "code"), "fs": ("fs.write", "path"),
         "http": ("http.request", "url"), "browser": ("browser.navigate", "url")}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "classify", help="rate commands from stdin with the risk gate",
        description="Reads one input per line from stdin and prints one verdict per line: "
        "level, tier, rules and reason separated by tabs, or JSON objects with --jsonl.",
    )
    parser.add_argument("--tool", choices=sorted(TOOLS), default="shell",
                        help="what a plain line is: a shell command, python code, a file path or a URL (default shell)")
    parser.add_argument("--jsonl", action="store_true",
                        help='read {"command": ...} or {"tool": ..., "args": {...}} per line and print JSON verdicts')
    parser.add_argument("--json", action="store_true", help="print one JSON verdict per line (plain lines in)")
    parser.add_argument("--policy", type=Path,
                        help="policy TOML file (default: $WARDEN_HOME/policy.toml when it exists, else built-in defaults)")
    parser.set_defaults(func=run)


def _call(line: str, args: argparse.Namespace) -> ToolCall:
    if not args.jsonl:
        tool, key = TOOLS[args.tool]
        extra = {"language": "python"} if tool == "code.run" else {"method": "GET"} if tool == "http.request" else {}
        if tool == "fs.write":
            extra = {"content": ""}
        return ToolCall(tool, {key: line, **extra})
    obj = json.loads(line)
    if isinstance(obj, dict) and "command" in obj and "tool" not in obj:
        return ToolCall("shell.run", {"command": str(obj["command"])})
    return ToolCall.from_json(obj)


def run(args: argparse.Namespace) -> int:
    if args.policy is not None and not args.policy.is_file():
        raise WardenError(f"no policy file at {args.policy}")
    classifier = Classifier(Policy.load(args.policy or warden_home() / "policy.toml"))
    failures, as_json = 0, args.jsonl or args.json
    for number, line in enumerate(sys.stdin, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        try:
            call = _call(line, args)
        except (ValueError, TypeError) as exc:
            failures += 1
            message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if as_json:
                print(json.dumps({"line": number, "error": message}), flush=False)
            else:
                print(f"error\tline {number}: {message}")
            print(f"warden: line {number}: {message}", file=sys.stderr)
            continue
        verdict = classifier.classify(call)
        if as_json:
            print(json.dumps(verdict.as_json(), ensure_ascii=False))
        else:
            print("\t".join((verdict.level.label, verdict.tier.value, ",".join(verdict.rules) or "-", verdict.reason)))
    return 1 if failures else 0
