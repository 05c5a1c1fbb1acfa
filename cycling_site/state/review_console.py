"""What both review consoles (race control's and finance's) show: the items of a queue as the services give
them, with their files and decisions, made ready for the page (times in the site's zone)."""

import dataclasses

from cycling_site.local_time import local_text
from cycling_site.models.race_control import ReviewStatus

STATUSES = tuple(ReviewStatus)


@dataclasses.dataclass
class ProofFile:
    id: str
    name: str
    content_type: str


@dataclasses.dataclass
class Decision:
    decision: str
    reason: str
    decided_at: str
    decided_by: str


@dataclasses.dataclass
class ReviewItem:
    id: str
    rider_name: str
    rider_email: str
    status: str
    submitted_at: str
    title: str
    details: list[list[str]]
    files: list[ProofFile]
    reason: str
    history: list[Decision]


@dataclasses.dataclass
class QueueTab:
    kind: str
    title: str
    pending: int


def review_item(found: dict) -> ReviewItem:
    return ReviewItem(
        id=str(found["id"]),
        rider_name=found["rider_name"],
        rider_email=found["rider_email"],
        status=found["status"],
        submitted_at=local_text(found["submitted_at"]),
        title=found["title"],
        details=[[str(label), str(value)] for label, value in found["details"]],
        files=[ProofFile(str(file["id"]), file["name"], file["content_type"]) for file in found["files"]],
        reason=found["reason"],
        history=[
            Decision(entry["decision"], entry["reason"], local_text(entry["decided_at"]), entry["decided_by"])
            for entry in found["history"]
        ],
    )


def dialog_title(items: list[ReviewItem], item_id: str, verb: str) -> str:
    """The decision dialog's title: what is decided, and on whose item (just the verb once the item has left
    the list, decided by someone else)."""
    item = next((item for item in items if item.id == item_id), None)
    return f"{verb}: {item.rider_name} · {item.title}" if item else verb
