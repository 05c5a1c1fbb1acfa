"""The wallet screens' own small rules: the pagination window and what the amount field keeps."""

from datetime import UTC, datetime

from cycling_site.state.wallet import keep_amount_characters, page_window, table_row


def test_the_page_window_holds_five_pages_around_the_current_one():
    assert page_window(1, 1) == [1]
    assert page_window(2, 3) == [1, 2, 3]
    assert page_window(1, 12) == [1, 2, 3, 4, 5]
    assert page_window(6, 12) == [4, 5, 6, 7, 8]
    assert page_window(12, 12) == [8, 9, 10, 11, 12]


def test_the_amount_field_keeps_digits_and_the_first_point():
    assert keep_amount_characters("12abc") == "12"
    assert keep_amount_characters("0.1.2") == "0.12"
    assert keep_amount_characters("-1,5e3") == "153"
    assert keep_amount_characters("٣.5") == ".5"
    assert len(keep_amount_characters("9" * 100)) == 20


def test_a_transaction_row_shows_its_status_tone_and_dubai_time():
    row = {
        "request_no": "WD-000007",
        "transaction_id": "",
        "transaction_url": "",
        "amount": "0.001000",
        "currency": "BTC",
        "wallet_address": "bc1q",
        "requested_at": datetime(2026, 6, 1, 20, 30, tzinfo=UTC),
    }
    tones = {
        status: table_row({**row, "status": status})["tone"] for status in ("approved", "rejected", "pending")
    }
    assert tones == {"approved": "success", "rejected": "danger", "pending": "warning"}
    shown = table_row({**row, "status": "pending"})
    assert shown["requested_at"] == "02/06/2026 00:30 GST"
    assert (shown["amount"], shown["transaction_id"]) == ("0.001000 BTC", "—")
