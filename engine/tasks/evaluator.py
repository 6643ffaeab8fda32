"""How a task tells it was solved: a predicate on the environment, JavaScript in the page, or a shell check.

`{"js": EXPR}` is evaluated in a web environment's page (a promise is awaited) and is
solved when truthy. `{"shell": COMMAND}` runs in the workspace sandbox and is solved when it
exits 0; it is rated by the gate first and refused unless the gate rates it safe (an
evaluator looks, it never changes anything). Anything else is a predicate of the
environment's kind.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.envs.environment import Environment
from engine.errors import WardenError, one_line
from engine.programs.predicates import holds, validate

CODE_FORMS = ("js", "shell")
ShellCheck = Callable[[str], Awaitable[bool]]


class EvaluatorError(WardenError):
    """An evaluator that cannot be run here, or that failed to run."""


def validate_evaluator(evaluator: Any, kind: str) -> None:
    """A JS evaluator (web only), a shell evaluator, or a predicate of the kind; one-line errors."""
    if isinstance(evaluator, dict) and len(evaluator) == 1 and next(iter(evaluator)) in CODE_FORMS:
        (form, body), = evaluator.items()
        if not isinstance(body, str) or not body.strip():
            raise ValueError(f'evaluator: "{form}" takes a non-empty string')
        if form == "js" and kind != "web":
            raise ValueError(f'evaluator: "js" runs in a web page; this task acts in a {kind} environment')
        return
    validate(evaluator, kind, "evaluator")


async def judge(evaluator: dict, env: Environment, shell: ShellCheck | None = None) -> bool:
    """Whether the task is solved; an evaluator that cannot run raises `EvaluatorError` with one line."""
    (form, body), = evaluator.items()
    if form == "js":
        evaluate = getattr(env, "evaluate", None)
        if evaluate is None:
            raise EvaluatorError(f"a js evaluator needs a web page; this task acts in {env.kind}")
        try:
            return bool(await evaluate(body))
        except WardenError as exc:
            raise EvaluatorError(f"the js evaluator failed: {one_line(exc)}") from None
    if form == "shell":
        if shell is None:
            raise EvaluatorError("a shell evaluator needs the workspace sandbox, which this runtime does not have")
        return await shell(body)
    return await holds(evaluator, env)
