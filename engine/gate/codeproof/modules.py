"""The standard modules a proven Python payload may import, what of each it may touch, and the
module names nothing the agent writes may shadow.

`python -c` and `python -m` put the current directory first on the module path, so a `json.py`
the agent wrote at the top of the workspace would run in place of the standard `json`, and so
would a `re.py` when `json` imports `re`. `SHADOWED` lists every top-level module importing or
using an allowed module loads (measured with the interpreter's site off, so fewer are preloaded;
`tests/gate/test_code_proof.py` measures it again), plus the modules a codec lookup, a
`strptime`, a warning or (from 3.13) a traceback loads. `shadows_module` tells the tool
configuration check which written paths would shadow one of them.

Attributes are judged on the modules themselves, imported here once: an attribute must exist,
must not start with `_`, must not be a module unless that module is allowed too (`platform.os`
is `os`), and must not be one a module's entry leaves out (`platform.platform` runs `uname -p`,
`uuid.uuid1` may run `ifconfig`, `operator.attrgetter` reads any attribute by name).
"""

from __future__ import annotations

import importlib
import re
import types
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Access:
    """What a payload may use of one module: `only` these attributes when given, never those in `deny`."""

    only: frozenset[str] | None = None
    deny: frozenset[str] = frozenset()


def _access(only: str | None = None, deny: str = "") -> Access:
    return Access(frozenset(only.split()) if only is not None else None, frozenset(deny.split()))


_FREE = Access()
ALLOWED: dict[str, Access] = {
    **dict.fromkeys(
        "json math cmath statistics decimal fractions random hashlib hmac base64 binascii datetime time calendar re"
        " textwrap unicodedata itertools functools collections collections.abc heapq bisect struct zlib html ipaddress"
        " shlex difflib enum csv tomllib urllib.parse".split(), _FREE),
    "string": _access(deny="Formatter"),
    "operator": _access(deny="attrgetter methodcaller"),
    "gzip": _access(only="compress decompress BadGzipFile"),
    "uuid": _access(only="uuid3 uuid4 uuid5 UUID NAMESPACE_DNS NAMESPACE_URL NAMESPACE_OID NAMESPACE_X500"),
    "platform": _access(only="system machine release version python_version python_version_tuple "
                             "python_implementation python_compiler python_build freedesktop_os_release"),
    "urllib": _access(only="parse"),
    "sys": _access(only="argv stdin stdout stderr version version_info platform maxsize byteorder getsizeof exit "
                        "implementation executable float_info int_info hexversion getrecursionlimit "
                        "getdefaultencoding getfilesystemencoding api_version maxunicode stdlib_module_names "
                        "builtin_module_names flags prefix base_prefix exec_prefix base_exec_prefix copyright"),
}
"""Modules a payload may import (`sys` only for what describes the interpreter and its standard streams)."""

_ENTRY_POINTS = frozenset({"main", "test"})
"""A module's command-line entry reads `sys.argv`, which the payload may set: `base64.main()` prints any file."""

RUN_AS_MAIN = ("json.tool", "calendar", "site", "sysconfig", "base64", "zipfile", "tarfile", "tokenize")
"""Modules `python -m` may run (`engine/gate/codeproof/invocation.py` proves their arguments)."""

LOADED_BY_PROVEN = (*ALLOWED, *RUN_AS_MAIN, "argparse", "shutil", "_strptime", "warnings", "linecache", "traceback",
                    *(f"encodings.{codec}" for codec in ("idna", "bz2_codec", "quopri_codec", "base64_codec", "hex_codec",
                                                         "zlib_codec", "uu_codec", "punycode", "rot_13", "gb2312", "big5",
                                                         "shift_jis", "euc_kr", "iso2022_jp", "big5hkscs")))
"""What a proven payload can make the interpreter import: the allowed modules, the modules `-m` runs,
what `json.tool`'s help, `strptime`, a warning and a traceback load, and the codecs `encode` and
`decode` can name."""

SHADOWED = frozenset(
    "__future__ _aix_support _bisect _blake2 _bz2 _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp _codecs_kr"
    " _codecs_tw _collections_abc _colorize _compression _csv _datetime _decimal _hashlib _heapq _json _lzma _md5"
    " _multibytecodec _osx_support _pydatetime _pydecimal _pylong _random _sha1 _sha2 _sha256 _sha3 _sha512"
    " _sitebuiltins _statistics _strptime _struct _typing _uuid _weakrefset _winapi argparse base64 binascii"
    " bisect bz2 calendar cmath collections contextlib copy copyreg csv datetime decimal difflib enum fnmatch"
    " fractions functools genericpath getopt gettext grp gzip hashlib heapq hmac html importlib ipaddress json"
    " keyword linecache locale lzma math nt ntpath numbers operator org os pathlib platform posixpath pwd quopri"
    " random re reprlib runpy shlex shutil site stat statistics string stringprep struct sysconfig tarfile"
    " textwrap threading token tokenize tomllib traceback types typing unicodedata urllib uuid warnings weakref"
    " zipfile zlib".split())
"""Top-level modules a proven payload can load or try to (a superset of what was measured on 3.11,
with the extension modules some builds load from files and what 3.12 and 3.13 add); `_sysconfigdata_*`
too (`shadowed_name`). A failed attempt counts: `copy` tries `org.python.core` and `shutil` tries
`nt`, and a `nt.py` in the current directory would be found."""

_MODULE_FILE = re.compile(r"([A-Za-z_][\w-]{0,80})(?:\.py[cw]?|(?:\.[\w.-]{1,60})?\.(?:so|pyd))", re.I)
_PACKAGE_INIT = re.compile(r"__init__(?:\.py[cw]?|(?:\.[\w.-]{1,60})?\.(?:so|pyd))", re.I)


def shadowed_name(name: str) -> bool:
    """True when a top-level module `name` is one a proven payload can load."""
    return name.lower() in _SHADOWED_FOLDED or name.lower().startswith("_sysconfigdata_")


_SHADOWED_FOLDED = frozenset(name.lower() for name in SHADOWED)


def shadows_module(path: str) -> bool:
    """True when writing `path` (already folded and normalised) could shadow a module in `SHADOWED`:
    `json.py`, `re.pyc`, `_json.cpython-311-x86_64-linux-gnu.so` or `hashlib/__init__.py` at the
    top of the workspace, or anywhere when the path is absolute or under `~` (the workspace could
    be there). Case is ignored: some filesystems ignore it too."""
    if not path or path.startswith(".."):
        return False
    anywhere = path.startswith(("/", "~"))
    parts = path.split("/")
    if _PACKAGE_INIT.fullmatch(parts[-1]) is not None and len(parts) >= 2:
        package, depth = parts[-2], len(parts) - 1
    else:
        match = _MODULE_FILE.fullmatch(parts[-1])
        if match is None:
            return False
        package, depth = match.group(1), len(parts)
    return (anywhere or depth == 1) and shadowed_name(package)


@lru_cache(maxsize=512)
def member(module: str, attribute: str) -> tuple[str | None, str | None]:
    """(the allowed module `module.attribute` names, or None for any other value; why it may not be
    used, or None). Only modules in `ALLOWED` are asked."""
    access = ALLOWED.get(module)
    if access is None:
        return None, f"module {module} is not known to be read-only"
    if (attribute.startswith("_") or attribute in access.deny or attribute in _ENTRY_POINTS
            or access.only is not None and attribute not in access.only):
        return None, f"{module}.{attribute} is not known to be read-only"
    dotted = f"{module}.{attribute}"
    if dotted in ALLOWED:
        return dotted, None
    try:
        value = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError):
        return None, f"{dotted} is not known here"
    if isinstance(value, types.ModuleType):
        return None, f"{dotted} is the module {value.__name__}, which is not known to be read-only"
    return None, None
