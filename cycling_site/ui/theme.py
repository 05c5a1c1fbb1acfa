"""Design tokens: the one place for colours, type scale, spacing and radii."""

COLOR = {
    "ink": "#0B1220",
    "ink_soft": "#151E31",
    "surface": "#F4F6FA",
    "card": "#FFFFFF",
    # Text keeps WCAG's enhanced contrast, 7:1, on every ground it is drawn on: white on accent, accent on
    # the light grounds and its tint; muted on white, the surface, each tint and Radix's grey tints; the
    # bright orange and the muted light grey on the dark grounds (and the header menu's orange hover tint).
    "accent": "#933109",
    "accent_dark": "#7C2D12",
    "accent_bright": "#FFA07E",
    "accent_soft": "#FFF1EB",
    "text": "#111827",
    "muted": "#40454F",
    "on_ink": "#E8ECF4",
    "on_ink_muted": "#A1AABD",
    "border": "#E3E7EF",
    "danger": "#9B1F16",
    "danger_soft": "#FDECEA",
    "warning": "#7F4400",
    "warning_soft": "#FFF4E0",
    "success": "#085D38",
    "success_soft": "#E6F6EE",
}

# What charts draw, each in its colour: ride streams, compared rides, progress bars.
CHART_COLOR = {
    "power": "#FF5A1F",
    "power_weight": "#2563EB",
    "ride_a": "#FF5A1F",
    "ride_b": "#2563EB",
    "altitude": "#0F8A54",
    "speed": "#2563EB",
    "heartRate": "#C8281C",
    "cadence": "#7C3AED",
    "distance": "#2563EB",
    "elevation": "#F5B400",
}

# The podium: gold, silver, bronze, each under its place in ink at 7:1.
MEDAL_COLOR = {"1": "#F5B400", "2": "#9AA4B8", "3": "#D4955A"}

FONT = {
    "body": "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    "display": "'Roboto Condensed', 'Arial Narrow', system-ui, -apple-system, 'Segoe UI', sans-serif",
}

SIZE = {"xs": "12px", "sm": "14px", "md": "16px", "lg": "20px", "xl": "28px", "2xl": "40px", "3xl": "56px"}

SPACE = {"1": "4px", "2": "8px", "3": "12px", "4": "16px", "5": "24px", "6": "32px", "7": "48px", "8": "64px"}

RADIUS = {"sm": "6px", "md": "10px", "lg": "16px", "pill": "999px"}

SHADOW = {"card": "0 1px 2px rgba(16,24,40,.06), 0 8px 24px rgba(16,24,40,.08)"}

CONTENT_WIDTH = "1180px"

# Text for screen readers only, e.g. the name of a column whose cells are checkboxes.
VISUALLY_HIDDEN = {
    "position": "absolute",
    "width": "1px",
    "height": "1px",
    "padding": "0",
    "margin": "-1px",
    "overflow": "hidden",
    "clip": "rect(0, 0, 0, 0)",
    "white_space": "nowrap",
    "border": "0",
}

# The primary action's look (Login, Connect, Subscribe, Verify Account ...): white on the accent, 7.8:1.
PRIMARY_BUTTON = {
    "background": COLOR["accent"],
    "color": "white",
    "font_weight": "700",
    "cursor": "pointer",
    "_hover": {"background": COLOR["accent_dark"]},
}

DISPLAY_HEADING = {
    "font_family": FONT["display"],
    "font_weight": "800",
    "font_style": "italic",
    "text_transform": "uppercase",
    "letter_spacing": "0.01em",
    "line_height": "1.05",
}

# Radix Themes' own scales, to the same 7:1: white on the solid colours (-9, -10 on hover), the text
# colours (-11) on their tints and on white, and sonner's toast texts.
RADIX_COLOR_OVERRIDES = {
    "--orange-9": COLOR["accent"],
    "--orange-10": COLOR["accent_dark"],
    "--orange-11": COLOR["accent_dark"],
    "--orange-a11": COLOR["accent_dark"],
    "--green-9": COLOR["success"],
    "--green-10": "#064A2C",
    "--green-11": COLOR["success"],
    "--green-a11": COLOR["success"],
    "--slate-9": COLOR["muted"],
    "--slate-10": "#30343C",
    "--slate-11": COLOR["muted"],
    "--slate-a11": COLOR["muted"],
    "--amber-11": COLOR["warning"],
    "--amber-a11": COLOR["warning"],
    "--red-9": COLOR["danger"],
    "--red-10": "#7F1911",
    "--red-11": COLOR["danger"],
    "--red-a11": COLOR["danger"],
    "--blue-11": "#084A8C",
    "--blue-a11": "#084A8C",
}
TOAST_COLOR_OVERRIDES = {
    "--success-text": COLOR["success"],
    "--error-text": COLOR["danger"],
    "--warning-text": COLOR["warning"],
    "--info-text": "#084A8C",
}

GLOBAL_STYLE = {
    "body": {"background": COLOR["surface"], "color": COLOR["text"], "font_family": FONT["body"]},
}

# Rules that must reach menus and dialogs as well: those render outside the page's root, where the app's
# style does not apply, so they go in the page head as a style sheet.
SITE_RULES = {
    # The site has one colour scheme (cycling_site/color_scheme.py): the browser's controls follow it.
    ":root": {"color-scheme": "light"},
    "html .radix-themes": RADIX_COLOR_OVERRIDES,
    'html [data-sonner-toaster][data-sonner-theme="light"]': TOAST_COLOR_OVERRIDES,
    ":focus-visible": {"outline": f"3px solid {COLOR['accent_bright']}", "outline-offset": "2px"},
    # Tables scroll in a focusable region of ours (ui.layout.scroll_region), not in Radix's own viewport,
    # which the keyboard cannot reach.
    ".rt-TableRoot > .rt-ScrollAreaRoot > .rt-ScrollAreaViewport": {"overflow": "visible !important"},
    # The action watch (components/action_watch.jsx): a bar along the top while an action waits, and the
    # notice of a long wait, floating at the foot so that the page never moves.
    ".action-watch-bar": {
        "position": "fixed",
        "top": "0",
        "left": "0",
        "right": "0",
        "height": "3px",
        "z-index": "2147483000",
        "background": f"linear-gradient(90deg, transparent, {COLOR['accent']}, transparent)",
        "background-size": "50% 100%",
        "background-repeat": "no-repeat",
        "animation": "action-watch-bar 1.2s linear infinite",
    },
    ".action-watch-notice:not([hidden])": {
        "position": "fixed",
        "bottom": SPACE["5"],
        "left": "50%",
        "transform": "translateX(-50%)",
        "width": "min(92vw, 520px)",
        "z-index": "2147483000",
        "display": "flex",
        "align-items": "center",
        "gap": SPACE["3"],
        "padding": f"{SPACE['3']} {SPACE['4']}",
        "border-radius": RADIUS["md"],
        "background": COLOR["ink"],
        "color": COLOR["on_ink"],
        "font-size": SIZE["sm"],
        # It stands out from the dark footer it may float over.
        "border": f"1px solid {COLOR['accent_bright']}",
        "box-shadow": "0 10px 30px rgba(11, 18, 32, 0.45)",
    },
    ".action-watch-retry": {
        "flex": "none",
        "padding": f"{SPACE['2']} {SPACE['3']}",
        "border-radius": RADIUS["sm"],
        "border": f"1px solid {COLOR['on_ink']}",
        "background": "transparent",
        "color": COLOR["on_ink"],
        "font-weight": "700",
        "cursor": "pointer",
        "min-height": "44px",
    },
}


def site_stylesheet() -> str:
    return "".join(
        selector + "{" + ";".join(f"{name}:{value}" for name, value in rules.items()) + "}"
        for selector, rules in SITE_RULES.items()
    )
