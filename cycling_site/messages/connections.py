"""Connections tab texts (spec 2 sections 4, 5 and 8); the failure alert is accounts.OAUTH_ERROR."""

# Texts the spec does not give.
UNKNOWN_NETWORK = "This app cannot be connected."
NOT_CONNECTED = "This app is not connected."
INTRO = "Connect the apps you train with to bring your rides in."
CONNECTING = "Connecting your account…"
BACK_TO_CONNECTIONS = "Back to connections"
XERT_HINT = "Xert links with your Xert username and password."
NO_APPS = "No apps can be connected right now."
NOT_CONNECTED_LABEL = "Not connected"
CONNECTED_LABEL = "Connected"
# The AnalogX terms page (/analogx-terms), read before the rider is sent to AnalogX.
TERMS_REQUIRED = "Please accept the {name} terms to connect {name}."
TERMS_ACCEPT = "I have read and accept the AnalogX terms"
TERMS_CONNECT = "Accept and connect AnalogX"


def connected_as(user: str) -> str:
    return f"Connected as {user}"


def connected(name: str) -> str:
    return f"{name} is connected."


def disconnected(name: str) -> str:
    return f"{name} is disconnected."


def confirm_title(name: str) -> str:
    return f"Disconnect {name}?"


def confirm_text(name: str) -> str:
    return f"Rides will no longer come in from {name}. You can connect it again at any time."
