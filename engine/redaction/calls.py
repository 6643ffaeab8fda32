"""A tool call as it is recorded (secrets sealed away) and as it runs again (secrets given back).

Digests are always taken of the real call (`ToolCall.digest`), never of the recorded one, so
an approval given to a recorded call still matches the call that is run.
"""

from __future__ import annotations

from engine.redaction.redactor import Redactor
from engine.tools.call import ToolCall


def recorded_call(redactor: Redactor, call: ToolCall) -> ToolCall:
    """`call` with every secret in its arguments replaced and sealed, ready to be written anywhere."""
    return ToolCall(call.tool, redactor.scrub(call.args, keep=True))


def revealed_call(redactor: Redactor, call: ToolCall) -> ToolCall:
    """A recorded call with its secrets back, to be run again (SecretLost when the vault lost one)."""
    return ToolCall(call.tool, redactor.reveal(call.args))
