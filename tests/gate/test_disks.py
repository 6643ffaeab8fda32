"""Disks and filesystems: raw writes to block devices under every naming scheme, volume and pool
managers, secure-erase tools, `rsync --delete` into a root or home, and permission changes
across a root, system tree or home (recursive, or through `find -exec` and `xargs`). Near misses
stay dangerous; the read-only forms of the same tools are not flagged by the disk rules."""

from __future__ import annotations

import pytest

from engine.gate.packs import bank
from engine.gate.paths import is_device
from engine.gate.shell.view import Command
from engine.gate.verdict import Level

RAW_WRITES = [
    "dd if=/dev/zero of=/dev/sda bs=1M",
    "dd if=/dev/urandom of=/dev/nvme0n1p2",
    "dd if=img of=/dev/disk/by-id/ata-Samsung_SSD_850",
    "dd of=/dev/mapper/vg0-root if=/dev/zero",
    "dd if=/dev/zero of=/dev/mmcblk0p1",
    "cat /dev/zero > /dev/sda",
    "cat image.iso >> /dev/sdb",
    "echo x | tee /dev/sda",
    "yes | sudo tee /dev/nvme0n1 > /dev/null",
    "tee /dev/sda < image.img",
    "tee -a /dev/vdb < image.img",
    "cp /dev/zero /dev/sda",
    "cp image.img /dev/mmcblk0",
    "cp --sparse=always disk.img /dev/disk/by-id/nvme-eui.1234",
    "install -m 644 img /dev/sda",
    "pv ubuntu.iso > /dev/sdc",
    "xzcat image.xz > /dev/mmcblk0",
    "gunzip -c image.gz | sudo dd of=/dev/sdb bs=4M status=progress",
    "head -c 1G /dev/urandom > /dev/vda",
    "shred /dev/sda",
    "shred -vfz -n 3 /dev/nvme0n1",
    "badblocks -w /dev/sdb",
    "badblocks -wsv /dev/sdb",
    "sg_dd if=/dev/zero of=/dev/sg1",
    "dcfldd if=/dev/zero of=/dev/sda",
    "ddrescue -f /dev/zero /dev/sdb",
    "qemu-img convert -O raw disk.qcow2 /dev/sdb",
    "bmaptool copy image.wic /dev/sdb",
    "partclone.ext4 -r -s image.pcl -o /dev/sda1",
    "ntfsclone --restore-image --overwrite /dev/sda1 backup.img",
    "sort -o /dev/sda data.txt",
    "socat -u tcp-listen:9000 /dev/sda",
    "exec 3>/dev/sda; echo x >&3",
    "echo x 1<>/dev/sda",
    "sudo sh -c 'cat /dev/zero > /dev/sda'",
    "bash -c \"dd if=/dev/zero of=/dev/nvme0n1 count=1\"",
    "d=/dev/sda; dd if=/dev/zero of=$d",
    "dd if=/dev/zero of=/dev/sd?",
    "dd if=/dev/zero of=/dev/../dev/sda",
    "dd if=/dev/zero of=//dev/sda",
    "cat /dev/zero > '/dev/sda'",
    "cat img >& /dev/sda",
    "cat img &> /dev/nvme0n1",
    "echo x >| /dev/sda",
    "busybox dd if=/dev/zero of=/dev/sda",
    "cat img > \"$(ls /dev/sd* | head -1)\"",
    "dd if=/dev/zero of=$(lsblk -dno path | head -1)",
    "cd /dev && dd if=/dev/zero of=sda",
    "find /dev -name 'sd*' -exec dd if=/dev/zero of={} \\;",
    "find /dev/disk/by-id -type l -exec wipefs -a {} +",
    "ls /dev/sd* | xargs -n1 wipefs -a",
    "lsblk -dno path | xargs -I{} dd if=/dev/zero of={} bs=1M",
    "echo /dev/sda | xargs wipefs -a",
    "dd if=/dev/zero of=/dev/sd$x",
    "cat img > /dev/nvme${n}n1",
]
DEVICE_NAMES = [
    "/dev/sda", "/dev/sdb1", "/dev/sdaa", "/dev/hda", "/dev/vda2", "/dev/xvda1", "/dev/nvme0n1", "/dev/nvme1n1p3",
    "/dev/mmcblk0", "/dev/mmcblk0p2", "/dev/md0", "/dev/md/root", "/dev/dm-0", "/dev/disk/by-id/wwn-0x5000",
    "/dev/disk/by-uuid/1234-abcd", "/dev/disk/by-path/pci-0000:00:1f.2-ata-1", "/dev/disk/by-label/root",
    "/dev/disk/by-partuuid/abcd", "/dev/mapper/cryptroot", "/dev/vg0/lv_root", "/dev/zd0", "/dev/zvol/tank/vol1",
    "/dev/rbd0", "/dev/nbd0", "/dev/sg0", "/dev/mem", "/dev/kmem", "/dev/port", "/dev/root", "/dev/disk2",
    "/dev/rdisk2s1", "/dev/mtd0", "/dev/mtdblock0", "/dev/pmem0", "/dev/bcache0", "/dev/nvd0", "/dev/ada0p2",
    "/dev/block/mmcblk0", "/dev/sd*", "/dev/nvme*n1", "/dev/disk/by-id/*", "/dev/sd$x", "/dev/$DISK",
]
NOT_DISKS = [
    "/dev/null", "/dev/zero", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/fd/2", "/dev/shm/cache",
    "/dev/pts/0", "/dev/urandom", "/dev/loop0", "/dev/sr0", "/dev/mapper/control", "/dev/tcp/a.example/80",
    "/dev/fd/$n",
    "disk.img", "./dev/sda", "/tmp/dev/sda",
]
TOOLS = [
    "wipefs -a /dev/sda",
    "wipefs --all /dev/nvme0n1",
    "wipefs -o 0x438 /dev/sdb1",
    "sgdisk --zap-all /dev/sda",
    "sgdisk -Z /dev/sda",
    "sgdisk -o /dev/sda",
    "sgdisk -d 1 /dev/sda",
    "sgdisk -R /dev/sdb /dev/sda",
    "sfdisk /dev/sda < layout.txt",
    "sfdisk --delete /dev/sda",
    "echo 'label: gpt' | sfdisk /dev/sdb",
    "gdisk /dev/sda",
    "fdisk /dev/sda",
    "printf 'o\\nw\\n' | fdisk /dev/sda",
    "parted /dev/sda mklabel gpt",
    "parted -s /dev/sda rm 1",
    "parted --script /dev/sda -- mklabel msdos",
    "parted /dev/sda resizepart 2 100%",
    "blkdiscard /dev/nvme0n1",
    "blkdiscard -f /dev/sda",
    "hdparm --security-erase NULL /dev/sda",
    "hdparm --user-master u --security-erase-enhanced p /dev/sdb",
    "hdparm --trim-sector-ranges 0:100 /dev/sda",
    "hdparm --yes-i-know-what-i-am-doing --write-sector 0 /dev/sda",
    "nvme format /dev/nvme0n1",
    "nvme format /dev/nvme0 --ses=1",
    "nvme sanitize /dev/nvme0 -a 2",
    "nvme delete-ns /dev/nvme0 -n 1",
    "sg_format --format /dev/sg0",
    "sg_sanitize --crypto /dev/sg0",
    "cryptsetup erase /dev/sda2",
    "cryptsetup luksErase /dev/sda2",
    "cryptsetup luksFormat /dev/sda2",
    "cryptsetup -q luksFormat --type luks2 /dev/nvme0n1p3 key.bin",
    "mdadm --zero-superblock /dev/sdb1",
    "mdadm --create /dev/md0 --level=1 --raid-devices=2 /dev/sda1 /dev/sdb1",
    "mdadm -C /dev/md0 -l 0 -n 2 /dev/sdb /dev/sdc",
    "pvremove -ff /dev/sdb",
    "vgremove -f vg0",
    "lvremove -f /dev/vg0/root",
    "lvremove vg0/home",
    "zpool destroy tank",
    "zpool destroy -f tank",
    "zpool labelclear -f /dev/sdb",
    "zpool create -f tank /dev/sdb",
    "zfs destroy -r tank",
    "zfs destroy -R rpool",
    "zfs destroy -r rpool/ROOT",
    "zfs destroy -r tank/home",
    "zfs destroy tank/home",
    "mkswap /dev/sda2",
    "mkfs.ext4 /dev/sda1",
    "mkfs -t xfs /dev/nvme0n1p1",
    "mke2fs /dev/sdb",
    "mkfs.ext4 \"$DISK\"",
    "wipe -rf /dev/sda",
    "scrub -p dod /dev/sda",
    "nwipe --autonuke",
    "nwipe --method=zero /dev/sdb",
    "flashrom -p internal -w bios.bin",
    "sudo wipefs -a /dev/disk/by-id/ata-X",
]
CHMOD = [
    "chmod -R 777 /",
    "chown -R nobody:nogroup /usr",
    "chgrp -R users /etc",
    "setfacl -R -m o::rwx /",
    "chattr -R +i /",
    "chmod -R 777 /{etc,usr}",
    "cd / && chmod -R 777 .",
    "find / -exec chmod 777 {} \\;",
    "find / -type f -exec chmod 000 {} +",
    "find /etc -exec chmod 666 {} \\;",
    "find / -execdir chgrp users {} \\;",
    "find / -type d -exec setfacl -m u:nobody:rwx {} \\;",
    "find / -exec sudo chmod 777 {} \\;",
    "find / -print0 | xargs -0 chmod 777",
    "find / -type d | xargs chown nobody",
    "find / | sudo xargs setfacl -m u:nobody:rwx",
    "find / ! -name '*.txt' -exec chmod 777 {} \\;",
    "find / -name '*' -print0 | xargs -0 chmod 666",
    "find /usr -xdev -exec chown -h 1000:1000 {} +",
    "chmod -R a-x /usr/bin",
    "chmod -R 000 ~",
    "chmod --recursive a+rwx $HOME",
    "chown -R nobody /home/alice",
    "find ~ -exec chown nobody {} \\;",
    "find ~ -exec chmod 000 {} +",
    "find ~ | xargs -I{} chmod 777 {}",
]
RSYNC = [
    "rsync -a --delete empty/ /",
    "rsync -a --delete /tmp/empty/ ~/",
    "rsync -a --delete empty/ $HOME/",
    "rsync -a --delete empty/ /home/alice/",
    "rsync -av --delete-before empty/ /etc/",
    "rsync --del -r empty/ /usr/",
    "rsync -a --delete-after empty/ root@host.example:/",
    "rsync -a --delete empty/ user@host.example:",
    "rsync -a --delete empty/ user@host.example:~/",
    "rsync -a --delete-excluded --exclude='*' empty/ /",
    "rsync -a --delete-during empty/ / --exclude tmp",
    "rsync -a --delete-missing-args --delete empty/ /var/",
    "rsync --remove-source-files -a ~/ backup.example:/b/",
    "sudo rsync -aHAX --delete /mnt/empty/ /",
    "cd / && rsync -a --delete /tmp/empty/ .",
    "rsync -e ssh -a --delete empty/ root@host.example:/",
    "rclone sync /tmp/empty /",
    "rclone purge ~",
]
NEAR_MISSES = [
    "dd if=/dev/zero of=disk.img bs=1M count=10",
    "dd if=/dev/sda of=disk.img",
    "dd if=/dev/nvme0n1 of=backup.img bs=4M",
    "cat /dev/sda > disk.img",
    "strings /dev/sda | grep -i password",
    "xxd /dev/sda1 | head",
    "dd if=/dev/zero of=/dev/loop0",
    "cat x > /dev/loop0",
    "echo x > /dev/shm/cache",
    "mkfs.ext4 disk.img",
    "mkswap ./swapfile",
    "lvreduce -L 10G /dev/vg0/data",
    "lvextend -L +5G /dev/vg0/data",
    "zfs destroy tank/data@snap1",
    "zpool create tank /dev/sdb",
    "zpool offline tank sdb",
    "btrfs subvolume delete /mnt/data/snap",
    "btrfs device delete /dev/sdb /mnt",
    "cryptsetup reencrypt /dev/sda2",
    "cryptsetup open /dev/sda2 data",
    "dmsetup remove_all",
    "mdadm --stop /dev/md0",
    "parted /dev/sda mkpart primary ext4 1MiB 100%",
    "badblocks -n /dev/sdb",
    "mount /dev/sdb1 /mnt",
    "umount /mnt",
    "losetup -d /dev/loop0",
    "rsync -a --delete src/ dst/",
    "rsync -a --delete src/ /srv/www/",
    "rsync -a --delete src/ deploy@host.example:/srv/app/",
    "rsync -a --delete /etc/nginx/ backup/nginx/",
    "rsync -a empty/ /",
    "rclone sync /data remote:bucket",
    "chmod -R 755 ./build",
    "chmod -R go-rwx ~/projects/notes",
    "chown -R www-data /var/www",
    "chmod 755 /",
    "find . -type f -exec chmod 644 {} \\;",
    "find / -user edwarda -exec chgrp pubs {} \\;",
    "find / -name '*.sh' -exec chmod +x {} \\;",
    "find /srv/www -type f | xargs chmod 644",
    "find / -name core -print0 | xargs -0 chmod 600",
    "shred -u secrets.txt",
]
READ_ONLY = [
    "fdisk -l",
    "fdisk -l /dev/sda",
    "sfdisk -l /dev/sda",
    "sfdisk -d /dev/sda",
    "gdisk -l /dev/sda",
    "sgdisk -p /dev/sda",
    "parted -l",
    "parted /dev/sda print",
    "parted -s /dev/sda unit s print free",
    "wipefs /dev/sda",
    "wipefs -n -a /dev/sda",
    "blkid",
    "blkid /dev/sda1",
    "lvs",
    "vgs",
    "pvs",
    "lvdisplay /dev/vg0/root",
    "zpool status",
    "zpool list",
    "zpool status -v tank",
    "zfs list",
    "zfs list -t snapshot",
    "zfs get all tank",
    "hdparm -I /dev/sda",
    "nvme list",
    "nvme smart-log /dev/nvme0",
    "smartctl -a /dev/sda",
    "smartctl -H /dev/nvme0",
    "mdadm --detail /dev/md0",
    "cryptsetup status cryptroot",
    "cryptsetup luksDump /dev/sda2",
    "blockdev --getsize64 /dev/sda",
    "findmnt",
    "btrfs filesystem show",
    "sg_format /dev/sg0",
    "echo hi > /dev/null",
    "ls > /dev/stdout",
    "echo err > /dev/stderr",
    "echo hi > /dev/tty",
    "echo x > /dev/fd/2",
    "ls -l /dev/sda /dev/disk/by-id",
    "ls /dev/sd*",
    "find /dev -name 'sd*' -exec ls -l {} \\;",
    "cat log >& out.log",
    "dd if=/dev/sda bs=512 count=1 status=none",
    "mkfs.ext4 -n /dev/sdb1",
]
_DISK_RULES = ("disk.", "fs.chmod-root", "fs.find-chmod-root", "fs.xargs-chmod-root", "fs.rsync-delete-root")


@pytest.mark.parametrize("command", RAW_WRITES + TOOLS + CHMOD + RSYNC)
def test_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, (command, verdict)


@pytest.mark.parametrize("command", NEAR_MISSES)
def test_near_misses_stay_dangerous(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, (command, verdict)


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_forms_are_not_disk_findings(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is not Level.CATASTROPHIC, (command, verdict)
    assert not [rule for rule in verdict.rules if rule.startswith(_DISK_RULES)], (command, verdict)


@pytest.mark.parametrize("command", [c for c in READ_ONLY if ">" not in c])
def test_read_only_forms_are_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, (command, verdict)


@pytest.mark.parametrize("command", [c for c in READ_ONLY if "/dev/" in c and ">" not in c and not c.startswith("ls ")])
def test_disk_pack_proves_its_read_only_forms(command: str) -> None:
    argv = tuple(command.split())
    proof = bank().read_only[argv[0]]
    assert proof(Command(argv)) is None, command


@pytest.mark.parametrize("command", ["wipefs -a /dev/sda", "fdisk /dev/sda", "parted /dev/sda mklabel gpt",
                                     "zpool destroy tank", "nvme format /dev/nvme0n1", "hdparm --security-erase x /dev/sda"])
def test_disk_pack_does_not_prove_destructive_forms(command: str) -> None:
    argv = tuple(command.split())
    proof = bank().read_only[argv[0]]
    assert proof(Command(argv)) is not None, command


@pytest.mark.parametrize("path", DEVICE_NAMES)
def test_device_naming_schemes(path: str) -> None:
    assert is_device(path), path


@pytest.mark.parametrize("path", NOT_DISKS)
def test_not_disks(path: str) -> None:
    assert not is_device(path), path


def test_reading_a_disk_is_a_finding_of_its_own(shell) -> None:
    assert "disk.read-device" in shell("dd if=/dev/sda of=disk.img").rules
    assert "disk.read-device" in shell("strings /dev/nvme0n1p2").rules
    assert "disk.read-device" not in shell("smartctl -a /dev/sda").rules


def test_the_reason_names_the_device(shell) -> None:
    assert "/dev/disk/by-id/ata-X" in shell("cat img > /dev/disk/by-id/ata-X").reason
