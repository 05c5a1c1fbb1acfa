"""Third-party import (spec 1 section 7: post-third-party-data, set-user-has-seen; spec 3): the rider's ride
totals from another platform, with proof files, sent for race control's review, and the import's status
for the dashboard's banner and progress table."""

import re
from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field
from starlette.datastructures import UploadFile

from cycling_site.api.answers import Answer, AnswerModel, AnswerWithMessage, Number
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.messages import third_party_import as msg
from cycling_site.services import rider_files
from cycling_site.services import third_party_import as imports
from cycling_site.services.validation import FormErrors

router = APIRouter(prefix="/auth", tags=["third-party import"])

# The form's fields (spec 3 section 3) as the service names them.
FORM_FIELDS = {
    "migration_platform": "migration_platform",
    "total_time_spent[days]": "days",
    "total_time_spent[hours]": "hours",
    "total_time_spent[minutes]": "minutes",
    "overall_distance[value]": "distance",
    "overall_distance[unit]": "distance_unit",
    "overall_elevation_meter": "elevation",
    "profile_link": "profile_link",
}
ERROR_FIELDS = {service: form for form, service in FORM_FIELDS.items()}
PROOF_FIELD = re.compile(r"^proof_files(\[\d{0,2}\])?$")
TEXT = {"type": "string", "maxLength": 500}


class ThirdPartyImportData(AnswerModel):
    """The rider's latest import; the figures are null before the first one."""

    status: Literal["none", "submitted", "approved", "rejected"]
    banner: Literal["offer", "submitted", "approved", "rejected", ""] = Field(
        description="The dashboard's banner: offer (no import yet), submitted (under review), approved "
        "(congratulations, until set-user-has-seen), rejected (declined, re-import offered), or none"
    )
    has_seen: bool
    migration_platform: str | None
    total_ride_time: int | None = Field(description="seconds")
    total_distance: Number | None = Field(description="km")
    total_elevation: Number | None = Field(description="m")
    reason: str = Field(description="Race control's note with its decision")
    submitted_at: datetime | None


def _import_form() -> dict[str, Any]:
    """The OpenAPI of the multipart form (spec 3 section 3 "Third-party import")."""
    properties: dict[str, Any] = {
        "migration_platform": {"type": "string", "enum": list(imports.PLATFORMS)},
        "total_time_spent[days]": {"type": "integer", "minimum": 0, "maximum": imports.MAX_DAYS},
        "total_time_spent[hours]": {"type": "integer", "minimum": 0, "maximum": 23},
        "total_time_spent[minutes]": {"type": "integer", "minimum": 0, "maximum": 59},
        "overall_distance[value]": {"type": "number", "minimum": 0, "maximum": imports.MAX_DISTANCE},
        "overall_distance[unit]": {"type": "string", "enum": list(imports.UNITS)},
        "overall_elevation_meter": {
            "type": "number",
            "minimum": 0,
            "maximum": imports.MAX_ELEVATION,
            "description": "m",
        },
        "profile_link": {**TEXT, "format": "uri", "description": "An http or https link"},
        "proof_files": {
            "type": "array",
            "minItems": 1,
            "maxItems": imports.MAX_PROOF_FILES,
            "items": {"type": "string", "format": "binary"},
            "description": "JPEG, PNG or PDF, checked by content, up to 8 MB each; also sent as "
            "proof_files[0], proof_files[1] ...",
        },
    }
    form = {"type": "object", "properties": properties, "required": list(properties)}
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": form}}}}


def _refused(errors: dict[str, str]) -> FormErrors:
    return FormErrors({ERROR_FIELDS.get(name, name): text for name, text in errors.items()})


@router.post(
    "/post-third-party-data",
    openapi_extra=_import_form(),
    responses=documented(400, 401, 403, 413, 503),
)
async def post_third_party_data(
    request: Request, account: CurrentAccount, session: DB
) -> AnswerWithMessage[ThirdPartyImportData]:
    """Sends the import for review. Every rule of the wizard applies; the files are checked by their
    content. Refused while an import is under review or once one is approved. Bad input stores nothing."""
    form = await request.form()
    values: dict[str, str] = {}
    uploads: list[UploadFile] = []
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            if PROOF_FIELD.match(name):
                uploads.append(value)
        elif name in FORM_FIELDS:
            values[FORM_FIELDS[name]] = value
    try:
        imports.may_import(session, account)
        fields = imports.ImportForm.of(values)
        errors = imports.form_errors(fields, len(uploads))
        files = []
        if len(uploads) <= imports.MAX_PROOF_FILES:
            for upload in uploads:
                data = await upload.read(rider_files.MAX_FILE_BYTES + 1)
                try:
                    rider_files.check_content(imports.PROOF_KIND, data)
                except FormErrors as exc:
                    errors.setdefault("proof_files", next(iter(exc.errors.values())))
                files.append((upload.filename or "", data))
        if errors:
            raise FormErrors(errors)
    except FormErrors as exc:
        raise _refused(exc.errors) from None
    stored = []
    try:
        for name, data in files:
            stored.append(rider_files.store(session, account, imports.PROOF_KIND, name, data))
        row = imports.submit(session, account, fields, [file.id for file in stored])
    except Exception as exc:
        session.rollback()
        rider_files.discard(session, stored)
        if isinstance(exc, FormErrors):
            raise _refused(exc.errors) from None
        raise
    return AnswerWithMessage[ThirdPartyImportData](
        message=msg.SUBMITTED, data=ThirdPartyImportData(**imports.view(row))
    )


@router.post("/set-user-has-seen", responses=documented(400, 401, 403, 413, 503))
def set_user_has_seen(account: CurrentAccount, session: DB) -> AnswerWithMessage[ThirdPartyImportData]:
    """Got It on the Congratulations banner: the approved import is marked seen and its banner goes."""
    row = imports.set_has_seen(session, account)
    return AnswerWithMessage[ThirdPartyImportData](
        message=msg.SEEN, data=ThirdPartyImportData(**imports.view(row))
    )


@router.get("/third-party-import", responses=documented(401, 503))
def third_party_import(account: CurrentAccount, session: DB) -> Answer[ThirdPartyImportData]:
    """The rider's import status, for the dashboard's banner and its Other Platform column."""
    row = imports.latest(session, account)
    return Answer[ThirdPartyImportData](data=ThirdPartyImportData(**imports.view(row)))
