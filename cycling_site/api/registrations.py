"""Registering for an event (spec 2 section 7): the wizard's data, the phone code, the one multipart
submit, and short-lived links to the rider's own files."""

from dataclasses import fields
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from starlette.datastructures import UploadFile as StarletteUpload

from cycling_site.api.answers import (
    Answer,
    AnswerModel,
    AnswerWithMessage,
    DateOrEmpty,
    EventSummary,
    Key,
    Link,
    Verified,
)
from cycling_site.api.deps import DB, CurrentAccount, MaybeAccount
from cycling_site.api.errors import documented
from cycling_site.api.rules import requires
from cycling_site.local_time import local
from cycling_site.messages import registration as msg
from cycling_site.models.common import utcnow
from cycling_site.services import events, phone_otp, registrations, rider_files
from cycling_site.services.validation import checkbox_on

router = APIRouter(prefix="/events", tags=["registration"])

Text = Annotated[str, Field(max_length=200)]
BINARY = {"type": "string", "format": "binary"}


class EventIn(BaseModel):
    event_id: Text = ""


class OtpSendIn(BaseModel):
    event_id: Text = ""
    code: Text = ""
    phone: Text = ""
    type: Text = "sms"


class OtpVerifyIn(BaseModel):
    model_config = requires("key", "otp")

    key: Text = ""
    phone: Text = ""
    type: Text = "sms"
    otp: Annotated[
        Text, Field(description="The code sent", json_schema_extra={"pattern": r"^\s*[0-9]{6,}\s*$"})
    ] = ""


class FileDownloadIn(BaseModel):
    key: Text = ""


# The wizard's steps and the kinds of the rider's files, as the services name them.
WizardStep = Literal[registrations.STEP_ORDER]  # type: ignore[valid-type]
FileKind = Literal[tuple(rider_files.KINDS)]  # type: ignore[valid-type]


class FileOnRecord(AnswerModel):
    key: str = Field(description="Give it in the submit's file field instead of uploading the file again")
    name: str
    size: int = Field(description="bytes")


class EventUserData(AnswerModel):
    """Spec 2 "Event user data": what the wizard fills in from the account, the rider's last registration
    and the files on record. Text the rider has not given yet is empty."""

    email: str
    first_name: str
    last_name: str
    gender: int = Field(description="0 male, 1 female")
    dob: DateOrEmpty
    country: int = Field(description="ISO 3166 numeric country code")
    phone: str
    id_type: str
    expiry: DateOrEmpty
    device: str
    device_model: str
    device_serial: str
    team_name: str
    files: dict[FileKind, FileOnRecord] = Field(description="The latest file of each kind the rider gave")


class EventApplication(AnswerModel):
    """What the registration wizard needs."""

    event: EventSummary
    steps: list[WizardStep] = Field(description="This event's steps, in order")
    ustatus: str = Field(description="The rider's registration: pending, approved, declined, or empty")
    state_message: str
    can_register: bool
    user: EventUserData
    countries: list[str] = Field(description="The dial codes a phone may have")
    default_code: str = Field(description="The dial code chosen at first")
    latest_birth_date: date = Field(description="The latest date of birth the wizard accepts")
    earliest_expiry: date = Field(description="The earliest ID expiry date the wizard accepts")


class Submitted(AnswerModel):
    """The registration just stored."""

    id: int
    event_id: int
    status: str = Field(description="pending until race control decides")


def _registration_form() -> dict[str, Any]:
    """The OpenAPI of the one multipart submit: eventId and the fields of every step (as
    registrations.Application has them); each file field takes an upload or the key of a file on record."""
    properties: dict[str, Any] = {"eventId": {"type": "string", "description": "The event's id"}}
    for field in fields(registrations.Application):
        if field.name in rider_files.KINDS:
            schema = {
                "type": "string",
                "format": "binary",
                "description": "The file, or the key of a file on record",
            }
        elif field.type is bool:
            schema = {"type": "boolean"}
        else:
            schema = {"type": "string"}
        properties[field.name] = schema
    form = {"type": "object", "properties": properties, "required": ["eventId"]}
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": form}}}}


@router.post("/event_application", responses=documented(400, 401, 403, 404, 413, 503))
def event_application(body: EventIn, account: CurrentAccount, session: DB) -> Answer[EventApplication]:
    """What the wizard needs: the event, its steps, the rider's state on it and the data to fill in."""
    event = _event(session, body.event_id)
    now = utcnow()
    state = events.rider_state(event, account, events.latest_registration(session, event, account), now)
    today = local(now).date()
    application = EventApplication(
        event=events.event_summary(event),
        steps=registrations.steps(event),
        ustatus=state.status,
        state_message=state.message,
        can_register=state.can_register,
        user=registrations.user_data(session, account),
        countries=phone_otp.dial_codes(event),
        default_code=phone_otp.default_dial_code(event),
        latest_birth_date=registrations.latest_birth_date(today),
        earliest_expiry=registrations.earliest_expiry(today),
    )
    return Answer[EventApplication](data=application)


@router.post("/otp/send", responses=documented(400, 401, 403, 404, 413, 429, 503))
def send_otp(
    body: OtpSendIn, request: Request, account: CurrentAccount, session: DB
) -> AnswerWithMessage[Key]:
    event = _event(session, body.event_id)
    phone = phone_otp.check_phone(event, body.code, body.phone)
    address = request.client.host if request.client else ""
    key = phone_otp.send_code(session, account, event, phone, body.type, address)
    return AnswerWithMessage[Key](message=msg.OTP_SENT.format(phone=phone.full), data=Key(key=key))


@router.post("/otp/verify", responses=documented(400, 401, 403, 413, 503))
def verify_otp(body: OtpVerifyIn, account: CurrentAccount, session: DB) -> AnswerWithMessage[Verified]:
    """`phone` is the dial code and number together, as the code was sent."""
    phone_otp.verify_code(session, account, body.key, body.phone, body.otp)
    return AnswerWithMessage[Verified](message=msg.OTP_VERIFIED, data=Verified())


@router.post(
    "/registration", openapi_extra=_registration_form(), responses=documented(400, 401, 403, 404, 413, 503)
)
async def registration(
    request: Request, account: CurrentAccount, session: DB
) -> AnswerWithMessage[Submitted]:
    """One multipart form: eventId, the fields of every step, and each file either uploaded (proof, front,
    back, device_video) or given by the key of a file on record. Bad input stores nothing."""
    form = await request.form()
    values: dict = {}
    uploads: dict[str, StarletteUpload] = {}
    for name, value in form.multi_items():
        if isinstance(value, StarletteUpload):
            if name in rider_files.KINDS and value.filename:
                uploads[name] = value
        else:
            values[name] = value
    application = registrations.Application.of(
        {
            **values,
            "disclaimer": checkbox_on(values.get("disclaimer")),
            "terms": checkbox_on(values.get("terms")),
        }
    )
    event = _event(session, values.get("eventId", ""))
    registrations.may_register(session, event, account, utcnow())
    # Only the files of this event's steps are taken; any other upload is ignored, not kept.
    files = {
        kind: (upload.filename or "", await upload.read(rider_files.MAX_FILE_BYTES + 1))
        for kind, upload in uploads.items()
        if kind in registrations.file_kinds(event)
    }
    # Every file is checked before any is stored, so one bad file leaves nothing behind.
    for kind, (_name, data) in files.items():
        rider_files.check_content(kind, data)
    stored = []
    try:
        for kind, (name, data) in files.items():
            stored.append(rider_files.store(session, account, kind, name, data))
            setattr(application, kind, str(stored[-1].id))
        saved = registrations.submit(session, account, event.id, application)
    except Exception:
        session.rollback()
        rider_files.discard(session, stored)
        raise
    submitted = Submitted(id=saved.id, event_id=saved.event_id, status=saved.status)
    return AnswerWithMessage[Submitted](message=msg.THANK_YOU, data=submitted)


@router.post("/file_download", responses=documented(400, 401, 403, 413, 503))
def file_download(body: FileDownloadIn, account: CurrentAccount, session: DB) -> Answer[Link]:
    """A link to one of the rider's files (for race control any rider file, for finance wallet documents),
    good for a few minutes."""
    return Answer[Link](data=Link(url=rider_files.download_url(session, account, body.key)))


@router.get(
    "/files/{token}",
    response_class=FileResponse,
    responses={
        200: {
            "description": "The file, as a download, in its own type",
            "content": {content_type: {"schema": BINARY} for content_type in rider_files.EXTENSIONS},
        },
        **documented(404, 503),
    },
)
def rider_file(token: str, viewer: MaybeAccount, session: DB) -> FileResponse:
    """Served only to the session the link was made for, as a download that no browser runs as a page; any
    other caller, signed in or not, gets the same 404 as for an expired link."""
    found = rider_files.open_link(session, token, viewer)
    if found is None:
        raise HTTPException(status_code=404, detail=msg.LINK_EXPIRED)
    row, path = found
    return FileResponse(
        path,
        media_type=row.content_type,
        filename=rider_files.served_name(row),
        headers={
            "Cache-Control": "private, no-store",
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "sandbox",
        },
    )


def _event(session: DB, event_id: object):
    try:
        return events.get_event(session, event_id)
    except events.EventNotFound as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from exc
