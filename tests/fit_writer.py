"""FIT files written byte by byte for tests: any definition, field type, endianness, compressed timestamp,
developer field or chained file, including the ones real devices rarely write."""

import struct

from fitdecode.utils import compute_crc

CODES = {
    0x00: "B",
    0x01: "b",
    0x02: "B",
    0x83: "h",
    0x84: "H",
    0x85: "i",
    0x86: "I",
    0x07: "s",
    0x88: "f",
    0x89: "d",
    0x0A: "B",
    0x8B: "H",
    0x8C: "I",
    0x0D: "B",
    0x8E: "q",
    0x8F: "Q",
    0x90: "Q",
}
INVALID = {
    0x00: 0xFF,
    0x01: 0x7F,
    0x02: 0xFF,
    0x83: 0x7FFF,
    0x84: 0xFFFF,
    0x85: 0x7FFF_FFFF,
    0x86: 0xFFFF_FFFF,
    0x88: float("nan"),
    0x89: float("nan"),
    0x0A: 0,
    0x8B: 0,
    0x8C: 0,
    0x0D: 0xFF,
    0x8E: 0x7FFF_FFFF_FFFF_FFFF,
    0x8F: 0xFFFF_FFFF_FFFF_FFFF,
    0x90: 0,
}
UINT8, UINT16, UINT32, SINT32, ENUM, BYTE, STRING = 0x02, 0x84, 0x86, 0x85, 0x00, 0x0D, 0x07


def size_of(base: int) -> int:
    return struct.calcsize(CODES.get(base, "B"))


def definition(local: int, number: int, fields, *, big_endian: bool = False, developer=()) -> bytes:
    """fields and developer are (field number, size in bytes, base type or developer data index)."""
    header = 0x40 | local | (0x20 if developer else 0)
    out = bytes([header, 0, int(big_endian)]) + struct.pack(">H" if big_endian else "<H", number)
    out += bytes([len(fields), *(byte for f in fields for byte in f)])
    if developer:
        out += bytes([len(developer), *(byte for f in developer for byte in f)])
    return out


def value(base: int, values, *, big_endian: bool = False) -> bytes:
    """One field's bytes: a list of raw values, or bytes for strings."""
    if base == STRING:
        return values
    return struct.pack(f"{'>' if big_endian else '<'}{len(values)}{CODES.get(base, 'B')}", *values)


def data(local: int, payload: bytes, *, time_offset: int | None = None) -> bytes:
    header = local if time_offset is None else 0x80 | (local << 5) | time_offset
    return bytes([header]) + payload


def fit_file(body: bytes, *, header_size: int = 14) -> bytes:
    header = bytes([header_size, 0x20]) + struct.pack("<HI", 2140, len(body)) + b".FIT"
    if header_size == 14:
        header += struct.pack("<H", compute_crc(header))
    content = header + body
    return content + struct.pack("<H", compute_crc(content))
