"""The reference data the screens load (spec 2 section 7: GET countries, GET static) and the app's deletion
request (POST ../mobile/delete-account).

Both lists change only with a release, so their answers may be cached by the browser for an hour."""

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from cycling_site.api.answers import Answer, AnswerModel, Message
from cycling_site.api.deps import DB
from cycling_site.api.errors import documented
from cycling_site.api.rules import EMAIL, requires
from cycling_site.messages import accounts as msg
from cycling_site.services import accounts, countries, profile, registrations, rider_files
from cycling_site.services.phone_otp import OTP_TYPES

router = APIRouter(tags=["reference data"])
mobile_router = APIRouter(prefix="/mobile", tags=["accounts"])

CACHE_CONTROL = "public, max-age=3600"


class CountryOption(AnswerModel):
    value: str = Field(description="Dial code without +", examples=["971"])
    label: str = Field(examples=["United Arab Emirates"])
    code: str = Field(description="ISO 3166 alpha-2", examples=["AE"])
    flag: str = Field(description="The flag as an emoji")


class Choice(AnswerModel):
    value: str
    label: str


class Country(AnswerModel):
    id: int = Field(description="ISO 3166 numeric code: the profile's and sign-up's country")
    name: str


class Limits(AnswerModel):
    minAge: int
    weightMin: int
    weightMax: int
    heightMin: int
    heightMax: int
    passwordMin: int
    fileBytes: int = Field(description="The largest registration upload")


class StaticData(AnswerModel):
    countries: list[Country]
    defaultCountry: int
    genders: list[Choice]
    idTypes: list[Choice]
    platforms: list[str]
    teamTypes: list[Choice]
    otpTypes: list[str]
    limits: Limits


class DeleteRequestIn(BaseModel):
    model_config = requires("email")

    email: str = Field(default="", max_length=300, json_schema_extra=EMAIL)


@router.get("/countries")
def country_list(response: Response) -> Answer[list[CountryOption]]:
    """The default country first, then by name; three countries if the list cannot be built."""
    response.headers["Cache-Control"] = CACHE_CONTROL
    options = [
        CountryOption(value=country.dial_code, label=country.name, code=country.code, flag=country.emoji)
        for country in countries.dial_code_list()
    ]
    return Answer[list[CountryOption]](data=options)


@router.get("/static")
def static_data(response: Response) -> Answer[StaticData]:
    """The choices and limits the forms use, so a client shows the same options the server accepts."""
    response.headers["Cache-Control"] = CACHE_CONTROL
    data = StaticData(
        countries=[Country(id=cid, name=name) for cid, name in countries.countries()],
        defaultCountry=countries.default_country_id(),
        genders=[Choice(value=str(value), label=label) for value, label in accounts.GENDERS.items()],
        idTypes=[Choice(value=value, label=label) for value, label in registrations.ID_TYPES.items()],
        platforms=list(registrations.PLATFORMS),
        teamTypes=[Choice(value=value, label=label) for value, label in registrations.TEAM_TYPES.items()],
        otpTypes=list(OTP_TYPES),
        limits=Limits(
            minAge=accounts.MIN_AGE,
            weightMin=accounts.WEIGHT_MIN,
            weightMax=accounts.WEIGHT_MAX,
            heightMin=accounts.HEIGHT_MIN,
            heightMax=accounts.HEIGHT_MAX,
            passwordMin=accounts.PASSWORD_MIN,
            fileBytes=rider_files.MAX_FILE_BYTES,
        ),
    )
    return Answer[StaticData](data=data)


@mobile_router.post("/delete-account", responses=documented(400, 403, 413, 429, 503))
def request_deletion_by_email(body: DeleteRequestIn, session: DB) -> Message:
    """E-mails the deletion link to the account using `email` (its parent for a kid); the same answer when
    no account uses it."""
    profile.request_deletion_by_email(session, body.email)
    return Message(message=msg.DELETE_REQUEST_RECEIVED)
