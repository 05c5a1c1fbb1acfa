"""The bearer header of a signed-in account, as the API tests send it."""

from cycling_site.models import Account
from cycling_site.services import tokens


def bearer(account: Account) -> dict[str, str]:
    return {"Authorization": f"Bearer {tokens.issue_session_token(account, True).token}"}
