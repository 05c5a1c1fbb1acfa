"""Design tokens: the one place for colours, type scale, spacing and radii."""

COLOR = {
    "ink": "#0B1220",
    "ink_soft": "#151E31",
    "surface": "#F4F6FA",
    "card": "#FFFFFF",
    "accent": "#FF5A1F",
    "accent_dark": "#D9460F",
    "accent_soft": "#FFF1EB",
    "text": "#111827",
    "muted": "#5B6475",
    "on_ink": "#E8ECF4",
    "on_ink_muted": "#9AA4B8",
    "border": "#E3E7EF",
    "danger": "#C8281C",
    "danger_soft": "#FDECEA",
    "warning": "#B25E00",
    "warning_soft": "#FFF4E0",
    "success": "#0F8A54",
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

# The podium: gold, silver, bronze.
MEDAL_COLOR = {"1": "#F5B400", "2": "#9AA4B8", "3": "#C07A3A"}

FONT = {
    "body": "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    "display": "'Roboto Condensed', 'Arial Narrow', system-ui, -apple-system, 'Segoe UI', sans-serif",
}

SIZE = {"xs": "12px", "sm": "14px", "md": "16px", "lg": "20px", "xl": "28px", "2xl": "40px", "3xl": "56px"}

SPACE = {"1": "4px", "2": "8px", "3": "12px", "4": "16px", "5": "24px", "6": "32px", "7": "48px", "8": "64px"}

RADIUS = {"sm": "6px", "md": "10px", "lg": "16px", "pill": "999px"}

SHADOW = {"card": "0 1px 2px rgba(16,24,40,.06), 0 8px 24px rgba(16,24,40,.08)"}

CONTENT_WIDTH = "1180px"

DISPLAY_HEADING = {
    "font_family": FONT["display"],
    "font_weight": "800",
    "font_style": "italic",
    "text_transform": "uppercase",
    "letter_spacing": "0.01em",
    "line_height": "1.05",
}

GLOBAL_STYLE = {
    "body": {"background": COLOR["surface"], "color": COLOR["text"], "font_family": FONT["body"]},
    ":focus-visible": {"outline": f"3px solid {COLOR['accent']}", "outline_offset": "2px"},
}
