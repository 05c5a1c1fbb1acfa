"""The support page's article carousel on embla-carousel-react with its autoplay plugin: one card per view
under 600 px, two from 600, three from 1000, 20 px apart (spec 2 section 9), previous/next buttons and
dots. Each child is one slide."""

import reflex as rx

GAP_PX = 20
AUTOPLAY_MS = 4000


class Carousel(rx.Component):
    library = rx.asset("carousel.jsx", shared=True).importable_path
    lib_dependencies: list[str] = ["embla-carousel-react@8.6.0", "embla-carousel-autoplay@8.6.0"]
    tag = "Carousel"

    label: rx.Var[str]
    gap: rx.Var[int]
    delay_ms: rx.Var[int]

    @classmethod
    def create(cls, *children, **props) -> rx.Component:
        props.setdefault("gap", GAP_PX)
        props.setdefault("delay_ms", AUTOPLAY_MS)
        return super().create(*children, **props)


carousel = Carousel.create
