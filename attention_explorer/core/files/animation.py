"""Animated files from recorded frames: GIF, WebP and APNG with Pillow, MP4 with imageio-ffmpeg (optional).

No Qt here: a frame is RGB bytes (with the row stride its maker used), kept zlib-compressed in memory while a
recording runs (a canvas is mostly flat colour: a 960×540 frame of 1.5 MB shrinks to a few dozen kB). The file is
made in memory and read back afterwards (`check_animation`), so a writer that silently produced nothing is caught.
"""

from __future__ import annotations

import io
import os
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from attention_explorer.core.limits import ScenarioError

# The limits of a recording, the same in the window and on the command line. 50 frames a second is GIF's own
# limit: its delays are in hundredths of a second, and browsers slow any delay under 2/100 s down to 1/10 s.
MIN_SIDE = 32
MAX_WIDTH = 1920
MAX_HEIGHT = 1080
MIN_FPS = 1
MAX_FPS = 50
MIN_SECONDS = 1
MAX_SECONDS = 60

# A file's suffix chooses its format; ".png" is an animated PNG (APNG), which any PNG viewer shows as its first frame.
FORMATS = {".gif": "gif", ".webp": "webp", ".png": "apng", ".apng": "apng", ".mp4": "mp4"}
SUFFIXES = {"gif": ".gif", "webp": ".webp", "apng": ".png", "mp4": ".mp4"}


def format_of(path: str | os.PathLike[str]) -> str | None:
    """The animation format a file name asks for ("gif", "webp", "apng", "mp4"), or None."""
    return FORMATS.get(Path(path).suffix.lower())


def mp4_available() -> bool:
    """True when imageio-ffmpeg (the optional extra "video", which ships an ffmpeg binary) can be imported."""
    try:
        import imageio_ffmpeg  # noqa: F401  (only whether it is there)
    except ImportError:
        return False
    return True


def check_size(width: int, height: int) -> None:
    """Raise ScenarioError unless a recording of width × height pixels is within the limits."""
    if not (MIN_SIDE <= width <= MAX_WIDTH and MIN_SIDE <= height <= MAX_HEIGHT):
        raise ScenarioError("{0}×{1} pixels is out of range ({2}×{2} to {3}×{4})", width, height, MIN_SIDE,
                            MAX_WIDTH, MAX_HEIGHT)


class Frames:
    """The frames of one recording, each the same width × height, compressed in memory."""

    def __init__(self, width: int, height: int) -> None:
        check_size(width, height)
        self.width, self.height = width, height
        self._frames: list[tuple[bytes, int]] = []

    def __len__(self) -> int:
        return len(self._frames)

    def add(self, rgb: bytes, stride: int | None = None) -> None:
        """Keep one frame: `rgb` holds height rows of `stride` bytes (3 bytes a pixel, then any padding)."""
        stride = self.width * 3 if stride is None else stride
        if stride < self.width * 3 or len(rgb) < stride * self.height:
            raise ValueError(f"a {self.width}×{self.height} frame needs {stride * self.height} bytes")
        self._frames.append((zlib.compress(bytes(rgb[:stride * self.height]), 1), stride))

    def repeat_last(self) -> None:
        """The last frame once more (it costs no memory): a recording that fell behind its clock catches up."""
        self._frames.append(self._frames[-1])

    def pop(self) -> None:
        """Forget the last frame."""
        self._frames.pop()

    def images(self, start: int = 0) -> _Images:
        """The frames from `start` on as Pillow RGB images, each made only when reached (one at a time in memory).

        Iterable again and again: Pillow's APNG writer reads its list of frames twice.
        """
        return _Images(self, start)

    def image(self, index: int):
        """Frame `index` as a Pillow RGB image."""
        from PIL import Image

        packed, stride = self._frames[index]
        return Image.frombuffer("RGB", (self.width, self.height), zlib.decompress(packed), "raw", "RGB", stride, 1)


class _Images:
    """Frames from one on, as images: an iterable that starts over each time it is iterated."""

    def __init__(self, frames: Frames, start: int) -> None:
        self.frames, self.start = frames, start

    def __iter__(self) -> Iterator:
        return (self.frames.image(index) for index in range(self.start, len(self.frames)))


def encode(frames: Frames, fmt: str, fps: int) -> bytes:
    """The whole file in `fmt` ("gif", "webp", "apng" or "mp4"), looping for ever, `fps` frames a second."""
    if not len(frames):
        raise ScenarioError("no frame was recorded")
    if fmt == "mp4":
        return _mp4_bytes(frames, fps)
    first = frames.image(0)
    duration = round(1000 / fps)  # milliseconds; GIF keeps hundredths of a second
    options: dict = {"save_all": True, "append_images": frames.images(1), "duration": duration, "loop": 0}
    if fmt == "webp":
        options.update(lossless=True, method=0)  # lines and text stay sharp; method 0 is the fast encoder
    pillow_format = {"gif": "GIF", "webp": "WEBP", "apng": "PNG"}[fmt]
    buffer = io.BytesIO()
    first.save(buffer, pillow_format, **options)
    return buffer.getvalue()


def _mp4_bytes(frames: Frames, fps: int) -> bytes:
    """H.264 in MP4 through imageio-ffmpeg's own ffmpeg (odd sides lose their last row or column: yuv420p)."""
    import imageio_ffmpeg

    width, height = frames.width - frames.width % 2, frames.height - frames.height % 2
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "recording.mp4")
        writer = imageio_ffmpeg.write_frames(path, (width, height), fps=fps, codec="libx264", pix_fmt_out="yuv420p",
                                             macro_block_size=2, quality=8, ffmpeg_log_level="error")
        writer.send(None)  # starts ffmpeg
        try:
            for image in frames.images():
                writer.send(image.crop((0, 0, width, height)).tobytes())
        finally:
            writer.close()
        return Path(path).read_bytes()


def check_animation(path: str | os.PathLike[str], fmt: str, width: int, height: int, frames: int) -> int:
    """Read a written animation back; its frame count (Pillow merges a frame equal to the one before it, so at most
    `frames`). Raises ScenarioError when the file is not an animation of that size."""
    if fmt == "mp4":
        with open(path, "rb") as handle:
            head = handle.read(12)
        if head[4:8] != b"ftyp":
            raise ScenarioError("the written file is not an MP4 video")
        return frames
    from PIL import Image

    try:
        with Image.open(path) as image:
            size, count = image.size, getattr(image, "n_frames", 1)
    except (OSError, ValueError) as error:
        raise ScenarioError("the written file cannot be read back: {0}", str(error)) from None
    if size != (width, height) or not 1 <= count <= frames:
        raise ScenarioError("the written file holds {0} frames of {1}×{2}, not {3} of {4}×{5}", count, size[0],
                            size[1], frames, width, height)
    return count
