"""The fast FIT reader: record messages decoded with numpy, one structured dtype per local definition.

A Python loop walks the message headers only, jumping over runs of same-size data messages with numpy; the
record fields then come out of each definition's messages in one go, and the few event, session and
developer messages are decoded one by one. The result is what fitdecode gives (fit_files keeps that path as
the reference): raw values with the profile's scale and offset, base-type invalid values as missing, the
first entry of an array field as the sample, compressed timestamps and speed/distance, developer fields
skipped.

`Damaged` means fitdecode would refuse the file too (header, CRC, cut message, undefined local message or
developer field, a field size that is not a multiple of its type). `Unsupported` sends the file back to
fitdecode, for what only matters on odd files and is not reproduced here: a field number twice in one
definition; a float, string or non-byte array in a field the profile splits into components or in the
timestamp; compressed speed/distance not stored as bytes; heart-rate messages with 12-bit event times;
string-typed fields among those read; developer fields named like one of them, numbered 253 or not a whole
number of their type, and developer descriptions that are not plain numbers and text; a first session
message in which none of the fields read has a value.
"""

import math
import struct
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from fitdecode.profile import FIELD_TYPES, MESSAGE_TYPES

# Record columns; fit_files prefers the enhanced_* ones when a record has both.
COLUMNS = (
    "timestamp",
    "power",
    "heart_rate",
    "cadence",
    "speed",
    "enhanced_speed",
    "altitude",
    "enhanced_altitude",
    "distance",
)
SESSION, RECORD, EVENT, HR, FIELD_DESCRIPTION, DEVELOPER_DATA_ID = 18, 20, 21, 132, 206, 207
TIMESTAMP = 253
_COMPRESSED_SPEED_DISTANCE = 8
_SLOT = {name: i for i, name in enumerate(COLUMNS)}

# Record field -> writes in fitdecode's order (its components first): (column, scale, offset, low bits kept).
_RECORD_FIELDS = {
    TIMESTAMP: (("timestamp", None, None, None),),
    7: (("power", None, None, None),),
    3: (("heart_rate", None, None, None),),
    4: (("cadence", None, None, None),),
    6: (("enhanced_speed", 1000, None, 16), ("speed", 1000, None, None)),
    73: (("enhanced_speed", 1000, None, None),),
    2: (("enhanced_altitude", 5, 500, 16), ("altitude", 5, 500, None)),
    78: (("enhanced_altitude", 5, 500, None),),
    5: (("distance", 100, None, None),),
}
_SESSION_FIELDS = {
    5: ("sport", None),
    7: ("total_elapsed_time", 1000),
    8: ("total_timer_time", 1000),
    20: ("avg_power", None),
    34: ("normalized_power", None),
    35: ("training_stress_score", 10),
    36: ("intensity_factor", 1000),
    45: ("threshold_power", None),
}
_EVENT_FIELDS = {0: "event", 1: "event_type"}
_READ = {
    RECORD: {*_RECORD_FIELDS, _COMPRESSED_SPEED_DISTANCE},
    EVENT: {*_EVENT_FIELDS, TIMESTAMP},
    SESSION: {*_SESSION_FIELDS, TIMESTAMP},
}
_READ_NAMES = frozenset({*COLUMNS, *_EVENT_FIELDS.values(), *(name for name, _ in _SESSION_FIELDS.values())})
_SPORTS = FIELD_TYPES["sport"].enum
_EVENT_TYPES = FIELD_TYPES["event_type"].enum
_TIMER = 0  # event "timer"
# Fields that fitdecode splits into components: their values must be whole numbers or bytes.
_EXPANDED = frozenset(
    (number, field_number)
    for number, message in MESSAGE_TYPES.items()
    for field_number, profile_field in message.fields.items()
    if profile_field.components or any(sub.components for sub in profile_field.subfields or ())
)


@dataclass(frozen=True)
class BaseType:
    code: str  # struct and numpy letter
    invalid: float | None  # the "no value" of the type; None for bytes and text
    size: int

    @property
    def is_whole(self) -> bool:
        return self.invalid is not None and self.code not in "fd"


def _base(code: str, invalid: float | None) -> BaseType:
    return BaseType(code, invalid, struct.calcsize(code))


_BYTE = _base("B", None)
# Base type numbers as fitdecode knows them; any other number reads as bytes.
_BASE_TYPES = {
    0x00: _base("B", 0xFF),
    0x01: _base("b", 0x7F),
    0x02: _base("B", 0xFF),
    0x83: _base("h", 0x7FFF),
    0x84: _base("H", 0xFFFF),
    0x85: _base("i", 0x7FFF_FFFF),
    0x86: _base("I", 0xFFFF_FFFF),
    0x07: _base("s", None),
    0x88: _base("f", math.nan),
    0x89: _base("d", math.nan),
    0x0A: _base("B", 0),
    0x8B: _base("H", 0),
    0x8C: _base("I", 0),
    0x0D: _BYTE,
    0x8E: _base("q", 0x7FFF_FFFF_FFFF_FFFF),
    0x8F: _base("Q", 0xFFFF_FFFF_FFFF_FFFF),
    0x90: _base("Q", 0),
}
# Local message number of a data message header byte (compressed-timestamp ones included), -1 for definitions.
_LOCAL_OF = tuple((h >> 5) & 3 if h & 0x80 else (-1 if h & 0x40 else h & 0x0F) for h in range(256))
_LOCAL_OF_HEADER = np.array(_LOCAL_OF, dtype=np.int8)


class Damaged(ValueError):
    """fitdecode refuses this file too."""


class Unsupported(Exception):
    """The file uses something only fitdecode reads exactly."""


@dataclass(frozen=True)
class FieldDefinition:
    number: int
    offset: int  # from the message's header byte
    size: int
    base: BaseType


@dataclass
class Definition:
    """A local message definition and where its data messages are: runs of (position, count, first index)."""

    number: int
    endian: str
    fields: list[FieldDefinition]
    size: int  # header byte included
    index: int
    empty_field: bool
    runs: list[tuple[int, int, int]] = field(default_factory=list)


def _crc_table() -> np.ndarray:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
        table.append(crc)
    return np.array(table, dtype=np.uint32)


_CRC_TABLE = _crc_table()


def _xor_table(images: list[int]) -> list[int]:
    table = [0]
    for image in images:
        table += [value ^ image for value in table]
    return table


def crc16(data: np.ndarray) -> int:
    """FIT's CRC-16 of a uint8 array, lanes in parallel.

    The CRC starts at 0 and is linear, so leading zeros change nothing and the CRC of A+B is the CRC of B
    plus what len(B) zero bytes do to the CRC of A; 16 extra lanes of zeros learn that map from unit vectors.
    """
    width = max(16, math.isqrt(len(data)) // 4)
    lanes = -(-len(data) // width)
    block = np.zeros((lanes + 16, width), dtype=np.uint8)
    block.reshape(-1)[lanes * width - len(data) : lanes * width] = data
    registers = np.zeros(lanes + 16, dtype=np.uint32)
    registers[lanes:] = 1 << np.arange(16, dtype=np.uint32)
    for column in np.ascontiguousarray(block.T):
        registers = (registers >> 8) ^ _CRC_TABLE[(registers ^ column) & 0xFF]
    shift = registers[lanes:].tolist()
    low, high = _xor_table(shift[:8]), _xor_table(shift[8:])
    crc = 0
    for lane in registers[:lanes].tolist():
        crc = low[crc & 0xFF] ^ high[crc >> 8] ^ lane
    return crc


def _check_field(number: int, field_number: int, base: BaseType, size: int) -> None:
    array = size > base.size and base is not _BYTE
    if field_number == TIMESTAMP and (not base.is_whole or base.size > 4 or array):
        raise Unsupported  # compressed timestamps count on from this value
    if (number, field_number) in _EXPANDED and not (base is _BYTE or (base.is_whole and not array)):
        raise Unsupported
    if number == RECORD and field_number == _COMPRESSED_SPEED_DISTANCE and base is not _BYTE:
        raise Unsupported
    if number == HR and field_number == 10:
        raise Unsupported
    if field_number in _READ.get(number, ()) and base.code == "s":
        raise Unsupported


def _python_value(data: bytes, start: int, size: int, base: BaseType, endian: str) -> object:
    """One field as fitdecode reads it: None when invalid, a tuple for arrays and bytes."""
    if base.code == "s":
        text = data[start : start + size].split(b"\0", 1)[0]
        return text.decode("utf-8", errors="replace") or None
    values = struct.unpack_from(f"{endian}{size // base.size}{base.code}", data, start)
    if base is _BYTE:
        return None if all(value == 0xFF for value in values) else values
    valid = tuple(None if value == base.invalid or value != value else value for value in values)
    return valid if len(valid) > 1 else valid[0]


def _scaled(value: object, scale: int | None) -> object:
    if scale and isinstance(value, int | float):
        return float(value) / scale
    return value


class _Scanner:
    """Walks one FIT file's messages, keeping each definition's runs of data messages."""

    def __init__(self, data: bytes, buffer: np.ndarray, index: int):
        self.data = data
        self.buffer = buffer
        self.index = index
        self.definitions: list[Definition] = []
        self.local: dict[int, Definition] = {}
        self.developer: dict[int, dict] = {}

    def scan(self, start: int, end: int) -> None:
        data = self.data
        position = start
        while position < end:
            header = data[position]
            if header & 0xC0 == 0x40:
                position = self._definition(position, end)
                continue
            definition = self.local.get(_LOCAL_OF[header])
            if definition is None:
                raise Damaged("data message of an undefined local message")
            count = self._run(position, end, definition)
            if definition.empty_field:
                raise Damaged("a field of no size")
            definition.runs.append((position, count, self.index))
            if definition.number in (FIELD_DESCRIPTION, DEVELOPER_DATA_ID):
                for message in range(count):
                    self._developer(definition, position + message * definition.size)
            self.index += count
            position += count * definition.size

    def _run(self, position: int, end: int, definition: Definition) -> int:
        """How many data messages of this definition follow each other from here (at least this one)."""
        size = definition.size
        fitting = (end - position) // size
        if not fitting:
            raise Damaged("message cut by the end of the file")
        local = _LOCAL_OF[self.data[position]]
        count, window = 1, 16
        while count < fitting and _LOCAL_OF[self.data[position + count * size]] == local:
            stop = min(fitting, count + window)
            headers = self.buffer[position + count * size : position + stop * size : size]
            other = np.flatnonzero(_LOCAL_OF_HEADER[headers] != local)
            if other.size:
                return count + int(other[0])
            count, window = stop, window * 4
        return count

    def _definition(self, position: int, end: int) -> int:
        data = self.data
        if position + 6 > end:
            raise Damaged("definition cut")
        header, endian = data[position], ">" if data[position + 2] else "<"
        number = int.from_bytes(data[position + 3 : position + 5], "big" if endian == ">" else "little")
        count = data[position + 5]
        cursor = position + 6
        if cursor + 3 * count > end:
            raise Damaged("definition cut")
        fields, offset, empty = [], 1, False
        for _ in range(count):
            field_number, size, base_number = data[cursor : cursor + 3]
            cursor += 3
            base = _BASE_TYPES.get(base_number, _BYTE)
            if size % base.size:
                raise Damaged("field size not a multiple of its type")
            _check_field(number, field_number, base, size)
            fields.append(FieldDefinition(field_number, offset, size, base))
            offset += size
            empty |= size == 0
        if len({f.number for f in fields}) < len(fields):
            raise Unsupported
        if header & 0x20:
            if cursor >= end:
                raise Damaged("definition cut")
            if number in (FIELD_DESCRIPTION, DEVELOPER_DATA_ID):
                raise Unsupported
            developer_count = data[cursor]
            cursor += 1
            if cursor + 3 * developer_count > end:
                raise Damaged("definition cut")
            for _ in range(developer_count):
                field_number, size, developer_index = data[cursor : cursor + 3]
                cursor += 3
                described = self.developer.get(developer_index, {}).get(field_number)
                if described is None:
                    raise Damaged("undefined developer field")
                name, base = described
                if field_number == TIMESTAMP or name in _READ_NAMES or size % base.size:
                    raise Unsupported
                offset += size
                empty |= size == 0
        definition = Definition(number, endian, fields, offset, self.index, empty)
        self.local[header & 0x0F] = definition
        self.definitions.append(definition)
        self.index += 1
        return cursor

    def _developer(self, definition: Definition, position: int) -> None:
        values = {
            f.number: _python_value(self.data, position + f.offset, f.size, f.base, definition.endian)
            for f in definition.fields
        }

        def number(field_number: int, *, required: bool = True) -> int | None:
            value = values.get(field_number)
            if (required and value is None) or not (value is None or type(value) is int):
                raise Unsupported
            return value

        if definition.number == DEVELOPER_DATA_ID:
            self.developer[number(3)] = {}
            return
        index, name = number(0), values.get(3)
        if index not in self.developer or 1 not in values or not (name is None or isinstance(name, str)):
            raise Unsupported
        base_number = number(2, required=False)
        if base_number is not None and base_number not in _BASE_TYPES:
            raise Unsupported
        base = _BYTE if base_number is None else _BASE_TYPES[base_number]
        self.developer[index][number(1, required=False)] = (name, base)


def _accumulate(reset_keys, reset_values, step_keys, step_values, bits: int) -> np.ndarray:
    """FIT's rolling counters: each step adds (value - previous value) mod 2**bits; a reset sets the counter.

    Keys order the events (every step has a reset before it); the counter after each step is returned.
    """
    keys = np.concatenate([reset_keys, step_keys])
    values = np.concatenate([reset_values, step_values]).astype(np.int64)
    is_reset = np.r_[np.ones(len(reset_keys), bool), np.zeros(len(step_keys), bool)]
    order = np.argsort(keys, kind="stable")
    values, is_reset = values[order], is_reset[order]
    delta = np.where(is_reset, 0, (values - np.r_[0, values[:-1]]) & ((1 << bits) - 1))
    total = np.cumsum(delta)
    starts = np.flatnonzero(is_reset)
    segment = starts[np.cumsum(is_reset) - 1]
    counter = np.empty_like(values)
    counter[order] = values[segment] + total - total[segment]
    return counter[len(reset_keys) :]


class _Messages:
    """The data messages of one definition: where they are, their indices, and (when asked) their bytes."""

    def __init__(self, definition: Definition, buffer: np.ndarray):
        starts, counts, first = (
            np.array(column, dtype=np.int64) for column in zip(*definition.runs, strict=True)
        )
        before = np.cumsum(counts) - counts
        serial = np.arange(int(counts.sum()))
        self.definition = definition
        self.buffer = buffer
        self.positions = np.repeat(starts - before * definition.size, counts) + serial * definition.size
        self.indices = np.repeat(first - before, counts) + serial
        self.headers = buffer[self.positions]
        self.timestamps: np.ndarray | None = None  # from compressed headers, NaN elsewhere

    @cached_property
    def bytes(self) -> np.ndarray:
        return self.buffer[self.positions[:, None] + np.arange(self.definition.size)]

    @cached_property
    def view(self) -> np.ndarray:
        """The messages through a structured dtype: one numpy field per FIT field (its first entry)."""
        scalars = [f for f in self.definition.fields if f.size]
        dtype = np.dtype(
            {
                "names": [f"f{f.number}" for f in scalars],
                "formats": [
                    self.definition.endian + (f.base.code if f.base.code != "s" else "B") for f in scalars
                ],
                "offsets": [f.offset for f in scalars],
                "itemsize": self.definition.size,
            }
        )
        return self.bytes.view(dtype)[:, 0]

    def present(self, f: FieldDefinition) -> np.ndarray:
        if f.base is _BYTE:
            return (self.bytes[:, f.offset : f.offset + f.size] != 0xFF).any(axis=1)
        if f.size > f.base.size:
            return np.ones(len(self.indices), bool)
        return self._valid(f)

    def _valid(self, f: FieldDefinition) -> np.ndarray:
        raw = self.view[f"f{f.number}"]
        return ~np.isnan(raw) if f.base.code in "fd" else raw != f.base.invalid

    def first(self, f: FieldDefinition) -> np.ndarray:
        """The field's value, or its first entry for arrays (NaN when that entry is invalid)."""
        with np.errstate(invalid="ignore"):  # signalling NaNs among the floats are invalid values anyway
            values = self.view[f"f{f.number}"].astype(np.float64)
        if f.base is _BYTE or f.size == f.base.size:
            return values
        return np.where(self._valid(f), values, np.nan)

    def little_endian_bytes(self, f: FieldDefinition, count: int) -> np.ndarray:
        """The first bytes of a byte field as one little-endian number, as fitdecode unpacks components."""
        taken = self.bytes[:, f.offset : f.offset + min(count, f.size)].astype(np.int64)
        return (taken << (8 * np.arange(taken.shape[1]))).sum(axis=1)


def _timestamp_counters(all_messages: list[_Messages], file_starts: list[int]) -> None:
    """Dates of compressed-timestamp headers: 5 bits on from the last full timestamp of any message."""
    steps = [(m, np.flatnonzero(m.headers & 0x80)) for m in all_messages]
    if not any(rows.size for _, rows in steps):
        return
    reset_keys, reset_values = [3 * np.array(file_starts)], [np.zeros(len(file_starts), np.int64)]
    for m in all_messages:
        stamp = next((f for f in m.definition.fields if f.number == TIMESTAMP and f.size), None)
        if stamp is not None:
            valid = m.present(stamp)
            reset_keys.append(3 * m.indices[valid] + 1)
            reset_values.append(m.view[f"f{TIMESTAMP}"][valid].astype(np.int64))
    counters = _accumulate(
        np.concatenate(reset_keys),
        np.concatenate(reset_values),
        np.concatenate([3 * m.indices[rows] + 2 for m, rows in steps]),
        np.concatenate([m.headers[rows] & 0x1F for m, rows in steps]),
        5,
    )
    done = 0
    for m, rows in steps:
        m.timestamps = np.full(len(m.indices), np.nan)
        m.timestamps[rows] = counters[done : done + rows.size]
        done += rows.size


def _compressed_distances(definitions: list[Definition], records: list[_Messages]) -> dict[int, np.ndarray]:
    """Distances from compressed speed/distance: 12 bits on, from 0 at each record definition with them."""
    keys, values, found = [], [], []
    for m in records:
        packed = next(
            (f for f in m.definition.fields if f.number == _COMPRESSED_SPEED_DISTANCE and f.size), None
        )
        if packed is not None and packed.size > 1:
            rows = np.flatnonzero(m.present(packed))
            keys.append(2 * m.indices[rows] + 1)
            values.append((m.little_endian_bytes(packed, 3)[rows] >> 12) & 0xFFF)
            found.append((m, rows))
    if not found:
        return {}
    resets = np.array(
        [
            2 * d.index
            for d in definitions
            if d.number == RECORD and any(f.number == _COMPRESSED_SPEED_DISTANCE for f in d.fields)
        ]
    )
    counters = _accumulate(resets, np.zeros(len(resets)), np.concatenate(keys), np.concatenate(values), 12)
    distances, done = {}, 0
    for m, rows in found:
        distances[id(m)] = np.full(len(m.indices), np.nan)
        distances[id(m)][rows] = counters[done : done + rows.size] / 16
        done += rows.size
    return distances


def _record_table(m: _Messages, distances: dict[int, np.ndarray]) -> np.ndarray:
    """The records of one definition as rows of COLUMNS: each field written in fitdecode's order."""
    table = np.full((len(m.indices), len(COLUMNS)), np.nan)

    def write(column: str, present: np.ndarray, values: np.ndarray) -> None:
        slot = _SLOT[column]
        table[:, slot] = np.where(present, values, table[:, slot])

    for f in m.definition.fields:
        if f.number == _COMPRESSED_SPEED_DISTANCE and f.size:
            present = m.present(f)
            write("speed", present, (m.little_endian_bytes(f, 2) & 0xFFF) / 100)
            if id(m) in distances:
                write("distance", present, distances[id(m)])
        for column, scale, offset, bits in _RECORD_FIELDS.get(f.number, ()) if f.size else ():
            if bits:
                raw = (
                    m.little_endian_bytes(f, 2)
                    if f.base is _BYTE
                    else m.view[f"f{f.number}"].astype(np.int64)
                )
                values = (raw & ((1 << bits) - 1)).astype(np.float64)
            else:
                values = m.first(f)
            if scale:
                values = values / scale
            if offset:
                values = values - offset
            write(column, m.present(f), values)
    if m.timestamps is not None:
        write("timestamp", ~np.isnan(m.timestamps), m.timestamps)
    return table


def _values(m: _Messages, row: int, data: bytes) -> dict[int, object]:
    position = int(m.positions[row])
    return {
        f.number: _python_value(data, position + f.offset, f.size, f.base, m.definition.endian)
        for f in m.definition.fields
        if f.number in _READ[m.definition.number]
    }


def _timestamp(m: _Messages, row: int, values: dict[int, object]) -> object:
    if m.timestamps is not None and not np.isnan(m.timestamps[row]):
        return int(m.timestamps[row])
    return values.get(TIMESTAMP)


def _events(messages: list[_Messages], data: bytes) -> list[tuple[int, object, str | None]]:
    """Timer events as (message index, timestamp, event type name)."""
    events = []
    for m in messages:
        for row in range(len(m.indices)):
            values = _values(m, row, data)
            event, kind = values.get(0), values.get(1)
            timestamp = _timestamp(m, row, values)
            if not isinstance(event, tuple) and event == _TIMER and timestamp is not None:
                events.append((int(m.indices[row]), timestamp, _EVENT_TYPES.get(kind)))
    return sorted(events, key=lambda event: event[0])


def _session(messages: list[_Messages], data: bytes) -> dict:
    """The fields read from the first session message, as fitdecode names and scales them."""
    rows = sorted((int(m.indices[row]), m, row) for m in messages for row in range(len(m.indices)))
    for _, m, row in rows:
        values = _values(m, row, data)
        session = {}
        for number, (name, scale) in _SESSION_FIELDS.items():
            value = values.get(number)
            if name == "sport" and not isinstance(value, tuple):
                value = _SPORTS.get(value, value)
            if value is not None:
                session[name] = _scaled(value, scale)
        if not session and _timestamp(m, row, values) is None:
            raise Unsupported  # fitdecode takes it only if some other field has a value
        return session
    return {}


def decode(data: bytes) -> tuple[np.ndarray, list[tuple[object, str | None]], dict]:
    """Records as rows of COLUMNS (NaN where absent), timer events (timestamp, type), session fields."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    definitions: list[Definition] = []
    file_starts: list[int] = []
    start, index = 0, 0
    while start < len(data):
        header_size = data[start]
        if len(data) - start < 12 or data[start + 8 : start + 12] != b".FIT" or header_size not in (12, 14):
            raise Damaged("bad file header")
        if header_size == 14:
            stored = int.from_bytes(data[start + 12 : start + 14], "little")
            if len(data) - start < 14 or (stored and stored != crc16(buffer[start : start + 12])):
                raise Damaged("bad header CRC")
        end = start + header_size + int.from_bytes(data[start + 4 : start + 8], "little")
        if end + 2 > len(data) or crc16(buffer[start:end]) != int.from_bytes(data[end : end + 2], "little"):
            raise Damaged("cut file or bad CRC")
        scanner = _Scanner(data, buffer, index)
        file_starts.append(index)
        scanner.scan(start + header_size, end)
        definitions += scanner.definitions
        index, start = scanner.index, end + 2
    messages = [_Messages(d, buffer) for d in definitions if d.runs]
    _timestamp_counters(messages, file_starts)
    records = [m for m in messages if m.definition.number == RECORD]
    distances = _compressed_distances(definitions, records)
    tables = [_record_table(m, distances) for m in records]
    table = np.concatenate(tables) if tables else np.empty((0, len(COLUMNS)))
    if tables:
        table = table[np.argsort(np.concatenate([m.indices for m in records]), kind="stable")]
    events = _events([m for m in messages if m.definition.number == EVENT], data)
    session = _session([m for m in messages if m.definition.number == SESSION], data)
    return table, [(timestamp, name) for _, timestamp, name in events], session
