"""Large JSON arrays of numbers read in bulk with numpy: the very float64 bits json.loads gives, or None when unsure.

json.loads builds one Python float per number; a 512 × 4096 matrix is two million of them. Here the text of one
array is checked against JSON's grammar and converted in whole-array passes instead. A short number (a sign,
at most eight digits and one dot, the usual three-decimal file) is converted in one 64-bit word per number and
one correctly rounded division (m / 10^f, exact as m < 2^53 and f ≤ 7), which is what a correctly rounding
parser such as Python's float() returns; any other legal number goes through float() itself. Anything this
module is not sure of (a grammar error, ragged rows, a number out of range) gives None, and the caller then
reads the file with the exact loader, so every message stays that loader's. Pure numpy, no Qt.
"""

from __future__ import annotations

import re

import numpy as np

SHORT_CHARS = 8  # a number of at most this many characters is converted in one 64-bit word
_COMMA, _OPEN, _CLOSE, _MINUS = (ord(c) for c in ",[]-")
# The text is read in pieces of about this many characters, so that every pass's temporaries are small and
# reused rather than fresh 16 MB arrays (on the development machine new memory costs more than the arithmetic).
_CHUNK_CHARS = 1 << 19
_U8 = np.uint64(8)
_BYTE = np.uint64(0xFF)
_DOTS = np.uint64(0x2E2E2E2E2E2E2E2E)
_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_HIGH = np.uint64(0x8080808080808080)
_ASCII_ZEROS = np.uint64(0x3030303030303030)
_ABOVE_NINE = np.uint64(0x7676767676767676)  # + 0x76 sets a byte's high bit exactly when it is above 9
_DOT_INDEX = np.uint64(sum(k << (61 - 8 * k) for k in range(8)))  # 256^k times this has k in its top 3 bits
# Byte masks: _MASKS[k] keeps the first (lowest) k bytes of a little-endian word.
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(SHORT_CHARS + 1)], dtype=np.uint64)
_POWERS = 10.0 ** np.arange(SHORT_CHARS)
# bytes.translate gives every character its class in one pass: 1 in a number, 0 between numbers, 2 not allowed.
_CLASSES = bytes(1 if chr(c) in "0123456789+-.eE" else 0 if chr(c) in ",[] \t\n\r" else 2 for c in range(256))
_SEPARATOR = re.compile(rb"[,\[\] \t\n\r]")
_AFTER_NUMBER = re.compile(rb"[ \t\n\r]*[,\]]")
_JSON_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
# A file whose numbers are mostly long (17-digit reprs, exponents) is read as fast by json itself.
_MAX_LONG_SHARE = 0.25


class NumberRows(list):
    """Rows of a matrix read in bulk: a list (of row views) for the checks that count rows, the array in `array`."""

    def __init__(self, array: np.ndarray) -> None:
        super().__init__(array)
        self.array = array


def number_array(data: bytes, start: int, stop: int, max_abs: float, max_rows: int) -> np.ndarray | None:
    """data[start:stop], a JSON array of numbers or of at most `max_rows` equal rows, as float64; None when unsure."""
    if stop - start < 3 or data[start] != _OPEN or data[stop - 1] != _CLOSE:
        return None
    opens, closes = _positions(data, b"[", start, stop, max_rows + 1), _positions(data, b"]", start, stop, max_rows + 1)
    rows = _rows(data, opens, closes) if opens is not None and closes is not None else None
    count = data.count(b",", start, stop) + 1  # numbers, if the commas stand where they should (checked below)
    if rows is None or (rows and count % rows):
        return None
    values = np.empty(count, dtype=np.float64)
    opens = np.asarray(opens[1:], dtype=np.int64)
    firsts, done, long_count, low = [], 0, 0, start
    while low < stop - 1:
        high = _piece_end(data, low, stop)
        piece = data[low:high + 1]
        classes = piece.translate(_CLASSES)
        if b"\x02" in classes:
            return None  # not a plain array of numbers: a letter, a quote, a brace, …
        starts, ends = _token_bounds(np.frombuffer(classes, np.uint8))
        if done + starts.size > count:
            return None
        out = values[done:done + starts.size]
        long = _long_numbers(piece, starts, ends, len(data) - SHORT_CHARS - low)
        long_count += int(np.count_nonzero(long))
        if long_count > _MAX_LONG_SHARE * count + 64 or not _convert(data, low, np.frombuffer(piece, np.uint8), starts,
                                                                 ends, long, out):
            return None
        if not _long_values(piece, starts, ends, long, out):
            return None
        if starts.size and not (out.max() <= max_abs and out.min() >= -max_abs):  # NaN cannot occur here
            return None
        inside = opens[(opens >= low) & (opens < high)]
        firsts.append(np.searchsorted(starts, inside - low) + done)
        done, low = done + starts.size, high
    if done != count:
        return None
    if rows and not (np.concatenate(firsts) == np.arange(rows) * (count // rows)).all():
        return None  # ragged (the exact loader names the row)
    if rows:
        values.shape = (rows, count // rows)  # in place: the array stays its own, frozen, so scenarios share it
    values.setflags(write=False)
    return values


def _piece_end(data: bytes, low: int, stop: int) -> int:
    """Where the piece from `low` ends: the first separator _CHUNK_CHARS on (no number is cut), or the last ']'."""
    if low + _CHUNK_CHARS >= stop - 1:
        return stop - 1
    found = _SEPARATOR.search(data, low + _CHUNK_CHARS, stop)
    return found.start() if found else stop - 1


def _token_bounds(token: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and last index of every number in a piece, from the characters' classes (1 in a number, 0 between).

    The piece begins and ends between numbers, so its changes of class go start, end, start, end, …
    """
    change = np.flatnonzero(token[1:] != token[:-1])
    return change[0::2] + 1, change[1::2]


def _rows(data: bytes, opens: list[int], closes: list[int]) -> int | None:
    """0 for a flat array, the number of rows for an array of rows, None for any other bracket structure."""
    if len(opens) != len(closes):
        return None
    if len(opens) == 1:
        return 0
    if data[opens[0] + 1:opens[1]].strip() or data[closes[-2] + 1:closes[-1]].strip() or not opens[-1] < closes[-2]:
        return None  # only whitespace between the outer bracket and the first (last) row's
    for open_, close, next_open in zip(opens[1:], closes, opens[2:]):
        if not open_ < close < next_open or data[close + 1:next_open].strip() != b",":
            return None
    return len(opens) - 1


def _positions(data: bytes, char: bytes, start: int, stop: int, limit: int) -> list[int] | None:
    """Where `char` stands in data[start:stop]; None past `limit` of them (a legal file has a few hundred)."""
    found, position = [], data.find(char, start, stop)
    while position >= 0:
        if len(found) == limit:
            return None
        found.append(position)
        position = data.find(char, position + 1, stop)
    return found


def _long_numbers(piece: bytes, starts: np.ndarray, ends: np.ndarray, last_word: int) -> np.ndarray:
    """Which numbers float() reads: those of more than eight characters, with an exponent, or past `last_word`.

    (A number that starts past `last_word` has fewer than eight bytes of the file left for its word.)
    """
    long = ((ends - starts) >= SHORT_CHARS) | (starts > last_word)
    if b"e" in piece or b"E" in piece:
        exponents = np.flatnonzero((np.frombuffer(piece, np.uint8) | 0x20) == ord("e"))
        long[np.searchsorted(starts, exponents, side="right") - 1] = True
    return long


def _convert(data: bytes, offset: int, chars: np.ndarray, starts: np.ndarray, ends: np.ndarray, long: np.ndarray,
             out: np.ndarray) -> bool:
    """Check and convert one piece of short numbers into `out` (long ones are left for float()); False if wrong."""
    following = chars[ends + 1]
    spaced = np.flatnonzero((following != _COMMA) & (following != _CLOSE))
    if spaced.size > _MAX_LONG_SHARE * starts.size + 64:
        return False  # whitespace after most numbers: json reads such a file as fast
    for end in (ends[spaced] + (offset + 1)).tolist():  # "1 ," or "1\n]" is legal, "1 2" is not
        if _AFTER_NUMBER.match(data, end) is None:
            return False
    absolute = starts + offset
    if long.any():
        absolute[long] = 0  # a long number's word is not used (nor read past the end)
    lengths = np.minimum(ends - starts + 1, SHORT_CHARS)  # int64 throughout: numpy indexes fastest with it
    words = np.ndarray((len(data) - SHORT_CHARS + 1,), dtype="<u8", buffer=data, strides=(1,))[absolute]
    words &= np.take(_MASKS, lengths)
    negative = (words & _BYTE) == _MINUS
    words >>= negative.astype(np.uint64) << np.uint64(3)
    lengths -= negative
    found = _zero_bytes(words ^ _DOTS)  # 0x80 in the byte that holds the dot
    below = (found >> np.uint64(7)) - np.uint64(1)  # the bytes before the dot (all of them without a dot)
    digits = (words & below) | ((words >> _U8) & ~below)
    dotted = found != 0
    count = lengths - dotted
    count_mask = np.take(_MASKS, count)
    digits ^= _ASCII_ZEROS
    digits &= count_mask
    dot = (((found >> np.uint64(7)) * _DOT_INDEX) >> np.uint64(61)).astype(np.int64)  # 0 without a dot
    fraction = (count - dot) * dotted
    wrong = ((digits + _ABOVE_NINE) & _HIGH & count_mask) != 0  # not a digit (a second dot, a sign, …)
    wrong |= (count == 0) | ((found & _BYTE) != 0) | (dotted & (fraction == 0))  # "-", ".5", "1."
    wrong |= ((digits & _BYTE) == 0) & (count > 1) & (dot != 1)  # a leading zero
    if (wrong & ~long).any():
        return False
    digits <<= ((SHORT_CHARS - count) << 3).astype(np.uint64)  # leading zeros: eight digits
    np.divide(_eight_digits(digits).astype(np.float64), np.take(_POWERS, fraction), out=out)
    flip = negative & (dotted | (out != 0))  # json reads "-0" as the integer 0: +0.0
    out.view(np.uint64)[...] ^= flip.astype(np.uint64) << np.uint64(63)  # the sign bit
    return True


def _zero_bytes(words: np.ndarray) -> np.ndarray:
    """0x80 in each byte of each word that is zero, 0 elsewhere (exact: no false positives)."""
    return ~(((words & _LOW7) + _LOW7) | words | _LOW7)


def _eight_digits(digits: np.ndarray) -> np.ndarray:
    """The integer of eight digit values 0–9 in a word, most significant in the lowest byte."""
    digits = digits * np.uint64(10) + (digits >> _U8)
    pairs = np.uint64(0x000000FF000000FF)
    return ((digits & pairs) * np.uint64(100 + (1000000 << 32))
            + ((digits >> np.uint64(16)) & pairs) * np.uint64(1 + (10000 << 32))) >> np.uint64(32)


def _long_values(piece: bytes, starts: np.ndarray, ends: np.ndarray, long: np.ndarray, values: np.ndarray) -> bool:
    """Read the long numbers one by one as json does, each checked against JSON's grammar; False if one is wrong."""
    for index, first, last in zip(*(array[long].tolist() for array in (np.arange(starts.size), starts, ends))):
        text = piece[first:last + 1]
        if _JSON_NUMBER.fullmatch(text) is None:
            return False
        try:
            value = float(text) if b"." in text or b"e" in text or b"E" in text else float(int(text))
        except (ValueError, OverflowError):  # an integer of more than 4300 digits, or beyond any float
            return False
        values[index] = value
    return True
