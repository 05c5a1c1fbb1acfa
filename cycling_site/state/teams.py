"""Public teams (/teams) and the rider's own (/my-teams), spec 2 section 2, with what riders expect beyond
it: creating a team, joining and leaving one.

Who acts is the verified session's rider (`rider_action`); a visitor sees the public list and, on
/my-teams, a sign-in prompt. Both pages share one state: the view says which list is shown."""

import logging
from collections.abc import Callable

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.db import get_session, off_loop
from cycling_site.messages import teams as msg
from cycling_site.models import Account
from cycling_site.services import teams
from cycling_site.services.teams import TeamForm, TeamPage
from cycling_site.services.validation import FormErrors
from cycling_site.settings import settings
from cycling_site.state.paging import page_window
from cycling_site.state.session import Rider, rider_action, signed_in_account
from cycling_site.state.site_messages import display, errors_popup

PUBLIC, JOINED, OWNED = "public", "joined", "owned"
_log = logging.getLogger(__name__)


def card(team: teams.TeamCard, rider_id: int | None, member_of: set[int]) -> dict[str, str]:
    """One team as its card shows it."""
    base = settings.team_events_url
    return {
        "id": str(team.team_id),
        "name": team.name,
        "description": team.description,
        "country": team.country.lower(),
        "country_name": teams.country_name(team.country),
        "members": str(team.member_count),
        "link": f"{base}/{team.team_id}" if base else "",
        "owner": "yes" if rider_id is not None and team.owner_id == rider_id else "",
        "member": "yes" if team.team_id in member_of else "",
    }


# The create form's country options: built once, written into the page, never sent with the state.
COUNTRY_OPTIONS = [["", msg.NO_COUNTRY], *([code, name] for code, name in teams.country_choices())]


def _listed(view: str, account: Account | None, page: int) -> tuple[TeamPage, set[int]]:
    """A view's page of teams, and which of them the rider is a member of."""
    with get_session() as db:
        if view == PUBLIC:
            found = teams.public_teams(db, page)
        elif account is None:
            found = TeamPage([], 1, 0, teams.PER_PAGE, 0)
        else:
            found = teams.rider_teams(db, account, view == OWNED, page)
        ids = [team.team_id for team in found.teams]
        return found, teams.memberships(db, account.id, ids) if account is not None else set()


class TeamsState(rx.State):
    view: str = PUBLIC
    teams: list[dict[str, str]] = []
    loading: bool = True
    load_error: str = ""
    current_page: int = 1
    last_page: int = 1
    total: int = 0
    # The rider as this state last read the verified session (a visitor sees the sign-in prompts).
    rider_known: bool = False
    acting_on: str = ""
    create_open: bool = False
    creating: bool = False
    create_errors: dict[str, str] = {}

    @rx.var
    def pages(self) -> list[int]:
        return page_window(self.current_page, self.last_page)

    async def _read(self, account: Account | None, page: int) -> None:
        """Fills the list of the current view; the page says so when the database cannot be read."""
        self.load_error = ""
        self.rider_known = account is not None
        try:
            found, member_of = await off_loop(_listed, self.view, account, page)
        except SQLAlchemyError:
            _log.exception("The teams could not be read")
            self.load_error = msg.LOAD_FAILED
            found, member_of = TeamPage([], 1, 0, teams.PER_PAGE, 0), set()
        rider_id = account.id if account is not None else None
        self.teams = [card(team, rider_id, member_of) for team in found.teams]
        self.current_page = found.page
        self.last_page = max(found.total_pages, 1)
        self.total = found.total_count
        self.loading = False

    async def _reload(self, page: int) -> None:
        with get_session() as db:
            account = await signed_in_account(self, db)
        await self._read(account, page)

    @rx.event
    async def load_public(self):
        self.view = PUBLIC
        self.loading = True
        self.create_open = False
        yield
        await self._reload(1)

    @rx.event
    async def load_mine(self):
        """Joined Teams first (spec); a visitor is asked to sign in."""
        self.view = JOINED
        self.loading = True
        self.create_open = False
        yield
        await self._reload(1)

    @rx.event
    async def show_tab(self, tab: str):
        if tab not in (JOINED, OWNED) or tab == self.view:
            return
        self.view = tab
        self.loading = True
        yield
        await self._reload(1)

    @rx.event
    async def go_to_page(self, page: int):
        try:
            wanted = int(page)
        except (TypeError, ValueError):
            return
        await self._reload(wanted)

    async def _act(self, rider: Rider, team_id: str, act: Callable[[], str], toast_id: str):
        """Join or leave, one at a time: the outcome's message, a refusal (already a member, an owner with
        members, a private or closed team) in the site's errors pop-up, and the list read again."""
        if self.acting_on:
            return
        self.acting_on = str(team_id)
        yield
        try:
            outcome = display(await off_loop(act), id=toast_id)
        except FormErrors as refusal:
            outcome = errors_popup(refusal)
        except SQLAlchemyError:
            _log.exception("The team could not be joined or left")
            rider.db.rollback()
            outcome = rx.toast.error(msg.ACTION_FAILED, id="team-error")
        self.acting_on = ""
        await self._read(rider.account, self.current_page)
        yield outcome

    @rx.event
    @rider_action()
    async def join(self, rider: Rider, team_id: str):
        def act() -> str:
            return msg.TEAM_JOINED.format(name=teams.join(rider.db, rider.account, team_id).name)

        async for update in self._act(rider, team_id, act, "team-joined"):
            yield update

    @rx.event
    @rider_action()
    async def leave(self, rider: Rider, team_id: str):
        def act() -> str:
            team, closed = teams.leave(rider.db, rider.account, team_id)
            return (msg.TEAM_CLOSED if closed else msg.TEAM_LEFT).format(name=team.name)

        async for update in self._act(rider, team_id, act, "team-left"):
            yield update

    @rx.event
    def set_create_open(self, is_open: bool) -> None:
        if self.creating:
            return
        self.create_open = bool(is_open)
        self.create_errors = {}

    @rx.event
    @rider_action(busy="creating", errors="create_errors")
    async def create(self, rider: Rider, form: dict):
        """Bad input keeps the dialog open with its messages; a new team opens the rider's owned teams."""
        values = {key: str(form.get(key, "") or "") for key in ("name", "description", "country")}
        try:
            team = await rider.off_loop(teams.create, rider.account, TeamForm(**values))
        except SQLAlchemyError:
            _log.exception("The team could not be created")
            rider.db.rollback()
            self.create_errors = {"form": msg.ACTION_FAILED}
            return
        self.create_open = False
        if self.view != PUBLIC:
            self.view = OWNED
        await self._read(rider.account, 1)
        yield display(msg.TEAM_CREATED.format(name=team.name), id="team-created")
