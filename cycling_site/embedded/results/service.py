"""The embedded results service: the page the results screen (/race-results) shows in its frame.

Served at /results-service/?eventId=&dayId=: the events that have results, or one event's standings (a
series also has a day switcher with its overall standings). It stands in for an outside results service,
so it is plain server-rendered HTML, never a site page. Its links do not navigate inside the frame: they
post {type, eventId, dayId} to the parent page, which moves to /race-results with that query and gives the
frame its new address. Opened on its own (not framed), the links are ordinary links.
"""

import html
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.responses import HTMLResponse
from sqlmodel import Session

from cycling_site.db import session_per_request
from cycling_site.embedded.results import standings as results
from cycling_site.embedded.results import texts as msg
from cycling_site.embedded.results.standings import ResultEvent, Standing
from cycling_site.local_time import local
from cycling_site.wire.ids import row_id
from cycling_site.wire.results import EMBEDDED_PREFIX

DB = Annotated[Session, Depends(session_per_request)]
# The service's own look: the site's brand colours, kept here as an outside service keeps its stylesheet.
COLOR = {
    "ink": "#0B1220",
    "surface": "#F4F6FA",
    "card": "#FFFFFF",
    "accent": "#933109",
    "accent_dark": "#7C2D12",
    "accent_soft": "#FFF1EB",
    "text": "#111827",
    "muted": "#40454F",
    "border": "#E3E7EF",
}
FONT = {
    "body": "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    "display": "'Roboto Condensed', 'Arial Narrow', system-ui, -apple-system, 'Segoe UI', sans-serif",
}
RADIUS = {"sm": "6px", "md": "10px", "pill": "999px"}

router = APIRouter(prefix=EMBEDDED_PREFIX, include_in_schema=False)

# Backgrounds of white labels, each at least 4.5:1 with white; the medals carry dark numbers.
CATEGORY_COLORS = {1: "#9B1F16", 2: "#933109", 3: "#085D38", 4: "#084A8C"}
MEDALS = {1: "#E0A800", 2: "#9AA4B8", 3: "#D4955A"}

_STYLE = {
    "*": "box-sizing:border-box",
    "body": f"margin:0;background:{COLOR['card']};color:{COLOR['text']};font-family:{FONT['body']};"
    "font-size:15px;line-height:1.45;-webkit-text-size-adjust:100%",
    "main": "max-width:1100px;margin:0 auto;padding:24px 28px 32px",
    "a": f"color:{COLOR['accent_dark']}",
    "a:focus-visible": f"outline:3px solid {COLOR['accent']};outline-offset:2px;border-radius:{RADIUS['sm']}",
    ".kicker": f"margin:0;color:{COLOR['accent_dark']};font-size:12px;font-weight:700;letter-spacing:.12em;"
    "text-transform:uppercase",
    "h1": f"margin:4px 0 4px;font-family:{FONT['display']};font-style:italic;font-weight:800;"
    "text-transform:uppercase;font-size:26px;line-height:1.1",
    ".meta": f"margin:0 0 16px;color:{COLOR['muted']};font-size:14px",
    ".back": "display:inline-flex;align-items:center;gap:6px;font-weight:700;text-decoration:none;"
    "font-size:14px;padding:6px 0",
    ".days": "display:flex;flex-wrap:wrap;gap:8px;margin:0 0 16px;padding:0;list-style:none",
    ".days a": f"display:inline-block;padding:7px 16px;border-radius:{RADIUS['pill']};font-weight:700;"
    f"font-size:14px;text-decoration:none;color:{COLOR['text']};border:1px solid {COLOR['border']}",
    ".days a[aria-current]": f"background:{COLOR['ink']};border-color:{COLOR['ink']};color:white",
    ".table-wrap": f"overflow-x:auto;border:1px solid {COLOR['border']};border-radius:{RADIUS['md']}",
    "table": "width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums",
    "th": f"text-align:left;font-size:12px;letter-spacing:.06em;text-transform:uppercase;"
    f"color:{COLOR['muted']};background:{COLOR['surface']};padding:10px 12px;white-space:nowrap",
    "td": f"padding:10px 12px;border-top:1px solid {COLOR['border']};vertical-align:middle",
    "tbody tr:nth-child(even)": "background:#FAFBFD",
    ".num": "text-align:right;white-space:nowrap",
    ".rider": "font-weight:600;min-width:120px",
    ".pos": "width:48px;font-weight:700",
    ".medal": "display:inline-flex;align-items:center;justify-content:center;width:28px;height:28px;"
    f"border-radius:50%;color:{COLOR['ink']};font-size:13px",
    ".cat": f"display:inline-block;min-width:26px;text-align:center;padding:2px 8px;"
    f"border-radius:{RADIUS['pill']};color:white;font-size:12px;font-weight:700",
    ".events": "display:grid;gap:12px;margin:0;padding:0;list-style:none",
    ".event": f"display:flex;align-items:center;gap:16px;padding:16px;border:1px solid {COLOR['border']};"
    f"border-radius:{RADIUS['md']};text-decoration:none;color:{COLOR['text']};background:{COLOR['card']}",
    ".event:hover": f"border-color:{COLOR['accent']};box-shadow:0 4px 14px rgba(16,24,40,.08)",
    ".event .date": f"flex:none;width:56px;text-align:center;border-radius:{RADIUS['sm']};padding:6px 0;"
    f"background:{COLOR['accent_soft']};color:{COLOR['accent_dark']};font-weight:800;line-height:1.1",
    ".event .date b": "display:block;font-size:22px",
    ".event .date small": "font-size:11px;letter-spacing:.08em;text-transform:uppercase",
    ".event .name": "display:block;font-weight:700;font-size:16px",
    ".event .info": f"display:block;color:{COLOR['muted']};font-size:13px",
    ".event .go": f"margin-left:auto;color:{COLOR['accent_dark']};font-size:22px;font-weight:700",
    ".empty": f"padding:32px 16px;text-align:center;color:{COLOR['muted']};"
    f"border:1px dashed {COLOR['border']};border-radius:{RADIUS['md']}",
    # A phone: the whole table fits the frame's width.
    "@media (max-width:480px)": "main{padding:16px 12px 24px}h1{font-size:22px}table{font-size:14px}"
    "th,td{padding:9px 5px}th{letter-spacing:.02em}.pos{width:34px}.rider{min-width:0}"
    ".medal{width:24px;height:24px;font-size:12px}.cat{min-width:22px;padding:2px 6px}"
    ".event{padding:12px;gap:12px}",
}
STYLE_SHEET = "".join(f"{selector}{{{rules}}}" for selector, rules in _STYLE.items())

# Framed, a link tells the parent page where to go instead of navigating the frame.
SCRIPT = """
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-type]");
  if (!link || window.parent === window) return;
  event.preventDefault();
  const message = { type: link.dataset.type };
  if (link.dataset.eventId) message.eventId = Number(link.dataset.eventId);
  if (link.dataset.dayId) message.dayId = Number(link.dataset.dayId);
  window.parent.postMessage(message, window.location.origin);
});
"""


def _page(title: str, body: str) -> HTMLResponse:
    document = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE_SHEET}</style></head>"
        f'<body><main aria-label="Results">{body}</main><script>{SCRIPT}</script></body></html>'
    )
    return HTMLResponse(document, headers={"cache-control": "no-store"})


def _link(
    kind: str, text: str, event_id: int | None = None, day_id: int | None = None, attrs: dict | None = None
) -> str:
    """A link that posts {type: kind, eventId, dayId} to the parent page (and works unframed too)."""
    query = {key: value for key, value in (("eventId", event_id), ("dayId", day_id)) if value}
    data = {"data-type": kind, "data-event-id": event_id, "data-day-id": day_id}
    attributes = {name: value for name, value in data.items() if value} | (attrs or {})
    rendered = "".join(f' {name}="{html.escape(str(value))}"' for name, value in attributes.items())
    return f'<a href="?{urlencode(query)}"{rendered}>{text}</a>'


def _date(event: ResultEvent) -> str:
    moment = local(event.starts_at)
    return f"{moment:%a} {moment.day} {moment:%b %Y · %H:%M} GMT+4"


def _summary(event: ResultEvent) -> str:
    days = f"{len(event.days)} days" if event.series else "1 day"
    return f"{_date(event)} · {event.riders} riders · {days}"


def _events_page(events: list[ResultEvent]) -> HTMLResponse:
    items = []
    for event in events:
        moment = local(event.starts_at)
        card = (
            f'<span class="date"><b>{moment.day}</b><small>{moment:%b}</small></span>'
            f'<span><span class="name">{html.escape(event.name)}</span>'
            f'<span class="info">{html.escape(_summary(event))}</span></span>'
            '<span class="go" aria-hidden="true">›</span>'
        )
        # A series opens on its overall standings; a one-day event on its day.
        link = (
            _link("series", card, event.id, attrs={"class": "event"})
            if event.series
            else _link("single", card, event.id, event.days[0], attrs={"class": "event"})
        )
        items.append(f"<li>{link}</li>")
    listing = f'<ul class="events" id="events">{"".join(items)}</ul>' if items else _empty(msg.NO_EVENTS)
    body = f"<h1>{msg.EVENTS_HEADING}</h1>{listing}"
    return _page(msg.EVENTS_HEADING, body)


def _empty(text: str) -> str:
    return f'<p class="empty" id="no-results">{html.escape(text)}</p>'


def _back() -> str:
    return _link("events", f"‹ {msg.BACK_TO_EVENTS}", attrs={"class": "back", "id": "back-to-events"})


def _no_results_page() -> HTMLResponse:
    return _page(msg.NO_RESULTS, f"{_back()}{_empty(msg.NO_RESULTS)}")


def _day_switcher(event: ResultEvent, day_id: int | None) -> str:
    tabs = [(msg.OVERALL, "series", None), *((f"Day {day}", "single", day) for day in event.days)]
    items = "".join(
        "<li>"
        + _link(kind, label, event.id, day, attrs={"aria-current": "page"} if day == day_id else None)
        + "</li>"
        for label, kind, day in tabs
    )
    return f'<nav aria-label="Days"><ul class="days" id="days">{items}</ul></nav>'


def _row(standing: Standing) -> str:
    place = standing.position
    medal = MEDALS.get(place)
    position = f'<span class="medal" style="background:{medal}">{place}</span>' if medal else str(place)
    colour = CATEGORY_COLORS.get(standing.category, COLOR["muted"])
    return (
        f'<tr><td class="pos">{position}</td><td class="rider">{html.escape(standing.rider_name)}</td>'
        f'<td><span class="cat" style="background:{colour}">{standing.category}</span></td>'
        f'<td class="num">{results.race_time(standing.time_s)}</td>'
        f'<td class="num">{standing.watts_per_kg:.2f}</td></tr>'
    )


def _label(event: ResultEvent, day_id: int | None) -> str:
    if not event.series:
        return msg.FINAL_STANDINGS
    return f"Day {day_id}" if day_id else msg.OVERALL


def _standings_page(event: ResultEvent, day_id: int | None, standings: list[Standing]) -> HTMLResponse:
    label = _label(event, day_id)
    table = (
        '<div class="table-wrap" tabindex="0" role="region" aria-label="Standings"><table id="standings">'
        f"<caption hidden>{html.escape(label)}</caption>"
        '<thead><tr><th scope="col">Pos</th><th scope="col">Rider</th><th scope="col">Cat</th>'
        '<th scope="col" class="num">Time</th><th scope="col" class="num">W/kg</th></tr></thead>'
        f"<tbody>{''.join(_row(standing) for standing in standings)}</tbody></table></div>"
    )
    body = (
        f'{_back()}<p class="kicker">{html.escape(label)}</p>'
        f'<h1 id="event-name">{html.escape(event.name)}</h1>'
        f'<p class="meta">{html.escape(_summary(event))}</p>'
        f"{_day_switcher(event, day_id) if event.series else ''}{table}"
    )
    return _page(f"{event.name} · {label}", body)


@router.get("")
@router.get("/")
def results_page(
    session: DB,
    event_id: Annotated[str, Query(alias="eventId")] = "",
    day_id: Annotated[str, Query(alias="dayId")] = "",
) -> HTMLResponse:
    """Always a page (never an error status: a 404 would send the frame to the site's home)."""
    if not event_id:
        return _events_page(results.events_with_results(session))
    event_key = row_id(event_id)
    day_key = row_id(day_id)
    event = results.result_event(session, event_key) if event_key else None
    if event is None or (day_id and day_key not in event.days):
        return _no_results_page()
    return _standings_page(event, day_key, results.standings(session, event.id, day_key))


def install(app: FastAPI) -> None:
    """Serves the results service from `app`, under the site's own origin."""
    if not getattr(app.state, "results_service", False):
        app.include_router(router)
        app.state.results_service = True
