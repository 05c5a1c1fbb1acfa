"""Times are stored in UTC and shown in the site's zone, GMT+4 (Asia/Dubai)."""

from datetime import datetime
from zoneinfo import ZoneInfo

from cycling_site.models.common import as_utc

LOCAL_TZ = ZoneInfo("Asia/Dubai")


def local(moment: datetime) -> datetime:
    return as_utc(moment).astimezone(LOCAL_TZ)


def local_text(moment: datetime) -> str:
    """Day and time as race control reads them, in the site's zone."""
    return f"{local(moment):%d/%m/%Y %H:%M} GST"
