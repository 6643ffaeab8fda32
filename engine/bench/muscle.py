"""muscle-mem (PyPI `muscle-mem`, a "behavior cache for AI agents") as a third arm of `warden bench replay`.

It runs offline: a pure-Python engine that records an agent's tool calls and replays them when
each step's pre-check passes, falling back to the agent otherwise. Here its agent is the same
scripted plan Warden's runs use, its tools are plain Playwright calls on the plan's targets,
and each tool's pre-check is the one a web user of it would write: the target is there, once,
and is what a click at its centre would hit. What it caches is not verified (every run is
kept, a failed one too), and a fallback re-runs the agent from the first step: both are part
of what is measured. Optional: without the package the arm says so.
"""

from __future__ import annotations

import contextlib
import copy
import io
import time
from dataclasses import dataclass
from typing import Any

_ON_TOP = """(element) => {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!hit && (element === hit || element.contains(hit) || (element.labels || []).length > 0
                   && Array.from(element.labels).some((label) => label.contains(hit)));
}"""


def available() -> str | None:
    """None when muscle-mem can be imported, else why not."""
    try:
        import muscle_mem  # noqa: F401
    except ImportError:
        return "muscle-mem is not installed (pip install muscle-mem)"
    return None


def describe() -> str:
    from importlib.metadata import version

    return f"muscle-mem {version('muscle-mem')}; pre-check: the target matches once, is visible and is on top"


@dataclass
class MuscleRun:
    cache_hit: bool
    actions: int
    action_s: float
    evaluation: bool | None
    error: str | None = None


class MuscleArm:
    """One browser and one muscle-mem engine per family, in a worker thread (sync Playwright, sync engine)."""

    def __init__(self, executable: str) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=executable)
        self._page: Any = None
        self.actions = 0
        self.engine = self._engine()
        self._recorded: Any = None

    def close(self) -> None:
        self._browser.close()
        self._playwright.stop()

    def record(self, spec: dict, params: dict[str, str]) -> MuscleRun:
        """The family's first run (a cache miss: the agent acts and is recorded); kept as the cache to restore."""
        run = self.run(spec, params)
        self._recorded = copy.deepcopy(self.engine.db.trajectories)
        return run

    def forget(self) -> None:
        """An empty cache, for a run that should be recorded on its own."""
        self.engine.db.trajectories = {}

    def run(self, spec: dict, params: dict[str, str], fresh_cache: bool = False) -> MuscleRun:
        from playwright.sync_api import Error as PlaywrightError

        if fresh_cache and self._recorded is not None:
            self.engine.db.trajectories = copy.deepcopy(self._recorded)
        context = self._browser.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(5000)
        try:
            self._page = page = context.new_page()
            _start(page, spec["env"])
            self.actions, began, error, hit = 0, time.perf_counter(), None, False
            try:
                with contextlib.redirect_stdout(io.StringIO()):  # the engine prints in colour as it goes
                    hit = self.engine(spec["agent"]["steps"], tags=["web"], params=params)
            except (PlaywrightError, ValueError) as exc:  # a tool that failed, or the engine refusing a step
                error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            elapsed = time.perf_counter() - began
            time.sleep(0.3)
            page.wait_for_load_state("load")
            evaluation = bool(page.evaluate(spec["evaluate"]["js"])) if "js" in spec.get("evaluate", {}) else None
            time.sleep(0.2)
            return MuscleRun(hit, self.actions, elapsed, evaluation, error)
        finally:
            context.close()

    def _engine(self) -> Any:
        from muscle_mem import Check, Engine

        engine = Engine()
        arm = self
        reachable = Check(capture=lambda tools, kind, value, **rest: _capture(arm._page, kind, value),
                          compare=lambda current, candidate: current == candidate)

        class Tools:
            @engine.method(pre_check=reachable)
            def click(self, kind: str, value: str) -> None:
                arm.actions += 1
                _locate(arm._page, kind, value).click()

            @engine.method(pre_check=reachable)
            def fill(self, kind: str, value: str, text: str) -> None:
                arm.actions += 1
                _locate(arm._page, kind, value).fill(text)

            @engine.method(pre_check=reachable)
            def select(self, kind: str, value: str, option: str) -> None:
                arm.actions += 1
                _locate(arm._page, kind, value).select_option(option)

            @engine.method(pre_check=reachable)
            def check(self, kind: str, value: str) -> None:
                arm.actions += 1
                _locate(arm._page, kind, value).check()

            @engine.method()
            def press(self, key: str) -> None:
                arm.actions += 1
                arm._page.locator(":focus").press(key)  # as a locator, so a navigation it starts is waited for

            @engine.method()
            def wait(self, kind: str, value: str) -> None:
                arm.actions += 1
                _locate(arm._page, kind, value).wait_for(state="visible")

        tools = Tools()

        def agent(steps: list[dict]) -> None:
            """The scripted plan, step by step, through the instrumented tools (so the run is recorded). A target
            is split into its kind and its value, so a value the task names (a heading's name) can be a parameter."""
            for step in steps:
                args = dict(step["args"])
                target = args.pop("target", None)
                if target is not None:
                    args["kind"], args["value"] = _split(target)
                if "value" in step["args"]:
                    args["option"] = step["args"]["value"]
                getattr(tools, step["tool"].removeprefix("browser."))(**args)

        return engine.set_agent(agent).set_context(tools).finalize()


def family_params(first: list[dict], second: list[dict]) -> tuple[dict[str, str], dict[str, str]]:
    """The values two tasks of a family differ in, as muscle-mem's top-level parameters for each: what a user
    of it passes, since it lifts an argument to a parameter only when it equals one exactly."""
    pairs: dict[str, str] = {}
    for one, two in zip(_leaves(first), _leaves(second), strict=False):
        if one != two:
            pairs.setdefault(one, two)
    keys = {value: f"p{number}" for number, value in enumerate(pairs)}
    return {keys[v]: v for v in pairs}, {keys[v]: w for v, w in pairs.items()}


def _leaves(steps: list[dict]) -> list[str]:
    return [value for step in steps for value in _strings(step["args"])]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _strings(value[key])]
    return []


def _split(target: dict) -> tuple[str, str]:
    if "role" in target:
        return f"role:{target['role']}", target.get("name", "")
    (kind, value), = target.items()
    return kind, value


def _capture(page: Any, kind: str, value: str) -> tuple[int, bool]:
    locator = _locate(page, kind, value)
    count = locator.count()
    return count, bool(count == 1 and locator.is_visible() and locator.evaluate(_ON_TOP))


def _locate(page: Any, kind: str, value: str) -> Any:
    if kind.startswith("role:"):
        return page.get_by_role(kind.removeprefix("role:"), name=value or None, exact=True).first
    if kind == "css":
        return page.locator(value).first
    by = {"text": page.get_by_text, "label": page.get_by_label, "placeholder": page.get_by_placeholder}[kind]
    return by(value, exact=True).first


def _start(page: Any, env: dict) -> None:
    from playwright.sync_api import Error as PlaywrightError

    page.goto(env["start_url"], wait_until="load")
    for step in env.get("setup", []):
        if "js" in step:
            with contextlib.suppress(PlaywrightError):
                page.evaluate(step["js"])
            page.wait_for_load_state("load")
        else:
            _locate(page, *_split(step["wait_for"])).wait_for(state="visible", timeout=15_000)
