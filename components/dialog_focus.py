"""Focus back on the control that opened a dialog when it closes (Radix sends it to the page's start when a
dialog opened from state has no trigger): `**RETURN_FOCUS` on a dialog's or alert dialog's content."""

import reflex as rx
from reflex_base.utils.imports import ImportVar

LIBRARY = rx.asset("dialog_focus.jsx", shared=True).importable_path


def _function(name: str) -> rx.vars.FunctionStringVar:
    return rx.vars.FunctionStringVar.create(
        name, _var_data=rx.vars.VarData(imports={LIBRARY: [ImportVar(tag=name)]})
    )


RETURN_FOCUS = {
    "on_open_auto_focus": _function("rememberOpener"),
    "on_close_auto_focus": _function("returnFocusToOpener"),
}
