"""A phone's connection drops in the middle of an action, or stops answering (tests.e2e.slow_network): the
page says that it waits, offers to try again, and once connected again shows the action's outcome, made
exactly once, with what the rider typed kept.

Two ways to lose an action: the site's answer is lost (the site acted, the browser never heard), or the
action is lost on its way (the connection drops as the rider clicks; the site may or may not have heard).
"""

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlmodel import Session, select

from cycling_site.messages import contact as contact_msg
from cycling_site.messages import shop as shop_msg
from cycling_site.messages import site as site_msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.messages import weigh_ins as weigh_ins_msg
from cycling_site.models import Account, ContactMessage, Currency, Registration, Withdrawal
from cycling_site.models.events import Event
from cycling_site.models.wallet import WalletStatus
from tests import file_samples
from tests.e2e.conftest import EXPECT_MS
from tests.e2e.helpers import DEMO_PASSWORD, RIDER, fill_login, returning_rider, submit, wait_signed_in
from tests.e2e.slow_network import Relay
from tests.e2e.test_registration import accept_disclaimer, expect_thank_you, open_wizard
from tests.e2e.test_shop import balance as shop_balance
from tests.e2e.test_shop import open_shop, shopper
from tests.e2e.test_wallet import _latest_code, _wallet_rider
from tests.e2e.test_weigh_ins import OPEN_EVENT, item, kept, open_dashboard, rider_registered_for

# A dropped connection comes back with Reflex's backoff, then the page is hydrated and its actions sent again:
# on a loaded machine under the slow network that can take longer than the suite's usual wait.
RECONNECTED_MS = 30_000


@pytest.fixture(autouse=True)
def reconnect_time() -> Iterator[None]:
    expect.set_options(timeout=RECONNECTED_MS)
    yield
    expect.set_options(timeout=EXPECT_MS)


CONTACT = {"name": "Mariam Saeed", "phone": "050 765 4321", "message": "My trainer drops out mid-race."}


def fill_contact(page: Page, email: str) -> None:
    page.goto("/contact-us")
    for name, value in {**CONTACT, "email": email}.items():
        page.fill(f"#{name}", value)
    expect(page.locator("#contact-submit")).to_be_enabled()


def messages_from(db: Session, email: str) -> list[ContactMessage]:
    db.expire_all()
    return list(db.exec(select(ContactMessage).where(ContactMessage.email == email)))


def registrations_of(db: Session, email: str) -> list[Registration]:
    db.expire_all()
    return list(db.exec(select(Registration).where(Registration.email == email)))


def test_an_action_without_an_answer_says_so_and_is_made_once_when_tried_again(
    page: Page, db: Session, slow_network: Relay
):
    """The live connection stays open but nothing moves on it (a phone in a tunnel): the page shows that it
    waits, then says so and offers to try again; tried again, the message is sent once."""
    fill_contact(page, "tunnel@example.com")
    slow_network.stall_live()
    page.locator("#contact-submit").click()
    expect(page.locator(".action-watch-bar")).to_be_visible()
    notice = page.get_by_role("status").filter(has_text=site_msg.SLOW_ANSWER)
    expect(notice).to_be_visible(timeout=20_000)
    notice.get_by_role("button", name=site_msg.TRY_AGAIN).click()
    slow_network.resume_live()
    expect(page.locator("#contact-sent")).to_have_text(contact_msg.SENT)
    expect(notice).to_be_hidden()
    expect(page.locator(".action-watch-bar")).to_have_count(0)
    assert len(messages_from(db, "tunnel@example.com")) == 1


def test_an_action_whose_answer_is_lost_shows_its_outcome_once_connected_again(
    page: Page, db: Session, slow_network: Relay
):
    fill_contact(page, "answer.lost@example.com")
    dropped = slow_network.drop_when_site_sends(contact_msg.SENT.encode())
    page.locator("#contact-submit").click()
    assert dropped.wait(20), "the site never answered the message"
    expect(page.locator("#contact-sent")).to_have_text(contact_msg.SENT)
    assert len(messages_from(db, "answer.lost@example.com")) == 1


def test_an_action_lost_on_its_way_is_made_once_connected_again(page: Page, db: Session, slow_network: Relay):
    fill_contact(page, "request.lost@example.com")
    page.locator("#contact-submit").click()
    slow_network.drop()
    expect(page.locator("#contact-sent")).to_have_text(contact_msg.SENT)
    assert len(messages_from(db, "request.lost@example.com")) == 1


def test_a_sign_in_whose_answer_is_lost_signs_the_rider_in(page: Page, slow_network: Relay):
    page.goto("/auth/login")
    fill_login(page, RIDER, DEMO_PASSWORD)
    dropped = slow_network.drop_when_site_sends(b"/api/auth/session")
    page.locator("#login-submit").click()
    assert dropped.wait(20), "the site never answered the sign-in"
    wait_signed_in(page)


def test_a_sign_in_lost_on_its_way_signs_the_rider_in(page: Page, slow_network: Relay):
    page.goto("/auth/login")
    fill_login(page, RIDER, DEMO_PASSWORD)
    page.locator("#login-submit").click()
    slow_network.drop()
    wait_signed_in(page)


def _wizard_at_its_last_step(page: Page, db: Session, email: str) -> Event:
    """A new rider in the registration wizard of an event whose last step is the personal details."""
    event = open_wizard(page, db, email, "Hatta Hills Time Trial", gender=0, dob=date(1990, 6, 1))
    accept_disclaimer(page)
    expect(page.locator(".wizard-step[aria-current=step]")).to_contain_text("PERSONAL DETAILS")
    return event


def test_a_registration_whose_answer_is_lost_is_made_once_and_thanked(
    page: Page, db: Session, slow_network: Relay
):
    email = "registration.answer.lost@example.com"
    event = _wizard_at_its_last_step(page, db, email)
    dropped = slow_network.drop_when_site_sends(b"thank-you")
    page.locator("#wizard-next").click()
    assert dropped.wait(20), "the site never answered the registration"
    expect_thank_you(page, event)
    assert len(registrations_of(db, email)) == 1


def test_a_registration_lost_on_its_way_is_made_once_and_thanked(
    page: Page, db: Session, slow_network: Relay
):
    email = "registration.request.lost@example.com"
    event = _wizard_at_its_last_step(page, db, email)
    page.locator("#wizard-next").click()
    slow_network.drop()
    expect_thank_you(page, event)
    assert len(registrations_of(db, email)) == 1


def _withdrawal_ready(page: Page, db: Session, email: str):
    """A verified rider on the withdrawal form with an amount and a fresh code typed."""
    rider = _wallet_rider(db, email, 1_000_000, WalletStatus.approved)
    returning_rider(page, rider.email, path="/auth/login?redirect=/wallet/withdrawal-request")
    expect(page.locator("#amount")).to_be_editable()
    page.locator("#code-get-code").click()
    expect(page.get_by_text(wallet_msg.OTP_SENT_EMAIL)).to_be_visible()
    page.fill("#amount", "0.004")
    page.fill("#code", _latest_code(db, rider.email))
    return rider


def _withdrawals(db: Session, rider) -> list[Withdrawal]:
    db.expire_all()
    return db.exec(select(Withdrawal).where(Withdrawal.account_id == rider.id)).all()


def test_a_withdrawal_whose_answer_is_lost_is_made_once_and_its_outcome_shown(
    page: Page, db: Session, slow_network: Relay
):
    rider = _withdrawal_ready(page, db, "dropped.answer@example.com")
    dropped = slow_network.drop_when_site_sends(b"submitting")
    page.locator("#withdrawal-submit").click()
    assert dropped.wait(20), "the site never answered the submit"
    # The page connects again by itself and shows what became of the request.
    expect(page.get_by_text(wallet_msg.WITHDRAWAL_SUBMITTED)).to_be_visible()
    assert len(_withdrawals(db, rider)) == 1


def test_a_withdrawal_lost_on_its_way_is_made_once_with_what_was_typed(
    page: Page, db: Session, slow_network: Relay
):
    """The connection drops as the rider submits: connected again, the page sends the request again and the
    site makes it once, with the amount typed."""
    rider = _withdrawal_ready(page, db, "dropped.request@example.com")
    page.locator("#withdrawal-submit").click()
    slow_network.drop()
    expect(page.get_by_text(wallet_msg.WITHDRAWAL_SUBMITTED)).to_be_visible()
    [made] = _withdrawals(db, rider)
    assert made.amount == 400_000


def _coins_modal(page: Page, db: Session, email: str):
    """A rider with 600 gems in the shop's coins modal; answers the rider and the 5,500 coins' button."""
    rider = shopper(db, email, gems=600)
    open_shop(page, rider.email)
    page.locator("#shop-add-coins").click()
    return rider, page.locator("#bundle-coins-5500").get_by_role(
        "button", name="Buy: 5,500 coins for 250 gems"
    )


def test_a_coin_purchase_whose_answer_is_lost_is_made_once(page: Page, db: Session, slow_network: Relay):
    rider, buy = _coins_modal(page, db, "dropped.coins@example.com")
    dropped = slow_network.drop_when_site_sends(b"modal_busy")
    buy.click()
    assert dropped.wait(20), "the site never answered the purchase"
    # Connected again, the page shows the purchase made, and the balances it left.
    expect(page.locator("#payment-success")).to_contain_text(shop_msg.COINS_ADDED.format(coins=5500))
    expect(page.locator("#shop-coins")).to_have_text("5,500")
    expect(page.locator("#shop-gems")).to_have_text("350")
    assert (shop_balance(db, rider, Currency.coin), shop_balance(db, rider, Currency.gem)) == (5500, 350)


def test_a_coin_purchase_lost_on_its_way_is_made_once(page: Page, db: Session, slow_network: Relay):
    """The connection drops as the rider buys: connected again, the page sends the purchase again and the
    site makes it once."""
    rider, buy = _coins_modal(page, db, "dropped.coins.again@example.com")
    buy.click()
    slow_network.drop()
    expect(page.locator("#payment-success")).to_contain_text(shop_msg.COINS_ADDED.format(coins=5500))
    expect(page.locator("#shop-gems")).to_have_text("350")
    assert (shop_balance(db, rider, Currency.coin), shop_balance(db, rider, Currency.gem)) == (5500, 350)


def _weigh_in_dialog(page: Page, db: Session, email: str, tmp_path: Path) -> tuple[Account, Locator, Path]:
    """A rider in the weigh-in dialog with a weight typed; answers the rider, the proof input and a photo."""
    rider = rider_registered_for(db, email)
    photo = tmp_path / "scale.jpg"
    photo.write_bytes(file_samples.jpeg())
    open_dashboard(page, rider.email)
    item(page, OPEN_EVENT).locator(".weigh-in-submit").click()
    page.fill("#weight", "68.4")
    return rider, page.locator("#weight-proof input[type=file]"), photo


def _weigh_in_submitted(page: Page, db: Session, rider: Account) -> None:
    expect(page.get_by_text(weigh_ins_msg.SUBMITTED.format(label="Pre"))).to_be_visible()
    expect(item(page, OPEN_EVENT)).to_have_count(0)
    (submission,), _ = kept(db, rider)
    assert submission.weight_kg == 68.4


def test_a_weigh_in_proof_cut_on_its_way_is_told_and_chosen_again(
    page: Page, db: Session, slow_network: Relay, tmp_path: Path
):
    """The connection drops while the photo is sent: the page says so, keeps the weight typed, and the photo
    chosen again goes with the submit."""
    rider, proof, photo = _weigh_in_dialog(page, db, "weigh.in.cut@example.com", tmp_path)
    offline = slow_network.offline_when_browser_sends(b"POST /_upload")
    proof.set_input_files(str(photo))
    assert offline.wait(20), "the photo was never sent"
    expect(page.get_by_text(site_msg.UPLOAD_FAILED)).to_be_visible()
    expect(page.locator("#weight-proof-name")).to_have_count(0)
    assert kept(db, rider) == ([], [])
    slow_network.online()

    # Chosen again as a rider does, through the file picker (the same file set on the input is no change).
    with page.expect_file_chooser() as chooser:
        page.locator("#weight-proof").click()
    chooser.value.set_files(str(photo))
    expect(page.locator("#weight-proof-name")).to_have_text("scale.jpg")
    expect(page.locator("#weight")).to_have_value("68.4")
    page.locator("#weigh-in-send").click()
    _weigh_in_submitted(page, db, rider)


def _weigh_in_ready(page: Page, db: Session, email: str, tmp_path: Path) -> Account:
    """A rider in the weigh-in dialog with a weight typed and the photo kept."""
    rider, proof, photo = _weigh_in_dialog(page, db, email, tmp_path)
    proof.set_input_files(str(photo))
    expect(page.locator("#weight-proof-name")).to_have_text("scale.jpg")
    return rider


def test_a_weigh_in_whose_answer_is_lost_is_made_once_and_its_outcome_shown(
    page: Page, db: Session, slow_network: Relay, tmp_path: Path
):
    rider = _weigh_in_ready(page, db, "weigh.in.answer.lost@example.com", tmp_path)
    dropped = slow_network.drop_when_site_sends(b"weigh-in-submitted")
    page.locator("#weigh-in-send").click()
    assert dropped.wait(20), "the site never answered the weigh-in"
    _weigh_in_submitted(page, db, rider)


def test_a_weigh_in_lost_on_its_way_is_made_once(
    page: Page, db: Session, slow_network: Relay, tmp_path: Path
):
    rider = _weigh_in_ready(page, db, "weigh.in.request.lost@example.com", tmp_path)
    page.locator("#weigh-in-send").click()
    slow_network.drop()
    _weigh_in_submitted(page, db, rider)


def test_a_page_slow_to_go_live_says_so_and_keeps_what_was_typed(page: Page, slow_network: Relay):
    """The live connection opens but nothing comes through it (a phone in a tunnel): the form says that it
    is still connecting, what the rider types stays, and the form opens once the connection flows."""
    slow_network.stall_live()
    page.goto("/auth/login")
    page.fill("#email", "rider@example.com")
    notice = page.get_by_role("status").filter(has_text=site_msg.SLOW_CONNECTING)
    expect(notice).to_be_visible(timeout=20_000)
    expect(page.locator("#login-submit")).to_be_disabled()
    slow_network.resume_live()
    expect(notice).to_have_count(0)
    expect(page.locator("#email")).to_have_value("rider@example.com")
    fill_login(page, "rider@example.com", "ridefast")
    submit(page, "#login-submit")
    wait_signed_in(page)
