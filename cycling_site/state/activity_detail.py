"""The activity detail view (/user/activities/{fileId}): header tiles and the five graphs (spec 3)."""

import reflex as rx

from cycling_site.clients import activity
from cycling_site.messages import activities as msg
from cycling_site.services import rider_profile
from cycling_site.state import ride_format
from cycling_site.state.session import Rider, rider_action

# (key in the graph data, chart name, unit)
GRAPHS = (
    ("altitude", "Elevation", "m"),
    ("power", "Power", "W"),
    ("speed", "Speed", "km/h"),
    ("heartRate", "Heart rate", "bpm"),
    ("cadence", "Cadence", "rpm"),
)


def graph_rows(graph: dict) -> list[dict]:
    keys = ("time", "distance", *(key for key, *_ in GRAPHS))
    return [
        dict(zip(keys, values, strict=True)) for values in zip(*(graph[key] for key in keys), strict=True)
    ]


NO_DATA = "No data"


def summary_text(figures: dict | None, unit: str) -> str:
    if not figures:
        return NO_DATA
    return " · ".join(
        f"{name.upper()} {figures[name]} {unit}" for name in ("avg", "max", "min") if name in figures
    )


class ActivityDetailState(rx.State):
    file_id: str = ""
    loading: bool = True
    error: str = ""
    title: str = ""
    route_name: str = ""
    date: str = ""
    avg_watts: str = ""
    work: str = ""
    training_load: str = ""
    intensity: str = ""
    distance: str = ""
    elevation: str = ""
    duration: str = ""
    gender: str = ""
    category: str = ""
    axis: str = "distance"
    points: list[dict] = []
    summaries: dict[str, str] = {}
    averages: dict[str, float] = {}
    downloading: bool = False
    download_error: str = ""

    @rx.event
    @rider_action()
    async def load(self, rider: Rider):
        self.loading = True
        self.error = self.download_error = ""
        self.points = []
        self.file_id = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        yield
        account = rider.account
        try:
            info = (await activity.activity_info(account.uuid, self.file_id))["header_detail"]
            graph = await activity.detailed_graph_data(account.uuid, self.file_id)
        except activity.ActivityServiceError:
            self.error = msg.DETAIL_FAILED
            self.loading = False
            return
        self.title = info["title"]
        self.route_name = info["routeName"]
        self.date = ride_format.day(info["date"])
        self.avg_watts = ride_format.figure(info["watt"], "W")
        self.work = ride_format.figure(info["totalWorkout"], "kJ")
        self.training_load = ride_format.figure(info["traningLoad"], "", 1)
        self.intensity = ride_format.figure(info["intensity"], "%")
        self.distance = ride_format.figure(info["distance"], "KM", 1)
        self.elevation = ride_format.figure(info["elevation"], "M")
        self.duration = ride_format.clock(info["rideDuration"])
        self.gender = rider_profile.gender_label(account.gender)
        self.category = f"CAT {account.category_id}" if account.category_id else ""
        self.axis = graph["axis"]
        self.points = graph_rows(graph)
        summary = graph["summary"]
        self.summaries = {key: summary_text(summary.get(key), unit) for key, _name, unit in GRAPHS}
        self.summaries["altitude"] = f"GAIN {self.elevation}"
        self.averages = {key: figures["avg"] for key, figures in summary.items() if figures}
        self.loading = False

    @rx.event
    @rider_action(busy="downloading", errors="download_error")
    async def download(self, rider: Rider):
        try:
            name, data = await activity.download_activity_file(rider.account.uuid, self.file_id)
        except activity.ActivityServiceError:
            self.download_error = msg.DOWNLOAD_FAILED
            return
        yield rx.download(data=data, filename=name)
