"""Weight submissions: which weights a rider owes, the store rules (window, registration, weight, proof, one
declaration held at a time) with nothing kept on bad input, and race control's queue and decision."""

import io
import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image
from sqlmodel import Session, select

from cycling_site.db import engine
from cycling_site.messages import race_control as review_msg
from cycling_site.messages import registration as files_msg
from cycling_site.messages import weigh_ins as msg
from cycling_site.models import Account, OutboxMessage, ReviewDecision, Role
from cycling_site.models.events import Event, Registration, RiderFile
from cycling_site.models.weigh_ins import WeighInWindow, WeightSubmission
from cycling_site.services import events, race_control, review_queues, rider_files, rider_profile, weigh_ins
from cycling_site.settings import settings
from tests import file_samples
from tests.unit.conftest import count, form_errors

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PHOTO = ("scale.jpg", file_samples.jpeg())


@pytest.fixture
def make_event(session: Session):
    """An event with weigh-ins and its windows: type -> (opens, closes) from NOW."""

    def make(name: str = "Sunday Race", windows: dict | None = None, weigh_ins_flag: bool = True) -> Event:
        event = Event(
            name=name,
            starts_at=NOW + timedelta(days=3),
            closes_at=NOW + timedelta(days=2),
            weigh_ins=weigh_ins_flag,
        )
        session.add(event)
        session.commit()
        session.refresh(event)
        windows = {"pre_weight": (timedelta(hours=-1), timedelta(days=1))} if windows is None else windows
        for kind, (opens, closes) in windows.items():
            session.add(
                WeighInWindow(event_id=event.id, type=kind, starts_at=NOW + opens, ends_at=NOW + closes)
            )
        session.commit()
        return event

    return make


def register(session: Session, account: Account, event: Event, status: str = "approved") -> Registration:
    registration = Registration(
        event_id=event.id,
        account_id=account.id,
        status=status,
        first_name=account.firstname,
        last_name=account.lastname,
        email=account.email,
        gender=account.gender,
    )
    session.add(registration)
    session.commit()
    return registration


def submit(session, account, event, kind="pre_weight", weight="68.4", proof=PHOTO, now=NOW):
    return weigh_ins.submit(session, account, event.id, kind, weight, proof, now)


def stored_files() -> list[str]:
    folder = settings.data_dir / rider_files.FOLDER
    return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


def nothing_stored(session: Session, files_before: list[str]) -> None:
    assert count(session, WeightSubmission) == 0
    assert count(session, RiderFile) == 0
    assert stored_files() == files_before


# --- What a rider owes ---------------------------------------------------------------------------------


def test_items_are_the_open_and_coming_windows_of_events_the_rider_is_registered_for(
    session, make_account, make_event
):
    rider = make_account()
    soon = make_event(
        "Sunday Race",
        {
            "pre_weight": (timedelta(hours=-1), timedelta(hours=5)),
            "post_weight": (timedelta(days=3), timedelta(days=4)),
        },
    )
    later = make_event("Hill Climb", {"pre_weight": (timedelta(hours=3), timedelta(days=2))})
    ended = make_event("Last Week", {"post_weight": (timedelta(days=-2), timedelta(minutes=-10))})
    unflagged = make_event("No Weigh-ins", weigh_ins_flag=False)
    declined = make_event("Declined")
    not_registered = make_event("Elsewhere")
    register(session, rider, soon, "approved")
    register(session, rider, later, "pending")
    register(session, rider, ended)
    register(session, rider, unflagged)
    register(session, rider, declined, "declined")
    register(session, make_account(email="other@example.com"), not_registered)

    owed = weigh_ins.items(session, rider, NOW)

    assert [(item["event_name"], item["type"]) for item in owed] == [
        ("Sunday Race", "pre_weight"),
        ("Hill Climb", "pre_weight"),
        ("Sunday Race", "post_weight"),
    ]
    assert owed[0] == {
        "event_id": soon.id,
        "event_name": "Sunday Race",
        "type": "pre_weight",
        "start_time": "2026-11-23T11:00:00Z",
        "end_time": "2026-11-23T17:00:00Z",
        "status": "pending",
    }
    # Exactly at its end a window is over.
    assert [item["event_name"] for item in weigh_ins.items(session, rider, NOW + timedelta(hours=5))] == [
        "Hill Climb",
        "Sunday Race",
    ]


def test_a_declared_weight_is_no_longer_owed_until_race_control_rejects_it(session, make_account, make_event):
    rider, marshal = make_account(), make_account(email="marshal@example.com", role=Role.race_control)
    event = make_event()
    register(session, rider, event)
    submission = submit(session, rider, event)
    assert weigh_ins.items(session, rider, NOW) == []

    weigh_ins.decide(session, marshal, submission.id, approve=False, reason="The scale is not readable.")
    (item,) = weigh_ins.items(session, rider, NOW)
    assert item["status"] == msg.ITEM_REJECTED
    assert weigh_ins.title(item["type"], item["event_name"], item["status"]) == (
        "Pre-Weight Submission: Sunday Race (rejected)"
    )
    again = submit(session, rider, event, weight="68.2")
    assert weigh_ins.items(session, rider, NOW) == []
    weigh_ins.decide(session, marshal, again.id, approve=True)
    assert weigh_ins.items(session, rider, NOW) == []


def test_the_banner_title_and_the_deadline_warning():
    assert (
        weigh_ins.title("pre_weight", "Sunday Race", "pending")
        == "Pre-Weight Submission: Sunday Race (pending)"
    )
    assert (
        weigh_ins.title("post_weight", "Hill Climb", "pending")
        == "Post-Weight Submission: Hill Climb (pending)"
    )
    assert weigh_ins.deadline_passed("post_weight", "Hill Climb") == (
        "The Post-weight submission deadline for Hill Climb has passed."
    )


def test_the_rider_default_data_carries_the_items(session, make_account, make_event):
    rider = make_account()
    event = make_event()
    register(session, rider, event)
    owed = weigh_ins.items(session, rider, NOW)
    data = rider_profile.default_data(rider, None, NOW.date(), owed)
    assert data["user"]["weight_submission_data"] == owed and len(owed) == 1
    assert rider_profile.default_data(rider, None, NOW.date())["user"]["weight_submission_data"] == []


# --- The weight ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "kg"),
    [("25", 25.0), ("200", 200.0), ("68.4", 68.4), (" 68,4 ", 68.4), ("70.50", 70.5), (72, 72.0)],
)
def test_weights_from_25_to_200_in_tenths(typed, kg):
    assert weigh_ins.parse_weight(typed) == kg


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("24.9", msg.WEIGHT_INVALID),
        ("200.1", msg.WEIGHT_INVALID),
        ("-70", msg.WEIGHT_INVALID),
        ("", msg.WEIGHT_INVALID),
        ("abc", msg.WEIGHT_INVALID),
        ("NaN", msg.WEIGHT_INVALID),
        ("Infinity", msg.WEIGHT_INVALID),
        ("1e2", msg.WEIGHT_INVALID),
        ("+70", msg.WEIGHT_INVALID),
        ("7" * 30, msg.WEIGHT_INVALID),
        (True, msg.WEIGHT_INVALID),
        (None, msg.WEIGHT_INVALID),
        ("68.45", msg.WEIGHT_STEP),
    ],
)
def test_other_weights_are_refused_with_the_message(typed, message):
    assert form_errors(weigh_ins.parse_weight, typed) == {"weight": message}


# --- The store rules -----------------------------------------------------------------------------------


def test_a_declaration_is_stored_pending_with_its_proof_kept_private(session, make_account, make_event):
    rider, stranger = make_account(), make_account(email="stranger@example.com")
    marshal = make_account(email="marshal@example.com", role=Role.race_control)
    event = make_event()
    register(session, rider, event, "pending")

    submission = submit(session, rider, event, weight="68.4")

    assert (submission.status, submission.weight_kg, submission.type) == ("pending", 68.4, "pre_weight")
    assert submission.created_at is not None and submission.decided_at is None
    proof = session.get(RiderFile, submission.proof_file_id)
    assert (proof.account_id, proof.kind, proof.content_type, proof.name) == (
        rider.id,
        "weight_proof",
        "image/jpeg",
        "scale.jpg",
    )
    assert proof.stored_as in stored_files()
    assert (
        weigh_ins.submitted_message("pre_weight")
        == "Your Pre-weight has been submitted. Race control will review it."
    )
    # The rider and race control open it; nobody else does.
    assert rider_files.download_url(session, rider, proof.id).startswith("/api/events/files/")
    assert rider_files.download_url(session, marshal, proof.id).startswith("/api/events/files/")
    assert form_errors(rider_files.download_url, session, stranger, proof.id)
    # Weight proofs are not offered again in the registration wizard.
    assert rider_files.on_record(session, rider) == {}


def test_a_video_is_a_proof_too(session, make_account, make_event):
    rider, event = make_account(), make_event()
    register(session, rider, event)
    submission = submit(session, rider, event, proof=("scale.mp4", file_samples.mp4()))
    assert session.get(RiderFile, submission.proof_file_id).content_type == "video/mp4"


def test_a_proof_kept_when_chosen_goes_with_one_declaration_only(session, make_account, make_event):
    """The dialog keeps the proof as soon as it is chosen and its Submit names it: a wrong file is refused
    when chosen, another rider's or an already used proof is refused like a missing one, and a refused
    weight leaves the kept proof for the next try."""
    rider, stranger, event = make_account(), make_account(email="stranger@example.com"), make_event()
    other_event = make_event(name="Monday Race")
    register(session, rider, event)
    register(session, rider, other_event)
    assert form_errors(weigh_ins.keep_proof, session, rider, "photo.jpg", file_samples.text_as_jpeg()) == {
        "proof": msg.PROOF_TYPE_INVALID
    }
    strangers = weigh_ins.keep_proof(session, stranger, *PHOTO)
    proof = weigh_ins.keep_proof(session, rider, *PHOTO)

    def submit_kept(file_id, at=event, weight="68.4"):
        return weigh_ins.submit(session, rider, at.id, "pre_weight", weight, None, NOW, kept_proof=file_id)

    not_found = {"proof": files_msg.FILE_NOT_FOUND}
    assert form_errors(submit_kept, strangers.id) == not_found
    assert form_errors(submit_kept, "1 OR 1=1") == not_found
    assert form_errors(submit_kept, proof.id, weight="300") == {"weight": msg.WEIGHT_INVALID}
    assert proof.stored_as in stored_files()

    submission = submit_kept(proof.id)
    assert (submission.proof_file_id, submission.weight_kg) == (proof.id, 68.4)
    assert form_errors(submit_kept, proof.id, other_event) == not_found
    assert count(session, WeightSubmission) == 1


def test_a_proof_chosen_and_never_sent_goes_when_the_rider_chooses_one_a_day_later(
    session, make_account, make_event
):
    """The dialog keeps a proof as soon as it is chosen; one never sent with a declaration does not stay on
    the site for good, while one chosen in another tab today and the proof of a declaration stay."""
    rider, other, event = make_account(), make_account(email="other@example.com"), make_event()
    register(session, rider, event)
    old = NOW - weigh_ins.UNSENT_PROOF_KEPT_FOR - timedelta(minutes=1)
    sent = weigh_ins.keep_proof(session, rider, *PHOTO, now=old)
    weigh_ins.submit(session, rider, event.id, "pre_weight", "68.4", None, NOW, kept_proof=sent.id)
    forgotten = weigh_ins.keep_proof(session, rider, *PHOTO, now=old)
    others = weigh_ins.keep_proof(session, other, *PHOTO, now=old)
    for row in (sent, forgotten, others):
        row.created_at = old
    session.commit()
    forgotten_file = forgotten.stored_as
    in_another_tab = weigh_ins.keep_proof(session, rider, *PHOTO, now=NOW)

    chosen = weigh_ins.keep_proof(session, rider, *PHOTO, now=NOW)
    assert {row.id for row in session.exec(select(RiderFile)).all()} == {
        sent.id,
        others.id,
        in_another_tab.id,
        chosen.id,
    }
    assert forgotten_file not in stored_files()
    assert {sent.stored_as, in_another_tab.stored_as, chosen.stored_as} <= set(stored_files())


@pytest.mark.parametrize(
    ("weight", "proof", "errors"),
    [
        ("300", PHOTO, {"weight": msg.WEIGHT_INVALID}),
        ("68.4", None, {"proof": msg.PROOF_REQUIRED}),
        ("68.4", ("photo.jpg", file_samples.text_as_jpeg()), {"proof": msg.PROOF_TYPE_INVALID}),
        ("68.4", ("photo.jpg", file_samples.jpeg_header_then_html()), {"proof": msg.PROOF_TYPE_INVALID}),
        ("68.4", ("scan.pdf", file_samples.pdf()), {"proof": msg.PROOF_TYPE_INVALID}),
        ("68.4", ("photo.gif", file_samples.gif()), {"proof": msg.PROOF_TYPE_INVALID}),
        ("68.4", ("photo.jpg", file_samples.oversized_jpeg()), {"proof": files_msg.FILE_TOO_LARGE}),
        ("68.4", ("photo.jpg", b""), {"proof": files_msg.FILE_EMPTY}),
        (
            "10",
            ("photo.jpg", file_samples.text_as_jpeg()),
            {"weight": msg.WEIGHT_INVALID, "proof": msg.PROOF_TYPE_INVALID},
        ),
    ],
)
def test_bad_weights_and_proofs_are_refused_and_nothing_is_stored(
    session, make_account, make_event, weight, proof, errors
):
    rider, event = make_account(), make_event()
    register(session, rider, event)
    before = stored_files()
    assert form_errors(submit, session, rider, event, weight=weight, proof=proof) == errors
    nothing_stored(session, before)
    assert len(weigh_ins.items(session, rider, NOW)) == 1


@pytest.mark.parametrize("tail", file_samples.MARKUP_TAILS.values(), ids=file_samples.MARKUP_TAILS.keys())
def test_a_photo_with_markup_after_its_end_is_refused(session, make_account, make_event, tail):
    rider, event = make_account(), make_event()
    register(session, rider, event)
    before = stored_files()
    proof = ("scale.jpg", file_samples.jpeg_with(tail))
    assert form_errors(submit, session, rider, event, weight="68.4", proof=proof) == {
        "proof": msg.PROOF_TYPE_INVALID
    }
    nothing_stored(session, before)


def test_a_megabyte_of_compressed_noise_is_not_taken_for_markup():
    """Over a megabyte of compressed noise, the hardest case for chance matches: nothing in it matches."""
    noise = Image.frombytes("RGB", (1200, 1200), random.Random(7).randbytes(1200 * 1200 * 3))
    out = io.BytesIO()
    noise.save(out, "JPEG", quality=95)
    assert len(out.getvalue()) > 1_000_000
    assert rider_files.check_content("weight_proof", out.getvalue()) == "image/jpeg"


def test_the_window_the_registration_and_the_event_are_held(session, make_account, make_event):
    rider = make_account()
    event = make_event(
        windows={
            "pre_weight": (timedelta(hours=2), timedelta(days=1)),
            "post_weight": (timedelta(days=-1), timedelta(minutes=-1)),
        }
    )
    before = stored_files()
    assert form_errors(submit, session, rider, event) == {"event": msg.NOT_REGISTERED}
    register(session, rider, event, "declined")
    assert form_errors(submit, session, rider, event) == {"event": msg.NOT_REGISTERED}
    register(session, rider, event, "approved")
    assert form_errors(submit, session, rider, event) == {
        "event": "The Pre-weight submission for Sunday Race opens on Mon 23 Nov 2026, 18:00 GMT+4."
    }
    assert form_errors(submit, session, rider, event, kind="post_weight") == {
        "event": "The Post-weight submission deadline for Sunday Race has passed."
    }
    assert form_errors(submit, session, rider, event, kind="weigh_in") == {"type": msg.TYPE_INVALID}
    no_window = make_event("No Post-Weight", {"pre_weight": (timedelta(hours=-1), timedelta(hours=1))})
    register(session, rider, no_window)
    assert form_errors(submit, session, rider, no_window, kind="post_weight") == {
        "event": "This event has no Post-weight submission."
    }
    unflagged = make_event("Unflagged", weigh_ins_flag=False)
    register(session, rider, unflagged)
    assert form_errors(submit, session, rider, unflagged) == {
        "event": "This event has no Pre-weight submission."
    }
    with pytest.raises(events.EventNotFound):
        weigh_ins.submit(session, rider, "999999", "pre_weight", "68.4", PHOTO, NOW)
    with pytest.raises(events.EventNotFound):
        weigh_ins.submit(session, rider, "1 OR 1=1", "pre_weight", "68.4", PHOTO, NOW)
    nothing_stored(session, before)
    # The same submit goes through once the window is open.
    assert submit(session, rider, event, now=NOW + timedelta(hours=2)).status == "pending"


def test_a_second_submission_is_refused_while_one_is_pending_or_approved(session, make_account, make_event):
    rider, marshal = make_account(), make_account(email="marshal@example.com", role=Role.admin)
    event = make_event()
    register(session, rider, event)
    first = submit(session, rider, event)
    files_before = stored_files()
    assert form_errors(submit, session, rider, event, weight="70") == {
        "event": msg.PENDING_REVIEW.format(label="Pre")
    }
    weigh_ins.decide(session, marshal, first.id, approve=True)
    assert form_errors(submit, session, rider, event, weight="70") == {
        "event": "Your Pre-weight for this event has already been approved."
    }
    assert count(session, WeightSubmission) == 1 and count(session, RiderFile) == 1
    assert stored_files() == files_before


def test_two_submits_at_once_keep_one_declaration_and_one_file(session, make_account, make_event):
    rider, event = make_account(), make_event()
    register(session, rider, event)
    before = stored_files()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def send() -> None:
        with Session(engine, expire_on_commit=False) as own:
            account = own.get(Account, rider.id)
            barrier.wait()
            try:
                weigh_ins.submit(own, account, event.id, "pre_weight", "68.4", PHOTO, NOW)
                outcomes.append("kept")
            except weigh_ins.SubmissionRefused as exc:
                outcomes.append(exc.errors["event"])

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == sorted(["kept", msg.PENDING_REVIEW.format(label="Pre")])
    assert count(session, WeightSubmission) == 1
    kept = session.exec(select(RiderFile)).one()
    assert sorted({*before, kept.stored_as}) == stored_files()


# --- Race control --------------------------------------------------------------------------------------


def test_race_control_sees_the_queue_and_the_pending_count(session, make_account, make_event):
    riders = [make_account(email=f"rider{n}@example.com", firstname=f"Rider{n}") for n in range(3)]
    marshal = make_account(email="marshal@example.com", role=Role.race_control)
    event = make_event()
    for rider in riders:
        register(session, rider, event)
    submissions = [submit(session, rider, event, weight=f"6{n}.5") for n, rider in enumerate(riders)]
    assert weigh_ins.pending_count(session) == 3

    weigh_ins.decide(session, marshal, submissions[0].id, approve=True, reason="Clear reading.")
    assert weigh_ins.pending_count(session) == 2
    queue = weigh_ins.for_review(session, "pending")
    assert [row["rider_name"] for row in queue] == ["Rider1 Haddad", "Rider2 Haddad"]
    row = queue[0]
    assert (row["title"], row["status"]) == ("Pre-Weight Submission: Sunday Race (pending)", "pending")
    assert ["Declared weight", "61.5 kg"] in row["details"]
    assert row["files"] == [
        {"id": submissions[1].proof_file_id, "name": "scale.jpg", "content_type": "image/jpeg"}
    ]
    (decided,) = weigh_ins.for_review(session, "approved")
    assert decided["id"] == submissions[0].id and decided["reason"] == "Clear reading."
    (listed,) = review_queues.items(session, marshal, "weight_submission", "approved")
    assert [entry["decision"] for entry in listed["history"]] == ["approved"]
    assert listed["history"][0]["decided_by"] == "Layla Haddad"
    with pytest.raises(race_control.NotReviewer):
        review_queues.items(session, riders[0], "weight_submission", "pending")


def test_a_decision_is_audited_and_mailed_and_made_once(session, make_account, make_event):
    rider, marshal = make_account(), make_account(email="marshal@example.com", role=Role.race_control)
    event = make_event()
    register(session, rider, event)
    submission = submit(session, rider, event, weight="68.4")

    with pytest.raises(race_control.ReviewRefused, match=review_msg.REASON_REQUIRED):
        weigh_ins.decide(session, marshal, submission.id, approve=False, reason="  ")
    with pytest.raises(race_control.NotReviewer):
        weigh_ins.decide(session, rider, submission.id, approve=True)
    with pytest.raises(race_control.ReviewRefused, match=review_msg.NOT_FOUND):
        weigh_ins.decide(session, marshal, 999999, approve=True)
    with pytest.raises(race_control.ReviewRefused, match=review_msg.NOT_FOUND):
        weigh_ins.decide(session, marshal, "x", approve=True)
    assert session.get(WeightSubmission, submission.id).status == "pending"
    assert count(session, ReviewDecision) == 0

    decided = weigh_ins.decide(session, marshal, submission.id, approve=False, reason="The scale is cut off.")
    assert (decided.status, decided.reason) == ("rejected", "The scale is cut off.")
    assert decided.decided_at is not None
    audit = session.exec(select(ReviewDecision)).one()
    assert (audit.kind, audit.item_id, audit.rider_id, audit.decided_by, audit.decision) == (
        "weight_submission",
        submission.id,
        rider.id,
        marshal.id,
        "rejected",
    )
    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == rider.email and "Pre-weight for Sunday Race" in mail.subject
    assert "68.4 kg" in mail.body and "The scale is cut off." in mail.body
    with pytest.raises(race_control.ReviewRefused, match=review_msg.ALREADY_DECIDED):
        weigh_ins.decide(session, marshal, submission.id, approve=True)
    assert count(session, ReviewDecision) == 1
