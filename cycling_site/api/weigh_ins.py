"""Weight submissions (spec 1 section 7): POST ../api/weight-submissions/store, the rider's pre- or post-race
weight for an event with its proof, within the event's window."""

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.datastructures import UploadFile

from cycling_site.api.answers import Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.services import events, weigh_ins

router = APIRouter(prefix="/weight-submissions", tags=["weight submissions"])

PROOF_TYPES = "a photo (JPEG or PNG) or a video (MP4, MOV or WEBM)"


def _store_form() -> dict[str, Any]:
    """The OpenAPI of the multipart form (read by hand below, so every rule answers with its own message)."""
    form = {
        "type": "object",
        "properties": {
            "event_id": {"type": "string", "description": "The event's id", "examples": ["3"]},
            "type": {"type": "string", "enum": list(weigh_ins.TYPES)},
            "weight": {
                "type": "number",
                "minimum": float(weigh_ins.WEIGHT_MIN),
                "maximum": float(weigh_ins.WEIGHT_MAX),
                "multipleOf": float(weigh_ins.WEIGHT_STEP),
                "description": "kg, 25 to 200 in steps of 0.1",
            },
            "proof": {
                "type": "string",
                "format": "binary",
                "description": f"The weigh-in: {PROOF_TYPES}, up to 8 MB, checked by its content",
            },
        },
        "required": ["event_id", "type", "weight", "proof"],
    }
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": form}}}}


@router.post("/store", openapi_extra=_store_form(), responses=documented(400, 401, 403, 404, 413, 503))
async def store(request: Request, account: CurrentAccount, session: DB) -> Message:
    """The rider must be registered (pending or approved) for an event with weigh-ins, within that type's
    window, with no declaration of that type pending or approved. The proof is checked by its content (a
    text file named .jpg is refused) and kept as a private file that only the rider and race control open.
    Bad input answers 400 with a message per field (weight, proof, type, event) and stores nothing; an event
    that does not exist answers 404."""
    form = await request.form()
    values: dict[str, str] = {}
    upload = None
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            if name == "proof" and value.filename and upload is None:
                upload = (value.filename, await value.read(weigh_ins.MAX_PROOF_BYTES + 1))
        else:
            values.setdefault(name, value)
    event_id, kind, weight = (values.get(name, "") for name in ("event_id", "type", "weight"))
    try:
        submission = weigh_ins.submit(session, account, event_id, kind, weight, upload)
    except events.EventNotFound as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from exc
    return Message(message=weigh_ins.submitted_message(submission.type))
