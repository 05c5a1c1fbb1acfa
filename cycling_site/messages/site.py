"""Texts of the frame, the guards and the site-wide messages."""

IFRAME_WARNING = "This website cannot be embedded in an iframe."
BAD_REQUEST = "The request could not be understood."
SERVER_ERROR = "Something went wrong on our side. Please try again later."
# Spec 2 section 8: the server does not answer.
NO_RESPONSE = "No response received. We regret the inconvenience. Please try again later."
NOT_FOUND = "Not found."
METHOD_NOT_ALLOWED = "This method is not allowed here."
REQUEST_TOO_LARGE = "The upload is too large."
CROSS_SITE_REFUSED = "This request came from another website and was refused."
DATABASE_BUSY = "The site is busy right now. Please try again in a moment."
# A page slow to go live, or an action whose answer is slow to come (components/action_watch.py).
SLOW_CONNECTING = (
    "Still connecting to the site. What you typed is kept; the page works as soon as it answers."
)
SLOW_ANSWER = "Still waiting for the site's answer. Your request is on its way; it will not be made twice."
TRY_AGAIN = "Try again"
# A chosen file on its way to the site, and one whose sending the connection cut.
UPLOADING = "Uploading…"
UPLOAD_FAILED = (
    "The connection was lost while your file was being sent. "
    "If it does not show as chosen, please choose it again."
)
# Spec 2 section 8: a request the server refused with an errors object, shown in a pop-up.
ERRORS_POPUP_TITLE = "We could not do that"
ERRORS_POPUP_SUPPORT = "If this keeps happening, please contact support at {email}."

# Every page's title: the page's own, then the site's name.
PAGE_TITLE = "{title} · {site}"
# The meta description of each route (by its name in cycling_site/routes.py): what a search result shows
# under the page's title. {site} is the site's name.
EVENTS_DESCRIPTION = (
    "Upcoming virtual cycling races with prize money on {site}: the events, their prizes and registration."
)
PAGE_DESCRIPTIONS = {
    "events": EVENTS_DESCRIPTION,
    "home": EVENTS_DESCRIPTION,
    "event_list": EVENTS_DESCRIPTION,
    "routes": "The virtual courses of {site}'s races: distance, elevation and profile of every track.",
    "iframe-warning": "{site} cannot be shown inside another website: open it in its own window.",
    "event": "Register for a {site} race: disclaimer, personal details, identity, device, team and phone.",
    "EventThankYou": "Your registration for a {site} race has been received.",
    "event_detail": "A {site} race: course, distance, elevation, prize money, winners and registration.",
    "support": "Help for {site} riders: device requirements, app downloads and help articles.",
    "contacts": "Write to the {site} team about races, your account, prizes or the app.",
    "terms": "The terms and conditions for using {site} and taking part in its races.",
    "faqs": "Frequently asked questions about {site}: accounts, races, devices, prizes and payments.",
    "about": "About {site}: virtual indoor cycling races with real prize money.",
    "team_uae": "Team UAE on {site}: the national team's riders, races and results.",
    "sunday_race_club": "The Sunday Race Club: {site}'s weekly race for every category of rider.",
    "al_ula": "Ride AlUla on {site}: the desert races, their courses and prizes.",
    "privacy": "How {site} collects, uses and protects your personal data.",
    "article": "News, race reports and guides for {site} riders: training, equipment and racing.",
    "ruleset": "The rules {site}'s races are ridden by: categories, equipment, weigh-ins and fair play.",
    "verify-user": "Confirm the e-mail address of your {site} account.",
    "verify-kid": "Confirm the e-mail address of a kid's {site} account.",
    "delete-user": "Confirm the deletion of a {site} account with the link from your e-mail.",
    "teams": "The racing teams of {site}: find a team, join it or create your own.",
    "my_teams": "The {site} teams you joined and the teams you own.",
    "login": "Sign in to {site} to register for races, see your rides and manage your prize wallet.",
    "register": "Create a {site} account to race for prize money on your indoor bike.",
    "verification": "Enter the code sent to your e-mail to verify your {site} account.",
    "forgetpassword": "Forgot your {site} password? Get a link to set a new one by e-mail.",
    "resetpassword": "Set a new password for your {site} account with the link from your e-mail.",
    "parental-consent": "Riders under 18 need a parent's approval before racing on {site}.",
    "parental-approval": "Approve your child's {site} account so they can race with your consent.",
    "oauth": "Connecting your training app to {site} to share your rides and stats.",
    "profile": "Your {site} profile: personal details, photo, connected apps and password.",
    "analogx-terms": "The AnalogX terms to accept before connecting AnalogX to {site}.",
    "new_activities": "Your {site} dashboard: rides, power curves, progress, weigh-ins and the in-game shop.",
    "activity": "One ride on {site}: power, heart rate, cadence, speed and elevation over the ride.",
    "pre-verification": "Verify your rider profile for {site}'s prize races: equipment, weight and video.",
    "wallet": "Your {site} prize wallet: prize money in BTC, transactions and withdrawals.",
    "wallet-verification": "Verify your {site} wallet to withdraw prize money.",
    "wallet-verification-request": "Your {site} wallet verification is being reviewed.",
    "withdrawal": "Withdraw prize money from your {site} wallet to your Bitcoin address.",
    "results": "Results of {site} races: positions, times and categories of every rider.",
    "race-control": "{site} race control: review registrations, verifications, weigh-ins and imports.",
    "finance": "{site} finance: review wallet verifications, withdrawals and prize money.",
    "dev-mailbox": "The demo mailbox of {site}: the e-mails and codes the site has sent.",
}
# An event's own page: its name, date, figures and prize money.
EVENT_DESCRIPTION = (
    "{name}, {when}: {distance}, {elevation} of climbing, {prize} in prize money. Register on {site}."
)

# Under a table wider than the screen, while some of its columns are out of sight.
SCROLL_HINT = "Scroll sideways to see every column"
