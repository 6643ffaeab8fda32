"""`warden classify`: rate commands or tool calls read from stdin, one verdict per line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import WardenError
from engine.gate.gate import Gate
from engine.gate.policy import Policy
from engine.gate.route import declared_tier
from engine.home import warden_home
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.visible import visible

if TYPE_CHECKING:
    from engine.gate.explain import Match

TOOLS = {"shell": ("shell.run", "command"), "code": ("code.run", "code"), "fs": ("fs.write", "path"),
         "http": ("http.request", "url"), "browser": ("browser.navigate", "url")}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "classify", help="rate commands from stdin with the risk gate",
        description="Reads one input per line from stdin and prints one verdict per line: "
        "level, tier, rules, reason and route separated by tabs, or JSON objects with --jsonl. The route is where "
        "the call goes under the policy (runs, asks or blocked), a shell command as the confined shell would run it.",
    )
    parser.add_argument("--tool", choices=sorted(TOOLS), default="shell",
                        help="what a plain line is: a shell command, python code, a file path or a URL (default shell)")
    parser.add_argument("--jsonl", action="store_true",
                        help='read {"command": ...} or {"tool": ..., "args": {...}} per line and print JSON verdicts')
    parser.add_argument("--json", action="store_true", help="print one JSON verdict per line (plain lines in)")
    parser.add_argument("--explain", action="store_true",
                        help="say for each input where it goes and why, and which words each rule fired on")
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
    gate = Gate(Policy.load(args.policy or warden_home() / "policy.toml"))
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
        _report(gate, call, as_json, args.explain)
    return 1 if failures else 0


def _report(gate: Gate, call: ToolCall, as_json: bool, explaining: bool) -> None:
    tier = declared_tier(gate.policy, call.tool)
    ruling = gate.rule(call, tier)
    verdict = ruling.verdict
    matches = _matches(gate, call, tier) if explaining else ()
    if as_json:
        shown = {**verdict.as_json(), "route": ruling.route.value, "why": ruling.why}
        if explaining:
            shown["matches"] = [{"rule": m.rule, "level": m.level, "tier": m.tier, "reason": m.reason,
                                 "words": list(m.words)} for m in matches]
        print(json.dumps(shown, ensure_ascii=False))
    elif explaining:
        print(visible(_shown(call)))
        print(f"  {ruling.routing}")
        print(f"  rated {verdict.level.label}, {verdict.tier.value}: {visible(verdict.reason)}")
        for match in matches:
            words = ", ".join(repr(visible(word)) for word in match.words)
            print(f"  {match.rule} ({match.level}, {match.tier}): {match.reason}" + (f" [{words}]" if words else ""))
    else:
        print("\t".join((verdict.level.label, verdict.tier.value, ",".join(verdict.rules) or "-", verdict.reason,
                         str(ruling.routing))))


def _matches(gate: Gate, call: ToolCall, tier: Tier) -> tuple[Match, ...]:
    from engine.gate.explain import explain  # the web's origins come with it: only --explain pays for them

    return explain(call, gate.classifier, tier).matches


def _shown(call: ToolCall) -> str:
    if call.tool == "shell.run":
        return f"$ {call.args.get('command', '')}"
    return f"{call.tool} {json.dumps(call.args, ensure_ascii=False)}"
