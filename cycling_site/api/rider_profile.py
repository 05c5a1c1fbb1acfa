"""The dashboard's rider default data (spec 1 section 7: get-default-data-for-rider-profile)."""

from fastapi import APIRouter

from cycling_site.api.deps import CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.clients import activity
from cycling_site.models.common import utcnow
from cycling_site.services import rider_profile
from cycling_site.services.local_time import local

router = APIRouter(prefix="/auth", tags=["rider dashboard"])


@router.post("/get-default-data-for-rider-profile", responses=documented(401, 403, 413, 503))
async def default_data(account: CurrentAccount) -> dict:
    """The overall curve comes from the activity service; without it the rest still answers."""
    try:
        overall = (await activity.power_curve(account.uuid, []))["overall"]
    except activity.ActivityServiceError:
        overall = None
    data = rider_profile.default_data(account, overall, local(utcnow()).date())
    return {"status": True, "data": data}
