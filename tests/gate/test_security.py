"""The operating system's security, boot and recovery on Linux (pack `core.security`).

Switching off the firewall, mandatory access control, audit or an antivirus, deleting or
emptying security logs, deleting system snapshots, removing boot entries, opening accounts
and dumping credentials are catastrophic; changing one rule, one service or one setting is
dangerous; the read-only forms of the same programs are proven by the pack's tables.
"""

from __future__ import annotations

import shlex

import pytest

from engine.gate.packs import bank, security
from engine.gate.shell.view import Command
from engine.gate.verdict import Level

CATASTROPHIC = [
    # firewall off
    "ufw disable",
    "sudo ufw --force reset",
    "ufw default allow incoming",
    "ufw default allow",
    "iptables -F",
    "iptables --flush INPUT",
    "iptables -t filter -F",
    "iptables -P INPUT ACCEPT",
    "ip6tables --policy INPUT ACCEPT",
    "iptables -I INPUT 1 -j ACCEPT",
    "iptables -F && iptables -X && iptables -P INPUT ACCEPT",
    "nft flush ruleset",
    "nft 'flush ruleset'",
    "nft delete table inet filter",
    "firewall-cmd --set-default-zone=trusted",
    "pfctl -d",
    "pfctl -F all",
    "systemctl stop firewalld",
    "systemctl disable --now ufw",
    "systemctl mask nftables.service",
    "sudo service ufw stop",
    "/etc/init.d/iptables stop",
    "chkconfig iptables off",
    "update-rc.d ufw disable",
    "rc-service iptables stop",
    "systemctl stop 'firewall*'",
    "u=ufw; $u disable",
    "bash -c 'ufw disable'",
    # mandatory access control and audit off
    "setenforce 0",
    "setenforce Permissive",
    "sed -i 's/^SELINUX=enforcing/SELINUX=disabled/' /etc/selinux/config",
    "echo SELINUX=disabled > /etc/selinux/config",
    "cp /tmp/selinux /etc/selinux/config",
    "systemctl stop apparmor",
    "systemctl disable apparmor.service",
    "aa-teardown",
    "echo 0 > /sys/fs/selinux/enforce",
    "echo 1 | sudo tee /sys/fs/selinux/disable",
    "auditctl -e 0",
    "auditctl -D",
    "systemctl stop auditd",
    "service auditd stop",
    "systemctl stop rsyslog",
    "grubby --update-kernel=ALL --args=selinux=0",
    "sed -i 's/GRUB_CMDLINE_LINUX=\"/&apparmor=0 /' /etc/default/grub",
    # antivirus and EDR off
    "systemctl stop clamav-daemon",
    "systemctl disable falcon-sensor",
    "systemctl stop mdatp",
    "mdatp config real-time-protection --value disabled",
    "pkill -9 falcon-sensor",
    "killall auditd",
    "kill -9 $(pidof wdavdaemon)",
    # security logs deleted or emptied
    "rm /var/log/auth.log",
    "rm -f /var/log/secure*",
    "rm -rf /var/log",
    "rm -rf /var/log/*",
    "rm -f /var/log/*.log",
    "rm -rf /var/log/audit",
    "rm -rf /var/log/journal/*",
    "shred -u /var/log/wtmp",
    "truncate -s0 /var/log/auth.log",
    "> /var/log/wtmp",
    "cat /dev/null > /var/log/btmp",
    "echo > /var/log/lastlog",
    "cp /dev/null /var/log/faillog",
    "ln -sf /dev/null /var/log/wtmp",
    "mv /var/log/auth.log /tmp/a",
    "dd if=/dev/null of=/var/log/audit/audit.log",
    "tee /var/log/auth.log < /dev/null",
    "sed -i '/203.0.113.7/d' /var/log/auth.log",
    "journalctl --vacuum-time=1s",
    "journalctl --rotate --vacuum-size=1K",
    "find /var/log -type f -delete",
    "find /var/log -name '*.log' -exec truncate -s0 {} \\;",
    "rm -rf /private/var/log",
    "cd /var/log && rm -rf *",
    "cd /var/log; truncate -s 0 auth.log",
    "rm -rf /var/log/{auth.log,secure}",
    "rm /var/log/a?th.log",
    "find /var/log -exec rm -f {} +",
    "rm -rf /var/audit",
    # recovery: system snapshots and backups
    "snapper delete 1-100",
    "snapper -c root delete 42",
    "timeshift --delete-all",
    "timeshift --delete --snapshot '2024-01-01_00-00-01'",
    "btrfs subvolume delete /.snapshots/1/snapshot",
    "btrfs sub del /timeshift-btrfs/snapshots/x/@",
    "zfs destroy rpool/ROOT@autosnap",
    "zfs destroy -r tank@daily",
    "rm -rf /.snapshots",
    "rm -rf /timeshift",
    # boot
    "efibootmgr -B -b 0001",
    "efibootmgr --delete-bootnum --bootnum 0003",
    "bootctl remove",
    "rm -rf /efi/EFI",
    "rm -rf /lib/modules",
    "mokutil --disable-validation",
    "rm /boot/vmlinuz-6.1.0",
    "dd if=/dev/zero of=/dev/sda bs=446 count=1",
    # accounts
    "passwd -d root",
    "passwd --delete alice",
    "usermod -p '' root",
    "usermod --password \"\" alice",
    "chmod 777 /etc/shadow",
    "chmod 666 /etc/sudoers",
    "chmod o+w /etc/passwd",
    "chmod a+r /etc/shadow",
    "chmod 644 /etc/shadow",
    "chown alice /etc/sudoers",
    "chown -R bob:bob /etc/sudoers.d",
    "chmod u+s /bin/bash",
    "chmod 4755 /usr/bin/python3",
    "chmod +s /usr/bin/find",
    "chmod u=rwxs /bin/sh",
    "install -m 4755 /bin/bash /tmp/rootsh",
    "setcap cap_setuid+ep /usr/bin/python3",
    "sed -i 's/^%sudo.*/%sudo ALL=(ALL) NOPASSWD:ALL/' /etc/sudoers",
    "sed -i 's/pam_unix.so/pam_permit.so/' /etc/pam.d/common-auth",
    "sed -i 's/.*PermitRootLogin.*/PermitRootLogin yes/' /etc/ssh/sshd_config",
    "echo 'PermitEmptyPasswords yes' >> /etc/ssh/sshd_config",
    "echo 'PermitRootLogin yes' | tee -a /etc/ssh/sshd_config.d/50-root.conf",
    "userdel -r alice",
    "userdel root",
    "deluser --remove-home alice",
    # credential dumping
    "unshadow /etc/passwd /etc/shadow > hashes.txt",
    "john /etc/shadow",
    "mimipenguin",
    "python3 mimipenguin.py",
    "python3 laZagne.py all",
    "gcore $(pidof sshd)",
    "gdb -p $(pgrep -x gnome-keyring-daemon) -batch -ex 'generate-core-file /tmp/k'",
    "cat /proc/1234/mem",
    "dd if=/proc/$(pidof sshd)/mem of=/tmp/m bs=1M",
    "strings /dev/mem",
    "cat /proc/kcore > /tmp/k",
]

DANGEROUS = [
    "ufw allow 22/tcp",
    "ufw enable",
    "ufw delete allow 80",
    "iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
    "iptables -t nat -F",
    "iptables -D INPUT 3",
    "iptables -X",
    "nft add rule inet filter input tcp dport 22 accept",
    "firewall-cmd --add-port=8080/tcp",
    "firewall-cmd --panic-on",
    "firewall-cmd --panic-off",
    "pfctl -f /etc/pf.conf",
    "systemctl stop nginx",
    "systemctl restart firewalld",
    "systemctl start auditd",
    "service apache2 stop",
    "setenforce 1",
    "aa-complain /etc/apparmor.d/usr.bin.firefox",
    "auditctl -w /etc/passwd -p wa -k passwd",
    "rm -rf /var/log/nginx",
    "rm /var/log/syslog.1",
    "echo note >> /var/log/auth.log",
    "journalctl --vacuum-time=2weeks",
    "journalctl --vacuum-size=500M",
    "journalctl --rotate",
    "cp /var/log/auth.log /tmp/auth.log.bak",
    "cp notes.txt /var/log/audit/",
    "snapper create --description before-upgrade",
    "snapper cleanup number",
    "timeshift --create --comments before-upgrade",
    "btrfs subvolume delete /mnt/data/build-cache",
    "zfs snapshot tank@now",
    "zfs rollback tank/home@yesterday",
    "efibootmgr -o 0001,0002",
    "efibootmgr -n 0002",
    "grub-install /dev/sdb",
    "update-grub",
    "bootctl install",
    "passwd alice",
    "passwd -l root",
    "usermod -aG sudo alice",
    "usermod -p '$6$salt$hash' root",
    "chmod 640 /etc/shadow",
    "chown root:shadow /etc/shadow",
    "chmod +s /tmp/mytool",
    "chmod 755 /bin/bash",
    "chmod g+s /srv/shared",
    "echo 'ssh-ed25519 AAAAC3Nza alice' >> /root/.ssh/authorized_keys",
    "sed -i 's/^PermitRootLogin yes/PermitRootLogin no/' /etc/ssh/sshd_config",
    "sed -i 's/#PasswordAuthentication yes/PasswordAuthentication no/' /etc/ssh/sshd_config",
    "echo 'PasswordAuthentication yes' >> /etc/ssh/sshd_config",
    "userdel alice",
    "shutdown -h now",
    "reboot",
    "crontab -r",
    "history -c",
    "kill 1234",
    "pkill -f gunicorn",
    "killall -HUP rsyslogd",
    "systemctl stop 'ngin*'",
    "echo 1 > /sys/fs/selinux/enforce",
    "setcap cap_net_bind_service+ep /usr/bin/node",
    "zfs destroy tank/data@snap1",
    "apt remove nginx",
    "chmod 600 notes.txt",
    "gdb -p 4242",
    "john hashes.txt",
]

SAFE = [
    "tail -n 50 /var/log/auth.log",
    "grep -i failed /var/log/secure",
    "ls -la /var/log/journal",
    "last -f /var/log/wtmp",
    "cat /proc/self/status",
    "stat /etc/shadow",
]

READ_ONLY = [
    "ufw status",
    "ufw status verbose",
    "ufw status numbered",
    "ufw show added",
    "ufw app list",
    "ufw version",
    "iptables -L",
    "iptables -L -n -v --line-numbers",
    "iptables -nvL INPUT",
    "iptables -t nat -S",
    "ip6tables -S",
    "iptables-save",
    "iptables-save -t filter -c",
    "nft list ruleset",
    "nft list tables",
    "nft -a list table inet filter",
    "firewall-cmd --state",
    "firewall-cmd --list-all",
    "firewall-cmd --zone=public --list-ports",
    "firewall-cmd --get-active-zones",
    "firewall-cmd --permanent --list-services",
    "firewall-cmd --query-port=22/tcp",
    "pfctl -s rules",
    "pfctl -sr",
    "pfctl -v -s all",
    "getenforce",
    "sestatus",
    "sestatus -v",
    "aa-status",
    "aa-status --enabled",
    "apparmor_status --json",
    "auditctl -l",
    "auditctl -s",
    "efibootmgr",
    "efibootmgr -v",
    "snapper list",
    "snapper -c root list",
    "snapper list-configs",
    "snapper status 1..2",
    "timeshift --list",
    "timeshift --list --snapshot-device /dev/sda2",
    "btrfs subvolume list /",
    "btrfs subvolume show /",
    "btrfs filesystem df /",
    "btrfs device stats /",
    "lastlog",
    "lastlog -u alice",
    "faillog -a",
    "mokutil --sb-state",
    "mokutil --list-enrolled",
    "bootctl",
    "bootctl status",
    "bootctl list",
]

NOT_PROVEN = [
    "ufw disable",
    "ufw --dry-run enable",
    "ufw status; ufw disable",
    "iptables -F",
    "iptables -L -Z",
    "iptables -nvL --flush",
    "iptables-save -f /etc/iptables.rules",
    "nft flush ruleset",
    "nft 'list ruleset; flush ruleset'",
    "nft list ruleset \\; flush ruleset",
    "nft -f rules.nft",
    "firewall-cmd --set-default-zone=trusted",
    "firewall-cmd --add-port=80/tcp",
    "firewall-cmd --list-all --remove-service=ssh",
    "pfctl -d",
    "pfctl -T flush -t bad",
    "pfctl -s rules -F all",
    "auditctl -D",
    "auditctl -l -e 0",
    "efibootmgr -B -b 1",
    "efibootmgr -v -o 0001",
    "snapper delete 1",
    "snapper status 1..2 -o out.txt",
    "snapper diff --diff-cmd 'sh -c id' 1..2",
    "timeshift --delete-all",
    "timeshift --list --delete-all",
    "btrfs subvolume delete /x",
    "btrfs device stats -z /",
    "lastlog -C -u bob",
    "faillog -r",
    "mokutil --disable-validation",
    "bootctl remove",
    "sestatus --zap",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, verdict


@pytest.mark.parametrize("command", DANGEROUS)
def test_dangerous_not_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, verdict


@pytest.mark.parametrize("command", SAFE)
def test_reading_logs_and_accounts_stays_safe(shell, command: str) -> None:
    assert shell(command).level is Level.SAFE


def _prove(command: str) -> str | None:
    cmd = Command(tuple(shlex.split(command)))
    proof = bank().read_only.get(cmd.name)
    assert proof is not None, f"no read-only table for {cmd.name}"
    return proof(cmd)


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_forms_are_proven(shell, command: str) -> None:
    assert _prove(command) is None
    ours = {item.id for item in security.PACK.rules}
    assert not ours & set(shell(command).rules), command


@pytest.mark.parametrize("command", NOT_PROVEN)
def test_changing_forms_are_not_proven(command: str) -> None:
    why = _prove(command)
    assert why, command
