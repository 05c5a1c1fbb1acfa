"""Texts of the rider dashboard, the activities list and the activity detail view."""

DETAIL_FAILED = "Unable to fetch activity detail."
# The page's heading for screen readers when the activity could not be shown.
DETAIL_HEADING = "Activity detail"
# The dashboard's h1 (read by screen readers only) while the rider's profile loads, or when it failed.
DASHBOARD_HEADING = "Your dashboard"
DOWNLOAD_FAILED = "Error download file. Please try again"
LIST_FAILED = "Unable to fetch activities. Please try again."
PROFILE_FAILED = "Unable to fetch your rider profile. Please try again."
PROGRESS_FAILED = "Unable to fetch your progress. Please try again."
CURVE_FAILED = "Unable to fetch the power curve. Please try again."
# Spec 3 section 8, then what to do about it.
NO_FILES = "No Files found for this user."
NO_FILES_HINT = "Ride in the game or upload a FIT file and your rides appear here."
CURVE_LOADING = "Loading your power curve..."
NO_CURVE = "Your power curve appears after your first ride with power."
UPLOADED = "Ride uploaded: {title}."
UPLOAD_BUTTON = "UPLOAD FIT FILE"
UPLOAD_SENDING = "UPLOADING {percent}%"
UPLOAD_PROCESSING = "PROCESSING THE RIDE…"
NOT_A_FIT_NAME = "Choose a .fit file."
UPLOAD_TOO_LARGE = "The file is too large (16 MB at most)."
COMPARE_HINT = "Tick up to two rides to compare their power curves."
