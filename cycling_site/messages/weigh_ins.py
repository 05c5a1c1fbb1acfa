"""Texts of weight submissions: the dashboard's banner and dialog, the store call and race control's e-mails
(spec 1 sections 2, 4 and 8). The spec's own texts are verbatim; the others fill what it leaves open."""

# "Pre" or "Post", as the banner's title and the deadline warning name a type.
TYPE_LABELS = {"pre_weight": "Pre", "post_weight": "Post"}

# The banner's title; the spec's default is "Pre-Weight Submission: Sunday Race (pending)".
TITLE = "{label}-Weight Submission: {event} ({status})"
# The rider's declaration for an open window: none yet (pending), or one race control rejected.
ITEM_PENDING = "pending"
ITEM_REJECTED = "rejected"
# Spec 1 section 8, "Weight deadline passed": the Pre- or Post-weight submission deadline for the event
# has passed.
DEADLINE_PASSED = "The {label}-weight submission deadline for {event} has passed."
# Spec 1 section 8, "Weight submit exception".
SUBMIT_FAILED = "An unexpected error occurred. Please try again."

SUBMIT = "Submit"
DIALOG_TITLE = "{label}-weight for {event}"
DIALOG_TEXT = (
    "Weigh yourself and give your weight with a photo or a short video that shows you on the scale and "
    "its reading. Race control checks it before the race results are final."
)
WEIGHT_LABEL = "Weight (kg)"
PROOF_LABEL = "Photo or video of the scale"
PROOF_HINT = "JPEG or PNG photo, or MP4, MOV or WEBM video, up to 8 MB"
CHOOSE_PROOF = "Choose a file or drop it here"
SUBMITTING = "Submitting…"
# Verification's weight rule and message (ARCHITECTURE.md: 25-200 kg, step 0.1).
WEIGHT_INVALID = "Please enter a valid weight (25-200 kg)"
WEIGHT_STEP = "Please enter your weight to one decimal place, for example 68.4."
TYPE_INVALID = "Please choose pre_weight or post_weight."
PROOF_REQUIRED = "Please add a photo or video that shows your weight."
PROOF_TYPE_INVALID = "Please select a photo (JPEG or PNG) or a video (MP4, MOV or WEBM)."
NO_WEIGH_INS = "This event has no {label}-weight submission."
NOT_REGISTERED = "You are not registered for this event."
NOT_OPEN_YET = "The {label}-weight submission for {event} opens on {opens} GMT+4."
PENDING_REVIEW = (
    "You have already submitted your {label}-weight for this event. Race control is reviewing it."
)
ALREADY_APPROVED = "Your {label}-weight for this event has already been approved."
SUBMITTED = "Your {label}-weight has been submitted. Race control will review it."

# Race control's decision, e-mailed to the rider.
DECISION_SUBJECT = "Your {label}-weight for {event}"
APPROVED_BODY = "Race control approved your {label}-weight of {weight} kg for {event}."
REJECTED_BODY = (
    "Race control could not accept your {label}-weight of {weight} kg for {event}. "
    "You can submit it again from your dashboard while the submission window is open (until {closes} GMT+4)."
)
