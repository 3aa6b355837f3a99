"""TLS for tables: the host's self-signed certificate, SSL contexts, fingerprint pinning and TOFU.

The host keeps one certificate in the config directory; its SHA-256 fingerprint (64 lowercase hex
digits of the DER bytes) is published in the mDNS TXT record. Clients do not use a CA: they pin
the fingerprint they were given or found, and remember it per table in ``known_tables``.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import ssl
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from briscola_lan.net import files

CERT_FILE = "host-cert.pem"
KEY_FILE = "host-key.pem"
KNOWN_TABLES_FILE = "known_tables"


class TlsError(Exception):
    """Base for certificate and pinning problems a user can meet."""


class CertificateMismatch(TlsError):
    """The table presented a certificate other than the pinned one."""


class CertificateChanged(CertificateMismatch):
    """A table we trusted before now shows a different certificate (trust on first use)."""


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/briscola-lan`` or ``~/.config/briscola-lan``."""
    return files.config_dir()


def fingerprint_of(der: bytes) -> str:
    """The pinning fingerprint of a DER certificate: SHA-256, 64 lowercase hex digits."""
    return hashlib.sha256(der).hexdigest()


def normalize_fingerprint(text: str) -> str:
    """Accept ``AB:CD:..`` or plain hex in any case; return 64 lowercase hex digits."""
    cleaned = text.strip().replace(":", "").replace(" ", "").lower()
    if len(cleaned) != 64 or any(c not in "0123456789abcdef" for c in cleaned):
        raise TlsError(
            f"not a certificate fingerprint: {text!r} (expected the 64 hex digits of a SHA-256, "
            "as shown by 'briscola-lan host' or 'briscola-lan tables')"
        )
    return cleaned


@dataclass(frozen=True, slots=True)
class HostCertificate:
    """Paths of the host certificate and key, and the certificate's fingerprint."""

    cert_path: Path
    key_path: Path
    fingerprint: str


def load_or_create_certificate(directory: Path | None = None) -> HostCertificate:
    """Load the host certificate from ``directory`` (the config dir), creating it on first use."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    directory = config_dir() if directory is None else directory
    cert_path, key_path = directory / CERT_FILE, directory / KEY_FILE
    if not (cert_path.exists() and key_path.exists()):
        files.private_dir(directory)
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "briscola-lan table")])
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256())
        )
        key_bytes = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        files.write_private(key_path, key_bytes)  # the key first: a certificate alone is useless
        files.write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    der = cert.public_bytes(serialization.Encoding.DER)
    return HostCertificate(cert_path, key_path, fingerprint_of(der))


def server_context(cert: HostCertificate) -> ssl.SSLContext:
    """A TLS 1.3 server context presenting the host certificate."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.load_cert_chain(cert.cert_path, cert.key_path)
    # No TLS session tickets: a client resumes its seat with the protocol's resume token on a
    # full handshake, never a TLS session, so each ticket would be work and bytes for nothing
    # (a sixth of the handshake's CPU, docs/performance.md).
    ctx.num_tickets = 0
    return ctx


def client_context() -> ssl.SSLContext:
    """A TLS 1.3 client context without CA checks: the certificate is pinned after the handshake."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def peer_fingerprint(ssl_object: ssl.SSLObject | ssl.SSLSocket) -> str:
    """The fingerprint of the certificate the peer presented in this TLS session."""
    der = ssl_object.getpeercert(binary_form=True)
    if not der:
        raise CertificateMismatch("the table presented no certificate")
    return fingerprint_of(der)


def check_pin(actual: str, expected: str, *, table: str) -> None:
    """Compare fingerprints in constant time; raise CertificateMismatch with an actionable text."""
    if not hmac.compare_digest(actual.encode(), normalize_fingerprint(expected).encode()):
        raise CertificateMismatch(
            f"table {table!r} presented certificate {actual[:16]}… but {expected[:16]}… was "
            "expected: this may not be the table you meant (or someone is in between). Check the "
            "fingerprint the host prints and pass it with --fingerprint."
        )


class KnownTables:
    """Trust on first use: the fingerprint each table showed first, one ``key fp`` line each.

    The key is ``name@address`` for a table found by name and ``host:port`` for an address
    (``Target.key``), so two hosts that use the same table name are two different entries;
    each key is one line (a file with repeated keys is written back with one)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = config_dir() / KNOWN_TABLES_FILE if path is None else path

    def _load(self) -> dict[str, str]:
        out: dict[str, str] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return out
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#"):
                out[urllib.parse.unquote(parts[0])] = parts[1]
        return out

    def get(self, table: str) -> str | None:
        return self._load().get(table)

    def remember(self, table: str, fingerprint: str) -> None:
        entries = self._load()
        entries[table] = normalize_fingerprint(fingerprint)
        lines = [f"{urllib.parse.quote(k, safe='')} {v}" for k, v in sorted(entries.items())]
        files.write_private(self.path, ("\n".join(lines) + "\n").encode("utf-8"))

    def check_and_remember(self, table: str, fingerprint: str) -> None:
        """Accept a first sighting and remember it; refuse a fingerprint that changed."""
        fp = normalize_fingerprint(fingerprint)
        known = self.get(table)
        if known is None:
            self.remember(table, fp)
            return
        if not hmac.compare_digest(known.encode(), fp.encode()):
            name, sep, where = table.rpartition("@")
            what = f"table {name!r} at {where}" if sep else f"the table at {table}"
            raise CertificateChanged(
                f"the certificate of {what} changed: it was {known[:16]}…, now it is "
                f"{fp[:16]}…. Refusing to connect: another host may have taken that address, or "
                "someone is in between. If the host really made a new certificate, delete the "
                f"line for this table ({urllib.parse.quote(table, safe='')}) from {self.path} "
                "and join again."
            )
