"""Brand icons for the footer's social links (react-icons, Font Awesome 6): Reflex's Lucide set has none."""

import reflex as rx


class SocialIcon(rx.Component):
    library = rx.asset("social_icon.jsx", shared=True).importable_path
    lib_dependencies: list[str] = ["react-icons@5.7.0"]
    tag = "SocialIcon"

    network: rx.Var[str]
    size: rx.Var[int]


social_icon = SocialIcon.create
