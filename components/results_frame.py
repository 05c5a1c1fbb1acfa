"""The results service in a frame, following the messages its links post (spec 3 section 2, Results)."""

import reflex as rx
from reflex.event import passthrough_event_spec


class ResultsFrame(rx.Component):
    library = rx.asset("results_frame.jsx", shared=True).importable_path
    tag = "ResultsFrame"

    src: rx.Var[str]
    origin: rx.Var[str]
    title: rx.Var[str]
    # (type, eventId, dayId) of a message from the frame; ids as text, empty when absent.
    on_navigate: rx.EventHandler[passthrough_event_spec(str, str, str)]


results_frame = ResultsFrame.create
