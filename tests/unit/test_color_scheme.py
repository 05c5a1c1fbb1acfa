"""The build's one colour scheme: Reflex's colour mode is replaced in the generated frontend."""

import pytest
from reflex.compiler.compiler import compile_document_root

from cycling_site.color_scheme import LIGHT_ONLY, light_only_provider, without_scheme_script


def test_the_document_loses_reflex_scheme_script_and_keeps_the_rest():
    _, document = compile_document_root([], default_color_mode="light")
    assert "prefers-color-scheme" in document and 'localStorage.getItem(\\"theme\\")' in document
    trimmed = without_scheme_script(document)
    assert "prefers-color-scheme" not in trimmed and "localStorage" not in trimmed
    assert 'jsx("head",{},jsx("meta",{charSet:"utf-8"},)' in trimmed


def test_a_document_without_the_script_stops_the_build():
    with pytest.raises(RuntimeError, match="no colour-mode script"):
        without_scheme_script('jsx("html",{},jsx("head",{},))')


def test_the_provider_is_replaced_again_on_each_build_but_only_reflex_own():
    assert light_only_provider("export function ThemeProvider({ children }) {}") == LIGHT_ONLY
    assert light_only_provider(LIGHT_ONLY) == LIGHT_ONLY
    assert "prefers-color-scheme" not in LIGHT_ONLY and "localStorage" not in LIGHT_ONLY
    with pytest.raises(RuntimeError, match="no ThemeProvider"):
        light_only_provider("export function Other() {}")
