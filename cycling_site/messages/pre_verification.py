"""Texts of the pre-verification form and the dashboard's verification alert (spec 1 sections 2-4, spec 3
sections 2-9)."""

TITLE = "Rider pre-verification"
INTRO = (
    "Premium races are for verified riders. Tell race control about your equipment, weight and height, "
    "and show them on video. We review every submission within 72 hours."
)
GUIDE_LINK = "Technical guide and ruleset"
CONTACT_LINK = "Contact race control"
VIDEO_RULE = (
    "Videos must be unlisted links on a video site (such as YouTube or Vimeo); direct file uploads are not "
    "accepted."
)
MATCH_RULE = "Your weight and height must match what your videos show."
SECTIONS = (
    "1. Equipment",
    "2. Weight and height",
    "3. Video proof",
    "4. Strava",
    "5. Message to race control",
)
SMART_TRAINER_PLACEHOLDER = "Please select your smart trainer"
POWER_SOURCE_PLACEHOLDER = "Please select your secondary power source"

SMART_TRAINER_REQUIRED = "Smart Trainer is required"
POWER_SOURCE_REQUIRED = "Secondary Power Source is required"
WEIGHT_REQUIRED = "Weight is required"
WEIGHT_INVALID = "Please enter a valid weight (25-200 kg)"
HEIGHT_REQUIRED = "Height is required"
HEIGHT_INVALID = "Please enter a valid height (50-250 cm)"
VIDEO_REQUIRED = "Video link is required"
VIDEO_INVALID = "Please enter a valid HTTP or HTTPS video URL."
STRAVA_REQUIRED = "Strava link is required"
LINK_TOO_LONG = "The link can be at most 500 characters."
MESSAGE_TOO_LONG = "The message can be at most 2000 characters."

ERRORS_HEADING = "Please correct the following errors:"
SUBMIT_FAILED = "There was a problem submitting your data."
SUBMISSION_FAILED = "Verification submission failed"
SUBMIT_ERROR = "An error occurred while submitting your verification."
ALREADY_SUBMITTED = "Your verification has already been submitted."
SUBMITTED = "Your verification has been submitted."
THANK_YOU_TITLE = "Thank you!"
THANK_YOU = (
    "Your verification has been submitted. Race control will review it within 12 hours and let you know "
    "by e-mail."
)
CANCEL_CONFIRM = "Are you sure you want to cancel? All your entered data will be lost."

ALERT_VERIFY_TITLE = "Verify your rider profile"
ALERT_VERIFY = "Premium races with prize money are open to verified riders only."
ALERT_VERIFY_BUTTON = "Verify"
ALERT_PENDING_TITLE = "Verification under review"
ALERT_PENDING = "Race control is reviewing your verification. We will e-mail you once it is decided."
ALERT_PENDING_BUTTON = "Got it"
ALERT_REJECTED_TITLE = "Verification declined"
ALERT_REJECTED = "Race control could not verify you."
ALERT_REJECTED_BUTTON = "Resubmit Verification"
ALERT_REASON = "Reason: "

CATEGORY_REQUIRED = "Choose the category the rider is verified in."
