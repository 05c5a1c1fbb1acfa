"""One Settings object, read once from the environment and `.env`.

Every knob is documented, with a safe demo default, in `.env.example`.
"""

import os
import re
from dataclasses import dataclass, fields
from pathlib import Path
from urllib.parse import urlsplit

import pycountry
from dotenv import load_dotenv

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEMO_SECRET = "demo-secret-change-me-in-production-0123456789"
# 32 bytes in hex: the AES-256 key the site and the activity service share in demo mode.
DEMO_ACTIVITY_KEY = "64656d6f2d61637469766974792d6b65792d6368616e67652d6d652d30313233"
DEMO_INGEST_KEY = DEMO_SECRET + "-ingest"
# The embedded payment sandbox's keys (Stripe's test-key shapes); a real provider's keys replace them.
DEMO_PAYMENTS_KEY = "sk_test_demo_ridearena_payments_sandbox"
DEMO_WEBHOOK_SECRET = "whsec_demo_ridearena_payments_sandbox"
# The API key the site sends to the content service (the embedded one checks it too).
DEMO_CONTENT_KEY = DEMO_SECRET + "-content"
DEMO_KEYS = (DEMO_ACTIVITY_KEY, DEMO_PAYMENTS_KEY, DEMO_WEBHOOK_SECRET)

load_dotenv(PROJECT_ROOT / ".env")


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default).strip()


def _env_bool(name: str, default: bool) -> bool:
    return _env(name, "1" if default else "0").lower() in {"1", "true", "yes", "on"}


def _env_int(name: str, default: int) -> int:
    return int(_env(name, str(default)))


DEFAULT_PORTS = {"http": 80, "https": 443}
# A worker's lease on a tab's state (several workers) adds to how long a stopped worker's tabs wait for it.
MAX_STATE_LEASE_MS = 60_000
LOOPBACK_TWINS = {"localhost": "127.0.0.1", "127.0.0.1": "localhost"}


def origin_of(url: str) -> str:
    """scheme://host[:port] as a browser sends it in the Origin header (default port left out)."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if parts.scheme not in DEFAULT_PORTS or not host:
        raise ValueError(f"{url!r} is not an http(s) address")
    host = f"[{host}]" if ":" in host else host
    port = parts.port
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != DEFAULT_PORTS[parts.scheme] else "")


# Fitness apps a rider can connect (spec 2 section 4); xert links with a username and password.
OAUTH_NETWORKS = ("strava", "todaysplan", "trainingpeaks", "intervals", "analogx", "xert", "whoop")
PASSWORD_GRANT_NETWORKS = frozenset({"xert"})
OAUTH_KEYS = ("CLIENT_ID", "CLIENT_SECRET", "AUTHORIZE_URL", "TOKEN_URL", "SCOPE", "PROFILE_URL")


def oauth_setting_names(network: str) -> list[str]:
    keys = [key for key in OAUTH_KEYS if not (network in PASSWORD_GRANT_NETWORKS and key == "AUTHORIZE_URL")]
    return [f"OAUTH_{network.upper()}_{key}" for key in keys]


@dataclass(frozen=True)
class OAuthProvider:
    """One fitness app's OAuth 2 client registration; no client id means the embedded demo provider."""

    client_id: str
    client_secret: str
    authorize_url: str
    token_url: str
    scope: str
    profile_url: str

    @property
    def configured(self) -> bool:
        return bool(self.client_id)


def _oauth_provider(network: str) -> OAuthProvider:
    prefix = f"OAUTH_{network.upper()}_"
    provider = OAuthProvider(**{key.lower(): _env(prefix + key, "") for key in OAUTH_KEYS})
    if provider.configured:
        required = {f"{prefix}{key}" for key in ("CLIENT_SECRET", "AUTHORIZE_URL", "TOKEN_URL")}
        missing = [name for name in oauth_setting_names(network) if name in required and not _env(name, "")]
        if missing:
            raise ValueError(f"{prefix}CLIENT_ID is set: set {', '.join(missing)} too")
    return provider


@dataclass(frozen=True)
class Settings:
    app_env: str
    db_url: str
    db_pool_size: int
    db_max_overflow: int
    db_pool_timeout: float
    db_threads: int
    redis_url: str
    state_lease_ms: int
    port: int
    site_url: str
    secret_key: str
    altcha_hmac_key: str
    altcha_max_number: int
    cookie_domain: str
    cookie_secure: bool
    session_remember_days: int
    session_short_hours: int
    login_limit_per_email: str
    login_limit_per_address: str
    contact_limit_per_address: str
    content_site_url: str
    support_email: str
    smtp_url: str
    mail_from: str
    mail_max_attempts: int
    mail_retry_seconds: int
    site_name: str
    data_dir: Path
    activity_service_url: str
    activity_service_key: str
    activity_encryption: bool
    activity_ingest_key: str
    results_service_url: str
    content_service_url: str
    content_service_key: str
    team_events_url: str
    payments_api_base: str
    payments_secret_key: str
    payments_webhook_secret: str
    payments_slow_card_seconds: int
    default_country: str
    wallet_btc_network: str
    wallet_fee_percent: str
    wallet_minimum_withdrawal: str
    wallet_monthly_withdrawals: int
    extra_origins: tuple[str, ...]
    oauth: dict[str, OAuthProvider]

    @property
    def demo(self) -> bool:
        """Demo mode seeds demo accounts and opens the dev mailbox."""
        return self.app_env == "demo"

    @property
    def allowed_origins(self) -> list[str]:
        """The origins whose pages may call the site with the rider's cookies (CORS, the event socket) and
        post to it (the cross-site check): the site's own, EXTRA_ORIGINS, and in demo mode the loopback
        twin of a local SITE_URL, so a demo opened as localhost or as 127.0.0.1 works either way."""
        own = origin_of(self.site_url)
        origins = [own, *self.extra_origins]
        parts = urlsplit(own)
        if self.demo and parts.hostname in LOOPBACK_TWINS:
            origins.append(own.replace(parts.hostname, LOOPBACK_TWINS[parts.hostname], 1))
        return list(dict.fromkeys(origins))


# A provider's secret keys and webhook secrets, as Stripe names them: live or test mode, secret or restricted.
PAYMENT_KEY = re.compile(r"^[sr]k_(live|test)_\S+$")
WEBHOOK_SECRET = re.compile(r"^whsec_\S+$")


def check_payment_provider(settings: Settings) -> None:
    """Production takes card payments only through a real provider: the built-in sandbox (which passes
    Stripe's public test cards) is not served there, so an empty PAYMENTS_API_BASE, or one on the site's own
    address (where the sandbox is in demo mode), stops the start, and so do keys that are no provider's."""
    base = settings.payments_api_base
    if not base:
        raise ValueError(
            "Set PAYMENTS_API_BASE to your payment provider's API (https://api.stripe.com): "
            "production does not serve the built-in payment sandbox"
        )
    parts = urlsplit(base)
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError("PAYMENTS_API_BASE must be an https:// address, such as https://api.stripe.com")
    if origin_of(base) == origin_of(settings.site_url):
        raise ValueError(
            "PAYMENTS_API_BASE points at this site, whose payment sandbox production does not serve: "
            "set it to your payment provider's API (https://api.stripe.com)"
        )
    if not PAYMENT_KEY.match(settings.payments_secret_key):
        raise ValueError(
            "PAYMENTS_SECRET_KEY must be your payment provider's secret key (sk_live_... or sk_test_...)"
        )
    if not WEBHOOK_SECRET.match(settings.payments_webhook_secret):
        raise ValueError("PAYMENTS_WEBHOOK_SECRET must be your webhook endpoint's signing secret (whsec_...)")


def payments_in_test_mode(settings: Settings) -> bool:
    """Keys of the provider's test mode take no real money: a production start says so in its log."""
    return "_test_" in settings.payments_secret_key[:8]


def load_settings() -> Settings:
    data_dir = PROJECT_ROOT / _env("DATA_DIR", "data")
    port = _env_int("PORT", 3000)
    settings = Settings(
        app_env=_env("APP_ENV", "demo"),
        db_url=_env("DB_URL", f"sqlite:///{data_dir / 'cycling_site.db'}"),
        db_pool_size=_env_int("DB_POOL_SIZE", 10),
        db_max_overflow=_env_int("DB_MAX_OVERFLOW", 10),
        db_pool_timeout=float(_env("DB_POOL_TIMEOUT", "3")),
        db_threads=_env_int("DB_THREADS", 2),
        redis_url=_env("REDIS_URL", ""),
        state_lease_ms=_env_int("STATE_LEASE_MS", 30_000),
        port=port,
        site_url=_env("SITE_URL", f"http://localhost:{port}").rstrip("/"),
        secret_key=_env("SECRET_KEY", DEMO_SECRET),
        altcha_hmac_key=_env("ALTCHA_HMAC_KEY", DEMO_SECRET + "-altcha"),
        altcha_max_number=_env_int("ALTCHA_MAX_NUMBER", 50_000),
        cookie_domain=_env("COOKIE_DOMAIN", ""),
        cookie_secure=_env_bool("COOKIE_SECURE", False),
        session_remember_days=_env_int("SESSION_REMEMBER_DAYS", 30),
        session_short_hours=_env_int("SESSION_SHORT_HOURS", 12),
        login_limit_per_email=_env("LOGIN_LIMIT_PER_EMAIL", "5/minute"),
        login_limit_per_address=_env("LOGIN_LIMIT_PER_ADDRESS", "30/minute"),
        contact_limit_per_address=_env("CONTACT_LIMIT_PER_ADDRESS", "5/hour"),
        content_site_url=_env("CONTENT_SITE_URL", ""),
        support_email=_env("SUPPORT_EMAIL", "support@example.com"),
        smtp_url=_env("SMTP_URL", ""),
        mail_from=_env("MAIL_FROM", "RideArena <no-reply@example.com>"),
        mail_max_attempts=_env_int("MAIL_MAX_ATTEMPTS", 8),
        mail_retry_seconds=_env_int("MAIL_RETRY_SECONDS", 30),
        site_name=_env("SITE_NAME", "RideArena"),
        data_dir=data_dir,
        activity_service_url=_env("ACTIVITY_SERVICE_URL", "").rstrip("/"),
        activity_service_key=_env("ACTIVITY_SERVICE_KEY", DEMO_ACTIVITY_KEY),
        activity_encryption=_env_bool("ACTIVITY_ENCRYPTION", True),
        activity_ingest_key=_env("ACTIVITY_INGEST_KEY", DEMO_INGEST_KEY),
        results_service_url=_env("RESULTS_SERVICE_URL", ""),
        content_service_url=_env("CONTENT_SERVICE_URL", "").rstrip("/"),
        content_service_key=_env("CONTENT_SERVICE_KEY", DEMO_CONTENT_KEY),
        team_events_url=_env("TEAM_EVENTS_URL", "").rstrip("/"),
        payments_api_base=_env("PAYMENTS_API_BASE", "").rstrip("/"),
        payments_secret_key=_env("PAYMENTS_SECRET_KEY", DEMO_PAYMENTS_KEY),
        payments_webhook_secret=_env("PAYMENTS_WEBHOOK_SECRET", DEMO_WEBHOOK_SECRET),
        payments_slow_card_seconds=_env_int("PAYMENTS_SLOW_CARD_SECONDS", 15),
        default_country=_env("DEFAULT_COUNTRY", "AE").strip().upper(),
        wallet_btc_network=_env("WALLET_BTC_NETWORK", "main"),
        wallet_fee_percent=_env("WALLET_FEE_PERCENT", "1.5"),
        wallet_minimum_withdrawal=_env("WALLET_MINIMUM_WITHDRAWAL", "0.000001"),
        wallet_monthly_withdrawals=_env_int("WALLET_MONTHLY_WITHDRAWALS", 5),
        extra_origins=tuple(origin_of(url) for url in _env("EXTRA_ORIGINS", "").split(",") if url.strip()),
        oauth={network: _oauth_provider(network) for network in OAUTH_NETWORKS},
    )
    if settings.db_pool_size < 1 or settings.db_max_overflow < 0 or not 0 < settings.db_pool_timeout <= 30:
        raise ValueError("DB_POOL_SIZE must be 1 or more, DB_MAX_OVERFLOW 0 or more, DB_POOL_TIMEOUT 0-30 s")
    if not 1 <= settings.db_threads <= settings.db_pool_size + settings.db_max_overflow:
        raise ValueError("DB_THREADS must be 1 or more and at most DB_POOL_SIZE + DB_MAX_OVERFLOW")
    if not 0 <= settings.state_lease_ms <= MAX_STATE_LEASE_MS:
        raise ValueError(f"STATE_LEASE_MS must be 0 to {MAX_STATE_LEASE_MS}")
    if settings.app_env not in {"demo", "production"}:
        raise ValueError("APP_ENV must be 'demo' or 'production'")
    try:
        key = bytes.fromhex(settings.activity_service_key)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise ValueError("ACTIVITY_SERVICE_KEY must be 64 hexadecimal characters (a 256-bit key)")
    if settings.app_env == "production":
        for name, value in (
            ("SECRET_KEY", settings.secret_key),
            ("ALTCHA_HMAC_KEY", settings.altcha_hmac_key),
            ("ACTIVITY_SERVICE_KEY", settings.activity_service_key),
            ("ACTIVITY_INGEST_KEY", settings.activity_ingest_key),
            ("PAYMENTS_SECRET_KEY", settings.payments_secret_key),
            ("PAYMENTS_WEBHOOK_SECRET", settings.payments_webhook_secret),
            ("CONTENT_SERVICE_KEY", settings.content_service_key),
        ):
            if value.startswith(DEMO_SECRET) or value in (
                DEMO_ACTIVITY_KEY,
                DEMO_PAYMENTS_KEY,
                DEMO_WEBHOOK_SECRET,
            ):
                raise ValueError(f"Set {name} to a secret of your own before a production start")
        check_payment_provider(settings)
    if (
        len(settings.default_country) != 2
        or pycountry.countries.get(alpha_2=settings.default_country) is None
    ):
        raise ValueError("DEFAULT_COUNTRY must be an ISO 3166 two-letter country code, such as AE")
    if settings.wallet_btc_network not in {"main", "test", "regtest", "signet"}:
        raise ValueError("WALLET_BTC_NETWORK must be main, test, regtest or signet")
    if settings.team_events_url:
        origin_of(settings.team_events_url)  # team cards link there: an http(s) address or nothing
    origin_of(settings.site_url)  # a SITE_URL that is no http(s) address stops the start here
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return settings


settings = load_settings()

SETTING_NAMES = [f.name.upper() for f in fields(Settings) if f.name != "oauth"] + [
    name for network in OAUTH_NETWORKS for name in oauth_setting_names(network)
]
