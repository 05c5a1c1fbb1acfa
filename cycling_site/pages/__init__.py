"""Registers one page per route of the route table, each with its screen and what it loads."""

import reflex as rx

from cycling_site.pages import (
    activity_detail,
    auth,
    connections,
    contact,
    content,
    dashboard,
    dev,
    event_detail,
    events,
    finance,
    parental_consent,
    passwords,
    pre_verification,
    profile,
    race_control,
    registration,
    results,
    site,
    teams,
    tracks,
    verification,
    wallet,
    wallet_verification,
)
from cycling_site.routes import BY_NAME, ROUTES, Route
from cycling_site.settings import settings
from cycling_site.state.activity_detail import ActivityDetailState
from cycling_site.state.connections import ConnectionsState, OAuthCallbackState
from cycling_site.state.contact import ContactState
from cycling_site.state.content import ContentState
from cycling_site.state.dashboard import DashboardState
from cycling_site.state.event_detail import EventDetailState
from cycling_site.state.events import EventListState
from cycling_site.state.finance import FinanceState
from cycling_site.state.login import LoginState
from cycling_site.state.mailbox import MailboxState
from cycling_site.state.page import PageState
from cycling_site.state.parental_consent import ParentalConsentState, ParentApprovalState
from cycling_site.state.passwords import ForgotPasswordState, ResetPasswordState
from cycling_site.state.pre_verification import PreVerificationState
from cycling_site.state.profile import DeleteUserState, ProfileState
from cycling_site.state.race_control import RaceControlState
from cycling_site.state.register import RegisterState
from cycling_site.state.registration import RegistrationState, ThankYouState
from cycling_site.state.results import ResultsState
from cycling_site.state.site import SiteState
from cycling_site.state.teams import TeamsState
from cycling_site.state.tracks import TracksState
from cycling_site.state.verification import VerifyLinkState, VerifyOtpState
from cycling_site.state.wallet import WalletState, WithdrawalState
from cycling_site.state.wallet_verification import WalletVerificationState

BUILT = {
    "events": (events.event_list_page, [EventListState.load]),
    "home": (events.event_list_page, [EventListState.load]),
    "event_list": (events.event_list_page, [EventListState.load]),
    "event_detail": (event_detail.event_detail_page, [EventDetailState.load]),
    "event": (registration.registration_page, [RegistrationState.load]),
    "EventThankYou": (registration.thank_you_page, [ThankYouState.load]),
    "iframe-warning": (site.iframe_warning_page, []),
    "login": (auth.login_page, [LoginState.load]),
    "register": (auth.register_page, [RegisterState.load]),
    "ruleset": (content.content_page, [SiteState.check_ruleset, ContentState.load_page]),
    "support": (content.support_page, [ContentState.load_page]),
    "terms": (content.content_page, [ContentState.load_page]),
    "privacy": (content.content_page, [ContentState.load_page]),
    "about": (content.content_page, [ContentState.load_page]),
    "team_uae": (content.content_page, [ContentState.load_page]),
    "sunday_race_club": (content.content_page, [ContentState.load_page]),
    "al_ula": (content.content_page, [ContentState.load_page]),
    "article": (content.article_page, [ContentState.load_article]),
    "faqs": (content.faqs_page, [ContentState.load_faqs]),
    "dev-mailbox": (dev.mailbox_page, [MailboxState.load]),
    "verify-user": (verification.verify_link_page, [VerifyLinkState.load]),
    "verify-kid": (verification.verify_link_page, [VerifyLinkState.load]),
    "verification": (verification.verify_otp_page, [VerifyOtpState.load]),
    "parental-consent": (parental_consent.parental_consent_page, [ParentalConsentState.load]),
    "parental-approval": (parental_consent.parental_approval_page, [ParentApprovalState.load]),
    "forgetpassword": (passwords.forgot_password_page, [ForgotPasswordState.load]),
    "resetpassword": (passwords.reset_password_page, [ResetPasswordState.load]),
    "oauth": (connections.oauth_callback_page, [OAuthCallbackState.finish]),
    "analogx-terms": (connections.analogx_terms_page, [ConnectionsState.clear_terms, ContentState.load_page]),
    "contacts": (contact.contact_page, [ContactState.load, ContentState.load_contact]),
    "profile": (profile.profile_page, [ProfileState.load]),
    "delete-user": (profile.delete_user_page, [DeleteUserState.confirm]),
    "new_activities": (
        dashboard.dashboard_page,
        [DashboardState.load],
    ),
    "activity": (activity_detail.activity_detail_page, [ActivityDetailState.load]),
    "routes": (tracks.tracks_page, [TracksState.load]),
    "results": (results.results_page, [ResultsState.load]),
    "pre-verification": (pre_verification.pre_verification_page, [PreVerificationState.load]),
    "race-control": (race_control.race_control_page, [RaceControlState.load]),
    "wallet": (wallet.wallet_page, [WalletState.load]),
    "wallet-verification": (
        wallet_verification.account_verification_page,
        [WalletVerificationState.load],
    ),
    "wallet-verification-request": (wallet.verification_request_page, [WalletState.load]),
    "withdrawal": (wallet.withdrawal_page, [WithdrawalState.open_form]),
    "finance": (finance.finance_page, [FinanceState.load]),
    "teams": (teams.teams_page, [TeamsState.load_public]),
    "my_teams": (teams.my_teams_page, [TeamsState.load_mine]),
}


# Pages whose title and description follow what they show.
OWN_HEAD = {"event_detail": (EventDetailState.page_title, EventDetailState.page_description)}

# Pages for trying the site out; production has none of them.
DEMO_ONLY = {"dev-mailbox"}


def served_routes() -> list[Route]:
    return [route for route in ROUTES if settings.demo or route.name not in DEMO_ONLY]


def register_pages(app: rx.App) -> None:
    for route in served_routes():
        component, loads = BUILT[route.name]
        title, description = OWN_HEAD.get(route.name, (site.site_title(route), site.site_description(route)))
        app.add_page(
            component,
            route=route.path,
            title=title,
            description=description,
            on_load=[PageState.load, *loads],
        )
    app.add_page(
        events.event_list_page,
        route="404",
        title="Not found",
        description=site.site_description(BY_NAME["events"]),
        on_load=rx.redirect("/", replace=True),
    )
