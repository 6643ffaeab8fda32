"""The reports page, which is slow on purpose (agents must wait for it), and the reports run from it."""

from __future__ import annotations

import time
from html import escape

from engine.demo_site.app import App
from engine.demo_site.exchange import NotFound, Request, Response, redirect
from engine.demo_site.fields import select
from engine.demo_site.layout import error_box, page
from engine.demo_site.model import REPORT_KINDS


def report_list(app: App, request: Request) -> Response:
    time.sleep(app.slow_seconds)
    return _page(app, request)


def run(app: App, request: Request) -> Response:
    kind = request.form().get("kind", [""])[0]
    if kind not in REPORT_KINDS:
        return _page(app, request, f"Report must be one of {', '.join(REPORT_KINDS)}, not {kind!r}.")
    report = app.state.run_report(kind)
    return redirect(f"/reports/{report.id}", f"Report ready: {kind}.")


def report_page(app: App, request: Request) -> Response:
    report = app.state.report(request.id())
    if report is None:
        raise NotFound(request.path)
    lines = "".join(f"<li>{escape(line)}</li>" for line in report.lines)
    content = f"""<h1>{escape(report.kind)}</h1>
<ul aria-label="Figures">{lines}</ul>"""
    return page(request, app.state.settings(), report.kind, content)


def _page(app: App, request: Request, error: str = "") -> Response:
    done = "".join(f'<li><a href="/reports/{r.id}">{escape(r.kind)} #{r.id}</a></li>' for r in app.state.reports())
    content = f"""<h1>Reports</h1>
{error_box(error)}
<form method="post" action="/reports">
{select("kind", "Report", [(k, k) for k in REPORT_KINDS], REPORT_KINDS[0])}
<button type="submit">Run report</button>
</form>
<h2>Past runs</h2>
{f'<ul aria-label="Past runs">{done}</ul>' if done else "<p>None yet.</p>"}"""
    return page(request, app.state.settings(), "Reports", content, 400 if error else 200)
