"""Every route of the three spec documents, declared once, with its authRequired flag.

Paths use Reflex's syntax: [id] is a parameter, [[...splat]] an optional rest.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    name: str
    path: str
    title: str
    auth_required: bool = False


ROUTES: list[Route] = [
    # Spec 2: public site, events, accounts.
    Route("events", "/", "Events"),
    Route("home", "/home", "Events"),
    Route("event_list", "/events", "Events"),
    Route("routes", "/routes", "Tracks"),
    Route("iframe-warning", "/iframe-warning", "Cannot be embedded"),
    Route("event", "/event/[id]", "Event registration", auth_required=True),
    Route("EventThankYou", "/event/[id]/thank-you", "Thank you", auth_required=True),
    Route("event_detail", "/event/detail/[id]", "Event"),
    Route("support", "/support", "Support"),
    Route("contacts", "/contact-us", "Contact us"),
    Route("terms", "/terms-and-conditions", "Terms and conditions"),
    Route("faqs", "/faqs", "FAQs"),
    Route("about", "/about-us", "About us"),
    Route("team_uae", "/team-uae", "Team UAE"),
    Route("sunday_race_club", "/sunday-race-club", "Sunday Race Club"),
    Route("al_ula", "/al-ula", "AlUla"),
    Route("privacy", "/privacy-policy", "Privacy policy"),
    Route("article", "/article/[slug]", "Article"),
    Route("ruleset", "/[ruleset]", "Ruleset"),
    Route("verify-user", "/verify-user", "Account verification"),
    Route("verify-kid", "/verify-kid", "Account verification"),
    Route("delete-user", "/delete-user/[code]", "Account deletion"),
    Route("teams", "/teams", "Teams"),
    Route("my_teams", "/my-teams", "My Teams"),
    Route("login", "/auth/login", "Sign in"),
    Route("register", "/auth/register", "Create account"),
    Route("verification", "/auth/verification", "Verify"),
    Route("forgetpassword", "/auth/forgot-password", "Forgot password"),
    Route("resetpassword", "/auth/forgot-password2", "Reset password"),
    Route("parental-consent", "/parental-consent", "Parental Consent Required"),
    # Not in the spec's lists: where the parent's e-mailed link lands.
    Route("parental-approval", "/parental-approval", "Parental approval"),
    Route("oauth", "/oauth/[network]/[[...splat]]", "Connecting"),
    Route("profile", "/user/profile", "Profile", auth_required=True),
    # Not in the spec's lists: AnalogX's terms, accepted before the rider goes to AnalogX (spec 2 section 7).
    Route("analogx-terms", "/analogx-terms", "AnalogX terms", auth_required=True),
    # Spec 1: rider dashboard, shop, weight, verification.
    Route("new_activities", "/user/activities", "Activities", auth_required=True),
    # Not in the spec's lists: the activity detail view reached from the dashboard (spec 3).
    Route("activity", "/user/activities/[file_id]", "Activity", auth_required=True),
    Route("pre-verification", "/pre-verification-form", "Pre-verification", auth_required=True),
    # Spec 3: wallet, import, results.
    Route("wallet", "/wallet", "Wallet", auth_required=True),
    Route("wallet-verification", "/wallet/account-verification", "Wallet verification", auth_required=True),
    Route(
        "wallet-verification-request",
        "/wallet/verification-request",
        "Verification in progress",
        auth_required=True,
    ),
    Route("withdrawal", "/wallet/withdrawal-request", "Withdrawal request", auth_required=True),
    Route("results", "/race-results", "Results", auth_required=True),
    # Not in the spec's lists: race control's console (roles race_control and admin).
    Route("race-control", "/race-control", "Race control", auth_required=True),
    # Not in the spec's lists: finance's console (roles finance and admin).
    Route("finance", "/finance", "Finance", auth_required=True),
    # Demo mode only: the outbox as a mailbox.
    Route("dev-mailbox", "/dev/mailbox", "Mailbox"),
]

BY_NAME: dict[str, Route] = {route.name: route for route in ROUTES}

RULESET_PATTERN = re.compile(r"^/[a-z0-9][a-z0-9-]*-ruleset/?$")
_PARAM = re.compile(r"\[\[\.\.\.\w+\]\]|\[\w+\]")


def path_of(name: str) -> str:
    return BY_NAME[name].path


def _pattern(path: str) -> re.Pattern:
    regex = ""
    for piece in re.split(f"({_PARAM.pattern})", path):
        if piece.startswith("[[..."):
            regex = regex.removesuffix("/") + "(?:/.*)?"
        elif piece.startswith("["):
            regex += "[^/]+"
        else:
            regex += re.escape(piece)
    return re.compile(f"^{regex}/?$")


_MATCHERS = [(_pattern(route.path), route) for route in ROUTES]


def route_for(path: str) -> Route | None:
    """The route serving a browser path; static paths win over parameters, as in the router."""
    path = path.split("?", 1)[0].split("#", 1)[0] or "/"
    matches = [route for pattern, route in _MATCHERS if pattern.match(path)]
    return min(matches, key=lambda route: route.path.count("["), default=None)


def requires_login(path: str) -> bool:
    route = route_for(path)
    return route is not None and route.auth_required
