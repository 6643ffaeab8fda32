"""A key–value store environment, written only against the engine's public seams.

It proves a new kind plugs in without engine changes: its own predicate forms (`has`,
`missing`), tools, snapshot and restore (the journal's reverser), fork and observation.
`kv.send` stands for an effect outside the runtime's reach: it lands in an outbox that
every fork shares, so a test can count how often it really happened.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.envs.environment import Observation
from engine.programs.predicates import Form, holds, register_forms
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput

KIND = "kv"
_names = itertools.count()


def _has_body(body: Any) -> bool:
    return isinstance(body, dict) and isinstance(body.get("key"), str) and set(body) <= {"key", "value"}


register_forms(KIND, (
    Form("has", "{key, value?}", _has_body),
    Form("missing", "a key", lambda body: isinstance(body, str)),
))


class KeyValueEnv:
    kind = KIND
    can_fork = True
    durable = True

    def __init__(self, data: Mapping[str, str] | None = None, outbox: list | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})
        self.outbox: list = outbox if outbox is not None else []
        self.identity = f"{KIND}:{next(_names)}"
        self.closed = False

    def tools(self) -> Sequence[Tool]:
        return TOOLS

    async def reset(self, spec: Mapping[str, Any]) -> None:
        if "data" in spec:
            self.data = dict(spec["data"])

    async def observe(self) -> Observation:
        return Observation(KIND, json.dumps(self.data, sort_keys=True), {"data": dict(self.data)},
                           probe=lambda predicate: holds(predicate, self))

    async def fork(self, scratch: Path) -> "KeyValueEnv":
        return KeyValueEnv(self.data, self.outbox)

    async def close(self) -> None:
        self.closed = True

    async def check(self, form: str, body: Any) -> bool:
        if form == "has":
            return body["key"] in self.data and ("value" not in body or self.data[body["key"]] == body["value"])
        if form == "missing":
            return body not in self.data
        raise ToolError(f"a kv store cannot check {form!r}")

    async def snapshot(self, targets: list[str], into: Path) -> None:
        into.mkdir(parents=True)
        saved = {key: self.data.get(key) for key in targets}
        (into / "manifest.json").write_text(json.dumps(saved))

    async def restore(self, snapshot: Path) -> list[str]:
        saved = json.loads((snapshot / "manifest.json").read_text())
        for key, value in saved.items():
            if value is None:
                self.data.pop(key, None)
            else:
                self.data[key] = value
        return list(saved)

    def snapshot_targets(self, snapshot: Path) -> list[str]:
        return list(json.loads((snapshot / "manifest.json").read_text()))

    def overlaps(self, first: str, second: str) -> bool:
        return first == second

    async def fingerprint(self, targets: list[str]) -> dict:
        return {key: self.data.get(key) for key in targets}


async def _set(env: KeyValueEnv, args: dict) -> ToolOutput:
    env.data[args["key"]] = args["value"]
    return ToolOutput(f"{args['key']} = {args['value']}")


async def _delete(env: KeyValueEnv, args: dict) -> ToolOutput:
    if env.data.pop(args["key"], None) is None:
        raise ToolError(f"kv.delete: no key {args['key']}")
    return ToolOutput(f"deleted {args['key']}")


async def _send(env: KeyValueEnv, args: dict) -> ToolOutput:
    env.outbox.append(env.data.get(args["key"]))
    return ToolOutput(f"sent {args['key']}")


async def _explode(env: KeyValueEnv, args: dict) -> ToolOutput:
    raise RuntimeError("the store's driver crashed")


TOOLS = (
    Tool("kv.set", KIND, {"key": str, "value": str}, _set, Tier.LOCAL_REVERSIBLE, "restore_snapshot",
         touches=lambda a: [a["key"]], effect=lambda a: {"has": {"key": a["key"], "value": a["value"]}},
         summary=lambda a: f"set {a['key']}", idempotent=True),
    Tool("kv.delete", KIND, {"key": str}, _delete, Tier.LOCAL_REVERSIBLE, "restore_snapshot",
         touches=lambda a: [a["key"]], needs=lambda a: {"has": {"key": a["key"]}},
         effect=lambda a: {"missing": a["key"]}, summary=lambda a: f"delete {a['key']}"),
    Tool("kv.send", KIND, {"key": str}, _send, Tier.EXTERNALLY_IRREVERSIBLE,
         needs=lambda a: {"has": {"key": a["key"]}}, summary=lambda a: f"send {a['key']}"),
    Tool("kv.explode", KIND, {}, _explode, Tier.LOCAL_REVERSIBLE, "restore_snapshot"),
)
