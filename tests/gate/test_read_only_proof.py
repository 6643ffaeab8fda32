"""A command is safe only when a pack proves it read-only, option by option.

Proven commands are rated safe; a command with an option, sub-command or script the
tables do not know is at least dangerous, as `shell.unknown` with a reason naming what
was not proven (unless a rule already named the harm).
"""

from __future__ import annotations

import shlex

import pytest

from engine.gate.classifier import Classifier
from engine.gate.packs import PACKS, bank
from engine.gate.policy import Policy
from engine.gate.shell.view import Command
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

PROVEN = [
    "ls -la --color=auto src", "cat -n README.md", "head -n 20 app.log", "tail -f /var/log/syslog",
    "wc -l src/*.py", "du -sh node_modules", "df -h /", "stat -c %s build.tar", "file -b logo.png",
    "grep -rn --include='*.py' TODO src", "rg -n --type py 'def main'", "sed -n '1,5p' notes.txt",
    "sed -E 's/(foo|bar)+/baz/g; /^$/d' input.txt", "awk -F: '$3 >= 1000 {print $1}' /etc/passwd",
    "awk 'NR % 2 == 0 { n++ } END { print n }' data.txt", "jq -r '.items[] | .name' data.json",
    "sort -t, -k2,2n -u data.csv", "uniq -c sorted.txt", "cut -d: -f1,3 /etc/group", "tr -s ' ' < notes.txt",
    "diff -u old.py new.py", "find . -name '*.py' -newer setup.cfg -print", "find src -type f -size +1M -ls",
    "less -R build.log", "man 5 crontab", "tar -tzf release.tar.gz", "date +%Y-%m-%dT%H:%M",
    "ps -eo pid,comm --sort=-%cpu", "journalctl -u nginx --since today --no-pager -n 50",
    "systemctl status nginx --no-pager", "systemctl list-units --type=service --state=failed", "dmesg -T",
    "ss -tlnp", "ip -br addr show", "ip route get 1.1.1.1", "lsof -i :8080", "free -m", "uname -r", "id -un",
    "git status -sb", "git log --oneline --graph -n 20", "git diff --stat HEAD~3", "git show HEAD:README.md",
    "git tag -l 'v1.*'", "git tag", "git branch -a", "git -C repo log -1 --format=%H", "git config --get user.email",
    "git -c color.ui=never log", "git stash list", "git blame -L 10,20 app.py",
    "terraform state list", "terraform fmt -check -recursive", "terraform output", "terraform plan -no-color",
    "terraform validate",
    "kubectl get pods -A -o wide", "kubectl describe node worker-2", "kubectl logs deploy/api --tail=100",
    "kubectl auth can-i delete pods", "kubectl config get-contexts", "helm list -A", "helm status api -n prod",
    "docker ps -a", "docker logs --tail 50 web", "aws ec2 describe-instances --region eu-west-1",
    "aws s3 ls s3://bucket", "gcloud compute instances list", "az vm list -o table",
    "npm ls --depth=0", "npm view react version", "pip list --outdated", "apt list --installed",
    "dpkg -l 'python3*'", "cargo tree -d", "curl -s http://localhost:9200/_cluster/health",
    "rsync -an --itemize-changes src/ backup/",
]

NOT_PROVEN = [
    ("ls --foo", "--foo"),
    ("sort --outp=sorted.txt data.txt", "--outp"),
    ("grep -r --colo=always TODO", "--colo"),
    ("git frobnicate", "frobnicate"),
    ("git diff --ext-diff", "--ext-diff"),
    ("git -c http.proxy=http://proxy.example log", "http.proxy"),
    ("sed -f script.sed notes.txt", "-f"),
    ("awk -f prog.awk data.txt", "-f"),
    ("less '+!id' notes.txt", "+!id"),
    ("man -P cat ls", "-P"),
    ("terraform plan -out=tf.plan", "-out"),
    ("terraform output -json", "-json"),
    ("kubectl --kubeconfig kc get pods", "--kubeconfig"),
    ("kubectl cluster-info dump", "dump"),
    ("systemctl --host=db status nginx", "--host"),
    ("dmesg -C", "-C"),
    ("hostname newname", "newname"),
    ("uniq in.txt out.txt", "out.txt"),
    ("xxd dump.bin out.bin", "xxd"),
    ("docker --config d ps", "--config"),
    ("helm --kubeconfig kc list", "--kubeconfig"),
    ("pip --log pip.log list", "--log"),
    ("aws s3api get-object --bucket b --key k out.txt", "get-object"),
    ("gcloud container clusters get-credentials prod", "get-credentials"),
    ("redis-cli flushall", "flushall"),
    ("LESS='-o log' less notes.txt", "LESS="),
    ("MANROFFOPT=-U man ls", "MANROFFOPT="),
    ("frobnicate --all", "frobnicate"),
    ("journalctl -n --cursor-file=cursor.txt", "--cursor-file"),
    ("npm ls --color --userconfig=npmrc", "--userconfig"),
    ("pmap -n 1234", "-n"),
    ("aws s3 ls s3://bucket --no-verify-ssl", "--no-verify-ssl"),
    ("curl --connect-to localhost:80:evil.example:80 http://localhost/", "--connect-to"),
    ("az storage account keys list -n store", "credential"),
]

CAUGHT_BY_RULES = [
    "sed 's/x/y/w out.txt' notes.txt", "sed -i 's/x/y/' notes.txt", "awk '{system(\"id\")}' data.txt",
    "awk '{print $1 > \"out.txt\"}' data.txt", "find . -name '*.tmp' -delete", "find . -fprint out.txt",
    "find . -exec rm {} +", "git -c core.pager='sh -c id' log", "git log --output=x", "rg --pre ./x TODO",
    "npm audit fix", "terraform state rm aws_instance.web", "git tag v2.0", "git branch feature",
    "sed -n '1e id' notes.txt", "date -s 2020-01-01", "kubectl config view --raw",
    "kubectl get secret db-creds -o jsonpath='{.data.password}'", "aws secretsmanager get-secret-value --secret-id db",
    "vault read secret/app",
]


# Examples for the packs that carry no `proven` commands of their own (their rules may still ask
# about some of these; here only their read-only proofs are held to one example each).
OTHER_EXAMPLES = [
    "btrfs filesystem show", "cryptsetup status cryptroot", "dmsetup ls", "fdisk -l /dev/sda", "gdisk -l /dev/sda",
    "mdadm --detail /dev/md0", "mke2fs -n /dev/sdb1", "mkfs.ext2 -n /dev/sdb1", "mkfs.ext3 -n /dev/sdb1",
    "mkfs.ext4 -n /dev/sdb1", "mkfs.xfs -N /dev/sdb1", "nvme list", "parted /dev/sda print", "sfdisk -l /dev/sda",
    "sgdisk -p /dev/sda", "swapon --show", "zfs list", "zpool status", "gpg --list-keys", "gpg2 --list-keys",
    "openssl x509 -in cert.pem -noout -text", "ssh-keygen -l -f key.pub", "bcdedit /enum",
    "certutil -hashfile setup.exe SHA256", "fc a.txt b.txt", "net user", "netsh interface show interface",
    "query user", "reagentc /info", 'reg query "HKLM\\Software"', "sc query", "schtasks /query",
    "vssadmin list shadows", "wevtutil el", "wmic os get caption", "auditctl -l", "nft list ruleset",
    "timeshift --list", "ufw status", "csrutil status", "defaults read com.apple.finder", "diskutil list",
    "fdesetup status", "gpt show disk0", "launchctl list", "log show --last 1h", "security list-keychains",
    "spctl --status", "tmutil listbackups", "tune2fs -l /dev/sda1",
]


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def _rate(classifier: Classifier, command: str):
    return classifier.classify(ToolCall("shell.run", {"command": command}))


@pytest.mark.parametrize("command", PROVEN)
def test_proven_commands_are_safe(classifier: Classifier, command: str) -> None:
    verdict = _rate(classifier, command)
    assert verdict.level is Level.SAFE, f"{command!r}: {verdict}"


@pytest.mark.parametrize(("command", "named"), NOT_PROVEN)
def test_unproven_commands_say_what_was_not_proven(classifier: Classifier, command: str, named: str) -> None:
    verdict = _rate(classifier, command)
    assert verdict.level >= Level.DANGEROUS, f"{command!r}: {verdict}"
    assert "shell.unknown" in verdict.rules, f"{command!r}: {verdict}"
    assert named in verdict.reason, f"{command!r}: {verdict.reason}"


@pytest.mark.parametrize("command", CAUGHT_BY_RULES)
def test_rules_and_proofs_agree_on_harm(classifier: Classifier, command: str) -> None:
    """A rule names these; the proofs refuse them too, so no rule is all that stands in the way."""
    verdict = _rate(classifier, command)
    assert verdict.level >= Level.DANGEROUS, f"{command!r}: {verdict}"
    assert bank().prove(Command(tuple(shlex.split(command)))) is not None, command


def test_every_read_only_program_has_a_proven_example(classifier: Classifier) -> None:
    """Each pack's own `proven` commands are rated safe; every program a pack proves has an example
    its proof holds for (the pack's own, one of `OTHER_EXAMPLES`, or the program alone)."""
    for pack in PACKS:
        for example in pack.proven:
            verdict = _rate(classifier, example)
            assert verdict.level is Level.SAFE, f"{pack.id}: {example!r} is not proven: {verdict}"
    for pack in PACKS:
        examples = [tuple(shlex.split(example)) for example in (*pack.proven, *OTHER_EXAMPLES)]
        examples += [(name,) for name in pack.read_only]
        covered = set()
        for argv in examples:
            cmd = Command(argv)
            proof = pack.read_only.get(cmd.name)
            if proof is not None and proof(cmd) is None:
                covered.add(cmd.name)
        missing = sorted(set(pack.read_only) - covered)
        assert not missing, f"{pack.id}: no proven example for {', '.join(missing)}"


def test_abbreviations_and_unknown_sub_commands_are_never_read_only() -> None:
    proofs = bank().read_only
    assert proofs["sort"](Command(("sort", "--output=x", "f"))) is not None
    assert proofs["sort"](Command(("sort", "--outp", "x", "f"))) is not None
    assert proofs["journalctl"](Command(("journalctl", "--vacuum-size=1G"))) is not None
    assert proofs["journalctl"](Command(("journalctl", "--rot"))) is not None
    assert proofs["git"](Command(("git", "stash", "drop"))) is not None
    assert proofs["kubectl"](Command(("kubectl", "exec", "-it", "pod", "--", "sh"))) is not None
    assert proofs["npm"](Command(("npm", "install", "left-pad"))) is not None


def test_policy_read_only_programs_are_taken_on_trust() -> None:
    trusting = Classifier(Policy(read_only_commands=frozenset({"make-docs"})))
    assert _rate(trusting, "make-docs --all").level is Level.SAFE
    assert _rate(Classifier(), "make-docs --all").level is Level.DANGEROUS
