"""Texts of the content pages, the menus and site info (spec 2 section 8, spec 3 section 8).

A page, article, FAQ list or the social links that cannot be fetched (service down, wrong API key, an
answer the site cannot read) all show NOT_LOADED; an unknown slug is the site's not-found page."""

MENUS_INVALID = "Invalid response from menus API"
MENUS_FAILED = "Failed to fetch menus data"
SITE_INFO_INVALID = "Invalid response from site-info API"
SITE_INFO_FAILED = "Failed to fetch site info"
NOT_LOADED = "This page could not be loaded. Please try again."
NOT_FOUND = "This page could not be found."
NO_ARTICLES = "There are no articles for this category"
# The page's level-one heading (read by screen readers only) while its content loads, or when it failed.
LOADING_HEADING = "Loading the page"
FAILED_HEADING = "This page could not be loaded"
