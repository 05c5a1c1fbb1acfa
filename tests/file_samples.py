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
