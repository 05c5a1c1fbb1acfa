"""A country's flag from the flag-icons package, bundled with the site (nothing fetched from outside)."""

import reflex as rx


class CountryFlag(rx.Component):
    library = rx.asset("country_flag.jsx", shared=True).importable_path
    lib_dependencies = ["flag-icons@7.5.0"]
    tag = "CountryFlag"

    code: rx.Var[str]
    name: rx.Var[str]
    height: rx.Var[int]


country_flag = CountryFlag.create
