"""The content service's wire contract, shared by its client and the embedded service.

Every request carries the API key in API_KEY_HEADER. Pages, articles, FAQs and settings answer
{"status": true, "data": ...}; menus answer {"menus": [{"menu_slug", "items": [flat items]}]} and site
info answers its fields at the top level, as the content site's shared API does (spec 3 section 7).
Errors answer {"status": false, "message": ...}.
"""

# Where the embedded service is served when no CONTENT_SERVICE_URL is set.
EMBEDDED_PREFIX = "/content-service"
API_KEY_HEADER = "X-API-Key"

PAGE = "pages/{slug}"  # GET a page; POST gives the contact page's data
ARTICLE = "pages/article/{slug}"
SETTING = "setting"
FAQS = "pages/getFaqs"
MENUS = "shared/v1/menus/"
SITE_INFO = "shared/v1/site-info"

MENU_SLUGS = ("main-menu", "navigation-menu", "community-menu")
MENU_ITEM_FIELDS = ("ID", "title", "url", "target", "attr_title", "classes", "parent", "menu_order")
SOCIAL_NETWORKS = ("facebook", "twitter", "linkedin", "instagram", "youtube", "strava")
SITE_INFO_FIELDS = ("name", "home_url", "site_logo", "site_logo_dark")
# The page fields beyond slug, title, banner and content (support and contact pages use them).
PAGE_EXTRA_FIELDS = (
    "contact_section_heading",
    "ios_heading",
    "android_heading",
    "app_store_url",
    "google_play_url",
)
# Front matter fields holding Markdown that the service renders to HTML (field -> answer field).
PAGE_MARKDOWN_FIELDS = {"ios": "ios_content", "android": "android_content"}
SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]{0,99}$"
