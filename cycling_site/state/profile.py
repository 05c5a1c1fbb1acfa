"""The profile screen: its tabs, the edit form, the avatar, the password change and the deletion request."""

from datetime import UTC, datetime

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.db import get_session
from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.routes import path_of
from cycling_site.services import profile
from cycling_site.services.accounts import FormErrors
from cycling_site.services.codes import CodeError
from cycling_site.services.countries import countries
from cycling_site.services.validation import checkbox_on
from cycling_site.state.hashes import show_hash
from cycling_site.state.session import SessionState

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
    def country_options(self) -> list[list[str]]:
        return [[str(cid), name] for cid, name in countries()]

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

    async def _account(self, session) -> Account | None:
        """The signed-in account, checked afresh: a revoked or expired session cannot change anything."""
        return (await self._session_state()).current_account(session)

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
            with get_session() as session:
                account = await self._account(session)
        except SQLAlchemyError:
            self.load_failed = True
            return None
        if account is None:
            # SessionState.guard, which runs first, sends the visitor to login.
            return None
        self._fill(account)
        self.loaded = True
        return None

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
    async def save(self, form_data: dict):
        self.saving = True
        self.errors = {}
        self.notice = ""
        yield
        dob = form_data.get("dob")
        form = profile.ProfileForm(
            **{name: str(form_data.get(name, "")) for name in EDIT_FIELDS},
            marketing_consent=checkbox_on(form_data.get("marketing")),
            dob=None if dob is None else str(dob),
        )
        try:
            with get_session() as session:
                account = await self._account(session)
                if account is None:
                    yield SessionState.guard
                    return
                account = profile.update_profile(session, account, form)
        except FormErrors as exc:
            self.errors = exc.errors
            return
        finally:
            self.saving = False
        self._fill(account)
        (await self._session_state())._remember(account)
        self.notice = msg.PROFILE_UPDATED

    async def _change_avatar(self, change, done: str):
        """One avatar change for the signed-in rider: busy state, the error, the header and a toast."""
        self.avatar_error = ""
        self.avatar_busy = True
        yield
        try:
            with get_session() as session:
                account = await self._account(session)
                if account is None:
                    yield SessionState.guard
                    return
                account = change(session, account)
        except FormErrors as exc:
            self.avatar_error = next(iter(exc.errors.values()))
            return
        finally:
            self.avatar_busy = False
        (await self._session_state())._remember(account)
        yield rx.toast.success(done)

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
    async def change_password(self, form_data: dict):
        """Password changed: the session ends and the rider goes to the events (spec 2 section 4)."""
        self.changing_password = True
        self.password_errors = {}
        yield
        session_state = await self._session_state()
        try:
            with get_session() as session:
                account = await self._account(session)
                if account is None:
                    yield SessionState.guard
                    return
                profile.change_password(
                    session,
                    account,
                    str(form_data.get("current_password", "")),
                    str(form_data.get("password", "")),
                    str(form_data.get("repeatPassword", "")),
                    self.router.session.client_ip,
                )
        except FormErrors as exc:
            self.password_errors = exc.errors
            return
        finally:
            self.changing_password = False
        session_state._forget()
        yield rx.toast.success(msg.PASSWORD_CHANGED, duration=8000)
        yield rx.redirect(path_of("events"))

    @rx.event
    async def request_deletion(self):
        """Deletion requested: the link is e-mailed, the session ends, the rider goes to login."""
        self.deleting = True
        yield
        session_state = await self._session_state()
        try:
            with get_session() as session:
                account = await self._account(session)
                if account is None:
                    yield SessionState.guard
                    return
                recipient = profile.request_deletion(session, account, session_state.token)
                sent = msg.DELETE_EMAIL_SENT if recipient == account.email else msg.DELETE_EMAIL_SENT_KID
        finally:
            self.deleting = False
        session_state._forget()
        yield rx.toast.success(sent, duration=10000)
        yield rx.redirect(path_of("login"))


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
            with get_session() as session:
                profile.confirm_deletion(session, code)
        except CodeError as exc:
            self.status = "failed"
            self.message = str(exc)
            return
        self.status = "success"
        self.message = msg.ACCOUNT_DELETED
        session_state = await self.get_state(SessionState)
        if session_state.token:
            # The deleted account may be the one signed in on this browser: the header forgets it.
            session_state._check()
