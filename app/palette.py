"""The command palette's provider: every console action, findable by name."""

from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider

COMMANDS = (
    ("Approve the selected call", "approve", "Let the highlighted pending call run once"),
    ("Approve the selected call for the rest of its task", "approve_task",
     "Let calls of its pattern run unasked in that task, after confirming the pattern (T)"),
    ("Approve the selected call for this session", "approve_pattern",
     "Let calls of its pattern run unasked in any task this session, after confirming the pattern (P)"),
    ("Show grants", "show_grants", "The live scoped grants: what runs unasked, and r to revoke one (G)"),
    ("Deny the selected call", "deny", "Refuse the highlighted pending call; its task fails"),
    ("Undo the selected receipt", "undo", "Restore what the highlighted receipt changed"),
    ("Force undo the selected receipt", "force_undo",
     "Undo even though a later call that left no snapshot may have changed the same paths (ctrl+u)"),
    ("Undo the selected task", "undo_task",
     "Undo every receipt of the highlighted task, newest first, stopping where an undo would lose work (U)"),
    ("Cancel the selected task", "cancel_task", "Stop the highlighted task; its receipts stay in the journal"),
    ("Raise the selected task's budget", "raise_budget",
     "Double every limit of the highlighted task; one paused on its budget resumes (b)"),
    ("Accept the selected program", "accept_program",
     "Serve the highlighted unverified program from now on, after confirming (a in Programs)"),
    ("Discard the selected program", "discard_program",
     "Forget the highlighted program, its row and its file, after confirming (x in Programs)"),
    ("Verify the selected program again", "verify_program",
     "Replay the highlighted program through the verify gate, where nothing real is touched (v in Programs)"),
    ("New task", "new_task", "Queue a task: a goal, its environment and agent, or a spec file (n)"),
    ("Focus tasks", "show_pane('tasks')", "Move to the task queue (1)"),
    ("Focus approvals", "show_pane('approvals')", "Move to pending approvals (2)"),
    ("Focus journal", "show_pane('journal')", "Move to the receipt journal (3)"),
    ("Focus programs", "show_pane('programs')", "Move to stored programs (4)"),
    ("Zoom the focused pane", "zoom", "Give the focused pane the whole screen, or restore the panes (z)"),
    ("Show the policy", "show_policy", "The policy the gate was started with (read-only)"),
    ("Show the error log", "show_errors", "Every error met this session, oldest first (!)"),
    ("Show help", "show_help", "What each pane is for and every key (?)"),
    ("Next theme", "next_theme", "Cycle warden-dark, warden-light and warden-high-contrast (t)"),
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
