"""Row ids as they travel in paths, queries and forms."""

ROW_ID_MAX = 2_147_483_647


def row_id(value: object) -> int | None:
    """A row id as given in a path, query or form: ASCII digits within the integer column, or None."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or len(text) > len(str(ROW_ID_MAX)):
        return None
    number = int(text)
    return number if 0 < number <= ROW_ID_MAX else None
