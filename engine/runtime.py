"""The composition root: builds and wires every engine part; ablation switches live here only.

Clients (the console, the CLI, tests) hold a `Runtime` and use its public methods and
its event stream; nothing else in the engine reads the environment.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from engine.envs.workspace import WorkspaceEnv
from engine.errors import WardenError
from engine.events.bus import EventBus, Subscription
from engine.events.records import Event, ProgramRemoved, ReceiptUndone
from engine.gate.approvals import Approval, ApprovalBook
from engine.gate.gate import Gate
from engine.gate.policy import Policy
from engine.journal.journal import Journal, UndoError
from engine.journal.receipt import Receipt
from engine.programs.corpus import Corpus
from engine.programs.program import Program, ProgramError
from engine.programs.verifier import Verifier
from engine.store import Store
from engine.tasks.backend import TaskBackend
from engine.tasks.queue import TaskQueue
from engine.tasks.runner import TaskRunner
from engine.tasks.stepper import Stepper
from engine.tasks.task import Task, TaskSpec
from engine.tools.fs import FS_TOOLS
from engine.tools.registry import ToolRegistry
from engine.tools.shell import SHELL_RUN
from programs import SHIPPED


def warden_home() -> Path:
    """`$WARDEN_HOME`, or the platform's user data directory."""
    return Path(os.environ.get("WARDEN_HOME") or platformdirs.user_data_dir("warden"))


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


def build_registry() -> ToolRegistry:
    registry = ToolRegistry()
    for tool in (*FS_TOOLS, SHELL_RUN):
        registry.register(tool)
    return registry


class Runtime:
    def __init__(
        self, home: Path, store: Store, bus: EventBus, policy: Policy, env: WorkspaceEnv, switches: Switches,
        pace: float = 0.0, lease_seconds: float = 30.0,
    ) -> None:
        self.home = home
        self.store = store
        self.bus = bus
        self.policy = policy
        self.env = env
        self.switches = switches
        self.registry = build_registry()
        self.gate = Gate(policy, enabled=switches.gating)
        self.approvals = ApprovalBook(store, policy.approval_ttl_seconds)
        self.journal = Journal(store, home / "snapshots", env) if switches.recovery else None
        self.corpus = Corpus(store, home / "programs")
        self.queue = TaskQueue(store)
        stepper = Stepper(store, bus, self.queue, self.gate, self.approvals, self.journal, self.registry, env)
        verifier = Verifier(self.registry, self.gate, home / "scratch") if switches.verify_gate else None
        self.runner: TaskBackend = TaskRunner(
            self.queue, bus, stepper, self.approvals, self.corpus, verifier, home / "runs", switches.fallback, pace,
            lease_seconds,
        )

    @classmethod
    async def open(
        cls, home: Path | None = None, workspace: Path | None = None, switches: Switches | None = None,
        policy: Policy | None = None, pace: float = 0.0, lease_seconds: float = 30.0,
    ) -> "Runtime":
        """Open (creating if needed) the home's database; `pace` slows steps so a person can watch."""
        home = Path(home) if home else warden_home()
        home.mkdir(parents=True, exist_ok=True)
        switches = switches or Switches.from_env()
        policy = policy or Policy.load(home / "policy.toml")
        env = WorkspaceEnv(Path(workspace) if workspace else home / "workspace")
        store = await Store.open(home / "warden.db")
        runtime = cls(home, store, EventBus(store), policy, env, switches, pace, lease_seconds)
        problems = await runtime.corpus.import_files(SHIPPED) if store.fresh else []
        if problems:
            await store.close()
            raise ProgramError(f"a shipped program is broken: {problems[0]}")
        return runtime

    async def submit(self, spec: TaskSpec) -> Task:
        return await self.runner.submit(spec)

    async def approve(self, approval_id: str, by: str = "operator") -> None:
        await self.runner.decide(approval_id, True, by)

    async def deny(self, approval_id: str, by: str = "operator") -> None:
        await self.runner.decide(approval_id, False, by)

    async def cancel(self, task_id: str, by: str = "operator") -> None:
        await self.runner.cancel(task_id, by)

    async def undo(self, receipt_id: str) -> Receipt:
        if self.journal is None:
            raise UndoError("recovery is switched off: there is no journal to undo from")
        receipt = await self.journal.undo(receipt_id)
        await self.bus.publish(ReceiptUndone(receipt.task_id, receipt.id))
        return receipt

    async def tasks(self) -> list[Task]:
        return await self.queue.all()

    async def pending_approvals(self) -> list[Approval]:
        return await self.approvals.pending()

    async def receipts(self) -> list[Receipt]:
        return await self.journal.receipts() if self.journal else []

    async def programs(self) -> list[Program]:
        return await self.corpus.all()

    async def program(self, program_id: str) -> Program | None:
        return await self.corpus.get(program_id)

    def events(self) -> Subscription:
        return self.bus.subscribe()

    async def history(self, task_id: str | None = None) -> list[Event]:
        return await self.bus.history(task_id)

    async def watch_programs(self, stop: asyncio.Event | None = None) -> None:
        """Follow program files a person edits or deletes in `programs/`; each change is an event."""
        async for change in self.corpus.watch(stop):
            await self.bus.publish(change)

    async def remove_program(self, program_id: str) -> None:
        if not await self.corpus.remove(program_id):
            raise ProgramError(f"no program {program_id}")
        await self.bus.publish(ProgramRemoved(None, program_id))

    async def run_until_idle(self) -> None:
        await self.runner.run_until_idle()

    async def serve(self) -> None:
        await self.runner.serve()

    async def close(self) -> None:
        await self.store.close()
