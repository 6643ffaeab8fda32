"""Public certificates and public keys are not secrets; private keys are.

Reading `*.pub`, `*.crt`, `ca.pem`, `fullchain.pem`, the system trust store, `known_hosts` or
`authorized_keys`, and options that read a CA or a certificate (`curl --cacert`, `openssl x509 -in`,
`openssl verify`, `ssh-keygen -l -f`) do not make a command a secret read. Writing
`authorized_keys` is still persistence."""

from __future__ import annotations

import pytest

from engine.gate.paths import is_secret
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

PUBLIC_READS = [
    "cat ~/.ssh/id_ed25519.pub",
    "cat ~/.ssh/id_rsa.pub",
    "cat ~/.ssh/*.pub",
    "cat ~/.ssh/known_hosts",
    "grep github.com ~/.ssh/known_hosts",
    "cat ~/.ssh/authorized_keys",
    "cat /etc/ssh/ssh_host_ed25519_key.pub",
    "cat /etc/ssl/certs/ca-certificates.crt",
    "cat /etc/ssl/certs/ca.pem",
    "head -3 ca-bundle.pem",
    "cat server.crt",
    "cat client.cer",
    "cat request.csr",
    "cat /etc/letsencrypt/live/x.example/fullchain.pem",
    "cat /etc/letsencrypt/live/x.example/cert.pem",
    "cat /etc/letsencrypt/live/x.example/chain.pem",
    "cat certs/rootCA.pem",
    "grep -c BEGIN /etc/pki/tls/certs/ca-bundle.crt",
    "wc -l /usr/local/share/ca-certificates/corp.pem",
    "cat .env.example",
]
SAFE_TOOLS = [
    "openssl x509 -in cert.pem -noout -text",
    "openssl x509 -in /etc/ssl/certs/ca.pem -noout -subject",
    "openssl x509 -in fullchain.pem -noout -dates",
    "openssl x509 -in server.pem -noout -fingerprint -sha256",
    "openssl verify -CAfile ca.pem cert.pem",
    "ssh-keygen -l -f key.pub",
    "ssh-keygen -lf ~/.ssh/id_ed25519.pub",
    "ssh-keygen -l -E sha256 -f ~/.ssh/id_ed25519.pub",
]
PRIVATE_READS = [
    "cat privkey.pem",
    "cat /etc/letsencrypt/live/x.example/privkey.pem",
    "cat server.key",
    "cat key.pem",
    "cat tls-key.pem",
    "cat server.pem",
    "cat client.p12",
    "cat keystore.pfx",
    "cat release.jks",
    "cat ~/.ssh/id_ed25519",
    "cat ~/.ssh/id_rsa",
    "cat ~/.ssh/*",
    "cat /etc/ssl/private/ssl-cert-snakeoil.key",
    "openssl rsa -in server.key -noout -text",
    "openssl x509 -in cert.pem -signkey key.pem -out x.pem",
    "curl --cacert ca.pem --key client.key https://localhost/",
]


@pytest.mark.parametrize("command", PUBLIC_READS)
def test_public_material_reads_are_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, (command, verdict)


@pytest.mark.parametrize("command", SAFE_TOOLS)
def test_certificate_and_fingerprint_tools_are_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, (command, verdict)


@pytest.mark.parametrize("command", PRIVATE_READS)
def test_private_keys_stay_secrets(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, (command, verdict)
    assert "creds.read-secret" in verdict.rules, (command, verdict)


def test_certificate_options_do_not_read_secrets(shell) -> None:
    verdict = shell("curl --cacert ca.pem https://x.example")
    assert verdict.level is Level.DANGEROUS
    assert "creds.read-secret" not in verdict.rules and "net.exfil-secret" not in verdict.rules
    assert "creds.read-secret" not in shell("curl --cacert /etc/ssl/corp/server.pem https://x.example").rules


def test_writing_authorized_keys_is_dangerous_persistence(shell) -> None:
    verdict = shell("echo 'ssh-ed25519 AAAA x' >> ~/.ssh/authorized_keys")
    assert verdict.level is Level.DANGEROUS
    assert "evasion.startup-file" in verdict.rules


def test_file_tools_read_public_keys_without_asking(classifier) -> None:
    public = classifier.classify(ToolCall("fs.read", {"path": "~/.ssh/id_ed25519.pub"}))
    private = classifier.classify(ToolCall("fs.read", {"path": "~/.ssh/id_ed25519"}))
    assert "fs.tool-secret" not in public.rules
    assert "fs.tool-secret" in private.rules


@pytest.mark.parametrize("path", ["~/.ssh/id_rsa.pub", "/etc/ssl/certs/x.pem", "fullchain.pem", "ca.pem", "ca-bundle.crt",
                                  "~/.ssh/known_hosts", "~/.ssh/authorized_keys", "pubkey.pem", "intermediate-ca.pem"])
def test_public_paths(path: str) -> None:
    assert not is_secret(path), path


@pytest.mark.parametrize("path", ["~/.ssh/id_rsa", "privkey.pem", "key.pem", "server.key", "client-key.pem", "x.p12",
                                  "server.pem", "/etc/ssl/private/x.pem", "~/.ssh/config", "ca-key.pem"])
def test_private_paths(path: str) -> None:
    assert is_secret(path), path
