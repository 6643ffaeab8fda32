"""The settings page: display name, theme and the newsletter, saved with one button and confirmed with "Saved"."""

from __future__ import annotations

from engine.demo_site.app import App
from engine.demo_site.exchange import Request, Response, redirect
from engine.demo_site.fields import checkbox, select, submitted, text_input
from engine.demo_site.layout import error_box, page
from engine.demo_site.model import THEMES, Settings
from engine.demo_site.validate import Invalid, settings_from


def settings_form(app: App, request: Request) -> Response:
    return _form(app, request, app.state.settings())


def save(app: App, request: Request) -> Response:
    values: dict[str, str | bool] = {"display_name": "", "theme": "",
                                     **submitted(request.form(), ("display_name", "theme"), ("newsletter",))}
    try:
        app.state.save_settings(settings_from(values))
    except Invalid as exc:
        typed = Settings(str(values["display_name"]), str(values["theme"]), values["newsletter"] is True)
        return _form(app, request, typed, str(exc))
    return redirect("/settings", "Saved")


def _form(app: App, request: Request, settings: Settings, error: str = "") -> Response:
    content = f"""<h1>Settings</h1>
{error_box(error)}
<form method="post" action="/settings">
{text_input("display_name", "Display name", settings.display_name, required=True)}
{select("theme", "Theme", [(t, t.capitalize()) for t in THEMES], settings.theme)}
{checkbox("newsletter", "Send me the newsletter", settings.newsletter)}
<button type="submit">Save</button>
</form>"""
    return page(request, app.state.settings(), "Settings", content, 400 if error else 200)
