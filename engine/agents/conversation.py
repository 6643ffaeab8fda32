"""The conversation a model agent keeps with its provider across `propose` calls.

The runner owns the loop and asks for one move at a time; a model answers in replies that
may hold several actions, and one action may need several tool calls (Gemini's type-at is a
click, a clear and the text). So an agent keeps, between proposals: the actions of the
current reply still to do, the calls of the action being run, and the results gathered for
the reply. Each proposal returns the next call; the following `propose` reads that call's
outcome from the history and carries on. When every action of a reply is answered, the
results (with the outcome text and a screenshot of the new screen) go back to the model and
it is asked again. Anything that needs no tool (a screenshot, a wait, an action with no
mapping) is answered inside the same `propose` without involving the runner.

The providers differ only in wire shapes, which subclasses supply: `_open` (the first user
turn), `_ask` (one model call, its reply parsed), `_answer` (the results as the next user
turn), `_translate` (one model action to a `Move`) and `_error_line` (an SDK error as one line).
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.agents.agent import (
    Act,
    AgentContext,
    AgentError,
    Finish,
    GiveUp,
    Outcome,
    Proposal,
    Turn,
    Usage,
)
from engine.agents.computer import Actions, Calls, Display, Look, Move, Refuse
from engine.envs.environment import Observation
from engine.errors import one_line
from engine.tools.call import ToolCall

ACCOUNT_TURNS = 20
"""How many past steps a conversation started mid-task is told about."""

_ENV_NAMES = {"web": "a web browser", "desktop": "a desktop computer"}


@dataclass(frozen=True)
class ModelAction:
    """One action the model asked for: its provider id (answers must carry it), name and arguments."""

    id: str | None
    name: str
    args: Mapping[str, Any]


@dataclass
class Result:
    """The answer to one model action: what happened, whether it is an error, and the screen after it."""

    action: ModelAction
    text: str
    error: bool = False
    image: bytes | None = None


@dataclass(frozen=True)
class Reply:
    """One model call, parsed: the actions it asks for, its usage, and `end` when it stops without acting."""

    actions: tuple[ModelAction, ...]
    usage: Usage
    end: Finish | GiveUp | None = None


@dataclass(frozen=True)
class Limits:
    """The bounds that keep a conversation from running away.

    `max_model_calls` caps the whole conversation; `max_asks_per_step` caps model calls inside
    one `propose` that produce no tool call (screenshots, waits, refused actions);
    `max_refused_replies` is how many replies in a row may ask only for what cannot be done here;
    `keep_screenshots` is how many recent screenshots stay in the conversation (older ones are
    replaced by a line, so a long task does not outgrow the context); `max_wait_s` bounds a wait.
    """

    max_model_calls: int = 100
    max_asks_per_step: int = 8
    max_refused_replies: int = 3
    keep_screenshots: int = 3
    max_wait_s: float = 10.0


LIMIT_DEFAULTS: dict[str, Any] = {
    "max_model_calls": Limits.max_model_calls,
    "max_refused_replies": Limits.max_refused_replies,
    "keep_screenshots": Limits.keep_screenshots,
    "max_wait_s": Limits.max_wait_s,
}


def read_spec(spec: Mapping[str, Any], provider: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The spec's options over `defaults`, each of its default's type; an unknown key or a wrong
    type is a one-line `AgentError` naming the option."""
    unknown = sorted(set(spec) - set(defaults) - {"kind"})
    if unknown:
        raise AgentError(f"{provider} agent: unknown option {unknown[0]!r}; options are {', '.join(sorted(defaults))}")
    options: dict[str, Any] = {}
    for key, default in defaults.items():
        value = spec.get(key, default)
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(value, bool) != isinstance(default, bool) or not isinstance(value, type(default)):
            raise AgentError(f"{provider} agent: {key} must be {type(default).__name__}, got {value!r:.40}")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
            raise AgentError(f"{provider} agent: {key} must not be negative, got {value}")
        options[key] = value
    return options


def limits_from(options: Mapping[str, Any], provider: str) -> Limits:
    """The limits among an agent's options; a conversation needs at least one model call and one screenshot."""
    for key in ("max_model_calls", "keep_screenshots"):
        if options[key] < 1:
            raise AgentError(f"{provider} agent: {key} must be at least 1")
    return Limits(**{key: options[key] for key in LIMIT_DEFAULTS})


def told(turn: Turn) -> tuple[str, bool]:
    """A settled step as the model is told it: plain about anything but success, so it adapts."""
    what = turn.call.tool
    output = " ".join(turn.output.split())[:500]
    if turn.outcome is Outcome.DONE:
        return (f"done: {what}" + (f": {output}" if output else ""), False)
    if turn.outcome is Outcome.FAILED:
        return (f"FAILED: {what} did not take effect: {output or 'no reason given'}", True)
    if turn.outcome is Outcome.DENIED:
        return (f"DENIED: the operator refused {what}" + (f" ({output})" if output else "")
                + ". Do not repeat it; find another way or stop.", True)
    return (f"BLOCKED: Warden's policy forbids {what}" + (f" ({output})" if output else "")
            + ". Do not repeat it; find another way or stop.", True)


def account(history: Sequence[Turn]) -> str:
    """The task so far, for a conversation started mid-task (a resumed task, a replay that fell back)."""
    lines = []
    if len(history) > ACCOUNT_TURNS:
        lines.append(f"({len(history) - ACCOUNT_TURNS} earlier steps not shown)")
    for turn in history[-ACCOUNT_TURNS:]:
        args = json.dumps(turn.call.args, ensure_ascii=False)
        args = args if len(args) <= 120 else args[:117] + "..."
        text, _ = told(turn)
        lines.append(f"{turn.idx}. [{turn.source}] {turn.call.tool} {args} -> {text[:240]}")
    return "\n".join(lines)


def introduction(goal: str, env_kind: str, history: Sequence[Turn], briefing: str = "") -> str:
    """The first user turn's text: the goal, what a replay did before handing over, how Warden answers,
    and when to stop."""
    text = (f"You are operating {_ENV_NAMES.get(env_kind, 'a ' + env_kind + ' environment')} for Warden.\n"
            f"Goal: {goal}\n\n"
            "Every action you take passes a policy gate: it may be denied by the operator or blocked by "
            "policy, and you will be told so. When the goal is done, stop using tools and reply with a "
            "short summary of what you did.")
    if briefing:
        text += "\n\n" + briefing
    if history:
        text += "\n\nSteps already taken in this task (continue from the current screen):\n" + account(history)
    return text


@dataclass
class _Running:
    """The model action whose tool calls are being run, one proposal each."""

    action: ModelAction
    remaining: list[ToolCall]
    lines: list[str] = field(default_factory=list)


class ModelAgent(ABC):
    """A computer-use agent backed by a provider's model; see the module docstring for the loop."""

    name: str = "model"

    def __init__(self, context: AgentContext, limits: Limits) -> None:
        self.goal = context.goal
        self.briefing = context.briefing
        self.env_kind = context.env_kind
        self.actions = Actions(context.env_kind, context.tools)
        self.limits = limits
        self.display: Display | None = None
        self.model_calls = 0
        self._started = False
        self._todo: list[tuple[ModelAction, Move]] = []
        self._results: list[Result] = []
        self._running: _Running | None = None
        self._proposed: ToolCall | None = None
        self._seen_idx = -1
        self._refused_replies = 0

    async def propose(self, observation: Observation, history: Sequence[Turn]) -> Proposal:
        spent = Usage()
        try:
            if not self._started:
                stop = await self._begin(observation, history)
                if stop is not None:
                    return stop
            elif self._running is not None:
                call = self._settle(history)
                if call is not None:
                    return Act(call, spent)
            asks = 0
            while True:
                call = await self._work(observation)
                if call is not None:
                    return Act(call, spent)
                if asks >= self.limits.max_asks_per_step:
                    return GiveUp(f"{self.name}: the model made {asks} calls in a row "
                                  "without an action Warden could run", spent)
                stop = self._bounded()
                if stop is not None:
                    return replace(stop, usage=spent)
                reply = await self._ask()
                asks += 1
                self.model_calls += 1
                spent += reply.usage
                if reply.end is not None:
                    return replace(reply.end, usage=spent)
                self._todo = [(action, self._translate(action)) for action in reply.actions]
                refused = [move for _, move in self._todo if isinstance(move, Refuse)]
                self._refused_replies = self._refused_replies + 1 if len(refused) == len(self._todo) else 0
                if self._refused_replies and self._refused_replies >= self.limits.max_refused_replies:
                    return GiveUp(f"{self.name}: the model kept asking for what cannot be done here "
                                  f"({refused[-1].error})", spent)
        except Exception as exc:
            return GiveUp(self._error_line(exc), spent)

    async def _begin(self, observation: Observation, history: Sequence[Turn]) -> GiveUp | None:
        png = await observation.screenshot()
        self.display = Display.of(observation.fields, png)
        if png is None or self.display is None:
            return GiveUp(f"{self.name}: the {self.env_kind} environment shows no screen to look at")
        self._seen_idx = max((turn.idx for turn in history), default=-1)
        self._open(introduction(self.goal, self.env_kind, history, self.briefing), png)
        self._started = True
        return None

    def _settle(self, history: Sequence[Turn]) -> ToolCall | None:
        """Read the outcome of the call last proposed; the action's next call if it succeeded."""
        running = self._running
        assert running is not None
        fresh = [turn for turn in history if turn.idx > self._seen_idx]
        self._seen_idx = max((turn.idx for turn in history), default=self._seen_idx)
        mine = [turn for turn in fresh if turn.source == "agent" and turn.call == self._proposed]
        if not mine:
            line, error = f"the outcome of {self._proposed.tool if self._proposed else 'the action'} is unknown", True
        else:
            line, error = told(mine[-1])
        running.lines.append(line)
        if not error and running.remaining:
            self._proposed = running.remaining.pop(0)
            return self._proposed
        self._running, self._proposed = None, None
        self._results.append(Result(running.action, "\n".join(running.lines), error))
        if error:
            for action, _ in self._todo:
                self._results.append(Result(action, "not run: an earlier action of this turn did not succeed", True))
            self._todo = []
        return None

    async def _work(self, observation: Observation) -> ToolCall | None:
        """Do the reply's remaining actions in order: the first call to run is returned; actions
        that run nothing are answered here, and a finished reply is sent back with the screen."""
        while self._todo:
            action, move = self._todo.pop(0)
            if isinstance(move, Calls):
                self._running = _Running(action, list(move.calls[1:]))
                self._proposed = move.calls[0]
                return self._proposed
            if isinstance(move, Look):
                if move.wait > 0:
                    await asyncio.sleep(min(move.wait, self.limits.max_wait_s))
                png = await observation.camera() if observation.camera is not None else observation.image
                self._results.append(Result(action, move.note, image=png))
            else:
                self._results.append(Result(action, move.error, error=True))
        if self._results:
            last = self._results[-1]
            if last.image is None:
                last.image = await observation.screenshot()
            self._answer(self._results, observation)
            self._results = []
        return None

    def _bounded(self) -> GiveUp | None:
        if self.model_calls >= self.limits.max_model_calls:
            return GiveUp(f"{self.name}: the conversation reached its cap of {self.limits.max_model_calls} model calls")
        return None

    def _error_line(self, exc: Exception) -> str:
        return f"{self.name}: {one_line(exc)}"

    @abstractmethod
    def _open(self, text: str, png: bytes) -> None:
        """Start the conversation: the first user turn with `text` and the screenshot."""

    @abstractmethod
    async def _ask(self) -> Reply:
        """One model call on the conversation so far; the model's turn is kept in the conversation."""

    @abstractmethod
    def _answer(self, results: Sequence[Result], observation: Observation) -> None:
        """Add the answers to every action of the last reply as the next user turn."""

    @abstractmethod
    def _translate(self, action: ModelAction) -> Move:
        """One model action as Warden moves."""
