"""The rider dashboard (/user/activities): profile header, Overview (curve, progress), Activities, shop tab.

Rides, curves and progress come from the activity service through its client, always for the signed-in
rider's own uuid; the header comes from the rider default data (spec 1 section 3).
"""

import math
from dataclasses import dataclass
from datetime import date, datetime

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from cycling_site.clients import activity
from cycling_site.db import get_session
from cycling_site.local_time import local
from cycling_site.messages import activities as msg
from cycling_site.models.accounts import Account, VerificationStatus
from cycling_site.models.common import utcnow
from cycling_site.models.third_party_import import ThirdPartyImport
from cycling_site.services import pre_verification, rider_profile, teams
from cycling_site.services import third_party_import as imports
from cycling_site.state import ride_format
from cycling_site.state.changes import put
from cycling_site.state.hashes import show_hash
from cycling_site.state.session import Rider, SessionState, rider_action, signed_in_account
from cycling_site.state.shop import SHOP_TAB, ShopState
from cycling_site.state.third_party_import import ImportState
from cycling_site.state.weigh_ins import WeighInState, owed_items
from cycling_site.wire.activity import MAX_COMPARE, MAX_FIT_BYTES, week_of_month

TABS = ("profile", "activities", "in-game-shop")
DEFAULT_TAB = "profile"
ACTIVITIES_TAB = "activities"
PERIODS = ("week", "month", "year")
DEFAULT_PERIOD = "year"
DATA_TYPES = ("distance", "elevation")
SORTS = ("desc", "asc")
LIST_TYPES = ("all", "ride", "workout", "event")
GRID_ROWS = (
    ("Time spent", "timeSpend"),
    ("All rides", "allRides"),
    ("Distance", "distance"),
    ("Elevation", "elevation"),
    ("Longest ride", "longestRide"),
    ("Race", "races"),
)
COMPARE_KEYS = ("ride_a", "ride_b")
# The overall graph's two series (spec 1: power and power_weight), on two axes.
CURVE_SERIES = [
    {"key": "power", "name": "Power", "unit": "W", "axis": "left"},
    {"key": "power_weight", "name": "Power / weight", "unit": "W/kg", "axis": "right"},
]


def tab_for(value: str, is_kid: bool) -> str:
    """Kids never see the shop: #in-game-shop falls back to #profile (spec 1 section 6)."""
    value = (value or "").strip().lstrip("#")
    if value not in TABS or (is_kid and value == SHOP_TAB):
        return DEFAULT_TAB
    return value


def grid_cell(key: str, figures: dict) -> str:
    value = figures.get(key, 0)
    if key == "timeSpend":
        return ride_format.figure(value / 60, "h", 1)
    if key in ("distance", "longestRide"):
        return ride_format.figure(value, "KM", 1)
    if key == "elevation":
        return ride_format.figure(value, "M")
    return ride_format.figure(value)


def other_platform_cell(key: str, imported: imports.RideStats) -> str:
    """The approved import's totals: time in hours (from seconds), distance in km, elevation in m; the
    other platform gives no figure for the other rows."""
    if key == "timeSpend":
        return ride_format.figure(imported.total_ride_time / 3600, "h", 1)
    if key == "distance":
        return ride_format.figure(imported.total_distance, "KM", 1)
    if key == "elevation":
        return ride_format.figure(imported.total_elevation, "M")
    return ride_format.EMPTY


def progress_rows(grid: dict, imported: imports.RideStats | None = None) -> list[dict[str, str]]:
    """The progress table's rows; the Other Platform column only with an approved import."""
    return [
        {
            "label": label,
            **{period: grid_cell(key, grid[period]) for period in ("overall", *PERIODS)},
            **({"other": other_platform_cell(key, imported)} if imported else {}),
        }
        for label, key in GRID_ROWS
    ]


# Curves travel as columns (the chart makes its rows): as rows, a curve repeated its keys at each of its
# 170 points, and that was over half of what a dashboard load sent.
Curve = dict[str, list[float | None]]


def no_curve() -> Curve:
    return {"seconds": []}


def curve_columns(graph: dict) -> Curve:
    """The overall graph's two series (power, power_weight) against seconds."""
    return {key: list(graph[key]) for key in ("seconds", "power", "power_weight")}


def merge_curves(compared: list[dict]) -> Curve:
    """The compared rides' power against every duration any of them has; a gap where a ride has none."""
    seconds = sorted({second for curve in compared for second in curve["seconds"]})
    columns: Curve = {"seconds": seconds}
    for key, curve in zip(COMPARE_KEYS, compared, strict=False):
        watts = dict(zip(curve["seconds"], curve["power"], strict=True))
        columns[key] = [watts.get(second) for second in seconds]
    return columns


@dataclass(frozen=True)
class HeaderReads:
    account: Account
    team: str | None
    reason: str
    latest_import: ThirdPartyImport | None
    owed: list[dict] | None


def _header_reads(db: Session, verified: Account, now: datetime) -> HeaderReads:
    """What the header shows, read together: the account as it is now (the session check's copy may be a few
    seconds old, and the rider may just have changed it, on any worker), its team, a rejected verification's
    reason, the latest ride import (its banner and the Other Platform column) and the weigh-in banner's
    weights owed."""
    account = db.get(Account, verified.id) or verified
    return HeaderReads(
        account,
        teams.header_team(db, account.id),
        pre_verification.rejection_reason(db, account),
        imports.latest(db, account),
        owed_items(db, account, now),
    )


class DashboardState(rx.State):
    tab: str = DEFAULT_TAB
    is_kid: bool = False
    profile_loading: bool = True
    profile_error: str = ""
    jersey: str = ""
    country_code: str = ""
    country_name: str = ""
    firstname: str = ""
    lastname: str = ""
    team: str = ""
    gender: str = ""
    category: str = ""
    level: str = ""
    ftp: str = ""
    weight: str = ""
    height: str = ""
    age: str = ""
    verification_status: str = ""
    verification_reason: str = ""
    verification_alert_closed: bool = False

    overall_curve: Curve = no_curve()
    curve_error: str = ""
    selected: list[str] = []
    compare_curve: Curve = no_curve()
    compare_names: list[str] = []
    compare_loading: bool = False

    year_label: str = ""
    month_label: str = ""
    week_label: str = ""
    grid: list[dict[str, str]] = []
    other_platform: bool = False
    period: str = DEFAULT_PERIOD
    data_type: str = "distance"
    bars: list[dict] = []
    progress_loading: bool = True
    progress_error: str = ""

    rows: list[dict[str, str]] = []
    list_type: str = "all"
    sort: str = "desc"
    page: int = 1
    finished: bool = False
    activities_loading: bool = True
    more_loading: bool = False
    activities_error: str = ""
    download_error: str = ""
    downloading: str = ""

    uploading: bool = False
    upload_percent: int = 0
    upload_processing: bool = False
    upload_error: str = ""
    upload_notice: str = ""
    # The type and sort of the rows shown, so the same list opened again is not emptied first.
    _listed: str = ""

    @rx.var
    def upload_label(self) -> str:
        """What the upload button says: the share of the file sent, then that it is being processed."""
        if not self.uploading:
            return msg.UPLOAD_BUTTON
        if self.upload_processing:
            return msg.UPLOAD_PROCESSING
        return msg.UPLOAD_SENDING.format(percent=self.upload_percent)

    @rx.var
    def compare_series(self) -> list[dict]:
        return [
            {"key": key, "name": name, "unit": "W", "axis": "left"}
            for key, name in zip(COMPARE_KEYS, self.compare_names, strict=False)
        ]

    async def _fetch_overall(self, rider_uuid: str) -> dict | None:
        """The rider's overall curve from the activity service; None (and the message) when it fails."""
        try:
            return (await activity.power_curve(rider_uuid, []))["overall"]
        except activity.ActivityServiceError:
            self.curve_error = msg.CURVE_FAILED
            return None

    def _today(self) -> date:
        return local(utcnow()).date()

    def _fill_header(self, data: dict) -> None:
        user = data["user"]
        player = data["userData"]["data"]["PlayerData"]
        profile, personal = player["PlayerProfileStruct"], player["PlayerPersonalStruct"]
        approved = user["src_verification_status"] == VerificationStatus.approved
        category = profile["PlayerCategoryId"]
        put(
            self,
            jersey=user["jersey"],
            country_code=user["countryCode"],
            country_name=user["countryName"],
            team=user["team"] or "",
            age=str(user["age"]) if user["age"] is not None else "",
            is_kid=user["isKid"],
            firstname=profile["PlayerFirstName"],
            lastname=profile["PlayerLastName"],
            gender=rider_profile.gender_label(profile["Gender"]),
            category=f"CAT {category}" if approved and category else "",
            level=str(personal["PlayerLevel"]),
            ftp=str(personal["PlayerFtp"]),
            weight=f"{profile['Weight']:g}",
            height=str(profile["HeightCm"]),
            overall_curve=curve_columns(data["overall_average_graph"]),
        )

    @rx.event
    async def load(self):
        """Header and overall curve first (what the rider sees on arrival), then progress, and the rides
        when their tab shows."""
        self.profile_loading = True
        (await self.get_state(ShopState)).close_dialogs()
        put(self, profile_error="", curve_error="", upload_error="", upload_notice="", download_error="")
        put(self, selected=[], compare_curve=no_curve(), compare_names=[])
        try:
            async for update in self._load():
                yield update
        except SQLAlchemyError:
            self.profile_error = msg.PROFILE_FAILED
            self.profile_loading = self.progress_loading = self.activities_loading = False

    @rider_action(reads_only=True)
    async def _load(self, rider: Rider):
        now = utcnow()
        header = await rider.off_loop(_header_reads, rider.account, now)
        (await self.get_state(WeighInState))._show_owed(header.owed, now)
        account = header.account
        fragment = self.router.url.fragment
        put(self, is_kid=account.is_kid, tab=tab_for(fragment, account.is_kid))
        overall = await self._fetch_overall(account.uuid)
        (await self.get_state(ImportState)).opened(header.latest_import)
        self._fill_header(rider_profile.default_data(account, overall, self._today(), team=header.team))
        put(
            self,
            verification_status=account.verification_status,
            verification_reason=header.reason,
            verification_alert_closed=False,
        )
        self.profile_loading = False
        self.progress_loading = True
        put(self, progress_error="")
        # The ride list is read when its tab shows: most visits stay on the Overview.
        with_rides = self.tab == ACTIVITIES_TAB
        if with_rides:
            self.activities_loading = True
            put(self, activities_error="")
        events = []
        if account.is_kid and fragment.lstrip("#") == SHOP_TAB:
            events.append(show_hash(DEFAULT_TAB))
        if self.tab == SHOP_TAB:
            events.append(ShopState.load)
        yield events or None
        # Progress (and rides) in this same event: an event of its own costs a session check and an update.
        await self._fill_progress(rider, imports.totals_of(header.latest_import))
        self.progress_loading = False
        if with_rides:
            await self._fill_rides(rider)
            self.activities_loading = False

    @rx.event
    def close_verification_alert(self) -> None:
        """Got it: the under-review alert stays away until the next visit."""
        self.verification_alert_closed = True

    def _opened(self, value: str) -> list:
        """The tab a hash or a click asks for; the shop and the ride list load when their tab opens."""
        before, self.tab = self.tab, tab_for(value, self.is_kid)
        if self.tab == before:
            return []
        if self.tab == SHOP_TAB:
            return [ShopState.load]
        if self.tab == ACTIVITIES_TAB:
            return [DashboardState.reload_activities]
        return []

    @rx.event
    def hash_changed(self, value: str):
        events = self._opened(value)
        if value.lstrip("#") != self.tab and value:
            events.append(show_hash(self.tab))
        return events or None

    @rx.event
    def select_tab(self, value: str):
        return [*self._opened(value), show_hash(self.tab)]

    @rx.event
    @rider_action(busy="progress_loading", errors="progress_error", reads_only=True)
    async def load_progress(self, rider: Rider):
        await self._fill_progress(rider, await rider.off_loop(imports.approved_totals, rider.account))

    async def _fill_progress(self, rider: Rider, imported: imports.RideStats | None) -> None:
        today = self._today()
        week = week_of_month(today)
        rider_uuid = rider.account.uuid
        try:
            grid = await activity.progress_wall(rider_uuid, today.year, today.month, week)
            bars = await activity.progress(rider_uuid, self.period, today.year, today.month, week)
        except activity.ActivityServiceError:
            self.progress_error = msg.PROGRESS_FAILED
            return
        put(
            self,
            bars=bars,
            year_label=str(today.year),
            month_label=today.strftime("%b"),
            week_label=f"Week {week}",
            other_platform=imported is not None,
            grid=progress_rows(grid, imported),
        )

    @rx.event
    async def set_period(self, value: str | list[str]):
        if isinstance(value, str) and value in PERIODS and value != self.period:
            self.period = value
            return DashboardState.load_progress
        return None

    @rx.event
    def set_data_type(self, value: str | list[str]) -> None:
        if isinstance(value, str) and value in DATA_TYPES:
            self.data_type = value

    async def _fetch_page(self, rider: Rider, page: int) -> bool:
        try:
            answer = await activity.activities(rider.account.uuid, self.list_type, page, self.sort)
        except activity.ActivityServiceError:
            self.activities_error = msg.LIST_FAILED
            return False
        rows = [ride_format.activity_row(row) for row in answer["results"]]
        put(
            self,
            rows=rows if page == 1 else [*self.rows, *rows],
            page=answer["currentPage"],
            finished=answer["currentPage"] >= answer["totalPages"],
        )
        self._listed = f"{self.list_type}/{self.sort}"
        return True

    @rx.event
    @rider_action(busy="activities_loading", errors="activities_error", reads_only=True)
    async def reload_activities(self, rider: Rider):
        """Type and sort changes start again from page 1 (spec 1 section 4); the same list opened again
        keeps its rows until the fresh ones are in."""
        await self._fill_rides(rider)

    async def _fill_rides(self, rider: Rider) -> None:
        if self._listed != f"{self.list_type}/{self.sort}":
            put(self, rows=[], finished=False)
        await self._fetch_page(rider, 1)

    @rx.event
    @rider_action(busy="more_loading", errors="activities_error", reads_only=True)
    async def load_more(self, rider: Rider):
        if not self.finished:
            await self._fetch_page(rider, self.page + 1)

    @rx.event
    def set_sort(self, value: str):
        if value in SORTS:
            self.sort = value
            return DashboardState.reload_activities
        return None

    @rx.event
    def set_list_type(self, value: str):
        if value in LIST_TYPES:
            self.list_type = value
            return DashboardState.reload_activities
        return None

    @rx.event
    @rider_action(busy="compare_loading", errors="curve_error")
    async def toggle_compare(self, rider: Rider, file_id: str):
        """At most two rides: a third drops the oldest pick; none restores the overall curve."""
        if file_id in self.selected:
            self.selected = [picked for picked in self.selected if picked != file_id]
        else:
            self.selected = [*self.selected, str(file_id)][-MAX_COMPARE:]
        if not self.selected:
            self.compare_curve, self.compare_names = no_curve(), []
            return
        try:
            answer = await activity.power_curve(rider.account.uuid, list(self.selected))
        except activity.ActivityServiceError:
            self.curve_error = msg.CURVE_FAILED
            return
        compared = answer["compare"]
        self.compare_names = [f"{curve['title']} {ride_format.day(curve['date'])}" for curve in compared]
        self.compare_curve = merge_curves(compared)

    @rx.event
    def clear_compare(self) -> None:
        self.selected, self.compare_curve, self.compare_names = [], no_curve(), []

    @rx.event
    @rider_action(errors="download_error")
    async def download(self, rider: Rider, file_id: str):
        self.downloading = file_id
        yield
        try:
            name, data = await activity.download_activity_file(rider.account.uuid, file_id)
        except activity.ActivityServiceError:
            self.download_error = msg.DOWNLOAD_FAILED
            return
        finally:
            self.downloading = ""
        yield rx.download(data=data, filename=name)

    @rx.event(background=True)
    async def upload_ride(self, chunks: rx.UploadChunkIterator):
        """A background event: the rider keeps using the page while a long ride is read and measured.

        The file streams in; the button shows how much of it has arrived, then that it is processed."""
        async with self:
            self.upload_error = self.upload_notice = ""
            self.uploading = True
            self.upload_percent = 0
            self.upload_processing = False
            with get_session() as db:
                account = await signed_in_account(self, db)
        name, data = "", bytearray()
        async for chunk in chunks:
            name = name or chunk.filename
            # Past the cap the rest is only drained: the service refuses the file by its size.
            if len(data) <= MAX_FIT_BYTES:
                data += chunk.data
        error = notice = ""
        if account is not None and name:
            if not name.lower().endswith(".fit"):
                error = msg.NOT_A_FIT_NAME
            else:
                async with self:
                    self.upload_processing = True
                try:
                    ride = await activity.upload(
                        account.uuid, bytes(data), name, ftp=account.ftp, weight=account.weight
                    )
                except activity.ActivityServiceError as exc:
                    error = str(exc)
                else:
                    notice = msg.UPLOADED.format(title=ride["title"])
        async with self:
            self.uploading = self.upload_processing = False
            self.upload_error, self.upload_notice = error, notice
        if account is None:
            yield SessionState.guard
        elif notice:
            yield DashboardState.refresh_after_upload

    @rx.event
    def upload_progress(self, progress: dict) -> None:
        """How much of the file has reached the site, for the button."""
        share = progress.get("progress")
        if self.uploading and isinstance(share, int | float) and math.isfinite(share):
            self.upload_percent = min(100, max(0, round(share * 100)))

    @rx.event
    @rider_action()
    async def refresh_after_upload(self, rider: Rider):
        overall = await self._fetch_overall(rider.account.uuid)
        if overall is not None:
            self.overall_curve = curve_columns(overall)
        yield [DashboardState.load_progress, DashboardState.reload_activities]

    @rx.event
    def upload_rejected(self, codes: str) -> None:
        self.upload_notice = ""
        self.upload_error = msg.UPLOAD_TOO_LARGE if "too-large" in codes else msg.NOT_A_FIT_NAME
