"""Page APIs that open channels no origin rule can confine, taken from every document before its scripts run.

- `RTCPeerConnection` (and its `webkit` alias): WebRTC sends UDP and TCP to whatever peer address a
  page names. The constructor is replaced by one that reports the attempt through `BINDING` (which
  the egress guard exposes) and throws `NotAllowedError`, so a step that tried fails, naming it. The
  stub cannot be deleted or overwritten by the page. Beneath it, the browser is launched with
  non-proxied UDP disabled (`browser.py`) and WebRTC over TCP meets the context's proxy, so a page
  that reached a peer connection some other way still sends nothing to another origin.
- `SharedWorker`: its requests meet no route. It is removed rather than stubbed, as service workers
  are blocked: pages test for it and fall back to a dedicated worker, whose requests are routed.

An init script runs in every frame of the context, popups and fresh `about:blank` frames included.
"""

from __future__ import annotations

import json

BINDING = "__wardenChannelRefused"
REFUSED = ("RTCPeerConnection", "webkitRTCPeerConnection")
REMOVED = ("SharedWorker",)

SCRIPT = """(() => {
  const report = window[%(binding)s];
  for (const name of %(refused)s) {
    if (!(name in window)) continue;
    const refused = function () {
      try { report(name); } catch (e) {}
      throw new DOMException(name + ' is refused on this page: Warden keeps pages to the task\\'s allowed origins',
                             'NotAllowedError');
    };
    Object.defineProperty(window, name, {value: refused, writable: false, configurable: false, enumerable: false});
  }
  for (const name of %(removed)s) {
    try { delete window[name]; } catch (e) {}
  }
})();""" % {"binding": json.dumps(BINDING), "refused": json.dumps(list(REFUSED)), "removed": json.dumps(list(REMOVED))}


def refusal(name: str) -> str | None:
    """The line for a page's attempt to use `name`, or None for a name this script does not refuse."""
    if name not in REFUSED:
        return None
    return (f"WebRTC ({name}) refused: a peer connection reaches whatever address the page names, so no page of "
            "a task may open one")
