"""Ride charts on recharts: power curves on a log time axis, ride graphs with a value/time/distance
tooltip, and the progress bars. Hand-wrapped because Reflex's recharts wrappers cannot take a custom
tooltip or a log axis formatter written in Python."""

from typing import Any

import reflex as rx

_LIBRARY = rx.asset("ride_charts.jsx", shared=True).importable_path
# The drawing code, fetched by ride_charts.jsx when a chart is first shown.
rx.asset("ride_charts_drawn.jsx", shared=True)
_RECHARTS = ["recharts@3.10.1"]


class PowerCurveChart(rx.Component):
    library = _LIBRARY
    lib_dependencies = _RECHARTS
    tag = "PowerCurveChart"

    # {"seconds": [...], series key: [...]}: one list per column, rows made in the browser.
    columns: rx.Var[dict[str, list[Any]]]
    series: rx.Var[list[dict[str, Any]]]
    colors: rx.Var[dict[str, str]]
    height: rx.Var[int]


class RideGraph(rx.Component):
    library = _LIBRARY
    lib_dependencies = _RECHARTS
    tag = "RideGraph"

    data: rx.Var[list[dict[str, Any]]]
    data_key: rx.Var[str]
    name: rx.Var[str]
    unit: rx.Var[str]
    color: rx.Var[str]
    axis: rx.Var[str]
    average: rx.Var[float | None]
    area: rx.Var[bool]
    tick_every: rx.Var[int]


class ProgressBars(rx.Component):
    library = _LIBRARY
    lib_dependencies = _RECHARTS
    tag = "ProgressBars"

    data: rx.Var[list[dict[str, Any]]]
    data_key: rx.Var[str]
    name: rx.Var[str]
    unit: rx.Var[str]
    color: rx.Var[str]


power_curve_chart = PowerCurveChart.create
ride_graph = RideGraph.create
progress_bars = ProgressBars.create
