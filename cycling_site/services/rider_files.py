"""Files riders give race control: with a registration (age proof, ID images, device video), as weight
proof (a photo or video) and as proof of ride totals imported from another platform; and files they give
finance to verify their wallet (passport, Binance screenshots).

They are checked by their content, never by name or declared type (images must decode, and no file may
carry page markup a browser could run), stored outside the web root under a random name, and reach a
browser only through a short-lived signed link that serves only the session of the owner or race control
it was made for (wallet documents: of the owner or finance). A file on record can be given again for
another event.
"""

import re
import secrets
import unicodedata
from datetime import timedelta
from io import BytesIO
from pathlib import Path

import filetype
from PIL import Image, UnidentifiedImageError
from sqlmodel import Session, col, select

from cycling_site.messages import registration as msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.messages import weigh_ins as weigh_ins_msg
from cycling_site.models import Account
from cycling_site.models.accounts import Role
from cycling_site.models.events import RiderFile
from cycling_site.services import tokens
from cycling_site.services.validation import FormErrors
from cycling_site.settings import settings
from cycling_site.wire.ids import row_id

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
# The registration wizard's file slots; other submissions keep their files under their own kinds.
SUBMISSION_KINDS = {
    "weight_proof": {"image/jpeg": "jpg", "image/png": "png", **VIDEO_TYPES},
    "import_proof": DOCUMENT_TYPES,
    "passport_proof": {"image/jpeg": "jpg", "image/png": "png"},
    "binance_screenshot": {"image/jpeg": "jpg", "image/png": "png"},
}
# Wallet documents are smaller (spec 3 section 9) and are seen by finance, not race control.
WALLET_KINDS = frozenset({"passport_proof", "binance_screenshot"})
WALLET_FILE_BYTES = 5 * 1024 * 1024
ALL_KINDS = {**KINDS, **SUBMISSION_KINDS}
# What a file of the wrong type is told, by kind; documents are told INVALID_FILE_TYPE.
TYPE_MESSAGES = {
    "device_video": msg.INVALID_VIDEO_TYPE,
    "weight_proof": weigh_ins_msg.PROOF_TYPE_INVALID,
    "passport_proof": wallet_msg.FILE_TYPE,
    "binance_screenshot": wallet_msg.FILE_TYPE,
}
EXTENSIONS = {**DOCUMENT_TYPES, **VIDEO_TYPES}
IMAGE_FORMATS = {"image/jpeg": "JPEG", "image/png": "PNG"}
VIEWERS = {Role.race_control, Role.admin}
WALLET_VIEWERS = {Role.finance, Role.admin}
STORED_NAME = re.compile(r"^[0-9a-f]{32}\.[a-z0-9]{3,4}$")
NAME_MAX = 120
# Characters Windows refuses in a file name (path separators are cut off before).
_NAME_REFUSED = set('<>:"|?*')
# Markup a browser would act on if it ever took the file for a page (a polyglot): elements that run script,
# load or send somewhere, or restyle, an event handler, a javascript: address. No accepted type needs any;
# each is five bytes or more, so an image's compressed data matches one by chance about once in 10^10 bytes.
_PAGE_MARKUP = re.compile(
    rb"<(?:script|html|body|iframe|frame|frameset|svg|math|object|embed|img|image|video|audio|source|meta"
    rb"|link|style|base|form|input|button|details|marquee)[\s/>]"
    rb"|<a\s[^<>]*href|<!doctype\s+html|javascript:|\son[a-z]{3,}\s*=",
    re.IGNORECASE,
)


class FileRefused(FormErrors):
    """The file cannot be stored or given: its one field says why."""


def safe_name(name: str, extension: str) -> str:
    """The name a file is kept and served under: the rider's own name without folders, control or format
    characters (a right-to-left override, U+202E, makes "gpj.html" read "lmth.jpg"), of a sensible length,
    and ending in the extension of its real type."""
    base = unicodedata.normalize("NFC", name or "").replace("\\", "/").rsplit("/", 1)[-1]
    kept = "".join(
        char for char in base if not unicodedata.category(char).startswith("C") and char not in _NAME_REFUSED
    )
    stem = " ".join(kept.rsplit(".", 1)[0].split()).strip(". ")
    return f"{stem[: NAME_MAX - len(extension) - 1].rstrip('. ') or 'file'}.{extension}"


def served_name(row: RiderFile) -> str:
    """Made safe again when served: rows kept before the names were cleaned keep theirs as sent."""
    return safe_name(row.name, EXTENSIONS.get(row.content_type, "bin"))


def _path(stored_as: str) -> Path:
    return settings.data_dir / FOLDER / stored_as


def check_content(kind: str, data: bytes) -> str:
    """The file's real type for this kind of file, or FileRefused with the spec's message."""
    allowed = ALL_KINDS[kind]
    if not data:
        raise FileRefused({kind: msg.FILE_EMPTY})
    if kind in WALLET_KINDS and len(data) > WALLET_FILE_BYTES:
        raise FileRefused({kind: wallet_msg.FILE_TOO_LARGE})
    if len(data) > MAX_FILE_BYTES:
        raise FileRefused({kind: msg.FILE_TOO_LARGE})
    guessed = filetype.guess_mime(data[:8192])
    if guessed not in allowed or _PAGE_MARKUP.search(data) or not _decodes(data, guessed):
        raise FileRefused({kind: TYPE_MESSAGES.get(kind, msg.INVALID_FILE_TYPE)})
    return guessed


def _decodes(data: bytes, content_type: str) -> bool:
    """An image must be one, whole: checked (verify), then decoded (JPEGs at 1/8 scale, which still reads
    every byte of the image data). Other types answer True."""
    image_format = IMAGE_FORMATS.get(content_type)
    if image_format is None:
        return True
    try:
        with Image.open(BytesIO(data), formats=[image_format]) as image:
            image.verify()
        with Image.open(BytesIO(data), formats=[image_format]) as image:
            image.draft(None, (1, 1))
            image.load()
    except (Image.DecompressionBombError, UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        return False
    return True


def store(session: Session, account: Account, kind: str, name: str, data: bytes) -> RiderFile:
    """Checks and keeps one file of the rider; it is on record from then on."""
    if kind not in ALL_KINDS:
        raise FileRefused({"file": msg.INVALID_FILE_TYPE})
    content_type = check_content(kind, data)
    extension = ALL_KINDS[kind][content_type]
    stored_as = f"{secrets.token_hex(16)}.{extension}"
    path = _path(stored_as)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    row = RiderFile(
        account_id=account.id,
        kind=kind,
        name=safe_name(name, extension),
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


def read(row: RiderFile) -> bytes:
    """The content of a kept file, for a form that sends it on (wallet verification's chosen images)."""
    return _path(row.stored_as).read_bytes()


def on_record(session: Session, account: Account) -> dict[str, RiderFile]:
    """The rider's latest file of each registration kind, the ones the wizard offers again."""
    query = (
        select(RiderFile)
        .where(RiderFile.account_id == account.id, col(RiderFile.kind).in_(KINDS))
        .order_by(col(RiderFile.id))
    )
    return {row.kind: row for row in session.exec(query).all()}


def owned(session: Session, account: Account, file_id: object, kind: str) -> RiderFile:
    """One of the rider's own files of this kind; another rider's file is refused like a missing one."""
    number = row_id(file_id)
    row = session.get(RiderFile, number) if number else None
    if row is None or row.account_id != account.id or row.kind != kind:
        raise FileRefused({kind: msg.FILE_NOT_FOUND})
    return row


def may_view(row: RiderFile, viewer: Account) -> bool:
    """The owner, and race control (finance for wallet documents)."""
    reviewers = WALLET_VIEWERS if row.kind in WALLET_KINDS else VIEWERS
    return row.account_id == viewer.id or viewer.role in reviewers


def download_url(session: Session, viewer: Account, file_id: object) -> str:
    """A link valid for a few minutes, made only for the file's owner or its reviewers."""
    number = row_id(file_id)
    row = session.get(RiderFile, number) if number else None
    if row is None or not may_view(row, viewer):
        raise FileRefused({"key": msg.DOWNLOAD_FAILED})
    token = tokens.sign_link(str(row.id), LINK_PURPOSE, LINK_LIFETIME, viewer=viewer.id)
    return f"/api/events/files/{token}"


def open_link(session: Session, token: str, viewer: Account | None) -> tuple[RiderFile, Path] | None:
    """The file behind a live link, for the signed-in account it was made for (still the owner or race
    control); None, alike, for an expired or forged link, anyone else, or a file gone from disk."""
    claims = tokens.read_link(token, LINK_PURPOSE)
    if claims is None or viewer is None or claims.get("viewer") != viewer.id:
        return None
    number = row_id(claims["sub"])
    row = session.get(RiderFile, number) if number else None
    if row is None or not STORED_NAME.match(row.stored_as):
        return None
    if not may_view(row, viewer):
        return None
    path = _path(row.stored_as)
    return (row, path) if path.is_file() else None
