"""Contact us and the footer's Subscribe form, clicked through as a visitor would, on desktop and phone."""

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from cycling_site.messages import contact as msg
from cycling_site.models import ContactMessage, Subscriber
from cycling_site.settings import settings
from tests.e2e.helpers import wait_live

SUBMIT = "#contact-submit"
SUPPORT = settings.support_email


def stored_messages(db, email: str) -> list[ContactMessage]:
    db.expire_all()
    return list(db.exec(select(ContactMessage).where(ContactMessage.email == email)))


def subscriber_count(db, email: str) -> int:
    return db.exec(select(func.count()).select_from(Subscriber).where(Subscriber.email == email)).one()


def fill_contact(page: Page, **values: str) -> None:
    for name, value in values.items():
        page.fill(f"#{name}", value)


def test_a_visitor_sends_a_message_and_support_gets_it(page: Page, db):
    page.goto("/contact-us")
    expect(page.get_by_role("heading", name="Contact us", exact=True)).to_be_visible()
    expect(page.locator("#contact-intro").get_by_role("link", name=SUPPORT)).to_have_attribute(
        "href", f"mailto:{SUPPORT}"
    )
    fill_contact(
        page,
        name="Hamdan Ali",
        email="Hamdan.Ali@example.com",
        phone="050 765 4321",
        message="My power readings drop out during races.\nCan you help?",
    )
    expect(page.locator(SUBMIT)).to_be_enabled()
    page.press("#message", "Tab")
    expect(page.locator(SUBMIT)).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator("#contact-sent")).to_have_text(msg.SENT)
    for name in ("name", "email", "phone", "message"):
        expect(page.locator(f"#{name}")).to_have_value("")
    expect(page.locator("[id$='-error']")).to_have_count(0)

    [row] = stored_messages(db, "hamdan.ali@example.com")
    assert (row.name, row.phone) == ("Hamdan Ali", "+971507654321")
    assert row.message == "My power readings drop out during races.\nCan you help?"

    page.goto(f"/dev/mailbox?to={SUPPORT}")
    mail = page.locator(".mail-message").filter(has_text="Hamdan Ali")
    expect(mail).to_have_count(1)
    expect(mail).to_contain_text("Contact us: message from Hamdan Ali")
    expect(mail).to_contain_text(f"To: {SUPPORT}")
    expect(mail).to_contain_text("Email: hamdan.ali@example.com")
    expect(mail).to_contain_text("Phone: +971507654321")
    expect(mail).to_contain_text("My power readings drop out during races.")


def test_each_rule_shows_its_message_and_nothing_is_sent(page: Page, db):
    page.goto("/contact-us")
    wait_live(page)
    page.click(SUBMIT)
    expect(page.locator("#name-error")).to_have_text(msg.NAME_REQUIRED)
    expect(page.locator("#email-error")).to_have_text(msg.EMAIL_REQUIRED)
    expect(page.locator("#message-error")).to_have_text(msg.MESSAGE_TOO_SHORT)
    expect(page.locator("#phone-error")).to_have_count(0)
    expect(page.locator("#name")).to_be_focused()
    expect(page.locator("#name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#phone")).to_have_attribute("aria-invalid", "false")

    fill_contact(page, name="Mariam", email="mariam@", phone="12345", message="Too short")
    page.click(SUBMIT)
    expect(page.locator("#name-error")).to_have_count(0)
    expect(page.locator("#name")).to_have_attribute("aria-invalid", "false")
    expect(page.locator("#email-error")).to_have_text(msg.EMAIL_REQUIRED)
    expect(page.locator("#phone-error")).to_have_text(msg.PHONE_INVALID)
    expect(page.locator("#message-error")).to_have_text(msg.MESSAGE_TOO_SHORT)
    expect(page.locator("#email")).to_be_focused()
    expect(page.locator("#contact-sent")).to_have_count(0)
    # What the visitor typed stays, so only the mistakes need fixing.
    expect(page.locator("#message")).to_have_value("Too short")

    fill_contact(page, email="mariam@example.com", phone="", message="Too short, now long enough")
    page.click(SUBMIT)
    expect(page.locator("#contact-sent")).to_have_text(msg.SENT)
    expect(page.locator("[id$='-error']")).to_have_count(0)
    assert [row.message for row in stored_messages(db, "mariam@example.com")] == [
        "Too short, now long enough"
    ]
    assert stored_messages(db, "mariam@") == []


def test_subscribe_from_the_footer(page: Page, db):
    page.goto("/")
    footer = page.locator("footer")
    email = footer.get_by_label("Address for race news")

    email.fill("newsfan@")
    footer.get_by_role("button", name="Subscribe").click()
    expect(footer.locator("#subscribe-error")).to_have_text(msg.EMAIL_REQUIRED)
    expect(footer.locator("#subscribe-notice")).to_have_count(0)
    expect(email).to_have_value("newsfan@")

    email.fill("NewsFan@Example.com")
    email.press("Enter")
    expect(footer.locator("#subscribe-notice")).to_have_text(msg.SUBSCRIBED)
    expect(footer.locator("#subscribe-error")).to_have_count(0)
    expect(email).to_have_value("")
    assert subscriber_count(db, "newsfan@example.com") == 1

    # Subscribing again: the same answer, and no second row.
    email.fill("not-an-address")
    email.press("Enter")
    expect(footer.locator("#subscribe-error")).to_have_text(msg.EMAIL_REQUIRED)
    expect(footer.locator("#subscribe-notice")).to_have_count(0)
    email.fill("newsfan@example.com")
    footer.get_by_role("button", name="Subscribe").click()
    expect(footer.locator("#subscribe-notice")).to_have_text(msg.SUBSCRIBED)
    expect(footer.locator("#subscribe-error")).to_have_count(0)
    assert subscriber_count(db, "newsfan@example.com") == 1
    assert subscriber_count(db, "newsfan@") == 0


def test_contact_us_and_subscribe_work_on_a_phone(phone_page: Page, db):
    page = phone_page
    page.goto("/contact-us")
    expect(page.get_by_role("heading", name="Contact us", exact=True)).to_be_visible()
    expect(page.locator("#contact-details")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"/contact-us is {width}px wide on a 375px phone"

    submit = page.locator(SUBMIT)
    submit.tap()
    expect(page.locator("#name-error")).to_have_text(msg.NAME_REQUIRED)
    fill_contact(page, name="Rashid", email="rashid@example.com", message="Sent from my phone, thanks!")
    submit.tap()
    expect(page.locator("#contact-sent")).to_be_in_viewport()
    expect(page.locator("#contact-sent")).to_have_text(msg.SENT)
    assert len(stored_messages(db, "rashid@example.com")) == 1

    footer = page.locator("footer")
    footer.get_by_label("Address for race news").fill("phone.fan@example.com")
    footer.get_by_role("button", name="Subscribe").tap()
    expect(footer.locator("#subscribe-notice")).to_have_text(msg.SUBSCRIBED)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the footer is {width}px wide on a 375px phone"
