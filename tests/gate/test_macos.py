"""macOS disks, security, boot and recovery (pack `macos`).

Erasing or repartitioning a disk, deleting the system or a volume, switching off SIP,
Gatekeeper, the application firewall, FileVault or an EDR agent, deleting Time Machine
backups and local snapshots, erasing the unified log and dumping the keychain are
catastrophic; mounting, renaming, one app's quarantine flag, app preferences and single
passwords are dangerous; `diskutil list`, `tmutil listbackups`, `csrutil status` and the
like are proven read-only by the pack's tables.
"""

from __future__ import annotations


import pytest

from engine.gate.packs import bank, macos
from engine.gate.verdict import Level
from tests.gate.conftest import prove

CATASTROPHIC = [
    # disks
    "diskutil eraseDisk APFS Blank disk2",
    "diskutil erasedisk JHFS+ Untitled /dev/disk3",
    "diskutil eraseVolume APFS Data disk1s2",
    "diskutil secureErase 0 disk2",
    "diskutil zeroDisk disk2",
    "diskutil randomDisk 3 disk2",
    "diskutil partitionDisk disk2 GPT APFS Main 100%",
    "diskutil reformat disk2s1",
    "diskutil apfs deleteContainer disk1",
    "diskutil apfs deleteVolume disk1s2",
    "diskutil apfs eraseVolume disk1s1 -name Blank",
    "diskutil ap deleteVolumeGroup 1C8F2F5C-0000-0000-0000-000000000000",
    "diskutil apfs deleteSnapshot disk1s1 -uuid 1C8F2F5C-0000-0000-0000-000000000000",
    "sudo asr restore --source image.dmg --target /Volumes/Target --erase --noprompt",
    "newfs_apfs /dev/disk2s1",
    "newfs_hfs -v Untitled /dev/disk3s2",
    "gpt destroy /dev/disk2",
    "gpt remove -i 1 disk2",
    "fdisk -e /dev/disk0",
    "dd if=/dev/zero of=/dev/rdisk0 bs=1m",
    "dd if=/dev/zero of=/dev/disk2s1",
    "cat image.iso > /dev/rdisk3",
    # the system, volumes and the user's library
    "rm -rf \"/Volumes/Macintosh HD\"",
    "rm -rf /Volumes/Backup",
    "rm -rf /System/Volumes/Data",
    "rm -rf /private/var",
    "rm -rf /private/etc",
    "rm -rf ~/Library",
    "rm -rf ~/Library/Keychains",
    "sudo rm -rf /Library",
    "rm -rf /Applications",
    "rm -rf /Users",
    "cd /Volumes && rm -rf Backup",
    "rm -rf $HOME/Library",
    "mv ~/Library/Keychains /tmp/k",
    # security off
    "csrutil disable",
    "csrutil authenticated-root disable",
    "csrutil enable --without fs",
    "spctl --master-disable",
    "spctl --global-disable",
    "spctl kext-consent disable",
    "defaults write /Library/Preferences/com.apple.alf globalstate -int 0",
    "sudo defaults write com.apple.alf globalstate 0",
    "/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off",
    "launchctl unload -w /System/Library/LaunchDaemons/com.apple.alf.agent.plist",
    "launchctl bootout system/com.apple.XProtect.daemon.scan",
    "launchctl disable system/com.crowdstrike.falcond",
    "sudo launchctl unload /Library/LaunchDaemons/com.sentinelone.sentineld.plist",
    "defaults write com.apple.LaunchServices LSQuarantine -bool false",
    "fdesetup disable",
    "nvram boot-args=amfi_get_out_of_my_way=1",
    "sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db \"INSERT INTO access VALUES('kTCCServiceSystemPolicyAllFiles','com.evil',0,2,4,1,NULL,NULL,0,'UNUSED',NULL,0,0)\"",
    # recovery
    "tmutil disable",
    "tmutil delete /Volumes/TM/Backups.backupdb/mac/2024-01-01-000000",
    "tmutil deletelocalsnapshots /",
    "tmutil deletelocalsnapshots 2024-01-01-000000",
    "tmutil thinlocalsnapshots / 999999999999 4",
    "tmutil removedestination 1C8F2F5C-0000-0000-0000-000000000000",
    "rm -rf /Volumes/TM/Backups.backupdb",
    # logs and credentials
    "log erase --all",
    "sudo log erase",
    "rm -rf /var/db/diagnostics",
    "security dump-keychain -d login.keychain",
    "dscl . -create /Users/backdoor UniqueID 0",
    "sysadminctl -deleteUser alice",
    "sudo launchctl bootout system /Library/LaunchDaemons/com.crowdstrike.falcond.plist",
    "for s in $(tmutil listlocalsnapshotdates / | grep -v :); do sudo tmutil deletelocalsnapshots $s; done",
    "sudo nvram boot-args=\"amfi_get_out_of_my_way=0x1\"",
]

DANGEROUS = [
    "diskutil unmountDisk force disk2",
    "diskutil mount disk2s1",
    "diskutil eject disk2",
    "diskutil rename disk2s1 Backup",
    "diskutil apfs addVolume disk1 APFS Scratch",
    "csrutil clear",
    "spctl --add --label Approved /Applications/Foo.app",
    "xattr -d com.apple.quarantine /Applications/Foo.app",
    "xattr -rd com.apple.quarantine /Applications",
    "tmutil startbackup",
    "tmutil enable",
    "tmutil addexclusion ~/Downloads",
    "defaults write com.apple.dock autohide -bool true",
    "defaults write com.apple.finder AppleShowAllFiles YES",
    "launchctl unload ~/Library/LaunchAgents/com.example.agent.plist",
    "nvram -c",
    "nvram boot-args=-v",
    "bless --mount /Volumes/Other --setBoot",
    "security find-generic-password -wa github",
    "security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ca.crt",
    "security dump-keychain",
    "sysadminctl -deleteUser alice -keepHome",
    "dscl . -append /Groups/admin GroupMembership alice",
    "fdesetup enable",
    "/usr/libexec/ApplicationFirewall/socketfilterfw --add /Applications/Foo.app",
    "sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db 'select * from access'",
    "log collect --output system.logarchive",
    "rm -rf /Volumes/Backup/old-projects",
    "rm -rf ~/Library/Caches/com.example.app",
]

READ_ONLY = [
    "diskutil list",
    "diskutil list -plist external physical",
    "diskutil info disk0",
    "diskutil info -all",
    "diskutil apfs list",
    "diskutil apfs listSnapshots /",
    "diskutil ap list -plist",
    "tmutil listbackups",
    "tmutil latestbackup",
    "tmutil destinationinfo",
    "tmutil listlocalsnapshots /",
    "tmutil machinedirectory",
    "tmutil isexcluded ~/Downloads",
    "csrutil status",
    "csrutil authenticated-root status",
    "spctl --status",
    "spctl --assess --verbose /Applications/Safari.app",
    "spctl -a -vv -t install Foo.pkg",
    "sw_vers",
    "sw_vers -productVersion",
    "system_profiler SPHardwareDataType",
    "system_profiler -json SPSoftwareDataType -detailLevel mini",
    "launchctl list",
    "launchctl list com.apple.Finder",
    "launchctl print system/com.apple.alf",
    "launchctl print-disabled system",
    "/usr/libexec/ApplicationFirewall/socketfilterfw --getglobalstate",
    "socketfilterfw --listapps",
    "fdesetup status",
    "fdesetup isactive",
    "nvram -p",
    "nvram -xp",
    "nvram boot-args",
    "bless --info --getBoot",
    "log show --last 1h --predicate 'process == \"sshd\"'",
    "log stream --level debug",
    "defaults read com.apple.dock",
    "defaults read /Library/Preferences/com.apple.alf globalstate",
    "defaults -currentHost read",
    "security find-certificate -a -c Apple -p",
    "security list-keychains",
    "security find-identity -v -p codesigning",
    "security verify-cert -c cert.pem",
    "xattr -l Foo.dmg",
    "xattr -p com.apple.quarantine Foo.dmg",
    "gpt show disk0",
    "gpt -r show /dev/disk0",
]

NOT_PROVEN = [
    "diskutil eraseDisk APFS X disk2",
    "diskutil list; diskutil zeroDisk disk2",
    "diskutil apfs deleteVolume disk1s2",
    "tmutil delete /x",
    "tmutil listbackups --delete",
    "csrutil disable",
    "spctl --master-disable",
    "spctl --status --master-disable",
    "launchctl unload x.plist",
    "socketfilterfw --setglobalstate off",
    "fdesetup disable",
    "nvram -c",
    "nvram boot-args=-v",
    "bless --setBoot --mount /",
    "log erase --all",
    "log show --last 1h --delete",
    "defaults write com.apple.dock autohide 1",
    "defaults export com.apple.dock out.plist",
    "security dump-keychain",
    "security list-keychains -s evil.keychain",
    "security find-generic-password -w -s x",
    "xattr -d com.apple.quarantine x",
    "xattr -w com.apple.quarantine x y",
    "gpt destroy disk2",
    "system_profiler -xml -output x",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, verdict


@pytest.mark.parametrize("command", DANGEROUS)
def test_dangerous_not_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, verdict


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_forms_are_proven(shell, command: str) -> None:
    assert prove(command) is None
    ours = {item.id for item in macos.PACK.rules}
    assert not ours & set(shell(command).rules), command


@pytest.mark.parametrize("command", NOT_PROVEN)
def test_changing_forms_are_not_proven(command: str) -> None:
    assert prove(command), command


def test_macos_pack_can_be_switched_off() -> None:
    """Off, its rules stop rating and its programs are never proven: the gate only asks more."""
    without = bank(frozenset({"macos"}))
    assert "tmutil" not in without.read_only and "diskutil" not in without.read_only
    assert not without.rules_for("tmutil")
    assert not any(item.id.startswith("macos.") for item in without.all())
    assert "macos" in {pack.id for pack in bank().packs}
