"""What every form service shares: the bad-input exception and e-mail normalisation."""

from email_validator import EmailNotValidError, validate_email

EMAIL_MAX = 254


class FormErrors(Exception):
    """Bad input: a message per field, nothing stored."""

    status_code = 400

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(errors.values()))
        self.errors = errors


class TooManyAttempts(FormErrors):
    """A rate limit is used up (sign-in attempts, messages, codes or e-mails sent): try again later."""

    status_code = 429


def checkbox_on(value: object) -> bool:
    """A ticked checkbox as a browser form or an API caller sends it: true, "on", "1", "true" or "yes"."""
    return value is True or str(value or "").strip().lower() in {"1", "true", "on", "yes"}


def has_nul(*values: str | None) -> bool:
    """A NUL character cannot reach PostgreSQL text; such input is simply not valid."""
    return any(value and "\x00" in value for value in values)


def normalize_email(email: str) -> str | None:
    """The canonical address, or None when it is not an address."""
    email = (email or "").strip()
    if not email or len(email) > EMAIL_MAX:
        return None
    try:
        return validate_email(email, check_deliverability=False).normalized.lower()
    except EmailNotValidError:
        return None


REDIRECT_MAX = 1000


def internal_path(value: str | None) -> str:
    """A same-site path, or '' (an open redirect is never followed)."""
    value = (value or "").strip()
    if value.startswith("/") and not value.startswith(("//", "/\\")) and len(value) <= REDIRECT_MAX:
        return value
    return ""


def content_site_target(value: str | None, content_site_url: str) -> str:
    """A redirect_to from the content site: same-site, or under the content site's address."""
    value = (value or "").strip()
    base = content_site_url.rstrip("/")
    if base and (value == base or value.startswith(base + "/")) and len(value) <= REDIRECT_MAX:
        return value
    return internal_path(value)
