"""Which paths matter: filesystem roots, system trees, credentials, start-up files, disks,
tool configuration, and the directories the system's own programs live in.

Paths are folded first (`/tmp/../etc` is `/etc`, `$HOME/x` and `/home/alice/x` are `~/x`),
so the patterns below stay short and the same for shell rules and file tools. Secret
locations are also matched by globs (`/etc/shado?`), through `engine/gate/globs.py`.
"""

from __future__ import annotations

import posixpath
import re

from engine.gate.codeproof.modules import shadows_module
from engine.gate.globs import HAS_GLOB, candidates, expand, has_letters, matches
from engine.gate.memo import per_word

_HOME = re.compile(r"^(?:\$HOME|\$\{HOME\}|~\$\{?(?:USER|LOGNAME|USERNAME)\}?|~[A-Za-z0-9_.-]*|/home/[^/]+|/Users/[^/]+|/root)(?=/|$)")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
# A Windows profile (`C:\\Users\\bob`, lower-cased by then) is a home like any other: its keys fold to `~` too.
_WINDOWS_PROFILE = re.compile(r"^[a-z]:/(?:users|documents and settings)/(?!(?:public|default|default user|all users)(?:/|$))"
                              r"[^/]+(?=/|$)|^[a-z]:/windows/system32/config/systemprofile(?=/|$)")

ROOTS = re.compile(
    r"~(?:/\*|/\.\*)?|/(?:\*|\.\*)?"
    r"|/(?:bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var|snap|mnt|media"
    r"|System|Library|Applications|Users|Volumes|private|nix)(?:/\*)?"
    r"|/usr/(?:bin|sbin|lib|lib32|lib64|libx32|libexec|local|share|include)(?:/\*)?|/var/lib(?:/\*)?|/etc/\*"
    r"|/(?:usr/)?lib/systemd(?:/\*)?|/var/lib/(?:dpkg|rpm|pacman|apt|portage)(?:/\*)?"
    r"|/System/Library(?:/CoreServices)?(?:/\*)?|/Library/Apple(?:/\*)?"
    r"|[a-z]:/?(?:\*|windows|windows/system32|program files|users)?(?:/\*)?",
    re.I,
)
BACKUPS = re.compile(
    r"(?:/(?:mnt|media|srv|Volumes|run/media)(?:/[^/]+){0,3})?"
    r"/(?:backups?|Backups\.backupdb|\.snapshots|snapshots|Time ?Machine[^/]*)(?:/\*)?",
    re.I,
)
"""Backup and snapshot stores on mounted or served volumes (not Debian's rotating `/var/backups`): losing
them loses the machine's recovery."""
SYSTEM = re.compile(
    r"/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|dev|opt|root|srv|System|Library|private/etc|nix)(?:/.*)?"
    r"|/var(?!/tmp(?:/|$))(?:/.*)?|[a-z]:/(?:windows|program files|programdata)(?:/.*)?",
    re.I,
)
# Account, sudo and boot files: overwriting, moving away or deleting one (by any program) locks every user
# out, hands out root, or leaves the machine unable to start. Reading `/etc/passwd` is fine.
AUTH_FILES = re.compile(
    r"/etc/(?:passwd|shadow|group|gshadow|master\.passwd|sudoers|sudoers\.d(?:/.*)?|doas\.conf|fstab|pam\.d(?:/.*)?"
    r"|ld\.so\.preload|security/.*|default/grub|grub\.d/.*)|/boot/.*|/efi/.*|[a-z]:/windows/system32(?:/.*)?",
    re.I,
)
STARTUP = re.compile(
    r"~/\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|kshrc"
    r"|inputrc|xprofile|xinitrc|config/fish/config\.fish|config/autostart(?:/.*)?|config/systemd(?:/.*)?"
    r"|ssh/authorized_keys2?|ssh/rc|ssh/config|local/share/systemd(?:/.*)?|pam_environment)"
    r"|~/Library/(?:LaunchAgents|LaunchDaemons)(?:/.*)?"
    r"|/etc/(?:profile|profile\.d/.*|bash\.bashrc|zsh/.*|environment|rc\.local|init\.d/.*|cron[^/]*(?:/.*)?"
    r"|crontab|anacrontab|systemd/.*|xdg/autostart/.*|update-motd\.d/.*|ld\.so\.preload|sudoers(?:\.d/.*)?)"
    r"|/var/spool/cron(?:/.*)?|/(?:usr/)?lib/systemd/.*|/Library/(?:LaunchAgents|LaunchDaemons)(?:/.*)?"
    r"|(?:.*/)?\.git/hooks/.*",
)
# Directories under a home whose every file is a credential: where cloud and cluster CLIs, registries,
# hosting platforms, password managers and age keep their tokens, keys and logins. A tool's directory
# that also holds ordinary settings (`~/.claude`, `~/.codex`, `~/.gemini`) is not listed: its credential
# files are caught by name (`.credentials.json`, `auth.json`, `oauth_creds.json`) or in `CREDENTIAL_FILES`.
CREDENTIAL_STORES = (
    ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".password-store", ".oci", ".fly", ".vercel", ".netlify",
    ".supabase", ".railway", ".kaggle", ".huggingface", ".heroku", ".tsh", ".age", ".mc", ".bluemix", ".ibmcloud",
    ".ngrok2", ".local/share/keyrings", ".gnome2/keyrings", ".local/share/gopass", ".local/share/com.vercel.cli",
    ".config/gcloud", ".config/gh", ".config/github-copilot", ".config/doctl", ".config/hcloud", ".config/linode-cli",
    ".config/op", ".op", ".config/Bitwarden", ".config/Bitwarden CLI", ".config/gopass", ".config/sops/age",
    ".config/age", ".config/heroku", ".config/glab-cli", ".config/hub", ".config/stripe", ".config/netlify",
    ".config/ngrok", ".config/configstore", ".config/rclone", ".config/scw", ".config/exoscale", ".config/vultr-cli",
    ".snowsql", ".wrangler", ".config/.wrangler", ".circleci", ".travis", ".terraform.d/credentials",
)
# Files under a home that hold a token or a password beside ordinary settings: coding agents' logins and
# MCP server keys, registries' and build tools' settings, and clients that save passwords.
CREDENTIAL_FILES = (
    ".claude.json", ".gemini/google_accounts.json", ".cursor/mcp.json", ".continue/config.json",
    ".continue/config.yaml", ".continue/config.yml", ".codeium/config.json", ".yarnrc", ".yarnrc.yml",
    ".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties", ".nuget/NuGet/NuGet.Config",
    ".config/NuGet/NuGet.Config", ".config/pip/pip.conf", ".pip/pip.conf", ".config/pip/pip.ini", ".terraformrc",
    ".databrickscfg", ".sentryclirc", ".dockercfg", ".condarc", ".cache/huggingface/token",
    ".config/filezilla/sitemanager.xml", ".config/filezilla/recentservers.xml", ".purple/accounts.xml",
    ".config/openai/auth.json", ".vault-token",
)
# Names of key and credential files wherever they are (the last component of a path, regex alternatives):
# private keys and key stores, `.env` files, registry and database passwords, shell histories, Terraform
# state, and files a tool names for the credential it holds (`credentials`, `auth.json`, `oauth_creds.json`,
# `token`, `service-account.json`).
CREDENTIAL_NAMES = (
    r"id_(?:rsa|dsa|ecdsa|ed25519|xmss)(?:_sk)?(?:[-_.][\w.-]{0,60})?",
    r"[^/]*\.(?:pem|key|p12|pfx|p8|kdbx|kdb|keystore|jks|ppk|keytab|agekey|age)",
    r"\.env(?:\.[\w.-]+)?", r"[._]netrc", r"\.git-credentials", r"\.npmrc", r"\.pypirc", r"\.pgpass",
    r"\.my(?:login)?\.cnf", r"\.htpasswd", r"\.bash_history", r"\.zsh_history", r"\.s3cfg", r"\.boto",
    r"rclone\.conf", r"\.vault-token", r"secrets?\.(?:ya?ml|json|toml)", r"[^/]*\.tfstate(?:\.backup)?",
    r"(?:[^/]*[._])?credentials?(?:\.(?:json|toml|ya?ml|db|ini|conf|cfg|csv|xml|txt|tfrc\.json))?",
    r"[^/]*-credentials?\.(?:json|toml|ya?ml|db|ini|conf|cfg|csv|xml|txt)",
    r"[^/]*creds\.(?:json|ya?ml|toml|txt)", r"auth\.json", r"kaggle\.json", r"[^/]*service[-_]?account[^/]*\.json",
    r"(?:\.[\w-]{0,40})?token(?:\.(?:json|txt|pickle))?", r"(?:access|refresh|auth|api|bearer)[-_]token(?:\.(?:json|txt))?",
    r"[^/]*[-_]token\.(?:json|txt|pickle)", r"master\.key",
    r"wallet\.dat",
)
# Other places secret on every machine: browser profiles, keychains, Windows' credential stores and hives,
# password hashes, host keys, process environments and mounted secrets.
_OTHER_SECRETS = (
    r"|~/\.(?:mozilla/firefox|config/(?:google-chrome(?:-beta|-unstable)?|chromium|microsoft-edge(?:-beta|-dev)?"
    r"|bravesoftware/brave-browser|vivaldi|opera))(?:/.*)?"
    r"|(?i:~/library/(?:keychains|messages|application support/(?:google/chrome|microsoft edge|chromium|vivaldi"
    r"|bravesoftware/brave-browser|com\.operasoftware\.opera|firefox/profiles))(?:/.*)?"
    r"|/library/keychains(?:/.*)?"
    r"|~/appdata/(?:local/(?:google/chrome|microsoft/edge|chromium|vivaldi|bravesoftware/brave-browser)/user data"
    r"|roaming/mozilla/firefox/profiles|roaming/opera software|roaming/gcloud|roaming/filezilla"
    r"|(?:roaming|local)/microsoft/(?:credentials|protect|vault))(?:/.*)?"
    r"|[a-z]:/programdata/microsoft/(?:crypto|protect|vault|wlansvc/profiles)(?:/.*)?"
    r"|(?:.*/)?windows/(?:system32/config(?:/regback)?|repair)/(?:sam|system|security)(?:\.\w{1,8})?"
    r"|(?:.*/)?windows/system32/microsoft/protect(?:/.*)?"
    r"|(?:.*/)?(?:ntuser\.dat(?:\.log\d?)?|ntds\.dit|(?:auto)?unattend(?:ed)?\.xml|sysprep\.(?:xml|inf)"
    r"|consolehost_history\.txt|login data(?: for account)?(?:-journal)?|local state|(?:default|network|profile \d+)/cookies"
    r"|web data(?:-journal)?|cookies\.sqlite|key[34]\.db|cert[89]\.db|logins(?:-backup)?\.json|signons\.sqlite"
    r"|[^/]*\.keychain(?:-db)?|[^/]*\.keyring))"
    r"|(?:.*/)?(?:com\.apple\.TCC/TCC\.db|Cookies)"
    r"|/etc/(?:shadow|gshadow|sudoers|ssh/ssh_host_[^/]*key|ssl/private(?:/.*)?)"
    r"|/proc/[^/]+/(?:task/[^/]+/)?environ|/var/run/secrets(?:/.*)?|/run/secrets(?:/.*)?"
)
SECRET_DIRS = (".ssh", ".gnupg", ".aws", ".password-store")
SECRETS = re.compile(
    r"(?:.*/)?(?:" + "|".join(CREDENTIAL_NAMES) + r"|(?:" + "|".join(re.escape(d) for d in SECRET_DIRS) + r")(?:/.*)?)"
    r"|~/(?:" + "|".join(re.escape(d) for d in CREDENTIAL_STORES) + r")(?:/.*)?"
    r"|~/(?:" + "|".join(re.escape(f) for f in CREDENTIAL_FILES) + r"|\.aider[^/]*)"
    + _OTHER_SECRETS,
)
# Concrete secret locations a glob is tried against (`/etc/shado?`, `~/.a*/c*`): SECRETS is a
# pattern, and whether two patterns overlap is not cheap to decide, so its members stand in.
SECRET_SAMPLES = (
    "~/.ssh", "~/.ssh/id_rsa", "~/.ssh/id_ed25519", "~/.ssh/config", "~/.aws", "~/.aws/credentials", "~/.aws/config",
    "~/.gnupg", "~/.gnupg/private-keys-v1.d", "~/.kube", "~/.kube/config", "~/.docker/config.json", "~/.azure",
    "~/.config/gcloud", "~/.config/gh/hosts.yml", "~/.vault-token", "~/.password-store", "~/.netrc",
    "~/.git-credentials", "~/.npmrc", "~/.pypirc", "~/.pgpass", "~/.my.cnf", "~/.bash_history", "~/.zsh_history",
    "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ecdsa_key",
    "/etc/ssh/ssh_host_ed25519_key", "/etc/ssl/private", "/proc/1/environ", "/proc/self/environ",
    "/proc/1/task/1/environ", "/run/secrets", "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "~/Library/Keychains/login.keychain-db", "~/Library/Messages/chat.db", "/Library/Keychains/System.keychain",
    "~/.mozilla/firefox/x.default-release/logins.json", "~/.mozilla/firefox/x.default-release/key4.db",
    "~/.mozilla/firefox/x.default-release/cookies.sqlite", "~/.config/google-chrome/Default/Login Data",
    "~/.config/google-chrome/Default/Cookies", "~/.config/google-chrome/Local State",
    "~/.config/chromium/Default/Login Data", "~/.config/microsoft-edge/Default/Login Data",
    "~/Library/Application Support/Google/Chrome/Default/Login Data",
    "~/Library/Application Support/Firefox/Profiles/x.default-release/logins.json",
    "~/.local/share/keyrings/login.keyring", "~/.config/rclone/rclone.conf", "~/.s3cfg",
    "~/appdata/local/google/chrome/user data/default/login data", "~/appdata/local/microsoft/edge/user data/default/login data",
    "~/appdata/roaming/mozilla/firefox/profiles/x.default-release/logins.json", "~/appdata/roaming/microsoft/credentials",
    "~/appdata/local/microsoft/credentials", "~/appdata/roaming/microsoft/protect", "~/appdata/local/microsoft/vault",
    "~/appdata/roaming/gcloud/credentials.db", "c:/windows/system32/config/sam",
    "c:/windows/system32/config/system", "c:/windows/system32/config/security", "c:/windows/ntds/ntds.dit",
    "c:/windows/panther/unattend.xml", "~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json",
    *("~/" + store for store in CREDENTIAL_STORES), *("~/" + store + "/config" for store in CREDENTIAL_STORES),
    *("~/" + name for name in CREDENTIAL_FILES),
)
# Names that are secret wherever they are (the last component of a path); directories whose every
# file is, anywhere, are `SECRET_DIRS`.
SECRET_NAMES = (
    "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ed25519_sk", "key.pem", "server.key", "cert.p12", "cert.pfx",
    "vault.kdbx", "release.keystore", "release.jks", "putty.ppk", ".env", ".env.local", ".netrc", ".git-credentials",
    ".npmrc", ".pypirc", ".pgpass", ".my.cnf", "credentials", "credentials.json", ".bash_history", ".zsh_history",
    "secrets.yaml", "secret.json", "secrets.toml", "terraform.tfstate", "terraform.tfstate.backup", "Login Data",
    "Cookies", "Local State", "Web Data", "logins.json", "key4.db", "key3.db", "cookies.sqlite", "login.keychain-db",
    "ntds.dit", "NTUSER.DAT", "unattend.xml", "rclone.conf", ".s3cfg", ".credentials.json", "auth.json",
    "oauth_creds.json", "token", "access-token", "token.json", "kaggle.json", "service-account.json", "master.key",
    "key.age", "keys.agekey", "AuthKey.p8", "host.keytab", ".mylogin.cnf", ".htpasswd", "_netrc", "wallet.dat",
)
# Programs that search a tree for text or names (grep-likes only with `-r`; `locate` and its kin search the
# whole filesystem's index): rooted at a home or `/` with a key-material pattern, they find every key.
RECURSIVE_GREPS = frozenset("grep egrep fgrep ugrep zgrep".split())
INDEX_SEARCHERS = frozenset("locate plocate mlocate slocate".split())
SEARCHERS = frozenset("rg ag ack ack-grep pt sift find bfs gfind fd fdfind".split()) | RECURSIVE_GREPS | INDEX_SEARCHERS
# Environment variables whose values are never secrets: locations, locale, terminal, shell and
# platform names. Printing one (`printenv HOME`) reveals nothing; any other name may hold a
# token or a URL with a password in it (`DATABASE_URL`, `HTTPS_PROXY`).
PLAIN_VARIABLES = frozenset((
    "HOME PATH SHELL USER LOGNAME USERNAME LANG LANGUAGE LC_ALL LC_CTYPE LC_MESSAGES LC_TIME LC_NUMERIC LC_COLLATE"
    " TERM TERM_PROGRAM COLORTERM COLUMNS LINES PWD OLDPWD HOSTNAME HOSTTYPE OSTYPE MACHTYPE SHLVL TZ TMPDIR TEMP TMP"
    " EDITOR VISUAL PAGER DISPLAY WAYLAND_DISPLAY XDG_SESSION_TYPE XDG_CURRENT_DESKTOP XDG_RUNTIME_DIR"
    " XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME MANPATH INFOPATH JAVA_HOME GOPATH GOROOT GOOS"
    " GOARCH CARGO_HOME RUSTUP_HOME VIRTUAL_ENV CONDA_DEFAULT_ENV CONDA_PREFIX PYENV_ROOT NVM_DIR NODE_ENV"
    " PYTHONPATH LD_LIBRARY_PATH PKG_CONFIG_PATH CI AWS_REGION AWS_DEFAULT_REGION AWS_PROFILE USERPROFILE APPDATA"
    " LOCALAPPDATA PROGRAMFILES SYSTEMROOT WINDIR COMPUTERNAME PROCESSOR_ARCHITECTURE NUMBER_OF_PROCESSORS OS"
    " PATHEXT COMSPEC HOMEDRIVE HOMEPATH"
).split())
# Block devices and memory: writing one destroys a disk, a volume or the running kernel. Linux
# disks (`sd`, `hd`, `vd`, `xvd`, NVMe namespaces, SD cards, RAID, device-mapper, ZFS volumes,
# Ceph and network block devices, SCSI generic, flash, persistent memory), their stable names
# (`/dev/disk/by-*`, `/dev/mapper`, `/dev/block`), LVM's `/dev/<group>/<volume>`, the BSDs' and
# macOS's disks, and Windows' physical drives. Loop devices (backed by a file), optical drives and
# the character devices a shell writes to every day (`/dev/null`, `/dev/tty`, `/dev/fd/N`,
# `/dev/shm/…`) are not disks.
DEVICES = re.compile(
    r"/dev/(?:(?:sd|hd|vd|xvd)[a-z]{1,3}\d{0,3}|nvme\d{1,3}(?:c\d{1,3})?(?:n\d{1,3}(?:p\d{1,3})?)?"
    r"|mmcblk\d{1,3}(?:p\d{1,3}|boot\d|rpmb)?|md\d{1,3}(?:p\d{1,3})?|md/[^/]+|dm-\d{1,4}|zd\d{1,4}(?:p\d{1,3})?"
    r"|zvol/.+|rbd\d{1,3}(?:p\d{1,3})?|rbd/.+|nbd\d{1,3}(?:p\d{1,3})?|sg\d{1,3}|bsg/.+|mtd\d{1,3}(?:ro)?"
    r"|mtdblock\d{1,3}|pmem\d{1,3}(?:s|\.\d{1,3})?|bcache\d{1,3}|drbd\d{1,4}|ubi\d{1,3}(?:_\d{1,3})?|ubiblock[\d_]{1,8}"
    r"|disk/by-[\w-]{1,20}/.+|block/.+|mapper/(?!control$)[^/]+|root"
    r"|r?disk\d{1,3}(?:s\d{1,3}){0,2}|(?:ada|da|nvd|nda|vtbd|xbd|mfid|wd)\d{1,3}(?:[ps]\d{1,3}[a-h]?|[a-p])?"
    r"|sd\d{1,3}[a-p]?|mem|kmem|port"
    r"|(?!(?:pts|shm|fd|input|snd|dri|net|bus|char|cpu|hugepages|mqueue|tcp|udp|usb|serial|v4l|dma_heap|vfio"
    r"|infiniband|disk|mapper|xen|vhost-\w+|hidraw\d+|gpio\w*|dvb|i2c-\d+)/)[\w.-]{1,64}/[\w.+:-]{1,128})"
    r"|//\./physicaldrive\d{1,3}",
    re.I,
)
_EXPANSION = re.compile(r"\$\{[^}/]{0,100}\}|\$\([^)]{0,200}\)|\$\w{1,64}|`[^`]{0,200}`")
# Concrete disks a glob is tried against (`/dev/sd?`, `/dev/nvme*`, `/dev/disk/by-id/*`).
DEVICE_SAMPLES = (
    "/dev/sda", "/dev/sda1", "/dev/hda", "/dev/vda", "/dev/vda1", "/dev/xvda", "/dev/xvda1", "/dev/nvme0n1",
    "/dev/nvme0n1p1", "/dev/mmcblk0", "/dev/mmcblk0p1", "/dev/md0", "/dev/dm-0", "/dev/mapper/root",
    "/dev/disk/by-id/disk", "/dev/disk/by-uuid/disk", "/dev/disk/by-path/disk", "/dev/disk/by-label/disk",
    "/dev/disk/by-partuuid/disk", "/dev/root", "/dev/mem", "/dev/zd0", "/dev/nbd0", "/dev/rbd0", "/dev/sg0",
    "/dev/disk0", "/dev/rdisk0",
)
# Public material: public keys, certificates, signing requests, revocation lists, trust stores, and
# the templates a project commits for its `.env` (`.env.example`).
# A `.pem` is public only when its name says certificate or public key (`fullchain.pem`, `ca.pem`,
# `pubkey.pem`) and nothing in it says private key (`privkey.pem`, `ca-key.pem`); any other `.pem`
# may hold a key (`server.pem` often holds both), so it stays secret.
PUBLIC = re.compile(
    r"(?:.*/)?[^/]*\.(?:pub|crt|cer|csr|crl)|(?:.*/)?\.ssh/(?:known_hosts2?|authorized_keys2?)(?:\.old)?"
    r"|(?:.*/)?ca-(?:bundle|certificates)[^/]*"
    r"|/etc/ssl/certs(?:/.*)?|/etc/pki/(?:tls/certs|ca-trust|tls/cert\.pem)(?:/.*)?|/etc/ca-certificates(?:/.*)?"
    r"|/usr/(?:local/)?share/ca-certificates(?:/.*)?|(?:.*/)?\.env\.(?:example|sample|template|dist|defaults?)",
)
_PRIVATE_DIRECTORY = re.compile(r"(?:.*/)?(?:private|\.gnupg|\.password-store|secrets?)/")
_PEM = re.compile(r"(?:.*/)?([^/]*)\.pem")
_PEM_PRIVATE = re.compile(r"priv|secret|id_|key(?!store)", re.I)
_PEM_PUBLIC = re.compile(r"pub|cert|crt|chain|bundle|trust|(?:^|[-_.])(?:ca|root|intermediate)(?:$|[-_.])|ca(?:$|[-_.])",
                         re.I)


# Files and directories a tool reads to decide what to run: git's own directory (hooks,
# config: core.fsmonitor runs on `git status`), a `HEAD` (with objects/ and refs/ beside it a
# directory is a repository whose config git obeys), package and build scripts, Python
# start-up files, version pins that pick the interpreter, editor tasks, Terraform's
# configuration, providers and modules (`plan` and `validate` start them), start-up files of
# pagers and database clients, Windows programs and scripts (cmd.exe runs `ipconfig.bat` from
# the working directory before its own `ipconfig`), and the dotfiles a home directory holds
# (the workspace is HOME when commands run unconfined). See docs/gate.md.
TOOL_CONFIG = re.compile(
    r"(?:.*/)?(?:"
    r"(?:\.git|\.githooks|\.hg|\.husky|\.config|\.direnv|\.yarn|\.cargo|\.bundle|\.pip|\.vscode|\.idea|\.kube|\.aws"
    r"|\.docker)(?:/.*)?"
    r"|HEAD|\.gitconfig|\.gitattributes|\.gitmodules|\.lfsconfig|\.hgrc|\.pre-commit-config\.ya?ml|lefthook\.ya?ml"
    r"|\.npmrc|\.yarnrc(?:\.ya?ml)?|package\.json|\.pnpmfile\.c?js|bunfig\.toml|deno\.jsonc?"
    r"|makefile|gnumakefile|[^/]*\.mk|\.?justfile|taskfile\.ya?ml"
    r"|\.envrc|\.tool-versions|\.python-version|\.ruby-version|\.?mise\.toml"
    r"|pyproject\.toml|setup\.py|setup\.cfg|tox\.ini|noxfile\.py|conftest\.py|pytest\.ini|\.?pylintrc"
    r"|sitecustomize\.py|usercustomize\.py|[^/]*\.pth|pip\.conf|pip\.ini|pyvenv\.cfg"
    r"|cargo\.toml|build\.rs|rust-toolchain(?:\.toml)?|gemfile|rakefile|\.gemrc|\.irbrc"
    r"|\.exrc|\.nvimrc|\.nvim\.lua|\.dir-locals\.el|\.curlrc|\.wgetrc"
    r"|(?:\.terraform|\.terraform\.d)(?:/.*)?|[^/]*\.(?:tf|tofu)(?:\.json)?|[^/]*\.tfvars(?:\.json)?"
    r"|[^/]*\.(?:tftest|tofutest)\.hcl|\.terraform\.lock\.hcl|\.terraformrc|terraform\.rc|\.tofurc|tofu\.rc"
    r"|\.lesskey|\.less|\.ackrc|\.manpath|\.vault|\.sqliterc|\.psqlrc|\.inputrc|\.editrc|\.rpmmacros|\.rpmrc"
    r"|[^/]*\.(?:bat|cmd|exe|ps1|psm1|psd1|ps1xml|vbs|vbe|wsf|wsh|msc|cpl|scr|pif)"
    r")",
    re.I,
)
# Extensions cmd.exe also runs from the working directory (`PATHEXT`), but which name ordinary
# source files too: such a file is tool configuration only when its name is a program a pack
# proves read-only (`whoami.js`, `hostname.py`, `ipconfig.com`), which cmd.exe would run instead.
_SHADOWING = frozenset({"com", "js", "jse", "py", "pyw", "pyz"})
# Directories whose programs are the system's own: a program named by a path anywhere else
# (`tools/ls`, `/tmp/ls`, `~/bin/ls`) may be something the agent wrote. Writing into any of them
# is a change to a system tree (`SYSTEM`), which a person approves. `SYSTEM_TREES` are searched
# at any depth: `/usr/libexec/…` and macOS's sealed `/System/…` hold only the system's programs.
SYSTEM_BIN = frozenset({"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin",
                        "/opt/homebrew/bin", "/opt/homebrew/sbin", "/opt/local/bin", "/opt/local/sbin", "/snap/bin",
                        "/run/current-system/sw/bin", "/nix/var/nix/profiles/default/bin"})
SYSTEM_TREES = ("/usr/libexec/", "/System/")


@per_word(limit=256)
def fold(path: str) -> str:
    """Normalises a path for matching: home forms to `~`, `..` resolved, no trailing slash.

    Any user's home (`~alice`, `/home/alice`, `/root`) folds to `~`: whose home holds the
    keys does not change what reading them means.
    """
    path = path.strip().strip("'\"")
    if not path:
        return path
    if _WINDOWS_DRIVE.match(path):
        path = path.replace("\\", "/").lower()
        head, rest = path[:2], path[2:]
        folded = head + (posixpath.normpath(rest) if rest.strip("/") else "/")
        profile = _WINDOWS_PROFILE.match(folded)
        return folded if profile is None else "~" + folded[profile.end():]
    match = _HOME.match(path)
    if match:
        head, rest = match.group(0), path[match.end():]
        if ".." in rest.split("/"):
            base = head if head.startswith("/") else "/home/_"
            norm = posixpath.normpath(base + "/" + rest.lstrip("/"))
            if norm != base and not norm.startswith(base + "/"):
                return fold(norm)
            rest = norm[len(base):]
        norm = posixpath.normpath("/" + rest.lstrip("/"))
        return "~" if norm == "/" else "~" + norm + ("/*" if rest.endswith("/*") and not norm.endswith("*") else "")
    if path.startswith("/"):
        tail_glob = path.endswith("/*")
        norm = posixpath.normpath(path)
        if norm.startswith("//"):
            norm = "/" + norm.lstrip("/")
        return norm + ("/*" if tail_glob and not norm.endswith("*") else "")
    return path.rstrip("/") or path


@per_word(limit=256)
def is_root(path: str) -> bool:
    """A filesystem root, system tree, home directory or backup store: deleting it wrecks the machine or its recovery."""
    folded = fold(path)
    return ROOTS.fullmatch(folded) is not None or BACKUPS.fullmatch(folded) is not None


@per_word(limit=256)
def is_system(path: str) -> bool:
    return SYSTEM.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_auth_file(path: str) -> bool:
    return AUTH_FILES.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_startup(path: str) -> bool:
    return STARTUP.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_secret(path: str) -> bool:
    folded = fold(path)
    return SECRETS.fullmatch(folded) is not None and not is_public(folded)


def is_public(folded: str) -> bool:
    """Public keys and certificates (`*.pub`, `*.crt`, `fullchain.pem`, `/etc/ssl/certs/…`,
    `known_hosts`): reading them reveals nothing. `folded` is a path already folded."""
    if _PRIVATE_DIRECTORY.match(folded) is not None:
        return False
    if PUBLIC.fullmatch(folded) is not None:
        return True
    pem = _PEM.fullmatch(folded)
    if pem is None:
        return False
    name = pem.group(1)
    if _PEM_PRIVATE.search(name) is not None and not (name.lower().startswith("pub") or "public" in name.lower()):
        return False
    return _PEM_PUBLIC.search(name) is not None


def may_be_secret(word: str) -> bool:
    """A secret location, or a glob that could expand to one (`/etc/shado?`, `~/.ssh/*`, `*.pem`)."""
    return any(_may_be_secret(alternative) for alternative in expand(word))


@per_word(limit=256)
def _may_be_secret(path: str) -> bool:
    """A glob is tried against concrete secret locations sharing its literal prefix; its last
    component against names that are secret anywhere, when it fixes a letter (`*` or `.*`
    is any listing, not a secret in particular); each component against directories whose
    every file is secret."""
    folded = fold(path)
    if is_public(folded):
        return False
    if SECRETS.fullmatch(folded):
        return True
    if HAS_GLOB.search(folded) is None:
        return False
    if folded.startswith(("/", "~")) and any(matches(folded, sample) for sample in candidates(folded, SECRET_SAMPLES)):
        return True
    parts = folded.split("/")
    if has_letters(parts[-1]) and any(matches(parts[-1], name) for name in candidates(parts[-1], SECRET_NAMES)):
        return True
    return any(matches(part, name) for part in parts if part.startswith(".") and HAS_GLOB.search(part)
               for name in candidates(part, SECRET_DIRS))


@per_word(limit=256)
def reaches_secret(directory: str) -> bool:
    """True when a relative path read from `directory` could name a secret location (`/etc`, `~`, `/`)."""
    base = fold(directory).rstrip("/") + "/"
    return any(sample.startswith(base) for sample in SECRET_SAMPLES)


@per_word(limit=256)
def is_tool_config(path: str) -> bool:
    """A file a tool reads to decide what to run (`.git/config`, `Makefile`, `package.json`, …).

    Relative paths are normalised too (`a/../.git/config`), and a backslash counts as a
    separator: case and separators vary by filesystem, and the conservative reading is
    the one that matches.
    """
    text = path.strip().strip("'\"").replace("\\", "/")
    if not text:
        return False
    folded = posixpath.normpath(fold(text))
    if TOOL_CONFIG.fullmatch(folded) is not None or shadows_module(folded):
        return True
    stem, dot, extension = folded.rpartition("/")[2].rpartition(".")
    return bool(dot) and extension.lower() in _SHADOWING and stem.lower() in _proven_names()


_UNSEEN_CONFIG = re.compile(r"(?:.*/)?(?:\.[^/.][^/]*|sitecustomize\.py|usercustomize\.py|[^/]*\.pth|pip\.(?:conf|ini)"
                            r"|pyvenv\.cfg)(?:/.*)?", re.I)


def is_unseen_config(path: str) -> bool:
    """Tool configuration the person's own tools act on unseen, outside the sandbox: hooks and settings in hidden
    files and folders (`.git/hooks/…`, `.envrc`, `.vscode/…`, `.npmrc`) and Python's start-up files. Unlike a
    `Makefile` or `package.json`, which a person reads in the project's diff before running, a change there runs
    the next time they use git, their editor or their shell in the project, so it cannot be taken back by undo."""
    return is_tool_config(path) and _UNSEEN_CONFIG.fullmatch(posixpath.normpath(fold(path.strip().strip("'\"")
                                                                                     .replace("\\", "/")))) is not None


def _proven_names() -> frozenset[str]:
    """Every program name a pack proves read-only (imported late: the packs import this module)."""
    global _PROVEN
    if _PROVEN is None:
        from engine.gate.packs import PACKS

        _PROVEN = frozenset(name for pack in PACKS for name in pack.read_only)
    return _PROVEN


_PROVEN: frozenset[str] | None = None


@per_word(limit=256)
def is_system_program(word: str) -> bool:
    """A program found on the search path, or named by a path into the system's bin directories."""
    if "/" not in word:
        return True
    folded = fold(word)
    return folded.startswith("/") and (posixpath.dirname(folded) in SYSTEM_BIN or folded.startswith(SYSTEM_TREES))


@per_word(limit=256)
def is_device(path: str) -> bool:
    """A disk, volume or kernel-memory device under any naming scheme (`/dev/nvme0n1p2`,
    `/dev/disk/by-id/…`, `/dev/mapper/…`, `/dev/vg0/root`, `\\\\.\\PhysicalDrive0`), also as a
    glob, brace or unresolved expansion that could name one (`/dev/sd?`, `/dev/sd{a,b}`, `/dev/sd$x`)
    or a path that folds to one (`/dev/../dev/sda`)."""
    text = path.strip().strip("'\"")
    lowered = text.lower()
    if "dev" not in lowered and "physicaldrive" not in lowered:
        return False
    if text.startswith(("\\\\", "//./")):
        return DEVICES.fullmatch(lowered.replace("\\", "/")) is not None
    folded = fold(text)
    if DEVICES.fullmatch(folded) is not None:
        return True
    if not folded.startswith("/dev/"):
        return False
    if "$" in folded or "`" in folded:
        folded = _EXPANSION.sub("*", folded)
    if HAS_GLOB.search(folded) is None and "{" not in folded:
        return False
    for alternative in expand(folded):
        if DEVICES.fullmatch(alternative) is not None:
            return True
        if HAS_GLOB.search(alternative) is not None and any(
                matches(alternative, sample) for sample in candidates(alternative, DEVICE_SAMPLES)):
            return True
    return False


def escapes_workspace(path: str) -> bool:
    """Absolute, home-relative or `..`-climbing paths leave the agent's workspace."""
    folded = fold(path)
    return folded.startswith(("/", "~", "$")) or _WINDOWS_DRIVE.match(folded) is not None or folded == ".." \
        or folded.startswith("../") or posixpath.normpath(folded).startswith("..")
