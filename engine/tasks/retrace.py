"""Re-establishing a task's screen in a runner that never held it: its done steps replayed, each checked first.

A page or a screen is not durable (`Environment.durable`). A runner that did not hold it for the
task (another process resumed the task after an approval, or another task used the browser
meanwhile) has only a fresh one, reset to the spec's start: the effects of the steps already done
are gone from it, and the next step, perhaps one a person approved on the page they were shown,
would act on another page. So, before the task goes on, its done steps are replayed in order, and
each is checked against the trace it left before it runs again: the screen is where the step began
(its URL), the element it acted on is there under the same role and accessible name, and after it
the screen is where the step left it. Any difference stops the task with that reason; nothing is
guessed, and nothing acts on a screen that was not re-established.

The steps were ruled on when they ran and are ruled on again (one the gate now blocks stops the
task). They leave no new step or receipt, because the site ends as their receipts describe it:
- a spec whose setup puts its site back in its start state (`resettable`) had their effects undone
  by the reset, and the replay does them once again;
- any other site kept their effects, so the page is held read-only while they replay (a step that
  would send anything but a read stops the task), and a step that acts on no screen (an API call) is
  not repeated.
A screen that cannot be held read-only is replayed only when its spec is resettable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from engine.envs.environment import Environment, Observation
from engine.envs.scene import Element, Scene, ShowsScenes, scene_of
from engine.errors import WardenError, one_line
from engine.gate.gate import Decision, Gate
from engine.tasks.claim import Claim, LeaseLost
from engine.tasks.fence import EffectFence
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry

FACTS = ("url", "package")
"""The screen facts a trace keeps that a re-established screen must match (a page's title may say more
than where it is, e.g. a count of unread mail); a screen without either is matched by its title."""


@runtime_checkable
class HoldsStill(Protocol):
    def holding_still(self) -> AbstractContextManager[None]: ...


@dataclass(frozen=True)
class DoneStep:
    """A step the task did, as the journal has it: its index, its call (secrets given back), and its trace."""

    idx: int
    call: ToolCall
    trace: Mapping[str, Any]


@dataclass(frozen=True)
class Retraced:
    """How far re-establishing went: the steps replayed, and why it stopped (empty when the screen is back)."""

    replayed: tuple[int, ...]
    stopped: str = ""

    @property
    def held(self) -> bool:
        return not self.stopped


class Replay(StrEnum):
    """What became of one done step: replayed as its trace says, not repeated, or stopped by a difference."""

    REPLAYED = "replayed"
    KEPT = "kept"  # it acts on no screen, and its site kept what it did: nothing to do again
    DIFFERS = "differs"


@dataclass(frozen=True)
class Retracer:
    """Replays a task's done steps on its freshly reset screen, through the tools it has (`registry`), ruled on
    again by `gate`, each effect inside the task's `fence` (a runner that lost its claim does not act)."""

    registry: ToolRegistry
    gate: Gate
    fence: EffectFence

    async def retrace(self, env: Environment, claim: Claim, steps: Sequence[DoneStep], resettable: bool) -> Retraced:
        """Replay `steps` on `env`, freshly reset, checking each; `resettable`: the reset undid their effects."""
        if not steps:
            return Retraced(())
        still = env if not resettable and isinstance(env, HoldsStill) else None
        if not resettable and still is None:
            return Retraced((), f"its {env.kind} screen was reset here, and its spec does not say the reset puts its "
                                "state back (resettable), so its done steps cannot be replayed without doing "
                                "their effects twice")
        replayed: list[int] = []
        left: Mapping[str, Any] | None = None  # what the previous step left on the screen
        with still.holding_still() if still is not None else nullcontext():
            for step in steps:
                end, problem = await self._replay(env, claim, step, left, resettable)
                if end is Replay.DIFFERS:
                    described = self.registry.get(step.call.tool).describe(step.call.args)
                    suffix = " (its site was not reset, so replaying may only read)" if still is not None else ""
                    return Retraced(tuple(replayed), f"cannot re-establish its page in this runner: step {step.idx} "
                                                     f"({described}): {problem}{suffix}")
                if end is Replay.REPLAYED:
                    replayed.append(step.idx)
                    left = step.trace.get("after") or left
        return Retraced(tuple(replayed))

    async def _replay(self, env: Environment, claim: Claim, step: DoneStep, left: Mapping[str, Any] | None,
                      resettable: bool) -> tuple[Replay, str]:
        """Replay one step if it must be, checking the screen before and after it against its trace."""
        call, trace = step.call, step.trace
        scene = await scene_of(env, call)
        if isinstance(env, ShowsScenes) and scene is None and not resettable:
            return Replay.KEPT, ""
        if not trace:
            return Replay.DIFFERS, "it left no trace to check a replay against"
        recorded = trace.get("target") if isinstance(trace.get("target"), Mapping) else None
        if scene is not None and (differs := _before(scene, _facts(trace.get("before") or left), recorded)):
            return Replay.DIFFERS, differs
        try:
            tool = self.registry.check(call)
        except WardenError as exc:
            return Replay.DIFFERS, one_line(exc)
        ruling = self.gate.rule(call, tool.tier_for(call.args), tool)
        if ruling.decision is Decision.BLOCK:
            return Replay.DIFFERS, f"the gate now blocks it: {ruling.verdict.reason}"
        try:
            async with self.fence.hold(claim):
                output = await tool.run(env, dict(call.args))
            now = _facts(_seen(await env.observe()))
        except LeaseLost:
            raise
        except Exception as exc:  # a tool's failure is the replay's difference, never the runner's
            return Replay.DIFFERS, one_line(exc)
        if differs := _after(output.data.get("target"), recorded, now, _facts(trace.get("after"))):
            return Replay.DIFFERS, differs
        return Replay.REPLAYED, ""


def _before(scene: Scene, began: Mapping[str, Any], recorded: Mapping[str, Any] | None) -> str:
    """What differs, before a step runs again, from what its trace says it began on; "" when nothing does."""
    if began.get("url") and scene.url != began["url"]:
        return f"it began on {began['url']}, and the page is on {scene.url or 'none'}"
    if scene.problem:
        return scene.problem
    if recorded is not None and scene.element is not None and not scene.element.same(recorded):
        return f"it acted on {Element.from_json(recorded)}, and would now act on {scene.element}"
    return ""


def _after(acted: Any, recorded: Mapping[str, Any] | None, now: Mapping[str, Any], ended: Mapping[str, Any]) -> str:
    """What differs, after a step ran again, from what its trace says it acted on and left; "" when nothing does."""
    if recorded is not None and isinstance(acted, Mapping) and not Element.from_json(acted).same(recorded):
        return f"it acted on {Element.from_json(recorded)}, and this time on {Element.from_json(acted)}"
    differs = [f"{key} {now.get(key) or 'none'} instead of {value}" for key, value in ended.items()
               if now.get(key) != value]
    return "it left the screen at " + ", ".join(differs) if differs else ""


def _facts(seen: Mapping[str, Any] | None) -> dict[str, Any]:
    if not isinstance(seen, Mapping):
        return {}
    facts = {key: seen[key] for key in FACTS if seen.get(key)}
    if not facts and seen.get("title"):
        facts["title"] = seen["title"]
    return facts


def _seen(observation: Observation) -> dict[str, Any]:
    return {key: observation.fields.get(key) for key in (*FACTS, "title") if key in observation.fields}
