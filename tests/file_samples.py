"""Small real files of each type the registration wizard takes, and ones it must refuse."""

from io import BytesIO

from PIL import Image


def jpeg() -> bytes:
    out = BytesIO()
    Image.new("RGB", (64, 40), (200, 80, 40)).save(out, "JPEG")
    return out.getvalue()


def png() -> bytes:
    out = BytesIO()
    Image.new("RGB", (64, 40), (40, 80, 200)).save(out, "PNG")
    return out.getvalue()


def pdf() -> bytes:
    return (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
    )


def mp4() -> bytes:
    """An MP4 file type box: enough for content sniffing."""
    return b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\x00" * 64


def gif() -> bytes:
    """A real image of a type the wizard does not take."""
    out = BytesIO()
    Image.new("RGB", (8, 8)).save(out, "GIF")
    return out.getvalue()


def text_as_jpeg() -> bytes:
    """Plain text, which a browser would still send as image/jpeg if it is named photo.jpg."""
    return b"this is not an image at all\n" * 20


def oversized_jpeg() -> bytes:
    """A valid JPEG start padded past the 8 MB limit."""
    return jpeg() + b"\x00" * 8_388_608


HTML = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"


def jpeg_with_html() -> bytes:
    """A real JPEG with a page appended: it decodes, yet a browser sniffing it would run the script."""
    return jpeg() + HTML


# What a security test appended to a JPEG weight proof: each runs script or leaves the site once a browser
# takes the file for a page.
MARKUP_TAILS = {
    "img-onerror": b'<img src=x onerror="alert(document.cookie)">',
    "a-javascript": b"<a href=javascript:alert(1)>Open</a>",
    "meta-refresh": b'<meta http-equiv="refresh" content="0;url=https://evil.example.com/">',
    "event-handler": b"<p onmouseover =alert(1)>hover</p>",
}


def jpeg_with(tail: bytes) -> bytes:
    """A real JPEG with markup appended after its end."""
    return jpeg() + tail


def png_with_html() -> bytes:
    return png() + b"\n<svg onload=alert(1)>"


def pdf_with_html() -> bytes:
    return pdf().replace(b"%%EOF", b"<iframe src=javascript:alert(1)></iframe>\n%%EOF")


def jpeg_header_then_html() -> bytes:
    """JPEG magic bytes and then a page: it passes a magic-byte check but is no image."""
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + HTML


def png_header_then_html() -> bytes:
    return b"\x89PNG\r\n\x1a\n" + HTML


def broken_jpeg() -> bytes:
    """The first part of a real JPEG: the image data stops short."""
    return jpeg()[: len(jpeg()) // 2]


def mp4_with_html() -> bytes:
    return mp4() + b"<html><script>alert(1)</script></html>"
