"""Texts of the registration wizard, its files, the phone code and the thank-you page (spec 2 sections 4,
5 and 8). The spec's own texts are verbatim; the others fill what it leaves open."""

# The registration page's h1 while its event loads or cannot be shown (the event's name once it is).
PAGE_HEADING = "Event registration"

STEPS = {
    "disclaimer": "DISCLAIMER",
    "personal": "PERSONAL DETAILS",
    "identity": "IDENTITY VERIFICATION",
    "device": "DEVICE DETAILS",
    "team": "TEAM",
    "phone": "PHONE VERIFICATION",
}

DISCLAIMER = (
    "Prize-money races are checked by race control. By registering you confirm that the details and "
    "documents you give are your own and true, that you ride on your own account and equipment, and that "
    "race control may ask for more proof, change your category or remove you from the results when a rule "
    "is broken."
)
DISCLAIMER_ACCEPT = "I have read and accept the disclaimer"
DISCLAIMER_REQUIRED = "Please accept the disclaimer to continue."

REQUIRED = "required"
FIELD_REQUIRED = "{label} is required."
DOB_TOO_RECENT = "You must be at least 10 years old to register for this event."
PROOF_RULE = "Riders born on or before 31 Dec 1980, or on or after 1 Jan 2002, upload a passport or ID."
PROOF_REQUIRED = "Please upload a passport or ID as proof of your date of birth."
INVALID_FILE_TYPE = "Please select a valid file type (JPEG, JPG, PNG, or PDF)."
INVALID_VIDEO_TYPE = "Please select a valid video file (MP4, MOV or WEBM)."
FILE_TOO_LARGE = "File size exceeds 8MB. Please select a smaller file."
FILE_EMPTY = "The selected file is empty. Please select another file."
FILE_NOT_FOUND = "This file is not on record. Please upload it again."
GENDER_INVALID = "Please select Male or Female."
ID_TYPE_INVALID = "Please select National ID or Passport."
EXPIRY_TOO_SOON = "The ID must be valid for at least 10 more days."
PLATFORM_INVALID = "Please select iOS or Android."
TEAM_TYPE_INVALID = "Please choose a team or Individual."
PHONE_INVALID = "Please enter a valid phone number"
DIAL_CODE_INVALID = "This country code is not accepted for this event."
OTP_TYPE_INVALID = "Please choose SMS or WhatsApp."
OTP_INVALID = "The code must be at least 6 digits."
OTP_WRONG = "The code is not correct. Please check it and try again."
OTP_SEND_FIRST = "Please send a code to your phone first."
OTP_NOT_VERIFIED = "Please verify your phone number before you submit."
OTP_SENT = "We sent a code to +{phone}. It is valid for 10 minutes."
OTP_TOO_MANY = "Too many codes were sent to this number. Please try again in an hour."
OTP_SEND_LIMIT = "Too many codes were requested. Please try again in an hour."
OTP_VERIFIED = "Your phone number has been verified."
OTP_TEXT = "{code} is your event registration code. It is valid for 10 minutes."
TERMS_REQUIRED = "Please agree to the terms and conditions"
ALREADY_REGISTERED = "You are already registered for this event."

DOWNLOAD_FAILED = "There is an error in downloading file. please try again or contact support"
LINK_EXPIRED = "This download link has expired. Please open the file again from the form."

THANK_YOU = "Thank You for Registering!"
THANK_YOU_TEXT = (
    "Your registration is with race control. You will receive an e-mail as soon as it is approved; "
    "your status is also shown on the event list."
)
