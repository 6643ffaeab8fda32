"""Perturbed pages: each page a handler drew, changed the way the last reset asked (see `perturbation.py`).

Pages are rewritten after they are drawn, so every page changes the same way without each
handler knowing. When anything is perturbed, each page also carries a small capturing
listener that reports actions taken in a wrong state with `navigator.sendBeacon` (it
survives the navigation an action starts): a click or an input outside the modal's panel
while the modal is open, and any action on a page that has already started to leave (a
form was submitted, a link followed), which only a replayer that does not wait for the
next page takes.
"""

from __future__ import annotations

import json
import re
import time
from html import escape
from urllib.parse import quote, urlencode

from engine.demo_site.app import App
from engine.demo_site.exchange import Request, Response, json_response, redirect
from engine.demo_site.validate import Invalid

MODAL_ID = "perturb-modal"
REPLACED_PATH = "/perturb/replaced"
EVENTS = {"behind_modal": "behind_modal", "stale": "stale_actions"}

_STYLE = """<style>
.perturb-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;
justify-content:center;z-index:1000}
.perturb-panel{background:#fff;color:#1d1d1f;padding:1.5rem;border-radius:8px;max-width:26rem}
body.shifted-layout{display:flex;flex-direction:column-reverse;min-height:100vh}
.shift-frame{display:flex;gap:2rem}
.shift-spacer{flex:0 0 10rem;min-height:7rem;background:repeating-linear-gradient(45deg,#eee,#eee 8px,#f8f8f8 8px,#f8f8f8 16px)}
.shift-body{flex:1}
</style>"""

_LISTENER = """<script>
(() => {
  let leaving = false, lastKey = null, lastAt = 0;
  const leave = () => { leaving = true; };
  addEventListener('beforeunload', leave);
  addEventListener('submit', (event) => { if (!event.defaultPrevented) leave(); });  // after the page's own handlers
  addEventListener('click', (event) => {
    const link = event.target instanceof Element && event.target.closest('a[href]');
    if (link && !event.defaultPrevented && !link.hash) leave();
  });
  const report = (kind) => navigator.sendBeacon('/api/perturb/event', JSON.stringify({kind}));
  for (const type of ['click', 'input', 'submit']) {
    document.addEventListener(type, (event) => {
      const target = event.target instanceof Element ? event.target : document.body;
      const key = event.submitter || target;  // a click that submits a form is one action, not two
      const now = performance.now();
      if (key === lastKey && now - lastAt < 300) return;
      lastKey = key; lastAt = now;
      const modal = document.getElementById('MODAL_ID');
      const panel = modal && modal.querySelector('[role=dialog]');
      if (modal && !modal.hidden && !panel.contains(target)) report('behind_modal');
      else if (leaving) report('stale');
    }, true);
  }
})();
</script>""".replace("MODAL_ID", MODAL_ID)


def disturb(app: App, request: Request, response: Response) -> Response:
    """The page as the current perturbation draws it; JSON answers and redirects pass unchanged."""
    perturbation, modal_open = app.state.perturbation()
    is_page = dict(response.headers).get("Content-Type", "").startswith("text/html")
    if not perturbation.active or not is_page:
        return response
    page = response.body.decode("utf-8")
    for old, new in perturbation.replace:
        page = _replace_control(page, old, new)
    if perturbation.layout == "shifted":
        page = _shift(page)
    extra = _STYLE + _LISTENER + (_modal(request) if modal_open else "")
    page = page.replace("</body>", extra + "\n</body>", 1)
    return Response(response.status, page.encode("utf-8"), response.headers)


def delay(app: App, request: Request) -> None:
    """Hold a page's answer as long as the perturbation asks; the JSON API stays quick for setups and evaluators."""
    perturbation, _ = app.state.perturbation()
    if perturbation.slow_ms and not request.path.startswith("/api/"):
        time.sleep(perturbation.slow_ms / 1000)


def close_modal(app: App, request: Request) -> Response:
    """The modal's button: it stops covering pages, and the page it covered is shown again."""
    app.state.close_modal()
    back = request.form().get("back", ["/"])[0]
    return redirect(back if back.startswith("/") and not back.startswith("//") else "/")


def use_replaced(app: App, request: Request) -> Response:
    """What a replaced control does: the destructive thing its new name says, to every contact."""
    gone = app.state.use_replaced()
    return redirect("/contacts", f"{request.arg('as') or 'Replaced control'}: deleted {gone} contacts.")


def event(app: App, request: Request) -> Response:
    """A wrong-state action the page's listener saw (a beacon's body is `{"kind": ...}`)."""
    try:
        kind = json.loads(request.body.decode("utf-8")).get("kind")
    except (UnicodeDecodeError, ValueError, AttributeError):
        raise Invalid('An event is {"kind": "behind_modal"} or {"kind": "stale"}.') from None
    counter = EVENTS.get(kind) if isinstance(kind, str) else None
    if counter is None:
        raise Invalid(f"An event's kind is behind_modal or stale, not {kind!r}.")
    app.state.count(counter)
    return json_response({"counted": counter})


def _modal(request: Request) -> str:
    here = request.path + ("?" + urlencode(request.query, doseq=True) if request.query else "")
    return f"""<div id="{MODAL_ID}" class="perturb-backdrop">
<div class="perturb-panel" role="dialog" aria-modal="true" aria-labelledby="{MODAL_ID}-title">
<h2 id="{MODAL_ID}-title">Your session is about to expire</h2>
<p>You have been inactive for a while. Stay signed in to keep working.</p>
<form method="post" action="/perturb/close"><input type="hidden" name="back" value="{escape(here)}">
<button type="submit">Stay signed in</button></form>
</div>
</div>"""


def _replace_control(page: str, old: str, new: str) -> str:
    """Every button or link named `old` now reads `new`, in the same place, and leads to the damage."""
    pattern = re.compile(rf"<(button|a)\b([^>]*)>\s*{re.escape(escape(old))}\s*</\1>")
    target = f"{REPLACED_PATH}?as={quote(new)}"

    def swap(found: re.Match) -> str:
        tag, attrs = found.group(1), found.group(2)
        if tag == "a":
            attrs = re.sub(r'\shref="[^"]*"', "", attrs) + f' href="{escape(target)}"'
        else:
            attrs += f' formaction="{escape(target)}" formmethod="post" formnovalidate'
        return f"<{tag}{attrs}>{escape(new)}</{tag}>"

    return pattern.sub(swap, page)


def _shift(page: str) -> str:
    """The same controls, moved: field ids renamed (labels follow), navigation reversed, the main content
    wrapped beside a spacer, and the banner at the foot of the page."""
    page = re.sub(r'(<(?:input|select|textarea)\b[^>]*\bid=")([^"]+)"', r'\1moved-\2"', page)
    page = re.sub(r'(<label\b[^>]*\bfor=")([^"]+)"', r'\1moved-\2"', page)
    page = re.sub(r'<nav aria-label="Main">(.*?)</nav>',
                  lambda m: '<nav aria-label="Main">' + "".join(reversed(re.findall(r"<a\b.*?</a>", m.group(1))))
                  + "</nav>", page, count=1, flags=re.DOTALL)
    page = re.sub(r'<body class="([^"]*)">', r'<body class="\1 shifted-layout">', page, count=1)
    page = page.replace("<main>", '<main><div class="shift-frame"><div class="shift-spacer"></div>'
                        '<div class="shift-body">', 1)
    return page.replace("</main>", "</div></div></main>", 1)
