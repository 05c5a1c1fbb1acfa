"""The page numbers a paged list shows (public teams, the event list): up to two either side of the current
one (spec 2, teams), kept inside 1..last."""

PAGE_WINDOW = 2


def page_window(current: int, last: int) -> list[int]:
    return list(range(max(1, current - PAGE_WINDOW), min(last, current + PAGE_WINDOW) + 1))
