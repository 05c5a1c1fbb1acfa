"""The profile screen: its tabs, the edit form, the avatar, the password change and the deletion request."""

from datetime import UTC, datetime

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.db import in_session
from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.routes import path_of
from cycling_site.services import profile
from cycling_site.services.codes import CodeError
from cycling_site.services.countries import countries
from cycling_site.services.validation import checkbox_on
from cycling_site.state.hashes import show_hash
from cycling_site.state.session import Rider, SessionState, clear_dead_cookies, rider_action
from cycling_site.state.site_messages import display

# Tabs a URL hash can open; "files" (Activity Files) is declared by the spec but hidden.
TABS = ("edit", "connections", "password", "files", "delete")
HIDDEN_TABS = ("files",)
DEFAULT_TAB = "edit"
LOGOUT_TAB = "logout"
EDIT_FIELDS = ("firstname", "lastname", "country", "gender", "weight", "height")


def tab_for(value: str) -> str:
    value = (value or "").strip().lstrip("#")
    return value if value in TABS and value not in HIDDEN_TABS else DEFAULT_TAB


def _number(value: float) -> str:
    return f"{value:g}"


# The country picker's (id, name) options: built once, written into the page, never sent with the state.
COUNTRY_OPTIONS = [[str(cid), name] for cid, name in countries()]


class ProfileState(rx.State):
    tab: str = DEFAULT_TAB
    loaded: bool = False
    load_failed: bool = False
    email: str = ""
    firstname: str = ""
    lastname: str = ""
    country: str = ""
    gender: str = ""
    weight: str = ""
    height: str = ""
    dob: str = ""
    marketing: bool = False
    is_kid: bool = False
    deletion_recipient: str = ""
    # Bumped on every fill, so the uncontrolled edit form remounts with the stored values.
    form_version: int = 0
    errors: dict[str, str] = {}
    notice: str = ""
    saving: bool = False
    avatar_error: str = ""
    avatar_busy: bool = False
    password_errors: dict[str, str] = {}
    changing_password: bool = False
    deleting: bool = False

    @rx.var(cache=True)
    def latest_dob(self) -> str:
        return profile.latest_adult_dob(datetime.now(UTC).date()).isoformat()

    def _fill(self, account: Account) -> None:
        self.email = account.email
        self.firstname = account.firstname
        self.lastname = account.lastname
        self.country = str(account.country)
        self.gender = str(account.gender)
        self.weight = _number(account.weight)
        self.height = str(account.height)
        self.dob = account.dob.isoformat()
        self.marketing = account.marketing_consent
        self.is_kid = account.is_kid
        self.deletion_recipient = profile.deletion_recipient(account)
        self.form_version += 1

    async def _session_state(self) -> SessionState:
        return await self.get_state(SessionState)

    @rx.event
    async def load(self):
        self.loaded = False
        self.load_failed = False
        self.errors = {}
        self.notice = ""
        self.avatar_error = ""
        self.password_errors = {}
        self.tab = tab_for(self.router.url.fragment)
        try:
            async for update in self._load():
                yield update
        except SQLAlchemyError:
            self.load_failed = True

    @rider_action()
    async def _load(self, rider: Rider) -> None:
        self._fill(rider.account)
        self.loaded = True

    @rx.event
    def hash_changed(self, value: str) -> None:
        self.tab = tab_for(value)

    @rx.event
    def select_tab(self, value: str):
        """The Logout tab signs out; the others are written to the hash so the link opens them again."""
        if value == LOGOUT_TAB:
            return SessionState.logout
        self.tab = tab_for(value)
        return show_hash(self.tab)

    @rx.event
    @rider_action(busy="saving", errors="errors")
    async def save(self, rider: Rider, form_data: dict):
        self.notice = ""
        dob = form_data.get("dob")
        form = profile.ProfileForm(
            **{name: str(form_data.get(name, "")) for name in EDIT_FIELDS},
            marketing_consent=checkbox_on(form_data.get("marketing")),
            dob=None if dob is None else str(dob),
        )
        account = await rider.off_loop(profile.update_profile, rider.account, form)
        self._fill(account)
        (await self._session_state())._changed(account)
        self.notice = msg.PROFILE_UPDATED

    @rider_action(busy="avatar_busy", errors="avatar_error")
    async def _change_avatar(self, rider: Rider, change, done: str):
        """One avatar change for the signed-in rider: busy state, the error, the header and a toast."""
        account = await rider.off_loop(change, rider.account)
        (await self._session_state())._changed(account)
        yield display(done)

    @rx.event
    async def upload_avatar(self, files: list[rx.UploadFile]):
        """A drop the browser refused arrives with no file: avatar_rejected reports it."""
        if not files:
            return
        data = await files[0].read(profile.AVATAR_MAX_BYTES + 1)

        def store(session, account):
            return profile.store_avatar(session, account, data)

        async for update in self._change_avatar(store, msg.AVATAR_UPDATED):
            yield update

    @rx.event
    def avatar_rejected(self, reasons: str) -> None:
        """The browser's own check (size, type) refused the file before it was sent."""
        self.avatar_error = (
            msg.AVATAR_TOO_LARGE if "file-too-large" in reasons.split(",") else msg.INVALID_IMAGE
        )

    @rx.event
    async def remove_avatar(self):
        async for update in self._change_avatar(profile.remove_avatar, msg.AVATAR_REMOVED):
            yield update

    @rx.event
    @rider_action(busy="changing_password", errors="password_errors")
    async def change_password(self, rider: Rider, form_data: dict):
        """Password changed: the session ends and the rider goes to the events (spec 2 section 4)."""
        await rider.off_loop(
            profile.change_password,
            rider.account,
            str(form_data.get("current_password", "")),
            str(form_data.get("password", "")),
            str(form_data.get("repeatPassword", "")),
            self.router.session.client_ip,
        )
        (await self._session_state())._forget()
        yield [
            clear_dead_cookies(),
            display(msg.PASSWORD_CHANGED, duration=8000),
            rx.redirect(path_of("events")),
        ]

    @rx.event
    @rider_action(busy="deleting")
    async def request_deletion(self, rider: Rider):
        """Deletion requested: the link is e-mailed, the session ends, the rider goes to login."""
        session_state = await self._session_state()
        recipient = await rider.off_loop(profile.request_deletion, rider.account, session_state._cookies()[0])
        sent = msg.DELETE_EMAIL_SENT if recipient == rider.account.email else msg.DELETE_EMAIL_SENT_KID
        session_state._forget()
        yield [clear_dead_cookies(), display(sent, duration=10000), rx.redirect(path_of("login"))]


class DeleteUserState(rx.State):
    """The /delete-user/{code} page: pending, then success or failed with the server's message."""

    status: str = "pending"
    message: str = ""
    # The code this page has answered: a page load that runs again must not report it as used.
    answered_code: str = ""

    @rx.event
    async def confirm(self):
        code = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        if code == self.answered_code:
            return
        self.answered_code = code
        self.status = "pending"
        self.message = msg.DELETE_PENDING
        yield
        try:
            await in_session(profile.confirm_deletion, code)
        except CodeError as exc:
            self.status = "failed"
            self.message = str(exc)
            return
        self.status = "success"
        self.message = msg.ACCOUNT_DELETED
        # The deleted account may be the one signed in on this browser: the header forgets it.
        yield SessionState.guard
