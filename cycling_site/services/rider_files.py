"""Files riders give with a registration (age proof, ID images, device video).

They are checked by their content, never by name or declared type, stored outside the web root under a
random name, and reach a browser only through a short-lived signed link made for their owner or race
control. A file on record can be given again for another event.
"""

import re
import secrets
from datetime import timedelta
from pathlib import Path

import filetype
from sqlmodel import Session, col, select

from cycling_site.messages import registration as msg
from cycling_site.models import Account
from cycling_site.models.accounts import Role
from cycling_site.models.events import RiderFile
from cycling_site.services import tokens
from cycling_site.services.validation import FormErrors, row_id
from cycling_site.settings import settings

MAX_FILE_BYTES = 8_388_608
FOLDER = "rider_files"
LINK_PURPOSE = "rider_file"
LINK_LIFETIME = timedelta(minutes=5)
DOCUMENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "application/pdf": "pdf"}
VIDEO_TYPES = {"video/mp4": "mp4", "video/quicktime": "mov", "video/webm": "webm"}
KINDS = {
    "proof": DOCUMENT_TYPES,
    "front": DOCUMENT_TYPES,
    "back": DOCUMENT_TYPES,
    "device_video": VIDEO_TYPES,
}
VIEWERS = {Role.race_control, Role.admin}
STORED_NAME = re.compile(r"^[0-9a-f]{32}\.[a-z0-9]{3,4}$")
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f/\\]")


class FileRefused(FormErrors):
    """The file cannot be stored or given: its one field says why."""


def _clean_name(name: str, extension: str) -> str:
    base = _UNSAFE_NAME.sub("", (name or "").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]).strip()
    return base[:200] or f"file.{extension}"


def _path(stored_as: str) -> Path:
    return settings.data_dir / FOLDER / stored_as


def check_content(kind: str, data: bytes) -> str:
    """The file's real type for this kind of file, or FileRefused with the spec's message."""
    allowed = KINDS[kind]
    if not data:
        raise FileRefused({kind: msg.FILE_EMPTY})
    if len(data) > MAX_FILE_BYTES:
        raise FileRefused({kind: msg.FILE_TOO_LARGE})
    guessed = filetype.guess_mime(data[:8192])
    if guessed not in allowed:
        raise FileRefused({kind: msg.INVALID_VIDEO_TYPE if allowed is VIDEO_TYPES else msg.INVALID_FILE_TYPE})
    return guessed


def store(session: Session, account: Account, kind: str, name: str, data: bytes) -> RiderFile:
    """Checks and keeps one file of the rider; it is on record from then on."""
    if kind not in KINDS:
        raise FileRefused({"file": msg.INVALID_FILE_TYPE})
    content_type = check_content(kind, data)
    extension = KINDS[kind][content_type]
    stored_as = f"{secrets.token_hex(16)}.{extension}"
    path = _path(stored_as)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    row = RiderFile(
        account_id=account.id,
        kind=kind,
        name=_clean_name(name, extension),
        content_type=content_type,
        stored_as=stored_as,
        size=len(data),
    )
    session.add(row)
    try:
        session.commit()
    except Exception:
        path.unlink(missing_ok=True)
        raise
    session.refresh(row)
    return row


def discard(session: Session, rows: list[RiderFile]) -> None:
    """Takes back files stored for a request that then failed, so bad input leaves nothing behind."""
    for row in rows:
        _path(row.stored_as).unlink(missing_ok=True)
        session.delete(row)
    session.commit()


def on_record(session: Session, account: Account) -> dict[str, RiderFile]:
    """The rider's latest file of each kind, the ones the wizard offers again."""
    query = select(RiderFile).where(RiderFile.account_id == account.id).order_by(col(RiderFile.id))
    return {row.kind: row for row in session.exec(query).all()}


def owned(session: Session, account: Account, file_id: object, kind: str) -> RiderFile:
    """One of the rider's own files of this kind; another rider's file is refused like a missing one."""
    number = row_id(file_id)
    row = session.get(RiderFile, number) if number else None
    if row is None or row.account_id != account.id or row.kind != kind:
        raise FileRefused({kind: msg.FILE_NOT_FOUND})
    return row


def download_url(session: Session, viewer: Account, file_id: object) -> str:
    """A link valid for a few minutes, made only for the file's owner or race control."""
    number = row_id(file_id)
    row = session.get(RiderFile, number) if number else None
    if row is None or (row.account_id != viewer.id and viewer.role not in VIEWERS):
        raise FileRefused({"key": msg.DOWNLOAD_FAILED})
    token = tokens.sign_link(str(row.id), LINK_PURPOSE, LINK_LIFETIME, viewer=viewer.id)
    return f"/api/events/files/{token}"


def open_link(session: Session, token: str) -> tuple[RiderFile, Path] | None:
    """The file behind a live link; None for an expired or forged link or a file gone from disk."""
    claims = tokens.read_link(token, LINK_PURPOSE)
    number = row_id(claims["sub"]) if claims else None
    row = session.get(RiderFile, number) if number else None
    if row is None or not STORED_NAME.match(row.stored_as):
        return None
    path = _path(row.stored_as)
    return (row, path) if path.is_file() else None
