"""Reports the URL hash on mount and on every change, so a link like /user/profile#password opens a tab."""

import reflex as rx
from reflex.event import passthrough_event_spec


class HashWatch(rx.Component):
    library = rx.asset("hash_watch.jsx", shared=True).importable_path
    tag = "HashWatch"

    on_change: rx.EventHandler[passthrough_event_spec(str)]


hash_watch = HashWatch.create
