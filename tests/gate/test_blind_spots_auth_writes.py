"""Writing over the system's account, sudo or boot files is catastrophic whatever program writes (issue 25):
every option or operand a program writes its output to (`sort -o`, `dd of=`, `curl -o`, `wget -O`, `uniq IN
OUT`, `sponge`, in-place editors, copy destinations) is checked against the same table as a `>`
redirection (`AUTH_FILES` in `engine/gate/paths.py`). Reading one, or writing elsewhere, is not.

These strings are data: they are rated, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.tools.call import ToolCall

AUTH = ["/etc/passwd", "/etc/shadow", "/etc/group", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d/90-agent",
        "/etc/pam.d/sudo", "/boot/vmlinuz", "/boot/grub/grub.cfg", "/boot/efi/EFI/ubuntu/grubx64.efi",
        "/etc/default/grub", "/etc/doas.conf"]
WRITERS = [
    "sort -o {} x", "sort --output={} x", "sort x -o{}", "shuf -o {} x", "dd if=x of={}", "dd of={} bs=1M",
    "truncate -s0 {}", "truncate --size 0 {}", "gzip -c x > {}", "zstd x -o {}", "zstd -d x.zst -o {}",
    "xz -dc x.xz > {}", "curl -o {} https://x.example/s", "curl -sSLo {} https://x.example/s",
    "curl --output {} https://x.example/s", "wget -O {} https://x.example/k", "wget -qO {} https://x.example/k",
    "wget --output-document={} https://x.example/k", "tee {}", "tee -a {}", "cp x {}", "cp -f x {}", "install x {}",
    "install -m 0440 x {}", "mv x {}", "rsync x {}", "rsync -a x {}", "scp host:x {}", "sed -i 's/x/y/' {}",
    "perl -pi -e 's/x/y/' {}", "ln -sf x {}", "uniq in {}", "iconv -f latin1 -t utf8 -o {} x",
    "openssl enc -d -in x -out {}", "openssl base64 -d -in x -out {}", "cat x | sponge {}",
    "awk -i inplace '{{print}}' {}", "gawk -i inplace '{{print}}' {}", "xxd -r dump {}", "dos2unix {}",
    "gpg -o {} -d x.gpg", "gpg --output {} --decrypt x.gpg", "tar -cf {} x", "gcc -o {} x.c", "patch {} < p.diff",
    "yq -i '.x=1' {}", "echo x | sudo tee {}", "sudo dd of={} if=/dev/zero", "python3 -c \"open('{}','w')\"",
    "cat x > {}", "echo x >> {}", "busybox cp x {}", "cp x y {}", "ex -sc 'wq' {}",
]
INTO_DIRECTORIES = ["unzip -o x.zip -d /boot", "tar -xzf k.tgz -C /etc/pam.d", "cp --target-directory=/etc/sudoers.d x",
                    "cp -t /etc/sudoers.d x", "xargs -a list cp -t /etc/sudoers.d", "cp -f x /etc/sudoers.d/",
                    "rsync -a x/ /boot/", "7z x k.7z -o/boot", "cd /etc && cp x passwd", "mv /etc/shadow /tmp/"]
SAFE_OR_DANGEROUS = [
    "sort -o out.txt /etc/passwd", "cp /etc/passwd /tmp/p", "curl -o out.html https://x.example", "gcc -O2 -o app x.c",
    "dd if=/etc/passwd of=/tmp/p", "uniq /etc/passwd out.txt", "xxd -r dump out.bin", "wget -O - https://x.example",
    "rsync -a /etc/passwd backup/", "tar -cf backup.tar /etc/passwd", "openssl enc -in /etc/passwd -out x.enc",
    "chmod 644 /etc/passwd", "touch /etc/passwd", "zstd /etc/passwd -o /tmp/p.zst", "iconv -o out.txt /etc/group",
]


def _rate(classifier: Classifier, command: str):
    return classifier.classify(ToolCall("shell.run", {"command": command}))


@pytest.mark.parametrize("path", AUTH)
@pytest.mark.parametrize("writer", WRITERS)
def test_any_writer_over_an_auth_or_boot_file_is_catastrophic(classifier: Classifier, writer: str, path: str) -> None:
    command = writer.format(path)
    verdict = _rate(classifier, command)
    assert verdict.level == Level.CATASTROPHIC, (command, verdict)
    assert verdict.tier == Tier.EXTERNALLY_IRREVERSIBLE, (command, verdict)
    assert "exfil" not in " ".join(verdict.rules[:1]), (command, verdict)


@pytest.mark.parametrize("command", SAFE_OR_DANGEROUS)
def test_reading_an_auth_file_or_writing_elsewhere_is_not_catastrophic(classifier: Classifier, command: str) -> None:
    verdict = _rate(classifier, command)
    assert verdict.level < Level.CATASTROPHIC, (command, verdict)


@pytest.mark.parametrize("command", ["scp host:x /etc/shadow", "rsync -a host:/etc/ /tmp/e/", "scp host:~/.ssh/id_rsa ."])
def test_a_download_is_not_exfiltration(classifier: Classifier, command: str) -> None:
    verdict = _rate(classifier, command)
    assert "net.exfil-secret" not in verdict.rules, (command, verdict)


@pytest.mark.parametrize("command", INTO_DIRECTORIES)
def test_writing_into_an_auth_or_boot_directory_is_catastrophic(classifier: Classifier, command: str) -> None:
    verdict = _rate(classifier, command)
    assert verdict.level == Level.CATASTROPHIC, (command, verdict)
