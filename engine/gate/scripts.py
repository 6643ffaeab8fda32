"""Reads sed scripts, awk programs and SQL queries far enough to prove that they neither write nor run anything.

Both readers are strict: a construct they do not follow is "not proven", so a script
they would read differently from sed or awk can only be refused, never passed. sed may
not use `e`, `w`, `W`, `r`, `R` or the `e` and `w` flags of `s`; awk may not call
`system`, read with `getline` from a file or a command, pipe, redirect output to a file,
read `ENVIRON` or `PROCINFO`, or use gawk's `@` directives and indirect calls. SQL given to a
database client is read the same way (`sql_query`): only queries, and only calls to functions
that compute a value.
"""

from __future__ import annotations

import re

_SED_PLAIN = frozenset("=dDgGhHnNpPxzF")
_SED_NUMBER = frozenset("lLqQ")
_SED_LABEL = frozenset(":btT")
_SED_TEXT = frozenset("aic")
_SED_REFUSED = {"e": "runs a command", "w": "writes a file", "W": "writes a file", "r": "reads a file into the output",
                "R": "reads a file into the output"}
_LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_SPACE = " \t"


def sed_script(script: str) -> str | None:
    """None when the sed script only edits the stream it prints, else why not."""
    i, n = 0, len(script)
    while i < n:
        while i < n and script[i] in " \t\n;":
            i += 1
        if i >= n:
            break
        if script[i] == "#":
            i = _line_end(script, i)
            continue
        i, why = _sed_address(script, i)
        if why:
            return why
        while i < n and script[i] in _SPACE:
            i += 1
        if i < n and script[i] == ",":
            i, why = _sed_address(script, i + 1, second=True)
            if why:
                return why
        while i < n and script[i] in " \t!":
            i += 1
        if i >= n:
            return "sed: a script that ends after an address"
        command = script[i]
        i += 1
        if command == "{":
            continue
        if command == "}" or command in _SED_PLAIN:
            pass
        elif command in _SED_NUMBER:
            while i < n and (script[i] in _SPACE or script[i].isdigit()):
                i += 1
        elif command in _SED_LABEL:
            while i < n and script[i] in _SPACE:
                i += 1
            while i < n and script[i] in _LABEL_CHARS:
                i += 1
        elif command in _SED_TEXT:
            i = _sed_text(script, i)
            continue
        elif command == "s":
            i, why = _sed_substitute(script, i)
            if why:
                return why
        elif command == "y":
            i, why = _delimited(script, i, 2)
            if why:
                return why
        elif command == "v":
            while i < n and script[i] in _LABEL_CHARS | frozenset(_SPACE):
                i += 1
        elif command in _SED_REFUSED:
            return f"sed: the {command} command {_SED_REFUSED[command]}"
        else:
            return f"sed: command {command!r} is not known to be read-only"
        while i < n and script[i] in _SPACE:
            i += 1
        if i < n and script[i] not in ";\n}#":
            return f"sed: unexpected {script[i]!r} after the {command} command"
    return None


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end + 1


def _sed_address(script: str, i: int, second: bool = False) -> tuple[int, str | None]:
    """Skips one address (`3`, `$`, `/re/I`, `\\%re%`, `first~step`, `+N`, `~N` after a comma)."""
    n = len(script)
    while i < n and script[i] in _SPACE and second:
        i += 1
    if i >= n:
        return i, None
    ch = script[i]
    if ch.isdigit() or second and ch in "+~":
        i += 1
        while i < n and (script[i].isdigit() or script[i] == "~"):
            i += 1
        return i, None
    if ch == "$":
        return i + 1, None
    if ch == "/" or ch == "\\":
        if ch == "\\":
            i += 1
            if i >= n or script[i] in "\n\\":
                return i, "sed: an address with no delimiter"
        i, why = _delimited(script, i, 1)
        if why:
            return i, why
        while i < n and script[i] in "IM":
            i += 1
    return i, None


def _delimited(script: str, i: int, parts: int) -> tuple[int, str | None]:
    """Skips `parts` fields that start at the delimiter `script[i]` (a regex, or `s`'s regex and replacement).

    A bracket expression holding the delimiter is refused: sed and this reader might
    disagree on where the field ends."""
    n = len(script)
    if i >= n or script[i] in "\n\\":
        return i, "sed: a field with no delimiter"
    delimiter = script[i]
    i += 1
    for _ in range(parts):
        bracket = False
        while True:
            if i >= n:
                return i, "sed: an unterminated expression"
            ch = script[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "\n" and delimiter != "\n":
                return i, "sed: an expression broken across lines"
            if bracket:
                if ch == delimiter:
                    return i, "sed: a bracket expression holding the delimiter"
                if ch == "]":
                    bracket = False
            elif ch == "[":
                bracket = True
                if i + 1 < n and script[i + 1] == "]":
                    i += 1
            elif ch == delimiter:
                i += 1
                break
            i += 1
    return i, None


def _sed_substitute(script: str, i: int) -> tuple[int, str | None]:
    i, why = _delimited(script, i, 2)
    if why:
        return i, why
    n = len(script)
    while i < n and (script[i] in "gpiImM" or script[i].isdigit()):
        i += 1
    if i < n and script[i] == "e":
        return i, "sed: the e flag of s runs the pattern space as a command"
    if i < n and script[i] == "w":
        return i, "sed: the w flag of s writes a file"
    return i, None


def _sed_text(script: str, i: int) -> int:
    """Skips the text of `a`, `i` or `c`: up to a newline not escaped by a backslash."""
    n = len(script)
    while i < n:
        if script[i] == "\\":
            i += 2
            continue
        if script[i] == "\n":
            return i + 1
        i += 1
    return i


_AWK_REFUSED = {
    "system": "runs a command", "ENVIRON": "reads the environment", "PROCINFO": "reads the process's details",
    "SYMTAB": "reaches any variable by name", "FUNCTAB": "reaches any function by name",
    "ARGV": "can name more files for awk to read", "ARGC": "can name more files for awk to read",
}
_AWK_STATEMENT_END = frozenset(";\n{}")
_AWK_CONTINUES = frozenset({",", "&&", "||", "{", "do", "else"})
_AWK_OPERAND_END = frozenset({")", "]", "$", "++", "--"})
_AWK_STREAMS = frozenset({'"/dev/stdout"', '"/dev/stderr"'})
_AWK_OPERAND_WORDS = frozenset({"getline", "NF", "NR", "FNR"})
_AWK_PAIRS = frozenset({">>", ">=", "++", "--", "&&"})
_AWK_KEYWORDS = frozenset({"print", "printf", "return", "in", "case", "if", "while", "for", "do", "else"})


def awk_program(program: str) -> str | None:
    """None when the awk program only reads its input and prints to standard output, else why not."""
    tokens = _awk_tokens(program)
    if isinstance(tokens, str):
        return tokens
    printing = -1
    depth = 0
    getline = False
    for index, token in enumerate(tokens):
        if token in _AWK_REFUSED:
            return f"awk: {token} {_AWK_REFUSED[token]}"
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif token in _AWK_STATEMENT_END:
            if token != "\n" or depth <= 0 and (index == 0 or tokens[index - 1] not in _AWK_CONTINUES):
                printing, getline = -1, False
        elif token in ("print", "printf"):
            printing = depth
        elif token == "getline":
            getline = True
        elif token == "<" and getline:
            return "awk: getline < reads a file the program names"
        elif token in (">", ">>") and printing >= 0 and depth <= printing:
            target = tokens[index + 1] if index + 1 < len(tokens) else ""
            if target not in _AWK_STREAMS:
                return "awk: print > writes a file"
    return None


def _awk_tokens(program: str) -> list[str] | str:
    """Splits an awk program into tokens: names, operators, punctuation, and whole string literals
    (regex literals and numbers are dropped); returns why not when it cannot."""
    tokens: list[str] = []
    i, n = 0, len(program)
    while i < n:
        ch = program[i]
        if ch in " \t\r":
            i += 1
        elif ch == "\\" and i + 1 < n and program[i + 1] == "\n":
            i += 2
        elif ch == "#":
            i = _line_end(program, i) - 1
        elif ch == '"':
            start = i
            i += 1
            while i < n and program[i] != '"':
                if program[i] == "\n":
                    return "awk: a string broken across lines"
                i += 2 if program[i] == "\\" else 1
            if i >= n:
                return "awk: an unterminated string"
            i += 1
            tokens.append(program[start:i])
        elif ch == "/" and _regex_may_start(tokens):
            i += 1
            bracket = False
            while True:
                if i >= n or program[i] == "\n":
                    return "awk: an unterminated regular expression"
                c = program[i]
                if c == "\\":
                    i += 2
                    continue
                if bracket:
                    if c == "/":
                        return "awk: a bracket expression holding a slash"
                    if c == "]":
                        bracket = False
                elif c == "[":
                    bracket = True
                    if i + 1 < n and program[i + 1] == "]":
                        i += 1
                elif c == "/":
                    break
                i += 1
            i += 1
            tokens.append("/re/")
        elif ch.isalpha() or ch == "_":
            start = i
            while i < n and (program[i].isalnum() or program[i] == "_"):
                i += 1
            tokens.append(program[start:i])
        elif ch.isdigit() or ch == "." and i + 1 < n and program[i + 1].isdigit():
            while i < n and (program[i].isalnum() or program[i] == "."):
                i += 1
            tokens.append("0")
        elif ch == "@":
            return "awk: @ directives and indirect calls can load or run code"
        elif ch == "|":
            if program[i : i + 2] != "||":
                return "awk: | pipes to or from a command"
            tokens.append("||")
            i += 2
        elif program[i : i + 2] in _AWK_PAIRS:
            tokens.append(program[i : i + 2])
            i += 2
        elif ch in "\n":
            tokens.append("\n")
            i += 1
        elif ch in "{}()[];,<>=!~+-*/%^?:&$'`":
            if ch in "'`":
                return f"awk: unexpected {ch!r}"
            tokens.append(ch)
            i += 1
        else:
            return f"awk: unexpected {ch!r}"
    return tokens


def _regex_may_start(tokens: list[str]) -> bool:
    """A `/` opens a regular expression unless it follows something with a value (then it divides)."""
    if not tokens:
        return True
    last = tokens[-1]
    if last in _AWK_KEYWORDS:
        return True
    if last in _AWK_OPERAND_END or last in _AWK_OPERAND_WORDS:
        return False
    return not (last[0].isalnum() or last[0] in '_"/')


# SQL a database client may be given and still only read: a `SELECT` (or `WITH … SELECT`,
# `EXPLAIN`, `VALUES`) whose every call is to a function known to compute a value and nothing
# else. Functions that read or write files (`readfile`, `writefile`, `pg_read_file`,
# `lo_export`), load code (`load_extension`), run an editor (`edit`), change sequences or
# sessions (`nextval`, `set_config`) or signal servers (`pg_terminate_backend`), and any
# function a database defines, are not in the list, so a query calling one is not proven.
_SQL_FIRST = frozenset({"select", "with", "explain", "values", "table"})
_SQL_WRITES = frozenset(
    "insert update delete replace upsert merge create drop alter attach detach vacuum reindex analyze pragma begin"
    " commit rollback savepoint release copy grant revoke truncate lock call do set reset load listen notify execute"
    " prepare deallocate discard refresh cluster comment security import checkpoint into returning".split())
_SQL_CALLABLE = frozenset(
    "count sum avg min max total group_concat string_agg array_agg json_agg jsonb_agg json_group_array"
    " json_group_object length char_length character_length octet_length bit_length lower upper initcap substr"
    " substring trim ltrim rtrim btrim replace translate abs round ceil ceiling floor trunc mod power sqrt exp ln log"
    " sign coalesce ifnull nullif iif typeof date time datetime julianday strftime unixepoch timediff now age"
    " date_trunc date_part extract to_char to_date to_timestamp to_number make_date make_interval printf format"
    " instr position strpos hex unhex quote concat concat_ws split_part left right lpad rpad repeat reverse"
    " starts_with greatest least row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value"
    " last_value nth_value bool_and bool_or every array_length cardinality unnest generate_series json jsonb"
    " json_extract json_array_length json_object json_array json_type json_valid json_each json_tree json_build_object"
    " json_build_array jsonb_build_object jsonb_pretty to_json to_jsonb row_to_json json_object_keys jsonb_object_keys"
    " regexp_replace regexp_matches regexp_match regexp_split_to_array regexp_substr regexp_like md5 likelihood"
    " likely unlikely zeroblob char unicode soundex glob like pg_size_pretty pg_total_relation_size"
    " pg_relation_size pg_table_size pg_indexes_size pg_database_size pg_column_size pg_typeof version"
    " current_database current_schema current_schemas current_setting pg_backend_pid inet_server_addr"
    " pragma_table_info pragma_table_xinfo pragma_index_list pragma_index_info pragma_index_xinfo"
    " pragma_foreign_key_list pragma_database_list pragma_table_list pragma_function_list".split())
_SQL_KEYWORDS = frozenset(
    "in exists from join as on and or not where select over filter when then else case values by having union"
    " intersect except all distinct between any some using within lateral cast is like glob escape limit offset"
    " interval row array partition order group window".split())
# PRAGMAs that only report; given a value (`= x` or `(x)`) the ones in the second list change the database.
_SQLITE_PRAGMAS = frozenset(
    "table_info table_xinfo index_list index_info index_xinfo foreign_key_list database_list compile_options"
    " integrity_check quick_check foreign_key_check collation_list function_list module_list pragma_list"
    " table_list".split())
_SQLITE_SETTINGS = frozenset("user_version schema_version application_id page_count page_size freelist_count encoding"
                             " journal_mode foreign_keys data_version".split())


def sql_query(text: str, dialect: str) -> str | None:
    """None when every statement of `text` only reads (see above), else why not. `dialect` is
    "sqlite" (which also allows the PRAGMAs that only report) or "postgres"."""
    if "\\" in text or "$$" in text or "`" in text:
        return f"{dialect}: escapes and dollar quotes are not read"
    plain = _sql_plain(text)
    if plain is None:
        return f"{dialect}: an unterminated quote or comment"
    statements = [part.strip() for part in plain.split(";") if part.strip()]
    if not statements:
        return f"{dialect}: no statement"
    for statement in statements:
        words = _SQL_WORD.findall(statement)
        first = words[0].lower() if words else ""
        if first == "pragma" and dialect == "sqlite":
            why = _sqlite_pragma(statement)
            if why:
                return why
            continue
        if first not in _SQL_FIRST:
            return f"{dialect}: {first or statement[:20]!r} is not a query known to be read-only"
        for word in words:
            if word.lower() in _SQL_WRITES:
                return f"{dialect}: {word} is not known to be read-only"
        for match in _SQL_CALL.finditer(statement):
            name = match.group(1).lower()
            if name not in _SQL_CALLABLE and name not in _SQL_KEYWORDS:
                return f"{dialect}: the function {match.group(1)} is not known to be read-only"
    return None


_SQL_WORD = re.compile(r"[A-Za-z_][\w$]*")
_SQL_CALL = re.compile(r"([A-Za-z_][\w$]*)\s*\(")
_SQLITE_PRAGMA = re.compile(r"\s*pragma\s+(?:\w+\s*\.\s*)?(\w+)\s*(\(\s*[\w\"' .]*\)|=.*)?\s*", re.I | re.S)


def _sqlite_pragma(statement: str) -> str | None:
    match = _SQLITE_PRAGMA.fullmatch(statement)
    if match is None:
        return "sqlite: a PRAGMA that is not known to be read-only"
    name, argument = match.group(1).lower(), match.group(2)
    if name in _SQLITE_PRAGMAS and not (argument or "").startswith("="):
        return None
    if name in _SQLITE_SETTINGS and not argument:
        return None
    return f"sqlite: PRAGMA {name} {'with a value ' if argument else ''}is not known to be read-only"


def _sql_plain(text: str) -> str | None:
    """The SQL with string literals and quoted names replaced by `''` and comments removed (None when one is open)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"[":
            close = "]" if ch == "[" else ch
            j = i + 1
            while True:
                j = text.find(close, j)
                if j < 0:
                    return None
                if close != "]" and text.startswith(close * 2, j):
                    j += 2
                    continue
                break
            out.append("''" if ch == "'" else "x")
            i = j + 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                return None
            i = j + 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
