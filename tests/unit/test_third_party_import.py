"""Third-party import: every rule of the wizard with its message, the conversions to seconds, km and m, the
statuses a rider goes through, and race control's decision (audited, e-mailed, decided once)."""

import pytest
from sqlmodel import Session, col, select

from cycling_site.messages import race_control as review_msg
from cycling_site.messages import registration as file_msg
from cycling_site.messages import third_party_import as msg
from cycling_site.models import OutboxMessage, ReviewDecision, RiderFile, Role
from cycling_site.models.third_party_import import ImportStatus, ThirdPartyImport
from cycling_site.services import rider_files
from cycling_site.services import third_party_import as imports
from cycling_site.services.race_control import ReviewRefused
from cycling_site.services.third_party_import import ImportForm
from cycling_site.state.dashboard import progress_rows
from tests import file_samples
from tests.unit.conftest import count, form_errors, race

GOOD = {
    "migration_platform": "Zwift",
    "days": "2",
    "hours": "3",
    "minutes": "4",
    "distance": "100",
    "distance_unit": "miles",
    "elevation": "1234.5",
    "profile_link": "https://www.zwift.com/athlete/12345",
}


def form(**changes) -> ImportForm:
    return ImportForm.of({**GOOD, **changes})


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def reviewer(make_account):
    return make_account(
        email="racecontrol@example.com", firstname="Race", lastname="Control", role=Role.race_control
    )


def proof(session: Session, account, data: bytes | None = None) -> RiderFile:
    return rider_files.store(session, account, imports.PROOF_KIND, "totals.png", data or file_samples.png())


def submitted(session: Session, account) -> ThirdPartyImport:
    return imports.submit(session, account, form(), [proof(session, account).id])


# --- Step 1 -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "message"),
    [("", msg.PLATFORM_REQUIRED), ("Garmin", msg.PLATFORM_UNKNOWN), ("strava", msg.PLATFORM_UNKNOWN)],
)
def test_a_platform_of_the_list_is_required(platform, message):
    assert form_errors(imports.check_platform, form(migration_platform=platform)) == {
        "migration_platform": message
    }


def test_every_listed_platform_is_taken():
    assert imports.PLATFORMS == ("Strava", "Zwift", "Trainer road", "Rouvy", "Bkool", "Others")
    for platform in imports.PLATFORMS:
        assert imports.check_platform(form(migration_platform=platform)) == platform


# --- Step 2 -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({"days": ""}, {"days": msg.TIME_REQUIRED}),
        ({"hours": "", "minutes": ""}, {"hours": msg.TIME_REQUIRED, "minutes": msg.TIME_REQUIRED}),
        ({"days": "1.5"}, {"days": msg.TIME_INTEGER}),
        ({"hours": "two"}, {"hours": msg.TIME_INTEGER}),
        ({"minutes": "1e3"}, {"minutes": msg.TIME_INTEGER}),
        ({"days": "٣"}, {"days": msg.TIME_INTEGER}),
        ({"days": "-1"}, {"days": msg.DAYS_NEGATIVE}),
        ({"days": "36501"}, {"days": msg.DAYS_TOO_MANY.format(days=36_500)}),
        ({"hours": "24"}, {"hours": msg.HOURS_RANGE}),
        ({"hours": "-1"}, {"hours": msg.HOURS_RANGE}),
        ({"minutes": "60"}, {"minutes": msg.MINUTES_RANGE}),
        ({"minutes": "-5"}, {"minutes": msg.MINUTES_RANGE}),
        ({"distance": ""}, {"distance": msg.DISTANCE_REQUIRED}),
        ({"distance_unit": ""}, {"distance_unit": msg.DISTANCE_REQUIRED}),
        ({"distance_unit": "furlongs"}, {"distance_unit": msg.UNIT_INVALID}),
        ({"distance": "far"}, {"distance": msg.DISTANCE_INVALID.format(most=10_000_000)}),
        ({"distance": "-3"}, {"distance": msg.DISTANCE_INVALID.format(most=10_000_000)}),
        ({"distance": "nan"}, {"distance": msg.DISTANCE_INVALID.format(most=10_000_000)}),
        ({"distance": "inf"}, {"distance": msg.DISTANCE_INVALID.format(most=10_000_000)}),
        ({"elevation": ""}, {"elevation": msg.ELEVATION_REQUIRED}),
        ({"elevation": "high"}, {"elevation": msg.ELEVATION_INVALID.format(most=100_000_000)}),
        ({"elevation": "1e12"}, {"elevation": msg.ELEVATION_INVALID.format(most=100_000_000)}),
    ],
)
def test_ride_stats_rules_and_messages(changes, errors):
    assert form_errors(imports.check_stats, form(**changes)) == errors


def test_the_spec_messages_are_verbatim():
    assert msg.TIME_INTEGER == "You need to fill hours/days/minutes in integer"
    assert msg.TIME_REQUIRED == "You need to fill total time spent"
    assert msg.DAYS_NEGATIVE == "Days should be not be less than zero"
    assert msg.HOURS_RANGE == "Hours should be between 0 and 23"
    assert msg.MINUTES_RANGE == "Minutes should be between 0 and 59"
    assert msg.DISTANCE_REQUIRED == "You need to fill over all distance"
    assert msg.ELEVATION_REQUIRED == "You need to fill over all elevation"
    assert msg.TOO_MANY_FILES == "You can only upload maximum 10 files."
    assert msg.DECLINED == (
        "Sorry! Your application has been declined due to inaccurate information provided. "
        "Please try import with correct details."
    )


def test_time_becomes_seconds_and_miles_become_km():
    stats = imports.check_stats(form())
    assert stats.total_ride_time == 2 * 86_400 + 3 * 3600 + 4 * 60
    assert stats.total_distance == pytest.approx(160.9344)
    assert stats.total_elevation == 1234.5
    kilometres = imports.check_stats(form(distance="1,234.567", distance_unit="kilometers", days="0"))
    assert kilometres.total_distance == 1234.567
    assert kilometres.total_ride_time == 3 * 3600 + 4 * 60


def test_conversions_at_their_edges():
    assert imports.ride_seconds(0, 0, 0) == 0
    assert imports.ride_seconds(1, 23, 59) == 86_400 + 23 * 3600 + 59 * 60
    assert imports.to_km(1, "miles") == 1.609344
    assert imports.to_km(0.1, "miles") == pytest.approx(0.1609344)
    assert imports.to_km(26.2, "kilometers") == 26.2


# --- Step 3 -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "link", ["https://www.strava.com/athletes/1", "http://zwiftpower.com/profile.php?z=9"]
)
def test_http_profile_links_are_taken(link):
    assert imports.check_link(link) == link


@pytest.mark.parametrize(
    ("link", "message"),
    [
        ("", msg.PROFILE_LINK_REQUIRED),
        ("strava.com/athletes/1", msg.PROFILE_LINK_INVALID),
        ("ftp://strava.com/athletes/1", msg.PROFILE_LINK_INVALID),
        ("javascript:alert(1)", msg.PROFILE_LINK_INVALID),
        ("https://", msg.PROFILE_LINK_INVALID),
        ("https://localhost/me", msg.PROFILE_LINK_INVALID),
        ("https://strava.com/my profile", msg.PROFILE_LINK_INVALID),
        ("https://strava.com/\x00", msg.PROFILE_LINK_INVALID),
        ("https://strava.com/" + "a" * 500, msg.PROFILE_LINK_INVALID),
    ],
)
def test_profile_link_rules(link, message):
    assert form_errors(imports.check_link, link) == {"profile_link": message}


@pytest.mark.parametrize(("files", "message"), [(0, msg.PROOF_REQUIRED), (11, msg.TOO_MANY_FILES)])
def test_one_to_ten_proof_files(files, message):
    assert form_errors(imports.check_file_count, files) == {"proof_files": message}
    imports.check_file_count(1)
    imports.check_file_count(10)


def test_proof_files_are_checked_by_content(session, rider):
    for data in (file_samples.text_as_jpeg(), file_samples.gif(), file_samples.jpeg_with_html()):
        errors = form_errors(proof, session, rider, data)
        assert errors == {imports.PROOF_KIND: file_msg.INVALID_FILE_TYPE}
    assert form_errors(proof, session, rider, file_samples.oversized_jpeg()) == {
        imports.PROOF_KIND: file_msg.FILE_TOO_LARGE
    }
    assert count(session, RiderFile) == 0
    assert proof(session, rider, file_samples.pdf()).content_type == "application/pdf"


# --- The submit and the statuses --------------------------------------------------------------------------


def test_a_submit_stores_the_import_under_review(session, rider):
    files = [proof(session, rider).id, proof(session, rider, file_samples.pdf()).id]
    row = imports.submit(session, rider, form(), files)
    assert row.status == ImportStatus.submitted and row.current and not row.has_seen
    assert (row.migration_platform, row.profile_link) == ("Zwift", GOOD["profile_link"])
    assert row.total_ride_time == 183_840 and row.total_distance == pytest.approx(160.9344)
    assert row.proof_file_ids == files
    assert imports.banner(row) == "submitted"
    assert imports.view(row)["status"] == "submitted"


def test_the_submit_checks_every_rule_again_and_stores_nothing(session, rider):
    errors = form_errors(
        imports.submit,
        session,
        rider,
        form(migration_platform="", hours="25", profile_link="ftp://x.com"),
        [],
    )
    assert errors == {
        "migration_platform": msg.PLATFORM_REQUIRED,
        "hours": msg.HOURS_RANGE,
        "profile_link": msg.PROFILE_LINK_INVALID,
        "proof_files": msg.PROOF_REQUIRED,
    }
    assert count(session, ThirdPartyImport) == 0


def test_proof_files_must_be_the_riders_own_import_proofs(session, rider, make_account):
    other = make_account(email="other@example.com")
    theirs = proof(session, other)
    not_a_proof = rider_files.store(session, rider, "proof", "id.png", file_samples.png())
    for file_id in (theirs.id, not_a_proof.id, "999", "x"):
        errors = form_errors(imports.submit, session, rider, form(), [file_id])
        assert errors == {"proof_files": file_msg.FILE_NOT_FOUND}
    eleven = [proof(session, rider).id for _ in range(11)]
    assert form_errors(imports.submit, session, rider, form(), eleven) == {"proof_files": msg.TOO_MANY_FILES}
    assert count(session, ThirdPartyImport) == 0


def test_a_second_submit_while_one_waits_is_refused(session, rider):
    submitted(session, rider)
    errors = form_errors(imports.submit, session, rider, form(), [proof(session, rider).id])
    assert errors == {"import": msg.ALREADY_WAITING}
    assert count(session, ThirdPartyImport) == 1


def test_parallel_submits_store_one_import(session, rider):
    file_ids = [proof(session, rider).id for _ in range(8)]
    rider_id = rider.id

    def send(own: Session, number: int) -> bool:
        try:
            imports.submit(own, own.get(type(rider), rider_id), form(), [file_ids[number]])
        except imports.FormErrors as exc:
            assert exc.errors == {"import": msg.ALREADY_WAITING}
            return False
        return True

    assert sum(race(send, 8)) == 1
    assert count(session, ThirdPartyImport) == 1


def test_after_a_rejection_a_reimport_is_taken_and_after_approval_none(session, rider, reviewer):
    first = submitted(session, rider)
    imports.decide(session, reviewer, first.id, False, "The screenshot does not show your totals.")
    assert imports.banner(imports.latest(session, rider)) == "rejected"
    second = submitted(session, rider)
    assert imports.banner(imports.latest(session, rider)) == "submitted"
    imports.decide(session, reviewer, second.id, True, "")
    errors = form_errors(imports.submit, session, rider, form(), [proof(session, rider).id])
    assert errors == {"import": msg.ALREADY_APPROVED}


def test_banners_by_status_and_got_it(session, rider, reviewer):
    assert imports.banner(imports.latest(session, rider)) == "offer"
    assert form_errors(imports.set_has_seen, session, rider) == {"import": msg.NOTHING_TO_SEE}
    row = submitted(session, rider)
    assert form_errors(imports.set_has_seen, session, rider) == {"import": msg.NOTHING_TO_SEE}
    assert imports.approved_totals(session, rider) is None
    imports.decide(session, reviewer, row.id, True, "")
    assert imports.banner(imports.latest(session, rider)) == "approved"
    seen = imports.set_has_seen(session, rider)
    assert seen.has_seen and imports.banner(seen) == ""
    assert imports.set_has_seen(session, rider).has_seen
    totals = imports.approved_totals(session, rider)
    assert (totals.total_ride_time, totals.total_elevation) == (183_840, 1234.5)


def test_the_other_platform_column_shows_the_approved_totals():
    grid = {period: {} for period in ("overall", "week", "month", "year")}
    assert "other" not in progress_rows(grid)[0]
    stats = imports.RideStats(total_ride_time=183_840, total_distance=160.9344, total_elevation=1234.5)
    rows = {row["label"]: row["other"] for row in progress_rows(grid, stats)}
    assert rows == {
        "Time spent": "51.1 h",
        "All rides": "-",
        "Distance": "160.9 KM",
        "Elevation": "1,234 M",
        "Longest ride": "-",
        "Race": "-",
    }


# --- Race control ---------------------------------------------------------------------------------------


def test_approval_is_audited_and_mailed(session, rider, reviewer):
    row = submitted(session, rider)
    decided = imports.decide(session, reviewer, row.id, True, "  Thanks for the clear screenshots.  ")
    assert decided.status == ImportStatus.approved and decided.decided_at is not None
    assert decided.reason == "Thanks for the clear screenshots." and decided.current
    audit = session.exec(select(ReviewDecision)).one()
    assert (audit.kind, audit.item_id, audit.rider_id, audit.decided_by, audit.decision) == (
        "third_party_import",
        row.id,
        rider.id,
        reviewer.id,
        "approved",
    )
    mail = session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first()
    assert mail.recipient == rider.email and msg.APPROVED_SUBJECT in mail.subject
    assert "Zwift" in mail.body and "Thanks for the clear screenshots." in mail.body


def test_a_rejection_needs_a_reason_and_frees_the_rider(session, rider, reviewer):
    row = submitted(session, rider)
    with pytest.raises(ReviewRefused, match=review_msg.REASON_REQUIRED):
        imports.decide(session, reviewer, row.id, False, "  ")
    assert imports.latest(session, rider).status == ImportStatus.submitted
    decided = imports.decide(session, reviewer, row.id, False, "Totals do not match the profile.")
    assert decided.status == ImportStatus.rejected and decided.current is None
    mail = session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first()
    assert msg.REJECTED_SUBJECT in mail.subject and msg.DECLINED in mail.body
    assert "Totals do not match the profile." in mail.body


def test_a_decision_is_made_once_on_a_known_item_by_race_control(session, rider, reviewer):
    row = submitted(session, rider)
    with pytest.raises(ReviewRefused, match=review_msg.NOT_RACE_CONTROL):
        imports.decide(session, rider, row.id, True, "")
    with pytest.raises(ReviewRefused, match=review_msg.NOT_FOUND):
        imports.decide(session, reviewer, row.id + 100, True, "")
    imports.decide(session, reviewer, row.id, True, "")
    with pytest.raises(ReviewRefused, match=review_msg.ALREADY_DECIDED):
        imports.decide(session, reviewer, row.id, False, "Changed my mind.")
    assert imports.latest(session, rider).status == ImportStatus.approved
    assert count(session, ReviewDecision) == 1


def test_parallel_decisions_on_one_import_one_wins(session, rider, reviewer):
    row = submitted(session, rider)
    reviewer_id, item_id = reviewer.id, row.id

    def decide(own: Session, number: int) -> str:
        try:
            approve = number % 2 == 0
            imports.decide(own, own.get(type(reviewer), reviewer_id), item_id, approve, "Checked.")
        except ReviewRefused as exc:
            return str(exc)
        return "won"

    results = race(decide, 10)
    assert results.count("won") == 1
    assert set(results) == {"won", review_msg.ALREADY_DECIDED}
    assert count(session, ReviewDecision) == 1
    assert count(session, OutboxMessage) == 1


def test_the_console_lists_and_counts(session, rider, reviewer, make_account):
    other = make_account(email="second@example.com", firstname="Omar", lastname="Saleh")
    first = submitted(session, rider)
    second = imports.submit(
        session,
        other,
        form(migration_platform="Strava", distance_unit="kilometers"),
        [proof(session, other).id],
    )
    assert imports.pending_count(session) == 2
    pending = imports.for_review(session, "pending")
    assert [item["id"] for item in pending] == [first.id, second.id]
    item = pending[0]
    assert item["rider_name"] == "Layla Haddad" and item["rider_email"] == rider.email
    assert item["status"] == "pending" and item["reason"] == ""
    assert item["title"] == "Zwift: 51.1 h, 160.9 km, 1,234 m"
    assert item["details"] == [
        ["Platform", "Zwift"],
        ["Total time spent", "2 days 3 hours 4 minutes"],
        ["Overall distance", "160.934 km"],
        ["Overall elevation", "1,234 m"],
        ["Profile link", GOOD["profile_link"]],
    ]
    assert item["files"] == [
        {"id": first.proof_file_ids[0], "name": "totals.png", "content_type": "image/png"}
    ]
    assert item["submitted_at"].tzinfo is not None
    imports.decide(session, reviewer, second.id, False, "Wrong profile.")
    assert imports.pending_count(session) == 1
    rejected = imports.for_review(session, "rejected")
    assert [(item["id"], item["status"], item["reason"]) for item in rejected] == [
        (second.id, "rejected", "Wrong profile.")
    ]
    assert imports.for_review(session, "approved") == [] and imports.for_review(session, "submitted") == []
