"""The rider's own account: profile update, avatar, password change, deletion (spec 1 and 2 section 7)."""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field, StrictBool, StrictFloat, StrictInt, WithJsonSchema
from sqlmodel import Session
from starlette.datastructures import UploadFile

from cycling_site.api.answers import AnswerWithMessage, Message, UserProfile, Verified
from cycling_site.api.auth import COUNTRY, GENDER, HEIGHT, NAME, PASSWORD, WEIGHT
from cycling_site.api.deps import DB, CurrentAccount, SentToken
from cycling_site.api.errors import documented
from cycling_site.api.rules import requires
from cycling_site.messages import accounts as msg
from cycling_site.messages import site as site_msg
from cycling_site.models import Account
from cycling_site.services import accounts, profile, teams
from cycling_site.services.codes import CodeError

router = APIRouter(prefix="/auth", tags=["profile"])

SHORT = 300
Number = StrictInt | StrictFloat | str | None
ProfileAnswer = AnswerWithMessage[UserProfile]


class ProfileIn(BaseModel):
    """Numbers may come as text (the form's fields); the schema gives the numbers the rules accept."""

    model_config = requires("firstname", "lastname", "country", "gender", "weight", "height", "dob")

    firstname: str = Field(default="", max_length=SHORT, json_schema_extra=NAME)
    lastname: str = Field(default="", max_length=SHORT, json_schema_extra=NAME)
    country: Annotated[Number, WithJsonSchema({"type": "integer", **COUNTRY})] = None
    gender: Annotated[Number, WithJsonSchema({"type": "integer", **GENDER})] = None
    weight: Annotated[Number, WithJsonSchema({"type": "number", "description": "kg", **WEIGHT})] = None
    height: Annotated[Number, WithJsonSchema({"type": "number", "description": "cm", **HEIGHT})] = None
    IsAllowedToSendMarketingEmails: StrictBool = False
    dob: Annotated[
        str | None,
        WithJsonSchema({"type": "string", "format": "date"}),
        Field(max_length=SHORT, description="YYYY-MM-DD, from 1900 to the age of 6 today; a kid's is kept"),
    ] = None


class ChangePasswordIn(BaseModel):
    model_config = requires("current_password", "password", "repeatPassword")

    current_password: str = Field(default="", max_length=SHORT, json_schema_extra={"minLength": 1})
    password: str = Field(default="", max_length=SHORT, json_schema_extra=PASSWORD)
    repeatPassword: str = Field(default="", max_length=SHORT, description="The same as password")


def _text(value: Number) -> str:
    """The form's text of a number: 4.0 is the integer 4 (country and gender are read as integers)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def _client_address(request: Request) -> str:
    return request.client.host if request.client else ""


def _user(session: Session, account: Account) -> dict:
    return accounts.profile(account, teams.header_team(session, account.id))


@router.put("/profile", responses=documented(400, 401, 403, 413, 503))
def update_profile(body: ProfileIn, account: CurrentAccount, session: DB) -> ProfileAnswer:
    form = profile.ProfileForm(
        firstname=body.firstname,
        lastname=body.lastname,
        country=_text(body.country),
        gender=_text(body.gender),
        weight=_text(body.weight),
        height=_text(body.height),
        marketing_consent=body.IsAllowedToSendMarketingEmails,
        dob=body.dob,
    )
    updated = profile.update_profile(session, account, form)
    return ProfileAnswer(message=msg.PROFILE_UPDATED, data=_user(session, updated))


# The form as read below: the image is required, and a missing one answers the spec's message.
AVATAR_FORM = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"avatar": {"type": "string", "format": "binary"}},
                    "required": ["avatar"],
                }
            }
        },
    }
}


@router.post("/avatar", openapi_extra=AVATAR_FORM, responses=documented(400, 401, 403, 413, 503))
async def upload_avatar(request: Request, account: CurrentAccount, session: DB) -> ProfileAnswer:
    """Multipart field `avatar`; checked by content, never by its name or declared type."""
    avatar = (await request.form()).get("avatar")
    data = await avatar.read(profile.AVATAR_MAX_BYTES + 1) if isinstance(avatar, UploadFile) else b""
    updated = profile.store_avatar(session, account, data)
    return ProfileAnswer(message=msg.AVATAR_UPDATED, data=_user(session, updated))


@router.delete("/avatar", responses=documented(400, 401, 403, 413, 503))
def remove_avatar(account: CurrentAccount, session: DB) -> ProfileAnswer:
    updated = profile.remove_avatar(session, account)
    return ProfileAnswer(message=msg.AVATAR_REMOVED, data=_user(session, updated))


@router.get(
    "/avatar/{name}",
    response_class=FileResponse,
    responses={
        200: {
            "description": "The avatar",
            "content": {"image/webp": {"schema": {"type": "string", "format": "binary"}}},
        },
        **documented(401, 404, 503),
    },
)
def avatar(name: str, account: CurrentAccount, session: DB) -> FileResponse:
    """Only to the avatar's owner and race control; anyone else gets the same 404 as for a missing file."""
    path = profile.avatar_file(session, account, name)
    if path is None:
        raise HTTPException(status_code=404, detail=site_msg.NOT_FOUND)
    return FileResponse(path, media_type="image/webp", headers={"Cache-Control": "private, max-age=86400"})


@router.post("/change_password", responses=documented(400, 401, 403, 413, 429, 503))
def change_password(
    body: ChangePasswordIn, request: Request, account: CurrentAccount, session: DB
) -> Message:
    """On success every session of the account ends, this one too: the rider signs in again."""
    profile.change_password(
        session,
        account,
        body.current_password,
        body.password,
        body.repeatPassword,
        _client_address(request),
    )
    return Message(message=msg.PASSWORD_CHANGED)


@router.post("/update_password", responses=documented(400, 401, 403, 413, 429, 503))
def update_password(
    body: ChangePasswordIn, request: Request, account: CurrentAccount, session: DB
) -> Message:
    """The spec's other name for change_password: the same rule, limits and answer."""
    return change_password(body, request, account, session)


@router.post("/delete-account", responses=documented(401, 403, 413, 503))
def delete_account(account: CurrentAccount, token: SentToken, session: DB) -> Message:
    """E-mails the confirmation link (to the parent for kid accounts) and ends this session."""
    recipient = profile.request_deletion(session, account, token)
    message = msg.DELETE_EMAIL_SENT if recipient == account.email else msg.DELETE_EMAIL_SENT_KID
    return Message(message=message)


@router.get(
    "/verify-delete-user/{code}",
    response_model=AnswerWithMessage[Verified],
    responses=documented(400, 404, 503),
)
def verify_delete_user(code: str, session: DB) -> AnswerWithMessage[Verified] | JSONResponse:
    """A code that cannot be used answers 400 with data.verified false (the page reads it)."""
    try:
        profile.confirm_deletion(session, code)
    except CodeError as exc:
        message = str(exc)
        return JSONResponse(
            {"status": False, "message": message, "errors": {"code": [message]}, "data": {"verified": False}},
            status_code=400,
        )
    return AnswerWithMessage[Verified](message=msg.ACCOUNT_DELETED, data=Verified())
