"""The site has one colour scheme, light, whatever the rider's system prefers.

The site's colours (ui/theme.py) are a light scheme; Reflex's colour mode followed the system, and a
stored choice, into Radix's dark scheme, which put Radix's light text on the site's white cards. So
Reflex's colour mode is replaced at build time: its provider always says light and reads neither the
system's preference nor a stored value, and its script that set the page's scheme before the first paint
is left out. The page declares `color-scheme: light` (ui/theme.SITE_RULES), so the browser's own controls
and scrollbars stay light too."""

import re

from reflex.plugins import Plugin

THEME_MODULE = "utils/react-theme.js"
DOCUMENT = "app/_document.js"

LIGHT_ONLY = """// The site's one colour scheme, in place of Reflex's colour mode (color_scheme.py).
import { createContext, createElement, useContext } from "react";

import { ColorModeContext } from "$/utils/context-registry";

const theme = { theme: "light", resolvedTheme: "light", setTheme: () => {} };
const colorMode = {
  rawColorMode: "light",
  resolvedColorMode: "light",
  toggleColorMode: () => {},
  setColorMode: () => {},
};
const ThemeContext = createContext(theme);

export function ThemeProvider({ children }) {
  return createElement(
    ThemeContext.Provider,
    { value: theme },
    createElement(ColorModeContext.Provider, { value: colorMode }, children),
  );
}

export function useTheme() {
  return useContext(ThemeContext);
}
"""

# Reflex's script, the first in the head: a string literal that asks for the system's preference.
SCHEME_SCRIPT = re.compile(r'jsx\("script",\{\},"(?:[^"\\]|\\.)*prefers-color-scheme(?:[^"\\]|\\.)*"\),')


def light_only_provider(module: str) -> str:
    if module != LIGHT_ONLY and "export function ThemeProvider" not in module:
        raise RuntimeError(f"{THEME_MODULE} has no ThemeProvider: Reflex's colour mode changed")
    return LIGHT_ONLY


def without_scheme_script(document: str) -> str:
    document, found = SCHEME_SCRIPT.subn("", document)
    if found != 1:
        raise RuntimeError(f"{DOCUMENT} has no colour-mode script: Reflex's document changed")
    return document


class LightSchemePlugin(Plugin):
    """Reflex plugin that replaces the colour mode in the generated frontend before each build."""

    def pre_compile(self, **context) -> None:
        context["add_modify_task"](THEME_MODULE, light_only_provider)
        context["add_modify_task"](DOCUMENT, without_scheme_script)
