"""Texts of the third-party import: the banners, the 3-step wizard and its rules, the success screen and
race control's e-mails (spec 3 sections 2, 4, 5 and 8). The spec's own texts are verbatim; the others fill
what it leaves open."""

STEP_PLATFORM = "Select your migration platform"
STEP_STATS = "{platform} / Enter your ride stats"
STEP_PROOF = "{platform} / Proof"

# Section 5, "Import wizard".
PLATFORM_REQUIRED = "You need to select platform to migrate from."
TIME_REQUIRED = "You need to fill total time spent"
TIME_INTEGER = "You need to fill hours/days/minutes in integer"
DAYS_NEGATIVE = "Days should be not be less than zero"
HOURS_RANGE = "Hours should be between 0 and 23"
MINUTES_RANGE = "Minutes should be between 0 and 59"
DISTANCE_REQUIRED = "You need to fill over all distance"
ELEVATION_REQUIRED = "You need to fill over all elevation"
PROFILE_LINK_REQUIRED = "You need to provide profile link"
PROFILE_LINK_INVALID = "Profile link should be a valid link"
PROOF_REQUIRED = "You need to provide proof file"
TOO_MANY_FILES = "You can only upload maximum 10 files."

# Beyond the spec: values it does not name.
PLATFORM_UNKNOWN = "Please select one of the listed platforms."
DAYS_TOO_MANY = "Days should be at most {days}"
DISTANCE_INVALID = "Please enter the overall distance as a number from 0 to {most:,}."
UNIT_INVALID = "Please choose kilometers or miles."
ELEVATION_INVALID = "Please enter the overall elevation in meters, from 0 to {most:,}."
ALREADY_WAITING = "Your import is already under review. We will get back to you soon within 7 business days."
ALREADY_APPROVED = "Your import has already been approved."
NOTHING_TO_SEE = "You have no approved import to mark as seen."
SUBMITTED = "Your Request has been submitted successfully !"
SUBMITTED_TEXT = "We will get back to you soon within 7 business days."
SEEN = "Thank you. Your import stays in the Other Platform column of your progress."
STATUS_FAILED = "Your import status could not be loaded. Please try again."

# The banners by status (spec 3 section 4).
OFFER_TITLE = "Import offered"
OFFER_TEXT = (
    "Riding on Strava, Zwift, TrainerRoad, Rouvy or Bkool too? Import your total time, distance and "
    "elevation from there, and race control adds them to your progress once checked."
)
OFFER_BUTTON = "Import your stats"
UNDER_REVIEW_TITLE = "Your import is under review"
UNDER_REVIEW_TEXT = "We will get back to you soon within 7 business days."
APPROVED_TITLE = "Congratulations!"
APPROVED_TEXT = (
    "Your ride stats from {platform} have been approved. They now show in the Other Platform column of "
    "your progress."
)
GOT_IT = "Got It"
DECLINED_TITLE = "Import declined"
DECLINED = (
    "Sorry! Your application has been declined due to inaccurate information provided. Please try import "
    "with correct details."
)
REIMPORT = "Re-import"
RACE_CONTROL_NOTE = "Race control's note: "

# Race control's e-mails to the rider.
APPROVED_SUBJECT = "Your ride stats import is approved"
APPROVED_BODY = (
    "Race control has approved the ride stats you imported from {platform}. They now show in the Other "
    "Platform column of your progress on the dashboard."
)
REJECTED_SUBJECT = "Your ride stats import was declined"
REJECTED_BODY = DECLINED
