"""The page's watch over its actions: receipts from the site, a bar while an action or a file waits, after a
bounded wait a notice that offers to try again, and a file whose sending failed is told
(components/action_watch.jsx)."""

import reflex as rx


class ActionWatch(rx.Component):
    library = rx.asset("action_watch.jsx", shared=True).importable_path
    tag = "ActionWatch"

    busy_ms: rx.Var[int]
    slow_ms: rx.Var[int]
    connecting_text: rx.Var[str]
    waiting_text: rx.Var[str]
    try_again_text: rx.Var[str]
    upload_failed: rx.Var[str]


action_watch = ActionWatch.create
