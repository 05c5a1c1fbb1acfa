"""How rides read on screen: dates DD/MM/YYYY in the site's zone, durations h:mm:ss, units as spec 3."""

from datetime import datetime

from cycling_site.local_time import local

EMPTY = "-"


def day(iso: str) -> str:
    return local(datetime.fromisoformat(iso)).strftime("%d/%m/%Y")


def clock(seconds: int | float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def figure(value: float | int | None, unit: str = "", digits: int = 0) -> str:
    if value is None:
        return EMPTY
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}".strip()


def activity_row(row: dict) -> dict[str, str]:
    """One line of the activities table (spec 3 "Activity row")."""
    return {
        "id": row["activityFileId"],
        "date": day(row["date"]),
        "title": row["title"],
        "route": row["routeName"],
        "type": row["type"],
        "sport": row["sportType"],
        "distance": figure(row["distance"], "KM", 1),
        "elevation": figure(row["elevation"], "M"),
        "watt": figure(row["watt"], "w"),
        "wkg": figure(row["wattPerKg"], "w/kg", 1),
        "heart": figure(row["heartrate"], "bpm"),
        "time": clock(row["rideDuration"]),
    }
