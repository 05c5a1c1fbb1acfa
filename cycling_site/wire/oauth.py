"""The contract between the site's OAuth client and the embedded demo provider that stands in for the
fitness apps: the apps and their names, where the provider is served, the client registration it issued
to the site, and the callback address registered with it."""

import hashlib
import hmac

from cycling_site.settings import settings

EMBEDDED_PREFIX = "/api/demo-oauth"
NETWORK_NAMES = {
    "strava": "Strava",
    "todaysplan": "TodaysPlan",
    "trainingpeaks": "TrainingPeaks",
    "intervals": "Intervals.icu",
    "analogx": "AnalogX",
    "xert": "Xert",
    "whoop": "Whoop",
}


def demo_registration(network: str) -> tuple[str, str]:
    """The client id and secret the embedded provider issued to this site for an app."""
    secret = hmac.new(settings.secret_key.encode(), f"demo-oauth:{network}".encode(), hashlib.sha256)
    return f"{network}-demo-client", secret.hexdigest()


def redirect_uri(network: str) -> str:
    """The callback address registered with every app: the /oauth/{network} route."""
    return f"{settings.site_url}/oauth/{network}"
