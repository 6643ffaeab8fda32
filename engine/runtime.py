"""The composition root: builds and wires every engine part; ablation switches live here only.

Clients (the console, the CLI, tests) hold a `Runtime` and use its public methods and
its event stream; nothing else in the engine reads the process environment.
"""

from __future__ import annotations

import asyncio
import getpass
import importlib
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from engine.agents.agent import AgentContext, AgentError, AgentFactory, Price
from engine.agents.scripted import ScriptedAgent
from engine.envs.android import AndroidEnv
from engine.envs.desktop import DesktopEnv
from engine.envs.environment import Environment
from engine.envs.fence import EnvironmentFence
from engine.envs.web import WebEnv
from engine.envs.workspace import WorkspaceEnv, placement
from engine.envs.workspace.environment import KIND as WORKSPACE_KIND
from engine.errors import WardenError, one_line
from engine.events.bus import EventBus, Subscription
from engine.events.records import Event, ProgramRejected, ProgramRemoved, ProgramStored, ReceiptUndone
from engine.gate.approvals import ApprovalBook
from engine.gate.gate import Decision, Gate
from engine.gate.grants import Grant, GrantBook, Scope, scoped_pattern
from engine.gate.policy import Policy
from engine.hosts.sessions import HostSessions
from engine.gate.verdict import Level
from engine.home import sandbox_for, warden_home
from engine.journal.journal import Journal, UndoError
from engine.journal.receipt import Receipt
from engine.journal.task_undo import TaskUndo, undo_task
from engine.journal.undo_action import UNDO_TOOL, Undoer
from engine.programs.corpus import Corpus, Expiry, ProgramStats
from engine.programs.program import Program, ProgramError
from engine.programs.predicates import interpolate
from engine.programs.verifier import Offered, Verifier
from engine.reader import Records
from engine.store import Store
from engine.tasks.backend import TaskBackend
from engine.tasks.budget import Budget
from engine.tasks.evaluator import EvaluatorError
from engine.tasks.queue import TaskQueue
from engine.tasks.runner import DEFAULT_MAX_STEPS, TaskRunner
from engine.tasks.fence import EffectFence
from engine.tasks.stepper import Stepper
from engine.tasks.task import Task, TaskSpec
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry
from programs import SHIPPED

def provider(module: str, name: str) -> AgentFactory:
    """A model agent's factory that imports its SDK only when a task asks for it (the SDKs are slow to import)."""

    def factory(spec: Mapping, context: AgentContext):
        return getattr(importlib.import_module(module), name).from_spec(spec, context)

    return factory


def auto_agent(spec: Mapping, context: AgentContext):
    """The model agent whose key is set: Claude first, then Gemini (web only); one line when neither is."""
    if os.environ.get("ANTHROPIC_API_KEY"):
        return AGENTS["anthropic"]({**spec, "kind": "anthropic"}, context)
    if (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")) and context.env_kind == "web":
        return AGENTS["gemini"]({**spec, "kind": "gemini"}, context)
    raise AgentError("agent auto: set ANTHROPIC_API_KEY for Claude, or GEMINI_API_KEY for Gemini (web tasks)")


AGENTS: dict[str, AgentFactory] = {
    "scripted": ScriptedAgent.from_spec,
    "anthropic": provider("engine.agents.anthropic", "AnthropicAgent"),
    "gemini": provider("engine.agents.gemini", "GeminiAgent"),
    "auto": auto_agent,
}


def screen_environments() -> list[Environment]:
    """The browser (`$WARDEN_BROWSER`, else a Playwright or system Chromium), the desktop on `$DISPLAY` and
    the phone on `$ANDROID_SERIAL`; their tools say in one line why they cannot run where this machine
    lacks a browser, a display or a phone."""
    return [WebEnv(os.environ.get("WARDEN_BROWSER") or None), DesktopEnv(os.environ.get("DISPLAY") or None),
            AndroidEnv(os.environ.get("ANDROID_SERIAL") or None)]


def prepare_home(home: Path) -> Path:
    """The home directory, made if missing; one line saying why when it is a file or cannot be written."""
    if home.exists() and not home.is_dir():
        raise WardenError(f"Warden's home {home} is a file, not a directory; point WARDEN_HOME at a directory")
    try:
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=home):
            pass
    except OSError as exc:
        raise WardenError(f"Warden's home {home} cannot be written ({exc.strerror or exc}); "
                          "point WARDEN_HOME at a writable directory") from None
    return home


def operator() -> str:
    """Who decides from this process: the OS user."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


@dataclass(frozen=True)
class Switches:
    """Ablations: each switches one layer off, for experiments that measure what it is worth."""

    gating: bool = True
    recovery: bool = True
    verify_gate: bool = True
    fallback: bool = True

    @classmethod
    def from_env(cls) -> "Switches":
        def on(name: str) -> bool:
            value = os.environ.get(name, "on").strip().lower()
            if value not in ("on", "off"):
                raise WardenError(f"{name} must be on or off, not {value!r}")
            return value == "on"

        return cls(on("WARDEN_GATING"), on("WARDEN_RECOVERY"), on("WARDEN_VERIFY_GATE"), on("WARDEN_FALLBACK"))


def build_registry(environments: Iterable[Environment]) -> ToolRegistry:
    """Every tool of every environment: the one list of tools the runtime and its gate know."""
    registry = ToolRegistry()
    for env in environments:
        for tool in env.tools():
            registry.register(tool)
    return registry


class Runtime(Records):
    def __init__(
        self, home: Path, store: Store, bus: EventBus, policy: Policy, environments: Iterable[Environment],
        switches: Switches, pace: float = 0.0, lease_seconds: float = 30.0,
        agents: Mapping[str, AgentFactory] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
    ) -> None:
        self.home = home
        self.store = store
        self.bus = bus
        self.policy = policy
        self.environments: dict[str, Environment] = {env.kind: env for env in environments}
        self.switches = switches
        self.registry = build_registry(self.environments.values())
        self.gate = Gate(policy, enabled=switches.gating, tools=[*self.registry.names(), UNDO_TOOL])
        self.approvals = ApprovalBook(store, policy.approval_ttl_seconds)
        self.grants = GrantBook(store, policy.grant_ttl_seconds)
        self.journal = Journal(store, home / "snapshots") if switches.recovery else None
        self.acting = EnvironmentFence(home / "fences")  # steps share an environment; an undo there acts alone
        self.undoer = (Undoer(store, self.journal, self.gate, self.registry, self._environment_of, home / "fences",
                              self.acting) if self.journal is not None else None)
        self.corpus = Corpus(store, home / "programs")
        self.queue = TaskQueue(store)
        self.fence = EffectFence(home / "fences", self.queue)
        stepper = Stepper(store, bus, self.queue, self.gate, self.approvals, self.journal, self.registry,
                          self.fence, self.acting, self.grants)
        self.hosts = HostSessions(store, self.queue, stepper, self.approvals, self.environment, bus, lease_seconds)
        verifier = Verifier(self.registry, self.gate, home / "scratch") if switches.verify_gate else None
        self._opened: dict[str, Environment] = {env.identity: env for env in self.environments.values()}
        self.runner: TaskBackend = TaskRunner(
            self.queue, bus, stepper, self.approvals, self.corpus, verifier, self.environments,
            {**AGENTS, **(agents or {})}, home / "runs", switches.fallback, pace, lease_seconds, max_steps,
            self.environment, {model: Price(*pair) for model, pair in policy.prices.items()}, self.shell_evaluator,
        )

    @classmethod
    async def open(
        cls, home: Path | None = None, workspace: Path | None = None, switches: Switches | None = None,
        policy: Policy | None = None, pace: float = 0.0, lease_seconds: float = 30.0,
        environments: Iterable[Environment] = (), agents: Mapping[str, AgentFactory] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> Self:
        """Open (creating if needed) the home's database; `pace` slows steps so a person can watch.

        The workspace, browser and desktop environments are always there; `environments` adds
        others (or replaces one of the same kind).
        """
        home = Path(home) if home else warden_home()
        root = placement.check(Path(workspace) if workspace else home / "workspace", home)
        home = prepare_home(home)
        switches = switches or Switches.from_env()
        policy = policy or Policy.load(home / "policy.toml")
        sandbox = sandbox_for(policy, home)
        store = await Store.open(home / "warden.db")
        workspace_env = WorkspaceEnv(root, sandbox, redactor=store.redactor)
        runtime = cls(home, store, EventBus(store), policy, [workspace_env, *screen_environments(), *environments],
                      switches, pace,
                      lease_seconds, agents, max_steps)
        problems = await runtime.corpus.import_files(SHIPPED) if store.fresh else []
        if problems:
            await store.close()
            raise ProgramError(f"a shipped program is broken: {problems[0]}")
        return runtime

    @property
    def workspace(self) -> WorkspaceEnv:
        env = self.environments[WORKSPACE_KIND]
        if not isinstance(env, WorkspaceEnv):
            raise TypeError(f"the {WORKSPACE_KIND} environment is a {type(env).__name__}, not a WorkspaceEnv")
        return env

    async def submit(self, spec: TaskSpec) -> Task:
        [task] = await self.runner.submit([spec])
        return task

    async def submit_all(self, specs: list[TaskSpec]) -> list[Task]:
        """Queue every task, checked first, in one transaction: all of them or none."""
        return await self.runner.submit(specs)

    async def approve(self, approval_id: str, by: str | None = None, scope: Scope = Scope.ONCE,
                      glob: str | None = None) -> Grant | None:
        """Let the held call run; a `scope` past once also grants its pattern (`engine/gate/grants.py`) for the
        rest of its task or for any task, checked before deciding, so a scope that cannot be given (a
        catastrophic call, a glob that does not match) leaves the approval pending."""
        by = by or operator()
        approval = await self.approvals.get(approval_id)
        pattern = scoped_pattern(approval, glob) if scope is not Scope.ONCE else None
        await self.runner.decide(approval_id, True, by)
        if pattern is None:
            return None
        return await self.grants.grant(scope, pattern, pattern.describe(), by, approval.task_id, approval.id)

    async def revoke_grant(self, grant_id: str, by: str | None = None) -> Grant:
        return await self.grants.revoke(grant_id, by or operator())

    async def deny(self, approval_id: str, by: str | None = None) -> None:
        await self.runner.decide(approval_id, False, by or operator())

    async def cancel(self, task_id: str, by: str | None = None) -> None:
        await self.runner.cancel(task_id, by or operator())

    async def undo(self, receipt_id: str, force: bool = False, by: str | None = None) -> Receipt:
        """Undo a receipt in its own environment, through the gate, leaving a receipt of the undo: a snapshot is
        restored, a compensable receipt's compensator runs within its window. `force` undoes a restore even
        though a later call that left no snapshot, or a person, may have changed the same paths (that change
        is then lost, and the event and the undo's receipt say who forced it)."""
        if self.undoer is None:
            raise UndoError("recovery is switched off: there is no journal to undo from")
        by = by or operator()
        receipt = await self.undoer.undo(receipt_id, force, by)
        await self.bus.publish(ReceiptUndone(receipt.task_id, receipt.id, force, by))
        return receipt

    async def undo_task(self, task_id: str) -> TaskUndo:
        """Undo a task's receipts newest first; it stops at the first one that cannot be undone (audit only,
        irrecoverable, or a later change to the same paths) and says exactly what it undid before that."""
        if self.journal is None:
            raise UndoError("recovery is switched off: there is no journal to undo from")
        await self.queue.get(task_id)
        journal = self.journal
        return await undo_task(task_id, await journal.for_task(task_id), await journal.blocked(task_id), self.undo)

    async def raise_budget(self, task_id: str, raised: Budget, by: str | None = None) -> Budget:
        """Raise a task's limits; a task paused on its budget resumes once it is within the new one."""
        return await self.runner.raise_budget(task_id, raised, by or operator())

    async def traces(self, task_id: str) -> list[dict]:
        """Each step of a task: its call, and what it saw before, acted on and saw after."""
        return await self.queue.traces(task_id)

    async def shell_evaluator(self, command: str) -> bool:
        """A shell evaluator: rated by the gate (only a safe command may run), run in the workspace sandbox."""
        call = ToolCall("shell.run", {"command": command})
        ruling = self.gate.rule(call, self.registry.get("shell.run").tier_for(call.args))
        if self.gate.enabled and (ruling.decision is not Decision.ALLOW or ruling.verdict.level is not Level.SAFE):
            raise EvaluatorError(f"the shell evaluator is not read-only ({ruling.verdict.reason}); an evaluator only looks")
        try:
            finished = await self.workspace.sandbox.run(self.workspace.root, command)
        except WardenError as exc:
            raise EvaluatorError(f"the shell evaluator could not run: {exc}") from None
        return finished.code == 0

    def environment(self, identity: str) -> Environment | None:
        """The environment a task or receipt names: one this runtime holds, or a workspace it opens
        on that directory (a home's tasks may each have been submitted for another workspace), where
        `placement` allows one: else `WorkspaceRefused` says why, in one line."""
        if identity not in self._opened and identity.startswith(WORKSPACE_KIND + ":"):
            root = Path(identity.split(":", 1)[1])
            if root.is_absolute() and root.is_dir():
                self._opened[identity] = WorkspaceEnv(placement.check(root, self.home), self.workspace.sandbox,
                                                      redactor=self.store.redactor)
        return self._opened.get(identity)

    def _environment_of(self, receipt: Receipt) -> Environment:
        """The environment a receipt was taken in (receipts from before environments had names: the workspace)."""
        if receipt.env is None:
            return self.workspace
        env = self.environment(receipt.env)
        if env is None:
            raise UndoError(f"receipt {receipt.id} was taken in {receipt.env}, which this runtime cannot open; "
                            "open Warden on that environment to undo it")
        return env

    def events(self) -> Subscription:
        """This process's events as they are published (the CLI's live progress)."""
        return self.bus.subscribe()

    def on_publish(self, listener: Callable[[], None]) -> None:
        """Call `listener` on the engine's loop after each event is written (a reader elsewhere can look at once)."""
        self.bus.on_publish(listener)

    async def history(self, task_id: str | None = None) -> list[Event]:
        return await self.bus.history(task_id)

    async def watch_programs(self, stop: asyncio.Event | None = None) -> None:
        """Follow program files a person edits or deletes in `programs/`: an edit of words alone (descriptions)
        keeps its verification; any other edit goes through the verify gate (served at once if it re-solves
        its task, else the served version stays); each change is an event. A change that fails in any way is
        refused in one line and the watch goes on: one bad file must not stop the following of the others."""
        async for change in self.corpus.watch(stop):
            if isinstance(change, Program):
                stored = await self.corpus.get(change.id)
                try:
                    if stored is not None and stored.behaves_like(change):  # only words changed: nothing to re-verify
                        edited = change.with_verification({**stored.verification, "edited": time.time()})
                        await self.corpus.upsert(edited)
                        await self.bus.publish(ProgramStored(None, edited.id, edited.signature, edited.status))
                    else:
                        offered = await self.verify_program(change)
                        if not offered.stored and stored is not None:
                            await self._refused_edit(stored.id, offered.verification.reason)
                except Exception as exc:  # noqa: BLE001 - said in one line; the next file is still followed
                    await self.bus.publish(ProgramRejected(None, change.signature, one_line(exc)))
            else:
                await self.bus.publish(change)

    async def _refused_edit(self, program_id: str, reason: str) -> None:
        noted = await self.corpus.note_refused_edit(program_id, self.corpus.directory / f"{program_id}.json", reason)
        if noted is not None:
            await self.bus.publish(ProgramStored(None, noted.id, noted.signature, noted.status))

    async def remove_program(self, program_id: str) -> None:
        if not await self.corpus.remove(program_id):
            raise ProgramError(f"no program {program_id}")
        await self.bus.publish(ProgramRemoved(None, program_id))

    async def accept_program(self, program_id: str, by: str | None = None) -> Program:
        """A person vouches for a program verification could not re-run; it is served from now on."""
        program = await self.corpus.accept(program_id, by or operator())
        await self.bus.publish(ProgramStored(None, program.id, program.signature, program.status))
        return program

    async def run_until_idle(self) -> None:
        await self.runner.run_until_idle()

    async def run_task(self, task_id: str) -> None:
        """Run this one task here until it rests; other queued tasks are left to other runners."""
        await self.runner.run_task(task_id)

    async def serve(self) -> None:
        await self.runner.serve()

    async def close(self) -> None:
        """Close the environments this runtime opened (a browser it launched) and the database."""
        for env in {id(env): env for env in [*self.environments.values(), *self._opened.values()]}.values():
            if env.kind != WORKSPACE_KIND:
                try:
                    await env.close()
                except Exception:
                    pass  # a browser that already died has nothing left to close
        await self.store.close()

    async def program_stats(self, program_id: str) -> ProgramStats:
        """How a stored program has served: replays, successes, fallbacks, failures, the last failure."""
        return await self.corpus.stats(program_id)

    async def all_program_stats(self) -> dict[str, ProgramStats]:
        """Every stored program's statistics, read in one query."""
        return await self.corpus.all_stats()

    async def import_program(self, path: Path, spec: TaskSpec | None = None) -> Offered:
        """Offer a program file to the verify gate: stored `verified` only if it re-solves its task, held
        `unverified` (until accepted) when it cannot be re-run safely and nothing of its family is served,
        refused otherwise. A malformed file raises `ProgramError` naming the file and the problem."""
        program = Program.load(path).with_verification(
            {"status": "unverified", "when": time.time(), "passed": False,
             "how": f"imported from {path}: verify or accept it to serve it"})
        return await self.verify_program(program, spec)

    async def verify_program(self, program: Program | str, spec: TaskSpec | None = None) -> Offered:
        """Run a program (or a stored one, by id) through the verify gate again, with its example values and
        the evaluator and environment it was compiled with, or with a task `spec` of its family (its goal's
        values, its evaluator, its environment's start); it replaces the stored one only as the gate allows."""
        if isinstance(program, str):
            found = await self.corpus.get(program)
            if found is None:
                raise ProgramError(f"no program {program}; `warden programs` lists them")
            program = found
        env = self.environments.get(program.kind)
        if env is None:
            raise ProgramError(f"program {program.id} acts in a {program.kind} environment, which this runtime lacks")
        if spec is not None:
            params = program.bind(spec.goal)
            if params is None or spec.env_kind != program.kind:
                raise ProgramError(f"the spec's goal {spec.goal!r:.80} is not of program {program.id}'s family "
                                   f"({program.kind}: {program.goal_template})")
            return await self.runner.offer(program, params, spec.evaluator, spec.env, env, env, hold_unjudged=True)
        params = {name: str(value.get("example", "")) for name, value in program.params.items()}
        evaluator = program.provenance.get("evaluator")
        start = {key: value for key, value in program.env.items() if key != "kind"}
        return await self.runner.offer(program, params, interpolate(evaluator, params) if evaluator else None,
                                       start, env, env, hold_unjudged=True)

    async def expire_programs(self, dry_run: bool = False, now: float | None = None) -> list[Expiry]:
        """Remove the programs the policy's `[programs]` limits let go (least recently used first), or with
        `dry_run` only say which; never run implicitly, so a home keeps what it learned until asked."""
        plan = await self.corpus.expiring(time.time() if now is None else now,
                                          self.policy.programs_expire_unused_days, self.policy.programs_keep_at_most)
        if dry_run:
            return plan
        gone = [expiry for expiry in plan if await self.corpus.remove(expiry.program_id)]
        for expiry in gone:
            await self.bus.publish(ProgramRemoved(None, expiry.program_id))
        return gone
