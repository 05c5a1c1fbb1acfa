"""The rider dashboard (/user/activities): profile header and the Overview, Activities and shop tabs."""

import reflex as rx

from components.country_flag import country_flag
from components.hash_watch import hash_watch
from components.ride_charts import power_curve_chart, progress_bars
from cycling_site.messages import activities as msg
from cycling_site.routes import path_of
from cycling_site.state.dashboard import CURVE_SERIES, PERIODS, DashboardState
from cycling_site.ui.feedback import loading_line
from cycling_site.ui.forms import INPUT_STYLE, file_drop, form_alert, rejection_codes
from cycling_site.ui.layout import card, page, scroll_region, titled
from cycling_site.ui.links import link_button
from cycling_site.ui.shop import shop_panel
from cycling_site.ui.theme import CHART_COLOR, COLOR, DISPLAY_HEADING, RADIUS, SIZE, SPACE, VISUALLY_HIDDEN
from cycling_site.ui.third_party_import import import_banner, import_wizard
from cycling_site.ui.verification_alert import verification_alert
from cycling_site.ui.weigh_ins import weigh_in_banner
from cycling_site.wire.activity import MAX_FIT_BYTES

PERIOD_LABELS = {"week": "THIS WEEK", "month": "THIS MONTH", "year": "THIS YEAR"}
DATA_TYPE_LABELS = (("distance", "DISTANCE"), ("elevation", "ELEVATION"))
UPLOAD_ID = "ride-upload"
TYPE_ICON = {"event": "trophy", "workout": "dumbbell", "ride": "bike"}
SPORT_ICON = {"cycling": "bike", "running": "footprints"}
# The power curve's height, which its loading line keeps so nothing moves when the curve comes.
CURVE_HEIGHT = 300
# The skeleton's pulse (between the theme's greys 3 and 4) in light tints: the greys vanish on the ink header.
ON_INK_SKELETON = {"--gray-a3": "rgba(232, 236, 244, 0.10)", "--gray-a4": "rgba(232, 236, 244, 0.22)"}


def _section_title(text: str, **props) -> rx.Component:
    return rx.heading(text, as_="h2", font_size=SIZE["lg"], **DISPLAY_HEADING, **props)


def _until_loaded(component: rx.Component, **size) -> rx.Component:
    """A value of the rider's, drawn as a skeleton of about its size while the dashboard reads it: the page's
    frame and its own words paint with the served HTML, not a spinner over the whole page."""
    return rx.skeleton(component, loading=DashboardState.profile_loading, style=ON_INK_SKELETON, **size)


def _stat(label: str, value: rx.Var, stat_id: str) -> rx.Component:
    return rx.vstack(
        rx.text(label, font_size=SIZE["xs"], color=COLOR["on_ink_muted"], letter_spacing="0.08em"),
        _until_loaded(
            rx.text(value, font_size=SIZE["lg"], font_weight="800", id=stat_id),
            min_width="2.5em",
            height="1.5em",
        ),
        spacing="0",
        min_width="72px",
    )


def _chip(text: rx.Var, chip_id: str, background: str, color: str) -> rx.Component:
    return rx.text(
        text,
        id=chip_id,
        font_size=SIZE["xs"],
        font_weight="800",
        letter_spacing="0.08em",
        padding=f"2px {SPACE['2']}",
        border_radius=RADIUS["pill"],
        background=background,
        color=color,
    )


def profile_header() -> rx.Component:
    jersey_size = {"width": ["72px", "96px"], "height": ["72px", "96px"], "flex_shrink": "0"}
    jersey = rx.cond(
        DashboardState.profile_loading,
        _until_loaded(rx.box(**jersey_size)),
        rx.image(src="/jerseys/" + DashboardState.jersey, alt="Jersey", id="rider-jersey", **jersey_size),
    )
    names = rx.vstack(
        _until_loaded(
            rx.hstack(
                country_flag(code=DashboardState.country_code, name=DashboardState.country_name, height=18),
                rx.text(DashboardState.country_name, font_size=SIZE["sm"], color=COLOR["on_ink_muted"]),
                spacing="2",
                align="center",
            ),
            min_width="9em",
            height="1.25em",
        ),
        _until_loaded(
            rx.heading(
                DashboardState.firstname + " " + DashboardState.lastname,
                as_="h1",
                id="rider-name",
                font_size=[SIZE["xl"], SIZE["2xl"]],
                **DISPLAY_HEADING,
            ),
            width="8em",
            height="1.25em",
        ),
        rx.cond(
            DashboardState.profile_loading | (DashboardState.team != ""),
            _until_loaded(
                rx.text(DashboardState.team, id="rider-team", color=COLOR["on_ink_muted"], font_weight="600"),
                min_width="7em",
                height="1.25em",
            ),
        ),
        _until_loaded(
            rx.hstack(
                _chip(DashboardState.gender, "rider-gender", COLOR["ink"], COLOR["on_ink"]),
                rx.cond(
                    DashboardState.category != "",
                    _chip(DashboardState.category, "rider-category", COLOR["accent"], "white"),
                ),
                spacing="2",
            ),
            min_width="5em",
            height="1.4em",
        ),
        spacing="1",
        align="start",
    )
    stats = rx.hstack(
        _stat("LEVEL", DashboardState.level, "rider-level"),
        _stat("FTP (W)", DashboardState.ftp, "rider-ftp"),
        _stat("WEIGHT (KG)", DashboardState.weight, "rider-weight"),
        _stat("HEIGHT (CM)", DashboardState.height, "rider-height"),
        rx.cond(
            DashboardState.profile_loading | (DashboardState.age != ""),
            _stat("AGE", DashboardState.age, "rider-age"),
        ),
        spacing="5",
        flex_wrap="wrap",
        row_gap=SPACE["3"],
    )
    edit = link_button(
        rx.icon("user-pen", size=16),
        "EDIT PROFILE",
        href=path_of("profile"),
        variant="outline",
        color=COLOR["on_ink"],
        border_color=COLOR["on_ink_muted"],
        cursor="pointer",
        font_weight="700",
        id="edit-profile",
    )
    return rx.box(
        rx.flex(
            rx.hstack(jersey, names, spacing="4", align="center"),
            rx.vstack(edit, stats, spacing="4", align=rx.breakpoints(initial="start", md="end")),
            direction=rx.breakpoints(initial="column", md="row"),
            justify="between",
            gap=SPACE["5"],
        ),
        id="profile-header",
        aria_busy=DashboardState.profile_loading,
        background=f"linear-gradient(120deg, {COLOR['ink']} 0%, {COLOR['ink_soft']} 100%)",
        color=COLOR["on_ink"],
        border_radius=RADIUS["lg"],
        padding=[SPACE["5"], SPACE["6"]],
        width="100%",
    )


def _empty(text: str, empty_id: str, icon: str = "activity", hint: str = "") -> rx.Component:
    return rx.vstack(
        rx.icon(icon, size=32, color=COLOR["muted"]),
        rx.text(text, color=COLOR["muted"], text_align="center", max_width="420px", class_name="empty-text"),
        *([rx.text(hint, color=COLOR["muted"], font_size=SIZE["sm"], text_align="center")] if hint else []),
        align="center",
        spacing="2",
        padding_y=SPACE["6"],
        id=empty_id,
        width="100%",
    )


def _overall_chart(chart_id: str) -> rx.Component:
    return rx.cond(
        DashboardState.overall_curve["seconds"].length() > 0,
        power_curve_chart(
            columns=DashboardState.overall_curve,
            series=CURVE_SERIES,
            colors=CHART_COLOR,
            height=CURVE_HEIGHT,
            id=chart_id,
        ),
        rx.cond(
            DashboardState.profile_loading,
            rx.center(loading_line(msg.CURVE_LOADING, f"{chart_id}-loading"), height=f"{CURVE_HEIGHT}px"),
            _empty(msg.NO_CURVE, f"{chart_id}-empty", "chart-spline"),
        ),
    )


def _segmented(options, value: rx.Var, on_change, group_id: str) -> rx.Component:
    return rx.segmented_control.root(
        *[rx.segmented_control.item(label, value=key) for key, label in options],
        value=value,
        on_change=on_change,
        id=group_id,
        size="1",
    )


def _progress_table() -> rx.Component:
    header_cell = {"font_size": SIZE["xs"], "color": COLOR["muted"], "letter_spacing": "0.06em"}
    return scroll_region(
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell(rx.el.span("Figure", style=VISUALLY_HIDDEN), **header_cell),
                    rx.table.column_header_cell("OVERALL", **header_cell),
                    rx.cond(
                        DashboardState.other_platform,
                        rx.table.column_header_cell(
                            "OTHER PLATFORM", **header_cell, id="other-platform-header"
                        ),
                    ),
                    rx.table.column_header_cell("YEARLY (" + DashboardState.year_label + ")", **header_cell),
                    rx.table.column_header_cell(
                        "MONTHLY (" + DashboardState.month_label + ")", **header_cell
                    ),
                    rx.table.column_header_cell(
                        "WEEKLY (" + DashboardState.week_label.upper() + ")", **header_cell
                    ),
                )
            ),
            rx.table.body(
                rx.foreach(
                    DashboardState.grid,
                    lambda row: rx.table.row(
                        rx.table.row_header_cell(row["label"], font_weight="700", white_space="nowrap"),
                        rx.table.cell(row["overall"]),
                        rx.cond(
                            DashboardState.other_platform,
                            rx.table.cell(row["other"], class_name="other-platform-cell"),
                        ),
                        rx.table.cell(row["year"]),
                        rx.table.cell(row["month"]),
                        rx.table.cell(row["week"]),
                    ),
                )
            ),
            variant="ghost",
            size="2",
            id="progress-table",
            white_space="nowrap",
            width="100%",
        ),
        "Progress totals",
        pin_first_column=True,
    )


def _progress_card() -> rx.Component:
    bars = rx.cond(
        DashboardState.data_type == "distance",
        progress_bars(
            data=DashboardState.bars,
            data_key="distance",
            name="Distance",
            unit="km",
            color=CHART_COLOR["distance"],
        ),
        progress_bars(
            data=DashboardState.bars,
            data_key="elevation",
            name="Elevation",
            unit="m",
            color=CHART_COLOR["elevation"],
        ),
    )
    return card(
        _section_title("Progress", margin_bottom=SPACE["4"]),
        rx.cond(
            DashboardState.progress_error != "",
            form_alert(DashboardState.progress_error, id="progress-error"),
            rx.cond(
                DashboardState.progress_loading & (DashboardState.grid.length() == 0),
                loading_line("Loading your progress...", "progress-loading"),
                rx.vstack(
                    _progress_table(),
                    rx.flex(
                        _segmented(
                            [(key, PERIOD_LABELS[key]) for key in PERIODS],
                            DashboardState.period,
                            DashboardState.set_period,
                            "progress-period",
                        ),
                        _segmented(
                            DATA_TYPE_LABELS,
                            DashboardState.data_type,
                            DashboardState.set_data_type,
                            "progress-type",
                        ),
                        gap=SPACE["3"],
                        wrap="wrap",
                        justify="between",
                        width="100%",
                    ),
                    rx.box(bars, id="progress-chart", data_type=DashboardState.data_type, width="100%"),
                    spacing="4",
                    width="100%",
                ),
            ),
        ),
    )


def overview_tab() -> rx.Component:
    return rx.vstack(
        card(
            _section_title("Power curve", margin_bottom=SPACE["1"]),
            rx.text("Your best power for every duration, over all your rides.", color=COLOR["muted"]),
            form_alert(DashboardState.curve_error, id="curve-error", margin_top=SPACE["3"]),
            rx.box(_overall_chart("overall-curve"), margin_top=SPACE["4"], width="100%"),
        ),
        import_banner(),
        import_wizard(),
        _progress_card(),
        spacing="5",
        width="100%",
    )


def _compare_card() -> rx.Component:
    return card(
        rx.hstack(
            _section_title(rx.cond(DashboardState.selected.length() > 0, "Compare", "Power curve")),
            rx.cond(
                DashboardState.selected.length() > 0,
                rx.button(
                    "Clear",
                    on_click=DashboardState.clear_compare,
                    variant="ghost",
                    size="1",
                    id="compare-clear",
                    cursor="pointer",
                ),
            ),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.text(msg.COMPARE_HINT, color=COLOR["muted"], font_size=SIZE["sm"]),
        rx.box(
            rx.cond(
                DashboardState.compare_loading,
                loading_line("Loading the power curves...", "compare-loading"),
                rx.cond(
                    DashboardState.compare_curve["seconds"].length() > 0,
                    power_curve_chart(
                        columns=DashboardState.compare_curve,
                        series=DashboardState.compare_series,
                        colors=CHART_COLOR,
                        id="compare-curve",
                    ),
                    _overall_chart("activities-overall-curve"),
                ),
            ),
            margin_top=SPACE["4"],
            width="100%",
        ),
    )


def _icon_cell(kind: rx.Var, icons: dict, label_prefix: str) -> rx.Component:
    return rx.match(
        kind,
        *[(key, rx.icon(icon, size=16, aria_label=f"{label_prefix} {key}")) for key, icon in icons.items()],
        rx.icon("circle", size=16),
    )


def _compare_checkbox(row: rx.Var, **props) -> rx.Component:
    return rx.checkbox(
        checked=DashboardState.selected.contains(row["id"]),
        on_change=lambda _value: DashboardState.toggle_compare(row["id"]),
        aria_label="Compare " + row["title"],
        class_name="compare-checkbox",
        cursor="pointer",
        **props,
    )


def _analysis_link(row: rx.Var) -> rx.Component:
    return rx.link(
        rx.hstack(rx.icon("chart-line", size=16), rx.text("Analysis"), spacing="1", align="center"),
        href=path_of("new_activities") + "/" + row["id"],
        class_name="analysis-link",
        color=COLOR["accent_dark"],
        font_weight="600",
    )


def _activity_row(row: rx.Var) -> rx.Component:
    picked = DashboardState.selected.contains(row["id"])
    return rx.table.row(
        rx.table.cell(_compare_checkbox(row)),
        rx.table.cell(row["date"], white_space="nowrap"),
        rx.table.cell(
            rx.hstack(
                _icon_cell(row["type"], TYPE_ICON, "type"),
                _icon_cell(row["sport"], SPORT_ICON, "sport"),
                rx.vstack(
                    rx.text(row["title"], font_weight="700"),
                    rx.text(row["route"], font_size=SIZE["xs"], color=COLOR["muted"]),
                    spacing="0",
                ),
                spacing="2",
                align="center",
            ),
            min_width="200px",
        ),
        rx.table.cell(row["distance"], white_space="nowrap"),
        rx.table.cell(row["elevation"], white_space="nowrap"),
        rx.table.cell(row["watt"], white_space="nowrap"),
        rx.table.cell(row["wkg"], white_space="nowrap"),
        rx.table.cell(row["heart"], white_space="nowrap"),
        rx.table.cell(row["time"], white_space="nowrap"),
        rx.table.cell(_analysis_link(row)),
        rx.table.cell(
            rx.icon_button(
                rx.icon("download", size=16),
                on_click=DashboardState.download(row["id"]),
                loading=DashboardState.downloading == row["id"],
                variant="ghost",
                aria_label="Download " + row["title"],
                class_name="download-button",
                cursor="pointer",
            )
        ),
        class_name="activity-row",
        data_file_id=row["id"],
        background=rx.cond(picked, COLOR["accent_soft"], "transparent"),
    )


def _activity_card(row: rx.Var) -> rx.Component:
    """The phone layout of one activity: the figures that matter, the same actions."""
    picked = DashboardState.selected.contains(row["id"])
    figures = rx.hstack(
        rx.text(row["distance"]),
        rx.text(row["time"]),
        rx.text(row["watt"]),
        rx.text(row["heart"]),
        spacing="3",
        font_size=SIZE["sm"],
        color=COLOR["muted"],
        flex_wrap="wrap",
    )
    return rx.hstack(
        _compare_checkbox(row, margin_top="4px"),
        rx.vstack(
            rx.hstack(
                _icon_cell(row["type"], TYPE_ICON, "type"),
                rx.text(row["title"], font_weight="700"),
                spacing="2",
                align="center",
            ),
            rx.text(row["date"] + " · " + row["route"], font_size=SIZE["xs"], color=COLOR["muted"]),
            figures,
            rx.hstack(
                _analysis_link(row),
                rx.button(
                    rx.icon("download", size=16),
                    "Download",
                    on_click=DashboardState.download(row["id"]),
                    loading=DashboardState.downloading == row["id"],
                    variant="ghost",
                    size="1",
                    class_name="download-button",
                    cursor="pointer",
                ),
                spacing="4",
                align="center",
            ),
            spacing="1",
            align="start",
            width="100%",
        ),
        class_name="activity-card",
        data_file_id=row["id"],
        spacing="3",
        align="start",
        padding=SPACE["3"],
        border_bottom=f"1px solid {COLOR['border']}",
        background=rx.cond(picked, COLOR["accent_soft"], "transparent"),
        width="100%",
    )


def _activities_list() -> rx.Component:
    return rx.fragment(
        rx.box(_activities_table(), display=["none", "none", "block"], width="100%"),
        rx.box(
            rx.foreach(DashboardState.rows, _activity_card),
            id="activities-cards",
            display=["block", "block", "none"],
            width="100%",
        ),
    )


def _activities_table() -> rx.Component:
    headers = ["DATE", "RIDE", "DIST", "ELEV", "W", "W/KG", "HEART", "TIME", "ANALYSIS", "DOWNLOAD"]
    header_cell = {"font_size": SIZE["xs"], "color": COLOR["muted"], "letter_spacing": "0.06em"}
    return scroll_region(
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell(rx.el.span("Compare", style=VISUALLY_HIDDEN), **header_cell),
                    *[rx.table.column_header_cell(label, **header_cell) for label in headers],
                )
            ),
            rx.table.body(rx.foreach(DashboardState.rows, _activity_row)),
            size="2",
            id="activities-table",
            width="100%",
        ),
        "Activities",
    )


def _upload_button() -> rx.Component:
    return file_drop(
        rx.button(
            rx.cond(DashboardState.uploading, rx.spinner(size="2"), rx.icon("upload", size=16)),
            DashboardState.upload_label,
            id="upload-button",
            aria_live="polite",
            disabled=DashboardState.uploading,
            variant="outline",
            color=COLOR["accent_dark"],
            border_color=COLOR["accent"],
            font_weight="700",
            cursor="pointer",
            type="button",
        ),
        id=UPLOAD_ID,
        max_size=MAX_FIT_BYTES,
        max_files=1,
        multiple=False,
        no_drag=False,
        button_inside=True,
        disabled=DashboardState.uploading,
        on_drop=DashboardState.upload_ride(
            rx.upload_files_chunk(upload_id=UPLOAD_ID, on_upload_progress=DashboardState.upload_progress)
        ),
        on_drop_rejected=lambda rejections: DashboardState.upload_rejected(rejection_codes(rejections)),
        aria_label="Upload a FIT file",
        border="none",
        padding="0",
    )


def _toolbar() -> rx.Component:
    return rx.flex(
        rx.el.select(
            rx.el.option("SORT BY DATE DESC", value="desc"),
            rx.el.option("SORT BY DATE ASC", value="asc"),
            value=DashboardState.sort,
            on_change=DashboardState.set_sort,
            id="activities-sort",
            aria_label="Sort activities",
            style={**INPUT_STYLE, "width": "auto", "min_width": "220px", "font_weight": "600"},
        ),
        # The spec's type filter exists but is hidden from riders.
        rx.el.select(
            *[rx.el.option(kind, value=kind) for kind in ("all", "ride", "workout", "event")],
            value=DashboardState.list_type,
            on_change=DashboardState.set_list_type,
            id="activities-type",
            hidden=True,
        ),
        _upload_button(),
        gap=SPACE["3"],
        wrap="wrap",
        justify="between",
        align="center",
        width="100%",
    )


def activities_tab() -> rx.Component:
    return rx.vstack(
        _compare_card(),
        card(
            rx.vstack(
                _section_title("Activities"),
                _toolbar(),
                form_alert(DashboardState.upload_error, id="upload-error"),
                form_alert(DashboardState.upload_notice, tone="success", id="upload-notice"),
                form_alert(DashboardState.download_error, id="download-error"),
                form_alert(DashboardState.activities_error, id="activities-error"),
                rx.cond(
                    DashboardState.activities_loading,
                    loading_line("Loading your activities...", "activities-loading"),
                    rx.cond(
                        DashboardState.rows.length() > 0,
                        _activities_list(),
                        rx.cond(
                            DashboardState.activities_error == "",
                            _empty(msg.NO_FILES, "activities-empty", "bike", hint=msg.NO_FILES_HINT),
                        ),
                    ),
                ),
                rx.cond(
                    ~DashboardState.activities_loading & ~DashboardState.finished,
                    rx.center(
                        rx.button(
                            "LOAD MORE",
                            on_click=DashboardState.load_more,
                            loading=DashboardState.more_loading,
                            id="load-more",
                            size="3",
                            background=COLOR["accent"],
                            color="white",
                            font_weight="700",
                            cursor="pointer",
                        ),
                        width="100%",
                    ),
                ),
                spacing="4",
                width="100%",
            )
        ),
        spacing="5",
        width="100%",
    )


def _tab_trigger(value: str, label: str, icon: str) -> rx.Component:
    return rx.tabs.trigger(
        rx.hstack(
            # On a phone the three tabs fit in one row without their icons.
            rx.icon(icon, size=16, display=rx.breakpoints(initial="none", sm="block")),
            rx.text(label),
            spacing="2",
            align="center",
        ),
        value=value,
        id=f"tab-{value}",
        cursor="pointer",
    )


def _tabs() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            _tab_trigger("profile", "Overview", "layout-dashboard"),
            _tab_trigger("activities", "ACTIVITIES", "list"),
            rx.cond(~DashboardState.is_kid, _tab_trigger("in-game-shop", "In Game Shop", "shopping-bag")),
            # The small tabs keep all three whole on a 375 px phone.
            size=rx.breakpoints(initial="1", sm="2"),
            margin_bottom=SPACE["5"],
            overflow_x="auto",
            flex_wrap="nowrap",
        ),
        rx.tabs.content(overview_tab(), value="profile"),
        rx.tabs.content(activities_tab(), value="activities"),
        rx.cond(~DashboardState.is_kid, rx.tabs.content(shop_panel(), value="in-game-shop")),
        value=DashboardState.tab,
        on_change=DashboardState.select_tab,
        activation_mode="manual",
        width="100%",
    )


def dashboard_page() -> rx.Component:
    return page(
        hash_watch(on_change=DashboardState.hash_changed),
        rx.cond(
            DashboardState.profile_error != "",
            titled(
                msg.DASHBOARD_HEADING,
                card(
                    form_alert(DashboardState.profile_error, id="profile-error"),
                    rx.button(
                        "Try again", on_click=DashboardState.load, variant="outline", margin_top=SPACE["3"]
                    ),
                ),
            ),
            rx.vstack(
                profile_header(),
                # Laid out but unseen until the rider's data is in: a banner above the tabs then comes with
                # them, and moves nothing the rider sees.
                rx.vstack(
                    verification_alert(),
                    weigh_in_banner(),
                    _tabs(),
                    spacing="5",
                    width="100%",
                    visibility=rx.cond(DashboardState.profile_loading, "hidden", "visible"),
                ),
                spacing="5",
                width="100%",
            ),
        ),
    )
