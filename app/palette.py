"""The command palette's provider: every console action, findable by name."""

from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider

COMMANDS = (
    ("Approve the selected call", "approve", "Let the highlighted pending call run once"),
    ("Deny the selected call", "deny", "Refuse the highlighted pending call; its task fails"),
    ("Undo the selected receipt", "undo", "Restore what the highlighted receipt changed"),
    ("Force undo the selected receipt", "force_undo",
     "Undo even though a later call that left no snapshot may have changed the same paths (U)"),
    ("Cancel the selected task", "cancel_task", "Stop the highlighted task; its receipts stay in the journal"),
    ("Raise the selected task's budget", "raise_budget",
     "Double every limit of the highlighted task; one paused on its budget resumes (b)"),
    ("Accept the selected program", "accept_program",
     "Serve the highlighted unverified program from now on, after confirming (a in Programs)"),
    ("Discard the selected program", "discard_program",
     "Forget the highlighted program, its row and its file, after confirming (x in Programs)"),
    ("Focus tasks", "focus('tasks')", "Move to the task queue"),
    ("Focus approvals", "focus('approvals')", "Move to pending approvals"),
    ("Focus journal", "focus('journal')", "Move to the receipt journal"),
    ("Focus programs", "focus('programs')", "Move to stored programs"),
    ("Show the policy", "show_policy", "The policy the gate was started with (read-only)"),
    ("Toggle light and dark theme", "toggle_theme", "Switch between warden-dark and warden-light"),
)


class WardenCommands(Provider):
    async def discover(self) -> Hits:
        for name, action, help_text in COMMANDS:
            yield DiscoveryHit(name, self._runner(action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, action, help_text in COMMANDS:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), self._runner(action), help=help_text)

    def _runner(self, action: str):
        async def run() -> None:
            await self.app.run_action(action)

        return run
