"""A region that scrolls a wide table sideways and shows, while columns are hidden, that it does: a fade on
the hidden side and a hint the region is described by (it is a tab stop then, for the arrow keys)."""

import reflex as rx


class ScrollRegion(rx.Component):
    library = rx.asset("scroll_region.jsx", shared=True).importable_path
    tag = "ScrollRegion"

    label: rx.Var[str]
    hint: rx.Var[str]


scroll_region = ScrollRegion.create
