"""The frame every page shares: theme, navigation, who is signed in, and the flash message.

Markup is deliberately plain and semantic (landmarks, one `h1` per page, a `role=status`
flash) because agents find things by accessibility role and name, label and text.
"""

from __future__ import annotations

from html import escape

from engine.demo_site.exchange import Request, Response, html
from engine.demo_site.model import Settings

NAV = (("/contacts", "Contacts"), ("/notes", "Notes"), ("/reports", "Reports"), ("/settings", "Settings"))

STYLE = """
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fafafa;color:#1d1d1f}
body.dark{background:#1e1f22;color:#e8e8ea}
header{display:flex;gap:1.5rem;align-items:center;padding:.75rem 1.5rem;background:#2b4c7e;color:#fff}
header a{color:#fff}
nav a{margin-right:1rem}
main{max-width:44rem;margin:1.5rem auto;padding:0 1.5rem}
.dark main a{color:#9cc3ff}
label{display:block;margin-top:.75rem;font-weight:600}
label.check{font-weight:400}
input[type=text],input[type=email],input[type=tel],input[type=search],textarea,select{font:inherit;padding:.3rem;width:100%;box-sizing:border-box}
button{font:inherit;margin-top:1rem;padding:.35rem .9rem;cursor:pointer}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ccc}
.flash{background:#e3f4e1;color:#1d4d1a;padding:.5rem 1rem;border-radius:4px}
.error{background:#fbe4e4;color:#7a1010;padding:.5rem 1rem;border-radius:4px}
.inline{display:inline}
"""


def page(request: Request, settings: Settings, title: str, content: str, status: int = 200) -> Response:
    """A whole HTML page around `content` (already escaped markup); shows and clears a pending flash."""
    flash = request.flash()
    notice = f'<p class="flash" role="status">{escape(flash)}</p>' if flash else ""
    links = "".join(f'<a href="{href}"{_current(request, href)}>{name}</a>' for href, name in NAV)
    theme = "dark" if settings.theme == "dark" else "light"
    document = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · Warden demo</title>
<style>{STYLE}</style>
</head>
<body class="{theme}">
<header>
<nav aria-label="Main">{links}</nav>
<span>Signed in as {escape(settings.display_name)}</span>
</header>
<main>
{notice}
{content}
</main>
</body>
</html>
"""
    return html(document, status, clear_flash=bool(flash))


def error_box(message: str) -> str:
    return f'<p class="error" role="alert">{escape(message)}</p>' if message else ""


def _current(request: Request, href: str) -> str:
    here = request.path == href or request.path.startswith(href + "/")
    return ' aria-current="page"' if here else ""
