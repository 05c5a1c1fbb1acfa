"""The numpy FIT reader gives what fitdecode gives: on the real files, on generated ones of every shape, on
damaged ones; what it leaves to fitdecode still reads the same."""

import math
from unittest.mock import patch

import numpy as np
import pytest
from fitdecode.utils import compute_crc
from hypothesis import given, settings
from hypothesis import strategies as st

from cycling_site.embedded.activity import fit_files, fit_reader
from cycling_site.embedded.activity.fit_files import DAMAGED_MESSAGE, FitFileError, FitRide, read_fit
from tests import fit_writer as w
from tests.activity_support import FIXTURES, PAUSED

FIXTURE_FILES = sorted(path.name for path in FIXTURES.glob("*.fit"))
T0 = 1_000_000_000  # FIT seconds: 2021-09-09, long after the clock-set threshold

RECORD_TYPES = {  # field -> (base type, size) choices a device could write
    253: [(w.UINT32, 4), (w.SINT32, 4), (0x8C, 4), (w.UINT16, 2)],
    7: [(w.UINT16, 2), (w.UINT32, 4), (0x83, 2), (0x88, 4), (0x89, 8), (w.BYTE, 2), (w.UINT16, 4), (0x42, 1)],
    3: [(w.UINT8, 1), (0x0A, 1), (w.ENUM, 1), (w.BYTE, 1), (w.UINT8, 2), (0x01, 1)],
    4: [(w.UINT8, 1), (0x0A, 1), (w.BYTE, 3), (w.UINT8, 3)],
    5: [(w.UINT32, 4), (0x8C, 4), (0x88, 4), (w.UINT32, 8), (0x8F, 8)],
    73: [(w.UINT32, 4), (0x88, 4), (w.UINT16, 2)],
    78: [(w.UINT32, 4), (0x89, 8), (w.SINT32, 4)],
    2: [(w.UINT16, 2), (0x83, 2), (w.UINT32, 4), (w.BYTE, 2), (w.BYTE, 3), (0x8E, 8), (w.BYTE, 1)],
    6: [(w.UINT16, 2), (w.UINT32, 4), (w.BYTE, 1), (w.BYTE, 2), (0x8B, 2)],
    8: [(w.BYTE, 3), (w.BYTE, 1), (w.BYTE, 2), (w.BYTE, 4)],
    0: [(w.SINT32, 4)],
    18: [(w.UINT8, 1), (w.BYTE, 2)],
    99: [(w.UINT8, 1)],
    240: [(w.STRING, 6), (0x88, 8), (w.BYTE, 5), (w.UINT16, 6)],
}
# Shapes only fitdecode reads exactly: the reader must hand them over, and the result must not change.
ODD_RECORD_TYPES = {
    253: [(0x88, 4), (w.UINT32, 8), (0x8F, 8)],
    7: [(w.STRING, 4)],
    2: [(0x88, 4), (w.UINT16, 4)],
    6: [(0x89, 8), (w.UINT16, 6)],
    8: [(w.UINT32, 4)],
    18: [(0x88, 4)],
}
SESSION_FIELDS = [(253, 4, w.UINT32), (5, 1, w.ENUM), (7, 4, w.UINT32), (8, 4, w.UINT32), (20, 2, w.UINT16)]
SESSION_FIELDS += [
    (34, 2, w.UINT16),
    (35, 2, w.UINT16),
    (36, 2, w.UINT16),
    (45, 2, w.UINT16),
    (14, 2, w.UINT16),
]


def random_values(rng: np.random.Generator, base: int, count: int) -> list:
    code = w.CODES.get(base, "B")
    if code in "fd":
        return [math.nan if rng.random() < 0.15 else float(rng.normal(150, 400)) for _ in range(count)]
    if code == "s":
        return bytes(rng.choice([0, 49, 50, 97], size=count).tolist())
    bits = 8 * w.size_of(base)
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if code.islower() else (0, (1 << bits) - 1)
    invalid = w.INVALID.get(base, 0xFF)
    choices = []
    for _ in range(count):
        pick = rng.random()
        if pick < 0.15:
            choices.append(invalid)
        elif pick < 0.75:
            choices.append(int(rng.integers(max(low, 0), min(high, 400) + 1)))
        else:
            choices.append(low + int(rng.integers(0, 1 << 62)) % (high - low + 1))
    return choices


class FileMaker:
    """One random activity file: file id, records under changing definitions, timer events and sessions."""

    def __init__(self, rng: np.random.Generator, *, odd: bool):
        self.rng, self.odd = rng, odd
        self.developer = rng.random() < 0.4
        self.body = b""
        self.installed: dict[int, object] = {}
        self.t = T0 + int(rng.integers(0, 1000))

    def install(self, local: int, key: object, definition: bytes) -> None:
        if self.installed.get(local) != key:
            self.body += definition
            self.installed[local] = key

    def record_definition(self):
        rng = self.rng
        types = {n: list(choices) for n, choices in RECORD_TYPES.items()}
        if self.odd:
            for number, choices in ODD_RECORD_TYPES.items():
                if rng.random() < 0.2:
                    types[number] = choices
        numbers = [n for n in types if rng.random() < 0.6]
        if self.odd and numbers and rng.random() < 0.3:
            numbers.append(numbers[0])  # the same field twice
        fields = []
        for number in numbers:
            base, size = types[number][int(rng.integers(len(types[number])))]
            fields.append((number, size, base))
        developer = [(0, 2, 0)] if self.developer and rng.random() < 0.5 else []
        return int(rng.integers(0, 16)), bool(rng.random() < 0.3), fields, developer

    def developer_messages(self) -> None:
        rng = self.rng
        name = b"power\0" if self.odd and rng.random() < 0.5 else b"Stryd\0"
        self.install(15, "ids", w.definition(15, 207, [(3, 1, w.UINT8), (1, 4, w.BYTE)]))
        self.body += w.data(15, w.value(w.UINT8, [0]) + bytes(4))
        self.install(
            15,
            "fields",
            w.definition(15, 206, [(0, 1, w.UINT8), (1, 1, w.UINT8), (2, 1, w.UINT8), (3, 6, w.STRING)]),
        )
        self.body += w.data(15, bytes([0, 0, w.BYTE]) + name)

    def record(self, local: int, big: bool, fields, developer) -> None:
        rng = self.rng
        self.t += int(rng.integers(0, 3))
        if rng.random() < 0.03:
            self.t -= int(rng.integers(1, 40))  # out of order
        stamp = 1000 if rng.random() < 0.02 else self.t  # before the clock was set
        payload = b""
        for number, size, base in fields:
            count = size // w.size_of(base)
            values = random_values(rng, base, count)
            if number == 253 and rng.random() < 0.9:
                code = w.CODES.get(base, "B")
                values = [float(stamp) if code in "fd" else stamp % (1 << 8 * w.size_of(base))] * count
            payload += w.value(base, values, big_endian=big)
        payload += bytes(rng.integers(0, 256, sum(size for _, size, _ in developer)).tolist())
        compressed = local < 4 and rng.random() < 0.5
        self.body += w.data(local, payload, time_offset=stamp & 31 if compressed else None)

    def event(self) -> None:
        rng = self.rng
        local = int(rng.integers(0, 16))
        event_fields = [
            (253, 4, w.UINT32),
            (0, 1, w.ENUM),
            (1, 1, w.ENUM),
            (3, 4, w.UINT32),
            (2, 2, w.UINT16),
        ]
        if self.odd and rng.random() < 0.3:
            event_fields[1] = (0, 2, w.UINT8)  # an array
        self.install(local, ("event", event_fields), w.definition(local, 21, event_fields))
        kind = [0, 1, 4, 8, 9, 3, 0xFF][int(rng.integers(7))]
        event = 0 if rng.random() < 0.8 else int(rng.integers(1, 50))
        stamp = self.t if rng.random() < 0.9 else 0xFFFF_FFFF
        payload = w.value(w.UINT32, [stamp]) + bytes([event] * (event_fields[1][1])) + bytes([kind])
        payload += w.value(w.UINT32, [int(rng.integers(0, 5))]) + w.value(
            w.UINT16, [int(rng.integers(0, 70000)) % 65536]
        )
        compressed = local < 4 and rng.random() < 0.3
        self.body += w.data(local, payload, time_offset=self.t & 31 if compressed else None)

    def session(self) -> None:
        rng = self.rng
        local = int(rng.integers(0, 16))
        self.install(local, "session", w.definition(local, 18, SESSION_FIELDS))
        all_invalid = self.odd and rng.random() < 0.3
        payload = b""
        for number, size, base in SESSION_FIELDS:
            if all_invalid and number != 14:
                values = [w.INVALID[base]]
            elif number == 5:
                values = [[0, 1, 2, 5, 11, 70, 0xFF][int(rng.integers(7))]]
            else:
                values = random_values(rng, base, size // w.size_of(base))
            payload += w.value(base, values)
        self.body += w.data(local, payload)

    def make(self) -> bytes:
        rng = self.rng
        self.install(0, "file_id", w.definition(0, 0, [(0, 1, w.ENUM), (4, 4, w.UINT32)]))
        self.body += w.data(0, w.value(w.ENUM, [4]) + w.value(w.UINT32, [self.t]))
        if self.developer:
            self.developer_messages()
        definitions = [self.record_definition() for _ in range(int(rng.integers(1, 4)))]
        current = definitions[0]
        for _ in range(int(rng.integers(0, 40))):
            pick = rng.random()
            if pick < 0.1:
                current = definitions[int(rng.integers(len(definitions)))]
                local, big, fields, developer = current
                self.installed.pop(local, None)  # defined again even when unchanged
            elif pick < 0.18:
                self.event()
                continue
            elif pick < 0.21:
                self.session()
                continue
            local, big, fields, developer = current
            self.install(local, current, w.definition(local, 20, fields, big_endian=big, developer=developer))
            self.record(local, big, fields, developer)
        if rng.random() < 0.7:
            self.session()
        return w.fit_file(self.body, header_size=12 if rng.random() < 0.3 else 14)


def generated_file(seed: int, *, odd: bool = False) -> bytes:
    rng = np.random.default_rng(seed)
    files = [FileMaker(rng, odd=odd).make() for _ in range(1 if rng.random() < 0.8 else 2)]
    return b"".join(files)


def read_fit_or_message(data: bytes) -> FitRide | str:
    """The ride, or the message the rider would see."""
    try:
        return read_fit(data)
    except FitFileError as error:
        return str(error)


def read_with_fitdecode(data: bytes) -> FitRide | str:
    with patch.object(fit_files, "_decode", fit_files._decode_with_fitdecode):
        return read_fit_or_message(data)


def assert_same(fast: FitRide | str, reference: FitRide | str) -> None:
    if isinstance(reference, str) or isinstance(fast, str):
        assert fast == reference
        return
    for name in FitRide.__dataclass_fields__:
        ours, theirs = getattr(fast, name), getattr(reference, name)
        if isinstance(theirs, np.ndarray):
            assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs, equal_nan=True), name
        else:
            assert ours == theirs, name


def assert_reads_like_fitdecode(data: bytes) -> None:
    assert_same(read_fit_or_message(data), read_with_fitdecode(data))


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=5000))
def test_crc_is_fits(data):
    assert fit_reader.crc16(np.frombuffer(data, np.uint8)) == compute_crc(data)


@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_device_files_read_like_fitdecode(name):
    data = (FIXTURES / name).read_bytes()
    assert len(fit_reader.decode(data)[0])  # the fast path reads it, without handing it over
    assert_reads_like_fitdecode(data)


def test_chained_device_files_read_like_fitdecode():
    data = b"".join((FIXTURES / name).read_bytes() for name in FIXTURE_FILES)
    assert_reads_like_fitdecode(data)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_generated_files_read_like_fitdecode(seed):
    data = generated_file(seed)
    fit_reader.decode(data)  # never handed over to fitdecode: no Unsupported
    assert_reads_like_fitdecode(data)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_odd_files_read_like_fitdecode(seed):
    data = generated_file(seed, odd=True)
    assert_reads_like_fitdecode(data)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.booleans(), st.data())
def test_changed_bytes_behind_a_valid_crc_read_like_fitdecode(seed, device_file, data):
    original = (FIXTURES / PAUSED).read_bytes() if device_file else generated_file(seed)
    content = bytearray(original[:-2])
    for _ in range(data.draw(st.integers(1, 4))):
        content[data.draw(st.integers(content[0], len(content) - 1))] = data.draw(st.integers(0, 255))
    damaged = bytes(content) + compute_crc(bytes(content)).to_bytes(2, "little")
    assert_reads_like_fitdecode(damaged)


def compressed_ride() -> bytes:
    """Records every second through compressed headers, past a 32-second wrap, and one full timestamp."""
    body = w.definition(0, 20, [(7, 2, w.UINT16)])
    body += w.definition(1, 20, [(253, 4, w.UINT32), (7, 2, w.UINT16)])
    body += w.data(1, w.value(w.UINT32, [T0 + 30]) + w.value(w.UINT16, [100]))
    for second in range(31, 36):
        body += w.data(0, w.value(w.UINT16, [second]), time_offset=(T0 + second) & 31)
    return w.fit_file(body)


def test_compressed_timestamps_count_on_from_the_last_full_one():
    ride = read_fit(compressed_ride())
    assert ride.seconds.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert ride.power.tolist() == [100.0, 31.0, 32.0, 33.0, 34.0, 35.0]
    assert_reads_like_fitdecode(compressed_ride())


def test_developer_fields_are_skipped():
    body = w.definition(0, 207, [(3, 1, w.UINT8)]) + w.data(0, bytes([0]))
    body += w.definition(0, 206, [(0, 1, w.UINT8), (1, 1, w.UINT8), (2, 1, w.UINT8), (3, 4, w.STRING)])
    body += w.data(0, bytes([0, 7, w.UINT16]) + b"Air\0")
    body += w.definition(1, 20, [(253, 4, w.UINT32), (7, 2, w.UINT16)], developer=[(7, 4, 0)])
    for second in range(3):
        body += w.data(1, w.value(w.UINT32, [T0 + second]) + w.value(w.UINT16, [200 + second]) + bytes(4))
    data = w.fit_file(body)
    assert fit_reader.decode(data)[0][:, 1].tolist() == [200.0, 201.0, 202.0]
    assert_reads_like_fitdecode(data)


def test_an_undescribed_developer_field_is_damage():
    body = w.definition(1, 20, [(253, 4, w.UINT32)], developer=[(7, 4, 0)])
    body += w.data(1, w.value(w.UINT32, [T0]) + bytes(4))
    assert read_fit_or_message(w.fit_file(body)) == DAMAGED_MESSAGE


def test_odd_fields_are_read_by_fitdecode_with_the_same_result():
    body = w.definition(0, 20, [(253, 4, w.UINT32), (2, 4, 0x88)])  # altitude as a float
    body += w.data(0, w.value(w.UINT32, [T0]) + w.value(0x88, [612.5]))
    data = w.fit_file(body)
    with pytest.raises(fit_reader.Unsupported):
        fit_reader.decode(data)
    assert read_fit(data).altitude.tolist() == [612.5 / 5 - 500]
    assert_reads_like_fitdecode(data)
