"""The proof that a Python payload only computes, reads and prints.

The payload is parsed with `ast` (short payloads only) and every node must be allowed: a
statement or expression of an allowed kind (no classes, no `async`, no `match`); a name that is
an allowed builtin, one the payload binds itself, or a module it imported from `modules.ALLOWED`,
used only to reach that module's allowed attributes; an attribute that does not start with `_`,
does not reach a frame, code object or traceback, and is not a method that writes, runs, sends or
opens. Special forms: `open` only as a direct call with a literal path that is not a secret, a
disk or outside the workspace, in a reading mode; `write` only on `sys.stdout` or `sys.stderr`;
`str.format` only on a literal whose fields read no attribute (`'{0.__class__}'` reads any).
No `eval`, `exec`, `compile`, `getattr`, `type`, `vars`, `globals`, `help`, `input` (Python 2
evaluates what it reads), … The reason names the first node that is not proven.
"""

from __future__ import annotations

import ast
import builtins
import posixpath
import string
from functools import lru_cache

from engine.gate.codeproof import modules
from engine.gate.paths import is_device, may_be_secret

MAX_SOURCE = 4000
MAX_NODES = 2000
MAX_NESTING = 40

_EXCEPTIONS = frozenset(name for name in dir(builtins)
                        if isinstance(getattr(builtins, name), type) and issubclass(getattr(builtins, name), BaseException))
BUILTINS = frozenset(
    "abs all any ascii bin bool bytearray bytes callable chr complex dict divmod enumerate filter float format"
    " frozenset hash hex id int isinstance issubclass iter len list map max min next oct ord pow print range repr"
    " reversed round set slice sorted str sum tuple zip exit quit True False None Ellipsis NotImplemented".split()) | _EXCEPTIONS
"""Builtins a payload may name: they compute, convert or print."""
DENIED_NAMES = (frozenset(dir(builtins)) - BUILTINS - {"open"}) | frozenset(
    "execfile reload file raw_input apply intern unichr".split())
"""Every other builtin (`eval`, `getattr`, `type`, `vars`, `help`, `input`, …) and Python 2's, anywhere in the payload."""
DENIED_ATTRIBUTES = frozenset(
    "system popen fork forkpty kill killpg unlink rmdir mkdir makedirs removedirs rename renames chmod chown lchown"
    " symlink_to hardlink_to link_to touch write_text write_bytes truncate connect connect_ex bind listen accept send"
    " sendall sendto sendfile sendmsg open load_module exec_module putenv unsetenv setattr eval exec compile".split())
"""Methods that write, run, send or open, on any value (the payload reaches no module that has them; this is the second wall)."""
_INTERNALS = ("gi_", "cr_", "ag_", "f_", "tb_", "co_", "func_", "im_")
_RUNS = ("spawn", "exec")
_STREAMS = frozenset({"stdout", "stderr"})
READ_MODES = frozenset({"r", "rt", "tr", "rb", "br"})
_DEVICES_READ = frozenset({"/dev/stdin", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"})
_PROCESS_MEMORY = frozenset({"kcore", "mem", "kmem", "environ"})

_ALLOWED_NODES = (
    ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If, ast.With, ast.withitem,
    ast.Try, ast.ExceptHandler, ast.Raise, ast.Assert, ast.Delete, ast.Pass, ast.Break, ast.Continue, ast.Return,
    ast.FunctionDef, ast.Lambda, ast.arguments, ast.arg, ast.keyword, ast.Global, ast.Nonlocal, ast.Import,
    ast.ImportFrom, ast.alias, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Dict, ast.Set, ast.ListComp,
    ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.Yield, ast.YieldFrom, ast.Compare, ast.Call,
    ast.FormattedValue, ast.JoinedStr, ast.Constant, ast.Attribute, ast.Subscript, ast.Starred, ast.Name, ast.List,
    ast.Tuple, ast.Slice, ast.NamedExpr, ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop,
    *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
)


def _nesting(code: str) -> int:
    """The deepest bracket nesting (strings included: counting them too only over-estimates)."""
    depth = deepest = 0
    for ch in code:
        if ch in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in ")]}" and depth:
            depth -= 1
    return deepest


@lru_cache(maxsize=256)
def prove_source(code: str) -> str | None:
    """None when the Python source `code` is proven to only compute, read and print; else why not."""
    if len(code) > MAX_SOURCE:
        return f"the payload is longer than {MAX_SOURCE} characters"
    if "__" in code:
        return "the payload names a double-underscore attribute or name"
    if _nesting(code) > MAX_NESTING:
        return f"the payload nests brackets deeper than {MAX_NESTING}"
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return "the payload is not Python the analysis can parse"
    return _Payload(tree).why()


class _Payload:
    """One parsed payload: its bindings, then each node judged against them."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parent: dict[ast.AST, ast.AST] = {}
        self.nodes: list[ast.AST] = []
        self.aliases: dict[str, str] = {}
        self.bound: set[str] = set()

    def why(self) -> str | None:
        pending: list[ast.AST] = [self.tree]
        while pending:
            node = pending.pop()
            self.nodes.append(node)
            if len(self.nodes) > MAX_NODES:
                return f"the payload has more than {MAX_NODES} syntax nodes"
            if not isinstance(node, _ALLOWED_NODES):
                return f"{type(node).__name__} is not proven"
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
                pending.append(child)
        why = self.bindings()
        if why:
            return why
        for node in self.nodes:
            why = self.judge(node)
            if why:
                return why
        return None

    def bindings(self) -> str | None:
        """Collects the modules each import binds and every other name the payload binds."""
        others: set[str] = set()
        for node in self.nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name not in modules.ALLOWED:
                        return f"module {alias.name} is not known to be read-only"
                    name = alias.asname or alias.name.split(".")[0]
                    module = alias.name if alias.asname else name
                    if module not in modules.ALLOWED:
                        return f"module {module} is not known to be read-only"
                    if self.aliases.setdefault(name, module) != module:
                        return f"{name} names two modules"
            elif isinstance(node, ast.ImportFrom):
                if node.level or node.module not in modules.ALLOWED:
                    return f"module {'.' * node.level}{node.module or ''} is not known to be read-only"
                for alias in node.names:
                    if alias.name == "*":
                        return f"from {node.module} import * binds names the analysis cannot see"
                    submodule, why = modules.member(node.module, alias.name)
                    if why:
                        return why
                    name = alias.asname or alias.name
                    if submodule is not None:
                        if self.aliases.setdefault(name, submodule) != submodule:
                            return f"{name} names two modules"
                    else:
                        others.add(name)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                others.add(node.id)
            elif isinstance(node, ast.arg):
                others.add(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.ExceptHandler)) and node.name:
                others.add(node.name)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                others.update(node.names)
        clash = others & set(self.aliases) or others & {"open"} or set(self.aliases) & (BUILTINS | {"open"})
        if clash:
            return f"{sorted(clash)[0]} is bound to more than one thing"
        self.bound = others
        return None

    def judge(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            return _opened(node)
        if isinstance(node, ast.comprehension) and node.is_async:
            return "async comprehensions are not proven"
        return None

    def name(self, node: ast.Name) -> str | None:
        name = node.id
        if name in DENIED_NAMES:
            return f"{name} is not proven"
        parent = self.parent.get(node)
        if name in self.aliases:
            if isinstance(parent, ast.Attribute) and parent.value is node:
                return None
            return f"the module {self.aliases[name]} is used as a value"
        if name == "open":
            if isinstance(parent, ast.Call) and parent.func is node:
                return None
            return "open is used other than called"
        if name in BUILTINS or name in self.bound:
            return None
        return f"{name} is not bound by the payload"

    def module_of(self, node: ast.expr) -> str | None:
        """The allowed module an expression names (`json`, `urllib.parse`), or None for a value."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.module_of(node.value)
            if base is not None:
                return modules.member(base, node.attr)[0]
        return None

    def attribute(self, node: ast.Attribute) -> str | None:
        attr = node.attr
        base = self.module_of(node.value)
        if base is not None:
            submodule, why = modules.member(base, attr)
            if why:
                return why
            if not isinstance(node.ctx, ast.Load):
                return f"{base}.{attr} is changed"
            parent = self.parent.get(node)
            if submodule is not None and not (isinstance(parent, ast.Attribute) and parent.value is node):
                return f"the module {submodule} is used as a value"
            return None
        if attr.startswith("_") or attr.startswith(_INTERNALS) or attr in DENIED_NAMES:
            return f".{attr} is not proven"
        if attr in ("write", "writelines"):
            return None if self.stream(node.value) else f".{attr} on anything but sys.stdout or sys.stderr is not proven"
        if attr in ("format", "format_map"):
            return _format_literal(node.value)
        if attr in DENIED_ATTRIBUTES or attr.startswith(_RUNS):
            return f".{attr} is not proven"
        return None

    def stream(self, node: ast.expr) -> bool:
        """`sys.stdout`, `sys.stderr` or their `.buffer`."""
        if isinstance(node, ast.Attribute) and node.attr == "buffer":
            node = node.value
        return (isinstance(node, ast.Attribute) and node.attr in _STREAMS and isinstance(node.value, ast.Name)
                and self.aliases.get(node.value.id) == "sys")


def _format_literal(receiver: ast.expr) -> str | None:
    """`'…'.format(…)` reads attributes named in its fields (`{0.__class__}`): only literals
    whose fields read none are proven."""
    if not (isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)):
        return "str.format on anything but a literal is not proven"
    pending = [receiver.value]
    for _ in range(8):
        if not pending:
            return None
        text = pending.pop()
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError:
            return "a format string the analysis cannot read"
        for _literal, field, spec, _conversion in fields:
            if field is not None and "." in field:
                return "a format field that reads an attribute is not proven"
            if spec and "{" in spec:
                pending.append(spec)
    return "a format string nested too deep"


def _opened(call: ast.Call) -> str | None:
    """`open(PATH[, MODE])`: a literal path that may be read, in a reading mode."""
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords):
        return "open with unpacked arguments is not proven"
    keywords = {k.arg: k.value for k in call.keywords}
    path = call.args[0] if call.args else keywords.get("file")
    mode = call.args[1] if len(call.args) > 1 else keywords.get("mode")
    if len(call.args) > 7 or "opener" in keywords:
        return "open with an opener is not proven"
    if mode is not None and not (isinstance(mode, ast.Constant) and mode.value in READ_MODES):
        return "open in a mode that may write is not proven"
    if not (isinstance(path, ast.Constant) and isinstance(path.value, str)):
        return "open of a path that is not a literal is not proven"
    return readable(path.value)


def readable(path: str) -> str | None:
    """None when reading `path` reveals nothing secret: not a credential, a disk, process memory, or
    a path that climbs out of the workspace."""
    if not path or "\x00" in path:
        return "an empty path"
    if posixpath.normpath(path).startswith(".."):
        return f"{path} is outside the workspace"
    if may_be_secret(path):
        return f"{path} may be a secret"
    if is_device(path) or path.startswith("/dev/") and posixpath.normpath(path) not in _DEVICES_READ:
        return f"{path} is a device"
    if path.startswith("/proc/") and posixpath.basename(posixpath.normpath(path)) in _PROCESS_MEMORY:
        return f"{path} holds another process's memory or environment"
    return None
