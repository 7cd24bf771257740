#!/usr/bin/env python3
"""Writes a Speech Timer 1 data file as a binary property list, streaming, for benchmarks.

Same content as scripts/generate-speechtimer-plist.py for the same arguments (same random sequence,
so `plistlib.load` of both files gives equal values), but written object by object instead of
building the whole structure in memory first: a million speeches take a few hundred MB of Python
objects with plistlib, four million would take several GB and most of the time.

The layout differs from plistlib's only in object order: plistlib numbers a parent before its
children; this writer emits children first (a speech's values, then the speech dictionary; all
speeches, then the array; the root last). Object references are 4 bytes (plistlib uses the
smallest size that fits), offsets the smallest size that fits. Scalars that repeat (keys, speaker
and type names, notes, durations, booleans) are written once and shared, as plistlib does.

  Benchmarks/generate-speechtimer-bplist.py OUT.plist --speeches 1000000 [--recording-every 50] [--seed 1]
"""
import argparse
import array
import datetime
import os
import random
import struct
import sys
import uuid

import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "speechtimer_generator",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "generate-speechtimer-plist.py"))
_source = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_source)
BUILT_IN, USER_TYPES, SPEAKERS, WORDS = _source.BUILT_IN, _source.USER_TYPES, _source.SPEAKERS, _source.WORDS

EPOCH_2001 = datetime.datetime(2001, 1, 1)
REF_SIZE = 4


class StreamingBinaryPlistWriter:
    """Appends binary plist objects to a file; remembers only their offsets and shared scalars."""

    def __init__(self, out):
        self.out = out
        self.offsets = array.array("Q")
        self.position = 0
        self.shared = {}
        self.write_bytes(b"bplist00")

    def write_bytes(self, data):
        self.out.write(data)
        self.position += len(data)

    def begin_object(self):
        self.offsets.append(self.position)
        return len(self.offsets) - 1

    def marker_with_length(self, kind, length):
        if length < 15:
            return bytes([kind << 4 | length])
        return bytes([kind << 4 | 0xF]) + self.integer_bytes(length)

    @staticmethod
    def integer_bytes(value):
        if value < 0:
            return b"\x13" + struct.pack(">q", value)
        if value < 1 << 8:
            return b"\x10" + struct.pack(">B", value)
        if value < 1 << 16:
            return b"\x11" + struct.pack(">H", value)
        if value < 1 << 32:
            return b"\x12" + struct.pack(">L", value)
        return b"\x13" + struct.pack(">q", value)

    def scalar(self, value, share=False):
        """Writes a scalar (bool, int, float, str, bytes, datetime) and returns its reference."""
        if share:
            key = (type(value), value)
            found = self.shared.get(key)
            if found is not None:
                return found
        ref = self.begin_object()
        if value is True:
            self.write_bytes(b"\x09")
        elif value is False:
            self.write_bytes(b"\x08")
        elif isinstance(value, int):
            self.write_bytes(self.integer_bytes(value))
        elif isinstance(value, float):
            self.write_bytes(b"\x23" + struct.pack(">d", value))
        elif isinstance(value, datetime.datetime):
            self.write_bytes(b"\x33" + struct.pack(">d", (value - EPOCH_2001).total_seconds()))
        elif isinstance(value, bytes):
            self.write_bytes(self.marker_with_length(0x4, len(value)) + value)
        elif isinstance(value, str):
            try:
                encoded = value.encode("ascii")
                self.write_bytes(self.marker_with_length(0x5, len(encoded)) + encoded)
            except UnicodeEncodeError:
                encoded = value.encode("utf-16be")
                self.write_bytes(self.marker_with_length(0x6, len(encoded) // 2) + encoded)
        else:
            raise TypeError(f"unsupported scalar {value!r}")
        if share:
            self.shared[(type(value), value)] = ref
        return ref

    def array(self, refs):
        ref = self.begin_object()
        self.write_bytes(self.marker_with_length(0xA, len(refs)))
        self.write_bytes(self._be(refs))
        return ref

    def dictionary(self, pairs):
        """pairs: list of (key, value reference); keys are shared strings."""
        key_refs = [self.scalar(key, share=True) for key, _ in pairs]
        ref = self.begin_object()
        self.write_bytes(self.marker_with_length(0xD, len(pairs)))
        self.write_bytes(self._be(key_refs) + self._be([value for _, value in pairs]))
        return ref

    @staticmethod
    def _be(refs):
        data = array.array("I", refs)
        if sys.byteorder == "little":
            data.byteswap()
        return data.tobytes()

    def finish(self, top):
        table_offset = self.position
        largest = max(self.offsets[-1], table_offset)
        offset_size = 1 if largest < 1 << 8 else 2 if largest < 1 << 16 else 4 if largest < 1 << 32 else 8
        code = {1: "B", 2: "H", 4: "L", 8: "Q"}[offset_size]
        chunk = 1 << 16
        for start in range(0, len(self.offsets), chunk):
            part = self.offsets[start:start + chunk]
            self.write_bytes(struct.pack(f">{len(part)}{code}", *part))
        self.write_bytes(struct.pack(">6xBBQQQ", offset_size, REF_SIZE, len(self.offsets), top, table_offset))


def random_bytes(rng, size):
    """Equals `bytes(rng.getrandbits(8) for _ in range(size))`, the original generator's
    recording, and leaves `rng` in the same state, at a fraction of the cost: getrandbits(8) is the
    top byte of one 32-bit Mersenne Twister word, and getrandbits(32 * size) returns `size` such
    words in order, little-endian."""
    return rng.getrandbits(32 * size).to_bytes(4 * size, "little")[3::4]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--speeches", type=int, default=1000)
    parser.add_argument("--recording-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    temporary = args.out + ".partial"
    with open(temporary, "wb", buffering=1 << 20) as out:
        writer = StreamingBinaryPlistWriter(out)
        type_refs, names = [], []
        for group, built_in in ((BUILT_IN, True), (USER_TYPES, False)):
            for name, green, yellow, red in group:
                names.append(name)
                type_refs.append(writer.dictionary([
                    ("name", writer.scalar(name, share=True)), ("green", writer.scalar(float(green), share=True)),
                    ("yellow", writer.scalar(float(yellow), share=True)), ("red", writer.scalar(float(red), share=True)),
                    ("builtIn", writer.scalar(built_in, share=True))]))
        start = datetime.datetime(2009, 6, 1, 18, 30, 0)
        speech_refs = array.array("I")
        for index in range(args.speeches):
            # The same calls in the same order as scripts/generate-speechtimer-plist.py.
            identifier = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
            title = f"{rng.choice(WORDS).title()} {index + 1}"
            speaker = rng.choice(SPEAKERS)
            type_name = names[index % len(names)]
            date = start + datetime.timedelta(minutes=37 * index)
            duration = round(rng.uniform(45.0, 600.0), 1)
            pairs = [("id", writer.scalar(identifier)), ("title", writer.scalar(title)),
                     ("speaker", writer.scalar(speaker, share=True)), ("type", writer.scalar(type_name, share=True)),
                     ("date", writer.scalar(date)), ("duration", writer.scalar(duration, share=True))]
            if index % 3 == 0:
                pairs.append(("notes", writer.scalar(f"Remember to pause after the {rng.choice(WORDS)}.", share=True)))
            if args.recording_every and index % args.recording_every == 0:
                size = 3000 + (index * 7919) % 9000
                pairs.append(("recording", writer.scalar(random_bytes(rng, size))))
            speech_refs.append(writer.dictionary(pairs))
        speeches = writer.array(speech_refs)
        types = writer.array(type_refs)
        settings = writer.dictionary([
            ("vibrate", writer.scalar(True, share=True)), ("theme", writer.scalar("classic", share=True)),
            ("lastExport", writer.scalar(datetime.datetime(2012, 3, 4, 5, 6, 7)))])
        root = writer.dictionary([("version", writer.scalar(1, share=True)), ("speechTypes", types),
                                  ("speeches", speeches), ("settings", settings)])
        writer.finish(root)
    os.replace(temporary, args.out)


if __name__ == "__main__":
    main()
